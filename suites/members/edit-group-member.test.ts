// PUT /groups/:id/members/:user_id
import { expectEqual, expectError, expectOk, expectValidationError } from '../harness/core/checks.js';
import type { Client } from '../harness/core/client.js';
import { endpoint } from '../harness/run/conformance.js';
import {
  dateInDays,
  expectForbidden,
  expectInheritedLevelError,
  expectParamError,
  expectWriteRefused,
  LEVEL,
  memberPath,
  readMember,
  useMembersWorld,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'edit');


const world = useMembersWorld('edit-group-member', async (t) => ({ group: await t.roleGroup() }));

/** A new member of the group at `level`, for one test. */
async function newMember(level: number = LEVEL.DEVELOPER) {
  const { group, t } = world();
  const user = await t.user();
  await t.add(group, user, level);
  return user;
}

suite.test(
  {
    case: 'level-and-expiry',
    title: 'an owner changes a member\'s level and expiry; the member is returned (200) with the new values and reads back so',
    clauses: ['members.edit.level', 'members.entity.shape'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group } = world();
    const user = await newMember();
    const expiry = dateInDays(9);
    const res = await as('owner').put(memberPath(group, user.id), { body: { access_level: LEVEL.MAINTAINER, expires_at: expiry } });
    expectOk(res, 200, 'member');
    const body = res.body as MemberBody;
    expectEqual([body.id, body.access_level, body.expires_at], [user.id, LEVEL.MAINTAINER, expiry], 'id, access_level and expires_at returned', res);
    const back = await readMember(as('guest'), group, user.id);
    expectEqual([back.access_level, back.expires_at], [LEVEL.MAINTAINER, expiry], 'the member read back');
    // Lowering works as well as raising.
    expectOk(await as('owner').put(memberPath(group, user.id), { body: { access_level: LEVEL.GUEST } }), 200, 'member');
    expectEqual((await readMember(as('owner'), group, user.id)).access_level, LEVEL.GUEST, 'the lowered level read back');
  },
);

suite.test(
  {
    case: 'not-a-member',
    title: 'editing a user who is not a direct member gives 404 "404 Not found", also to a caller who may not edit',
    clauses: ['members.edit.not-member'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group } = world();
    for (const role of ['owner', 'developer'] as const) {
      expectError(await as(role).put(memberPath(group, run.actors.outsider.id), { body: { access_level: LEVEL.GUEST } }), 404, { message: '404 Not found' });
    }
  },
);

suite.test(
  {
    case: 'params',
    title: 'access_level is required; an invalid level is refused with a validation error; the member is unchanged',
    clauses: ['members.edit.params', 'members.errors.shape'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group } = world();
    const user = await newMember(LEVEL.REPORTER);
    expectParamError(await as('owner').put(memberPath(group, user.id), { body: { expires_at: dateInDays(5) } }), 'access_level');
    expectValidationError(await as('owner').put(memberPath(group, user.id), { body: { access_level: 33 } }), 'access_level');
    const back = await readMember(as('owner'), group, user.id);
    expectEqual([back.access_level, back.expires_at], [LEVEL.REPORTER, null], 'the member, unchanged');
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'only owners edit group members: Maintainers, Developers, Reporters and Guests get 403, an outsider 404, nobody 401; the owner\'s edit reads back',
    clauses: ['members.manage.role', 'members.auth.anonymous'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group } = world();
    const user = await newMember(LEVEL.REPORTER);
    const edit = (client: Client) => client.put(memberPath(group, user.id), { body: { access_level: LEVEL.DEVELOPER } });
    await expectWriteRefused(as, group, edit);
    expectEqual((await readMember(as('owner'), group, user.id)).access_level, LEVEL.REPORTER, 'the level after the refused edits');
    expectOk(await edit(as('owner')), 200, 'member');
    expectEqual((await readMember(as('owner'), group, user.id)).access_level, LEVEL.DEVELOPER, 'the level after the owner\'s edit');
  },
);

suite.test(
  {
    case: 'read-api-token',
    title: 'an owner\'s read_api token cannot edit members (403)',
    clauses: ['members.auth.read-api-scope'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group } = world();
    const user = await newMember(LEVEL.REPORTER);
    expectError(await as('owner', 'read_api').put(memberPath(group, user.id), { body: { access_level: LEVEL.DEVELOPER } }), 403, { error: 'insufficient_scope' });
    expectEqual((await readMember(as('owner'), group, user.id)).access_level, LEVEL.REPORTER, 'the level, unchanged');
  },
);

suite.test(
  {
    case: 'member-role-id-type',
    title: 'a non-integer member_role_id is refused with 400 naming it; the member is unchanged',
    clauses: ['members.edit.member-role-id', 'members.errors.shape'],
    requires: { capabilities: ['ultimate'], minVersion: '16.6' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group } = world();
    const user = await newMember(LEVEL.REPORTER);
    expectParamError(await as('owner').put(memberPath(group, user.id), { body: { access_level: LEVEL.DEVELOPER, member_role_id: 'custom' } }), 'member_role_id');
    const back = await readMember(as('owner'), group, user.id);
    expectEqual([back.access_level, back.expires_at], [LEVEL.REPORTER, null], 'the member, unchanged');
  },
);

suite.test(
  {
    case: 'inherited-level',
    title: 'lowering a subgroup member below the level they hold in the parent group is refused with 400 naming that membership; the level stays',
    clauses: ['members.edit.inherited-level'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { t } = world();
    const top = await t.group();
    const sub = await t.group({ parent: top });
    const user = await t.user();
    await t.add(top, user, LEVEL.DEVELOPER);
    await t.add(sub, user, LEVEL.MAINTAINER);
    expectInheritedLevelError(await as('admin').put(memberPath(sub, user.id), { body: { access_level: LEVEL.REPORTER } }), 'Developer', top.name);
    expectEqual((await readMember(as('admin'), sub, user.id)).access_level, LEVEL.MAINTAINER, 'the level after the refused edit');
  },
);

suite.test(
  {
    case: 'last-owner',
    title: 'the last owner of a group may not be edited, not even by an administrator: 403, and the member stays an Owner',
    clauses: ['members.edit.last-owner'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { t } = world();
    // A group whose only owner is the administrator who made it.
    const alone = await t.group();
    expectForbidden(await as('admin').put(memberPath(alone, run.adminId), { body: { access_level: LEVEL.MAINTAINER } }));
    expectForbidden(await as('admin').put(memberPath(alone, run.adminId), { body: { access_level: LEVEL.OWNER, expires_at: dateInDays(30) } }));
    const back = await readMember(as('admin'), alone, run.adminId);
    expectEqual([back.access_level, back.expires_at], [LEVEL.OWNER, null], 'the last owner after the refused edits');
  },
);
