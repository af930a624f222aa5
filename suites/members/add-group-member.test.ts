// POST /groups/:id/members
import { expectEqual, expectError, expectOk, expectTrue, expectValidationError } from '../harness/core/checks.js';
import type { Client } from '../harness/core/client.js';
import { endpoint } from '../harness/run/conformance.js';
import {
  dateInDays,
  expectInheritedLevelError,
  expectNotMember,
  expectParamError,
  expectWriteRefused,
  LEVEL,
  memberIds,
  membersPath,
  readMember,
  useMembersWorld,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'add');


const world = useMembersWorld('add-group-member', async (t) => ({ group: await t.roleGroup() }));

suite.test(
  {
    case: 'by-user-id',
    title: 'an owner adds a user by id with a level and an expiry; the member is returned (201) and listed',
    clauses: ['members.add.single', 'members.add.expires-at', 'members.entity.shape', 'members.entity.created-by'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group, t } = world();
    const user = await t.user();
    const expiry = dateInDays(30);
    const res = await as('owner').post(membersPath(group), { body: { user_id: user.id, access_level: LEVEL.DEVELOPER, expires_at: expiry } });
    expectOk(res, 201, 'member');
    const body = res.body as MemberBody;
    expectEqual([body.id, body.username, body.access_level, body.expires_at], [user.id, user.username, LEVEL.DEVELOPER, expiry], 'id, username, access_level and expires_at of the new member', res);
    expectEqual(body.created_by?.id, run.actors.owner.id, 'created_by to be the owner who added the member', res);
    const back = await readMember(as('developer'), group, user.id);
    expectEqual([back.access_level, back.expires_at], [LEVEL.DEVELOPER, expiry], 'the member read back');
    expectTrue((await memberIds(as('developer'), group)).includes(user.id), 'the new member to be listed');
  },
);

suite.test(
  {
    case: 'by-username',
    title: 'a user may be named by username instead of id (form fields work as well as JSON)',
    clauses: ['members.add.by-username', 'members.add.single'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, t } = world();
    const user = await t.user();
    const res = await as('owner').post(membersPath(group), { body: { username: user.username, access_level: LEVEL.OWNER }, form: true });
    expectOk(res, 201, 'member');
    expectEqual([(res.body as MemberBody).id, (res.body as MemberBody).expires_at], [user.id, null], 'the member added by username, without expiry', res);
    expectEqual((await readMember(as('owner'), group, user.id)).access_level, LEVEL.OWNER, 'the new Owner read back');
  },
);

suite.test(
  {
    case: 'several',
    title: 'several users, comma-separated by id or by username, are added in one request: 201 {"status":"success"}',
    clauses: ['members.add.several'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, t } = world();
    const [a, b, c, d] = [await t.user(), await t.user(), await t.user(), await t.user()];
    const byId = await as('owner').post(membersPath(group), { body: { user_id: `${a.id},${b.id}`, access_level: LEVEL.REPORTER } });
    expectOk(byId, 201, 'member-add-result');
    expectEqual(byId.body, { status: 'success' }, 'the status of the request', byId);
    const byName = await as('owner').post(membersPath(group), { body: { username: `${c.username},${d.username}`, access_level: LEVEL.MAINTAINER } });
    expectOk(byName, 201, 'member-add-result');
    expectEqual((byName.body as { status: string }).status, 'success', 'the status of the request by usernames', byName);
    for (const [user, level] of [[a, LEVEL.REPORTER], [b, LEVEL.REPORTER], [c, LEVEL.MAINTAINER], [d, LEVEL.MAINTAINER]] as const) {
      expectEqual((await readMember(as('owner'), group, user.id)).access_level, level, `the level of ${user.username}`);
    }
  },
);

suite.test(
  {
    case: 'several-errors',
    title: 'adding several users with an invalid level still answers 201, with status "error" and one "<username>: <reason>" per user joined as a sentence; nobody is added',
    clauses: ['members.add.several-errors'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, t } = world();
    const reason = 'Access level is not included in the list';
    // Rails' to_sentence: "x and y" for two, "x, y, and z" for three; the order of the users is not asserted.
    const sentence = { 2: /^(.+) and (.+)$/, 3: /^(.+), (.+), and (.+)$/ };
    for (const count of [2, 3] as const) {
      const users = [];
      for (let i = 0; i < count; i++) users.push(await t.user());
      const res = await as('owner').post(membersPath(group), { body: { user_id: users.map((u) => u.id).join(','), access_level: 42 } });
      expectOk(res, 201, 'member-add-result');
      const body = res.body as { status: string; message?: string };
      expectEqual(body.status, 'error', 'the status of the request', res);
      const parts = sentence[count].exec(String(body.message))?.slice(1) ?? [];
      expectEqual(parts.sort(), users.map((u) => `${u.username}: ${reason}`).sort(), `the message: "<username>: ${reason}" for each of ${count} users, as a sentence`, res);
      for (const user of users) await expectNotMember(as('owner'), group, user.id);
    }
  },
);

suite.test(
  {
    case: 'params',
    title: 'access_level is required, and exactly one of user_id and username: 400 in the parameter-error shape',
    clauses: ['members.add.params', 'members.errors.shape'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, t } = world();
    const user = await t.user();
    const owner = as('owner');
    expectParamError(await owner.post(membersPath(group), { body: { user_id: user.id } }), 'access_level');
    expectParamError(await owner.post(membersPath(group), { body: { access_level: LEVEL.GUEST } }), 'user_id');
    expectParamError(await owner.post(membersPath(group), { body: { user_id: user.id, username: user.username, access_level: LEVEL.GUEST } }), 'username');
    expectParamError(await owner.post(membersPath(group), { body: { user_id: user.id, access_level: 'high' } }), 'access_level');
    expectParamError(await owner.post(membersPath(group), { body: { user_id: user.id, access_level: LEVEL.GUEST, expires_at: 'soon' } }), 'expires_at');
    await expectNotMember(owner, group, user.id);
  },
);

suite.test(
  {
    case: 'invalid-level-and-expiry',
    title: 'an access_level that is no level, or an expiry in the past, is refused with a 400 validation error',
    clauses: ['members.add.invalid-level', 'members.add.expires-at'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, t } = world();
    const user = await t.user();
    for (const level of [42, 99]) expectValidationError(await as('owner').post(membersPath(group), { body: { user_id: user.id, access_level: level } }), 'access_level');
    expectValidationError(await as('owner').post(membersPath(group), { body: { user_id: user.id, access_level: LEVEL.GUEST, expires_at: dateInDays(-2) } }), 'expires_at');
    await expectNotMember(as('owner'), group, user.id);
  },
);

suite.test(
  {
    case: 'unknown-user',
    title: 'an unknown user id or username gives 404 "404 User Not Found"',
    clauses: ['members.add.unknown-user'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group } = world();
    expectError(await as('owner').post(membersPath(group), { body: { user_id: 2147483000, access_level: LEVEL.GUEST } }), 404, { message: '404 User Not Found' });
    expectError(await as('owner').post(membersPath(group), { body: { username: `${run.prefix}-nobody`, access_level: LEVEL.GUEST } }), 404, { message: '404 User Not Found' });
  },
);

suite.test(
  {
    case: 'conflict',
    title: 'adding a direct member again gives 409 "Member already exists", even to a caller who may not add members',
    clauses: ['members.add.conflict'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group } = world();
    const again = { body: { user_id: run.actors.developer.id, access_level: LEVEL.MAINTAINER } };
    expectError(await as('owner').post(membersPath(group), again), 409, { message: 'Member already exists' });
    expectError(await as('developer').post(membersPath(group), again), 409, { message: 'Member already exists' });
    expectEqual((await readMember(as('owner'), group, run.actors.developer.id)).access_level, LEVEL.DEVELOPER, 'the member\'s level, unchanged');
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'only owners add group members: Maintainers, Developers, Reporters and Guests get 403, an outsider 404, nobody 401; the owner\'s add reads back',
    clauses: ['members.manage.role', 'members.auth.anonymous'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, t } = world();
    const user = await t.user();
    const add = (client: Client) => client.post(membersPath(group), { body: { user_id: user.id, access_level: LEVEL.GUEST } });
    await expectWriteRefused(as, group, add);
    await expectNotMember(as('owner'), group, user.id);
    expectOk(await add(as('owner')), 201, 'member');
    expectEqual((await readMember(as('owner'), group, user.id)).access_level, LEVEL.GUEST, 'the member the owner added, read back');
  },
);

suite.test(
  {
    case: 'read-api-token',
    title: 'an owner\'s read_api token cannot add members (403)',
    clauses: ['members.auth.read-api-scope'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, t } = world();
    const user = await t.user();
    expectError(await as('owner', 'read_api').post(membersPath(group), { body: { user_id: user.id, access_level: LEVEL.GUEST } }), 403, { error: 'insufficient_scope' });
    await expectNotMember(as('owner'), group, user.id);
  },
);

suite.test(
  {
    case: 'by-path',
    title: 'the group may be named by its full path',
    clauses: ['members.id.path-or-number', 'members.add.single'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, t } = world();
    const user = await t.user();
    expectOk(await as('owner').post(membersPath({ kind: 'group', id: group.fullPath }), { body: { user_id: user.id, access_level: LEVEL.REPORTER } }), 201, 'member');
    expectEqual((await readMember(as('owner'), group, user.id)).access_level, LEVEL.REPORTER, 'the member added through the group\'s path');
  },
);

suite.test(
  {
    case: 'several-unknown',
    title: 'several users where some are unknown: 201 with the service status; the known user is added; only unknown users add nobody',
    clauses: ['members.add.several'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group, t } = world();
    const known = await t.user();
    // GitLab resolves the ids with User.id_in, which drops unknown ids (as invitations do, gitlab-facts §8);
    // whether the service then reports "success" or "error" is not confirmed: both are accepted.
    const mixed = await as('owner').post(membersPath(group), { body: { user_id: `${known.id},2147483000`, access_level: LEVEL.REPORTER } });
    expectOk(mixed, 201, 'member-add-result');
    const mixedStatus = (mixed.body as { status?: unknown }).status;
    expectTrue(mixedStatus === 'success' || mixedStatus === 'error', 'the status of the request to be "success" or "error"', String(mixedStatus), mixed);
    // The creators add each resolved user on its own, whatever happens to the others.
    expectEqual((await readMember(as('owner'), group, known.id)).access_level, LEVEL.REPORTER, 'the known user\'s level');

    const before = await memberIds(as('owner'), group);
    const unknownOnly = await as('owner').post(membersPath(group), { body: { user_id: '2147483001,2147483002', access_level: LEVEL.REPORTER } });
    expectOk(unknownOnly, 201, 'member-add-result');
    const status = (unknownOnly.body as { status?: unknown }).status;
    expectTrue(status === 'success' || status === 'error', 'the status of the request to be "success" or "error"', String(status), unknownOnly);
    const byName = await as('owner').post(membersPath(group), { body: { username: `${run.prefix}-nobody-a,${run.prefix}-nobody-b`, access_level: LEVEL.REPORTER } });
    expectOk(byName, 201, 'member-add-result');
    const byNameStatus = (byName.body as { status?: unknown }).status;
    expectTrue(byNameStatus === 'success' || byNameStatus === 'error', 'the status of the request by usernames to be "success" or "error"', String(byNameStatus), byName);
    expectEqual(await memberIds(as('owner'), group), before, 'the members after requests naming only unknown users (unchanged)');
  },
);

suite.test(
  {
    case: 'member-role-id-type',
    title: 'a non-integer member_role_id is refused with 400 naming it; nobody is added',
    clauses: ['members.add.member-role-id', 'members.errors.shape'],
    requires: { capabilities: ['ultimate'], minVersion: '16.6' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, t } = world();
    const user = await t.user();
    expectParamError(await as('owner').post(membersPath(group), { body: { user_id: user.id, access_level: LEVEL.GUEST, member_role_id: 'custom' } }), 'member_role_id');
    await expectNotMember(as('owner'), group, user.id);
  },
);

suite.test(
  {
    case: 'several-with-existing',
    title: 'several users where one is already a member: 201; on success the existing membership takes the new level (it is not duplicated), on error it is unchanged',
    clauses: ['members.add.several'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, t } = world();
    const [existing, fresh] = [await t.user(), await t.user()];
    await t.add(group, existing, LEVEL.REPORTER);
    // GitLab's member creators find the existing membership and assign the new attributes to it; an
    // "already a member" error for that user would be plausible too, so both outcomes are accepted.
    const res = await as('owner').post(membersPath(group), { body: { user_id: `${existing.id},${fresh.id}`, access_level: LEVEL.DEVELOPER } });
    expectOk(res, 201, 'member-add-result');
    const status = (res.body as { status?: unknown }).status;
    expectTrue(status === 'success' || status === 'error', 'the status of the request to be "success" or "error"', String(status), res);
    const listed = (await memberIds(as('owner'), group)).filter((id) => id === existing.id);
    expectEqual(listed.length, 1, 'the existing member listed once');
    expectEqual(
      (await readMember(as('owner'), group, existing.id)).access_level,
      status === 'success' ? LEVEL.DEVELOPER : LEVEL.REPORTER,
      'the existing member\'s level (the new one on success, the old one on error)',
    );
    // The new user is added either way: the creators handle each user on its own.
    expectEqual((await readMember(as('owner'), group, fresh.id)).access_level, LEVEL.DEVELOPER, 'the new member\'s level');
  },
);

suite.test(
  {
    case: 'inherited-level',
    title: 'adding a user to a subgroup below the level they hold in the parent group is refused with 400 naming that membership; nobody is added',
    clauses: ['members.add.inherited-level'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { t } = world();
    const top = await t.group();
    const sub = await t.group({ parent: top });
    const user = await t.user();
    await t.add(top, user, LEVEL.DEVELOPER);
    expectInheritedLevelError(await as('admin').post(membersPath(sub), { body: { user_id: user.id, access_level: LEVEL.REPORTER } }), 'Developer', top.name);
    await expectNotMember(as('admin'), sub, user.id);
    expectOk(await as('admin').post(membersPath(sub), { body: { user_id: user.id, access_level: LEVEL.DEVELOPER } }), 201, 'member');
  },
);
