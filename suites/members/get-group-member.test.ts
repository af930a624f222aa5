// GET /groups/:id/members/:user_id
import { fixture } from '../../fixtures/manifest.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import {
  dateInDays,
  exclusively,
  expectNotMember,
  expectParamError,
  expectReadMatrix,
  LEVEL,
  memberPath,
  membersPath,
  readMember,
  useMembersWorld,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'get');

const expiry = dateInDays(12);

const world = useMembersWorld('get-group-member', async (t) => {
  const group = await t.roleGroup();
  const sub = await t.group({ parent: group });
  const a = await t.user();
  const added = await t.world.admin.post(membersPath(group), { body: { user_id: a.id, access_level: LEVEL.REPORTER, expires_at: expiry } });
  expectStatus(added, 201, 'adding a member with an expiry (setup)');
  return { group, sub, a };
});

suite.test(
  {
    case: 'direct',
    title: 'a direct member reads back with its level, expiry and creator',
    clauses: ['members.get.direct', 'members.entity.shape', 'members.entity.created-by'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group, a } = world();
    const member = await readMember(as('guest'), group, a.id);
    expectEqual([member.id, member.username, member.name], [a.id, a.username, a.name], 'id, username and name of the member');
    expectEqual([member.access_level, member.expires_at], [LEVEL.REPORTER, expiry], 'access_level and expires_at');
    expectEqual(member.created_by?.id, run.adminId, 'created_by to be the administrator who added the member');
    expectEqual(member.email, undefined, 'no email for a Guest viewer');
  },
);

suite.test(
  {
    case: 'inherited-is-not-direct',
    title: 'a member of the parent group is not a direct member of the subgroup: 404 "404 Not found"',
    clauses: ['members.get.direct'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { sub } = world();
    await expectNotMember(as('owner'), sub, run.actors.developer.id);
    expectOk(await as('owner').get(memberPath(sub, run.adminId)), 200, 'member');
  },
);

suite.test(
  {
    case: 'unknown-and-invalid',
    title: 'an unknown user gives 404 "404 Not found"; a user_id that is not a number gives 400',
    clauses: ['members.get.direct', 'members.get.user-id-integer', 'members.errors.shape'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group } = world();
    await expectNotMember(as('owner'), group, 2147483000);
    await expectNotMember(as('owner'), group, run.actors.outsider.id);
    expectParamError(await as('owner').get(memberPath(group, 'someone')), 'user_id');
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'every member of a private group may read a member; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, a } = world();
    await expectReadMatrix(as, memberPath(group, a.id), '404 Group Not Found', 'member', false);
  },
);

suite.test(
  {
    case: 'by-path',
    title: 'the group may be named by its URL-encoded full path',
    clauses: ['members.id.path-or-number'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { sub } = world();
    const member = await readMember(as('owner'), { kind: 'group', id: sub.fullPath }, run.adminId);
    expectEqual(member.access_level, LEVEL.OWNER, 'the creator of the subgroup, its owner');
    expectError(await as('owner').get(memberPath({ kind: 'group', id: `${sub.fullPath}-nowhere` }, run.adminId)), 404, { message: '404 Group Not Found' });
  },
);

suite.test(
  {
    case: 'admin-sees-email',
    title: 'an administrator sees the member\'s email',
    clauses: ['members.entity.email-admin'],
    requires: { capabilities: ['premium'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, a } = world();
    expectEqual((await readMember(as('admin'), group, a.id)).email, a.email, 'the email of the member');
  },
);

suite.test(
  {
    case: 'saml-identity',
    title: 'owners (and administrators) of a group with SSO see the member\'s SAML identity; a Developer does not',
    clauses: ['members.entity.saml-identity'],
    requires: { capabilities: ['saml'], fixtures: ['saml'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, withToken, run }) => {
    const fx = fixture(run.fixtures, 'saml')!;
    const samlGroup = { kind: 'group' as const, id: fx.group_id };
    for (const [client, who] of [[withToken(fx.ownerToken, 'SAML group owner'), 'the owner'], [as('admin'), 'an administrator']] as const) {
      const identity = (await readMember(client, samlGroup, fx.user_id)).group_saml_identity;
      expectTrue(
        typeof identity === 'object' && identity !== null && identity.extern_uid !== '' && typeof identity.provider === 'string' && Number.isInteger(identity.saml_provider_id),
        `${who} to see group_saml_identity {extern_uid, provider, saml_provider_id}`,
        `got ${JSON.stringify(identity)}`,
      );
    }
    const { t } = world();
    const viewer = await t.user();
    await exclusively(run, 'saml', async () => {
      await t.add(samlGroup, viewer, LEVEL.DEVELOPER);
      try {
        const seen: MemberBody = await readMember(withToken(viewer.tokens.api, 'a Developer of the SAML group'), samlGroup, fx.user_id);
        expectEqual(seen.group_saml_identity, undefined, 'no group_saml_identity for a viewer who is not an owner');
      } finally {
        await t.remove(samlGroup, viewer);
      }
    });
  },
);
