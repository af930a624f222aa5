// GET /projects/:id/members
import { expectEqual, expectError, expectOk, expectStatus, expectTrue } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import { ROLES } from '../harness/core/vocabulary.js';
import {
  checkPagination,
  dateInDays,
  expectAnonymous401,
  expectReadMatrix,
  findIn,
  idsOf,
  LEVEL,
  listAll,
  membersPath,
  sorted,
  useMembersWorld,
  withoutAdmin,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'list');

const expiry = dateInDays(25);

const world = useMembersWorld('get-project-members', async (t) => {
  const group = await t.group();
  const inherited = await t.user();
  await t.add(group, inherited, LEVEL.DEVELOPER);
  const project = await t.roleProject({ group });
  const [a, b, c] = [await t.user(), await t.user(), await t.user()];
  const added = await t.world.admin.post(membersPath(project), { body: { user_id: a.id, access_level: LEVEL.MAINTAINER, expires_at: expiry } });
  expectStatus(added, 201, 'adding a member with an expiry (setup)');
  await t.add(project, b, LEVEL.GUEST);
  await t.add(project, c, LEVEL.REPORTER);
  const invited = await t.group();
  const viaInvite = await t.user();
  await t.add(invited, viaInvite, LEVEL.DEVELOPER);
  await t.world.shareProject(project, invited, LEVEL.DEVELOPER);
  const publicProject = await t.roleProject({ group: await t.group({ visibility: 'public' }), visibility: 'public' });
  // A project in the administrator's own namespace: no group above it.
  const personal = await t.roleProject();
  const direct = [...ROLES.map((r) => t.run.actors[r].id), a.id, b.id, c.id];
  return { project, publicProject, personal, a, b, c, inherited, viaInvite, direct };
});

suite.test(
  {
    case: 'direct-only',
    title: 'the list holds exactly the direct members of the project: not group members, not members of a group it is shared with',
    clauses: ['members.list.direct-only', 'members.entity.shape'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { project, inherited, viaInvite, direct } = world();
    const ids = idsOf(await listAll(as('maintainer'), membersPath(project), 'member'));
    // GitLab may or may not make the creator (here the administrator) a direct member of a group's project.
    expectEqual(withoutAdmin(run, ids), sorted(direct), 'the direct members of the project');
    expectTrue(!ids.includes(inherited.id) && !ids.includes(viaInvite.id), 'neither the group member nor the invited group\'s member to be listed', `ids: ${ids.join(', ')}`);
  },
);

suite.test(
  {
    case: 'member-fields',
    title: 'each member shows its level, its expiry and who added it',
    clauses: ['members.entity.shape', 'members.entity.created-by'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { project, a, b } = world();
    const items = await listAll(as('developer'), membersPath(project), 'member');
    const rowA = findIn(items, a.id, 'member a');
    expectEqual([rowA.access_level, rowA.expires_at, rowA.created_by?.id], [LEVEL.MAINTAINER, expiry, run.adminId], 'access_level, expires_at and created_by of a');
    expectEqual([findIn(items, b.id, 'member b').access_level, findIn(items, b.id, 'member b').expires_at], [LEVEL.GUEST, null], 'access_level and expires_at of b');
  },
);

suite.test(
  {
    case: 'no-email',
    title: 'an owner who is not an administrator sees no email of the project\'s members',
    clauses: ['members.entity.email-hidden'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const items = await listAll(as('owner'), membersPath(world().project), 'member');
    expectEqual(items.filter((m) => m.email !== undefined).map((m) => m.username), [], 'no member to carry an email');
  },
);

suite.test(
  {
    case: 'filters',
    title: 'query, user_ids and skip_users narrow the list',
    clauses: ['members.list.query', 'members.list.user-ids'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, a, b, c } = world();
    const byQuery = await as('guest').get(membersPath(project), { query: { query: b.username } });
    expectOk(byQuery, 200, 'member', { list: true });
    expectEqual(idsOf(byQuery.body as MemberBody[]), [b.id], 'the member found by username', byQuery);
    const byIds = await as('guest').get(membersPath(project), { query: { user_ids: `${a.id},${c.id}` } });
    expectOk(byIds, 200, 'member', { list: true });
    expectEqual(idsOf(byIds.body as MemberBody[]), sorted([a.id, c.id]), 'the members named by user_ids', byIds);
  },
);

suite.test(
  {
    case: 'skip-users',
    title: 'skip_users leaves out the members with these user ids',
    clauses: ['members.list.skip-users'],
    requires: { capabilities: ['premium'] },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { project, a, direct } = world();
    const res = await as('owner').get(membersPath(project), { query: { skip_users: String(a.id), per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    expectEqual(withoutAdmin(run, idsOf(res.body as MemberBody[])), sorted(direct.filter((id) => id !== a.id)), 'every direct member but a', res);
  },
);

suite.test(
  {
    case: 'pagination',
    title: 'page and per_page page through the members with GitLab\'s headers',
    clauses: ['members.pagination'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project } = world();
    const ids = idsOf(await listAll(as('maintainer'), membersPath(project), 'member'));
    await checkPagination(as('maintainer'), membersPath(project), 'member', ids);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'every member of a private project may list its members; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    await expectReadMatrix(as, membersPath(world().project), '404 Project Not Found', 'member', true);
  },
);

suite.test(
  {
    case: 'public-project',
    title: 'the members of a public project are readable by any user, but not without a token',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { publicProject } = world();
    expectOk(await as('outsider').get(membersPath(publicProject)), 200, 'member', { list: true });
    expectAnonymous401(await as('anonymous').get(membersPath(publicProject)));
  },
);

suite.test(
  {
    case: 'by-path-and-unknown',
    title: 'the project may be named by its full path; an unknown project gives 404 "404 Project Not Found"',
    clauses: ['members.id.path-or-number', 'members.read.visibility', 'members.auth.read-api-scope'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { project, direct } = world();
    const res = await as('reporter', 'read_api').get(membersPath({ kind: 'project', id: project.fullPath }), { query: { per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    expectEqual(withoutAdmin(run, idsOf(res.body as MemberBody[])), sorted(direct), 'the members of the project named by path', res);
    expectError(await as('reporter').get(membersPath({ kind: 'project', id: 2147483000 })), 404, { message: '404 Project Not Found' });
  },
);

suite.test(
  {
    case: 'user-namespace',
    title: 'members of a project in a user\'s namespace are listed to a Developer, without anyone\'s email',
    clauses: ['members.list.direct-only', 'members.entity.email-hidden'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { personal } = world();
    const items = await listAll(as('developer'), membersPath(personal), 'member');
    // The administrator owns the namespace and may or may not be listed as a direct member.
    expectEqual(withoutAdmin(run, idsOf(items)), sorted(ROLES.map((r) => run.actors[r].id)), 'the direct members of the personal project');
    expectEqual(items.filter((m) => m.email !== undefined).map((m) => m.id), [], 'no email shown to a Developer');
    expectEqual(findIn(items, run.actors.guest.id, 'the guest').access_level, LEVEL.GUEST, 'the guest\'s level');
  },
);
