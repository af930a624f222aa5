// GET /projects/:id/members/:user_id
import { fixture } from '../../fixtures/manifest.js';
import { expectEqual, expectError, expectStatus } from '../harness/core/checks.js';
import { apiPath } from '../harness/core/client.js';
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
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'get');

const expiry = dateInDays(8);

const world = useMembersWorld('get-project-member', async (t) => {
  const group = await t.group();
  const inherited = await t.user();
  await t.add(group, inherited, LEVEL.MAINTAINER);
  const project = await t.roleProject({ group });
  const a = await t.user();
  const added = await t.world.admin.post(membersPath(project), { body: { user_id: a.id, access_level: LEVEL.DEVELOPER, expires_at: expiry } });
  expectStatus(added, 201, 'adding a member with an expiry (setup)');
  return { project, inherited, a };
});

suite.test(
  {
    case: 'direct',
    title: 'a direct member of the project reads back with its level, expiry and creator',
    clauses: ['members.get.direct', 'members.entity.shape', 'members.entity.created-by'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { project, a } = world();
    const member = await readMember(as('reporter'), project, a.id);
    expectEqual([member.id, member.username, member.access_level, member.expires_at], [a.id, a.username, LEVEL.DEVELOPER, expiry], 'id, username, access_level and expires_at');
    expectEqual(member.created_by?.id, run.adminId, 'created_by to be the administrator who added the member');
  },
);

suite.test(
  {
    case: 'group-member-is-not-direct',
    title: 'a member of the project\'s group is not a direct member of the project: 404',
    clauses: ['members.get.direct'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, inherited } = world();
    await expectNotMember(as('maintainer'), project, inherited.id);
  },
);

suite.test(
  {
    case: 'unknown-and-invalid',
    title: 'an unknown user gives 404 "404 Not found"; a user_id that is not a number gives 400',
    clauses: ['members.get.direct', 'members.get.user-id-integer'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project } = world();
    await expectNotMember(as('developer'), project, 2147483000);
    expectParamError(await as('developer').get(memberPath(project, '1x')), 'user_id');
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'every member of a private project may read a member; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, a } = world();
    await expectReadMatrix(as, memberPath(project, a.id), '404 Project Not Found', 'member', false);
  },
);

suite.test(
  {
    case: 'by-path',
    title: 'the project may be named by its URL-encoded full path; an unknown one gives 404 "404 Project Not Found"',
    clauses: ['members.id.path-or-number', 'members.read.visibility'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, a } = world();
    expectEqual((await readMember(as('guest'), { kind: 'project', id: project.fullPath }, a.id)).id, a.id, 'the member read through the project\'s path');
    expectError(await as('guest').get(memberPath({ kind: 'project', id: 2147483000 }, a.id)), 404, { message: '404 Project Not Found' });
  },
);

suite.test(
  {
    case: 'email',
    title: 'an administrator sees the member\'s email; the project\'s owner does not',
    clauses: ['members.entity.email-admin', 'members.entity.email-hidden'],
    requires: { capabilities: ['premium'] },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, a } = world();
    expectEqual((await readMember(as('admin'), project, a.id)).email, a.email, 'the email, for the administrator');
    expectEqual((await readMember(as('owner'), project, a.id)).email, undefined, 'no email for the project\'s owner');
  },
);

suite.test(
  {
    case: 'no-saml-identity',
    title: 'a project membership shows no group_saml_identity, even to the owner of the SSO group holding the project',
    clauses: ['members.entity.saml-identity'],
    requires: { capabilities: ['saml'], fixtures: ['saml'] },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, withToken, run }) => {
    const fx = fixture(run.fixtures, 'saml')!;
    const { t } = world();
    await exclusively(run, 'saml', async () => {
      // A temporary project in the SSO group, with the identified user as a direct member of it.
      const project = await t.world.project({ group: { kind: 'group', id: fx.group_id, name: String(fx.group_id), fullPath: String(fx.group_id) }, hint: 'saml-project' });
      try {
        await t.add(project, { id: fx.user_id }, LEVEL.MAINTAINER);
        const member = await readMember(withToken(fx.ownerToken, 'SAML group owner'), project, fx.user_id);
        expectEqual(member.group_saml_identity, undefined, 'no group_saml_identity on a project membership');
      } finally {
        expectStatus(await as('admin').delete(apiPath`/projects/${project.id}`), [202, 204], 'deleting the temporary project');
      }
    });
  },
);
