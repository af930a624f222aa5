// POST /projects/:id/members
import { expectEqual, expectError, expectOk, expectValidationError } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import {
  dateInDays,
  expectForbidden,
  expectInheritedLevelError,
  expectNotMember,
  expectParamError,
  expectWriteRefused,
  LEVEL,
  membersPath,
  readMember,
  useMembersWorld,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'add');


const world = useMembersWorld('add-project-member', async (t) => ({ project: await t.roleProject({ group: await t.group() }) }));

suite.test(
  {
    case: 'by-user-id',
    title: 'a Maintainer adds a user by id with a level and an expiry; the member is returned (201) and reads back',
    clauses: ['members.add.single', 'members.add.expires-at', 'members.entity.shape', 'members.entity.created-by'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { project, t } = world();
    const user = await t.user();
    const expiry = dateInDays(3);
    const res = await as('maintainer').post(membersPath(project), { body: { user_id: user.id, access_level: LEVEL.DEVELOPER, expires_at: expiry } });
    expectOk(res, 201, 'member');
    const body = res.body as MemberBody;
    expectEqual([body.id, body.access_level, body.expires_at, body.created_by?.id], [user.id, LEVEL.DEVELOPER, expiry, run.actors.maintainer.id], 'id, access_level, expires_at and created_by', res);
    const back = await readMember(as('guest'), project, user.id);
    expectEqual([back.access_level, back.expires_at], [LEVEL.DEVELOPER, expiry], 'the member read back');
  },
);

suite.test(
  {
    case: 'by-username',
    title: 'a user may be named by username instead of id',
    clauses: ['members.add.by-username'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, t } = world();
    const user = await t.user();
    expectOk(await as('owner').post(membersPath(project), { body: { username: user.username, access_level: LEVEL.REPORTER } }), 201, 'member');
    expectEqual((await readMember(as('owner'), project, user.id)).access_level, LEVEL.REPORTER, 'the member added by username');
  },
);

suite.test(
  {
    case: 'several',
    title: 'several users, comma-separated, are added in one request: 201 {"status":"success"}',
    clauses: ['members.add.several'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, t } = world();
    const [a, b] = [await t.user(), await t.user()];
    const res = await as('maintainer').post(membersPath(project), { body: { username: `${a.username},${b.username}`, access_level: LEVEL.DEVELOPER } });
    expectOk(res, 201, 'member-add-result');
    expectEqual(res.body, { status: 'success' }, 'the status of the request', res);
    for (const user of [a, b]) expectEqual((await readMember(as('maintainer'), project, user.id)).access_level, LEVEL.DEVELOPER, `the level of ${user.username}`);
  },
);

suite.test(
  {
    case: 'errors',
    title: 'a missing access_level, an invalid level and an unknown user are refused; nobody is added',
    clauses: ['members.add.params', 'members.add.invalid-level', 'members.add.unknown-user'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, t } = world();
    const user = await t.user();
    expectParamError(await as('maintainer').post(membersPath(project), { body: { user_id: user.id } }), 'access_level');
    expectValidationError(await as('maintainer').post(membersPath(project), { body: { user_id: user.id, access_level: 45 } }), 'access_level');
    expectError(await as('maintainer').post(membersPath(project), { body: { user_id: 2147483000, access_level: LEVEL.GUEST } }), 404, { message: '404 User Not Found' });
    await expectNotMember(as('maintainer'), project, user.id);
  },
);

suite.test(
  {
    case: 'conflict',
    title: 'adding a direct member again gives 409 "Member already exists", also to a Developer who may not add members',
    clauses: ['members.add.conflict'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { project } = world();
    const again = { body: { user_id: run.actors.guest.id, access_level: LEVEL.DEVELOPER } };
    expectError(await as('maintainer').post(membersPath(project), again), 409, { message: 'Member already exists' });
    expectError(await as('developer').post(membersPath(project), again), 409, { message: 'Member already exists' });
    expectEqual((await readMember(as('owner'), project, run.actors.guest.id)).access_level, LEVEL.GUEST, 'the Guest\'s level, unchanged');
  },
);

suite.test(
  {
    case: 'owner-role',
    title: 'a Maintainer may not add an Owner (403); an Owner may',
    clauses: ['members.add.project-owner'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, t } = world();
    const user = await t.user();
    expectForbidden(await as('maintainer').post(membersPath(project), { body: { user_id: user.id, access_level: LEVEL.OWNER } }));
    await expectNotMember(as('owner'), project, user.id);
    expectOk(await as('owner').post(membersPath(project), { body: { user_id: user.id, access_level: LEVEL.OWNER } }), 201, 'member');
    expectEqual((await readMember(as('owner'), project, user.id)).access_level, LEVEL.OWNER, 'the new Owner read back');
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'Owners and Maintainers add project members (read back); Developers, Reporters and Guests get 403, an outsider 404, nobody 401',
    clauses: ['members.manage.role', 'members.auth.anonymous'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, t } = world();
    for (const role of ['owner', 'maintainer'] as const) {
      const user = await t.user();
      expectOk(await as(role).post(membersPath(project), { body: { user_id: user.id, access_level: LEVEL.GUEST } }), 201, 'member');
      expectEqual((await readMember(as('owner'), project, user.id)).access_level, LEVEL.GUEST, `the member the ${role} added, read back`);
    }
    const user = await t.user();
    await expectWriteRefused(as, project, (client) => client.post(membersPath(project), { body: { user_id: user.id, access_level: LEVEL.GUEST } }));
    await expectNotMember(as('owner'), project, user.id);
  },
);

suite.test(
  {
    case: 'inherited-level',
    title: 'a level below the highest one the user holds in the project\'s groups is refused with 400 naming that membership; the same level is accepted',
    clauses: ['members.add.inherited-level'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { t } = world();
    const top = await t.group();
    const sub = await t.group({ parent: top });
    const project = await t.project({ group: sub });
    const user = await t.user();
    // Reporter in the nearer group, Maintainer in the farther one (added in that order: a subgroup
    // membership may not be lower than an inherited one): the highest counts, not the nearest.
    await t.add(sub, user, LEVEL.REPORTER);
    await t.add(top, user, LEVEL.MAINTAINER);
    expectInheritedLevelError(await as('admin').post(membersPath(project), { body: { user_id: user.id, access_level: LEVEL.DEVELOPER } }), 'Maintainer', top.name);
    await expectNotMember(as('admin'), project, user.id);
    const same = await as('admin').post(membersPath(project), { body: { user_id: user.id, access_level: LEVEL.MAINTAINER } });
    expectOk(same, 201, 'member');
    expectEqual((same.body as MemberBody).access_level, LEVEL.MAINTAINER, 'the level of the member added at the inherited level', same);
    // And the other way round: Maintainer in the nearer group, Reporter in the farther one.
    const other = await t.user();
    await t.add(top, other, LEVEL.REPORTER);
    await t.add(sub, other, LEVEL.MAINTAINER);
    expectInheritedLevelError(await as('admin').post(membersPath(project), { body: { user_id: other.id, access_level: LEVEL.DEVELOPER } }), 'Maintainer', sub.name);
    await expectNotMember(as('admin'), project, other.id);
  },
);
