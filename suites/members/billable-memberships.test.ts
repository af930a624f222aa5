// GET /groups/:id/billable_members/:user_id/memberships
import { expectEqual, expectError, expectStatus, expectTrue } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import type { GroupInfo, ProjectInfo } from '../harness/run/world.js';
import {
  billableMembershipsPath,
  checkPagination,
  dateInDays,
  expectAnonymous401,
  expectBadRequest,
  expectParamError,
  LEVEL,
  listAll,
  membersPath,
  useMembersWorld,
  type Membership,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'billable-memberships');

const expiry = dateInDays(60);

const world = useMembersWorld('get-billable-member-memberships', async (t) => {
  const root = await t.roleGroup();
  const sub = await t.group({ parent: root });
  const project = await t.project({ group: sub });
  const outside = await t.group();
  // u: Developer of the root group (with an expiry), Maintainer of the subgroup and of the project, and a member elsewhere.
  const u = await t.user();
  const added = await t.world.admin.post(membersPath(root), { body: { user_id: u.id, access_level: LEVEL.DEVELOPER, expires_at: expiry } });
  expectStatus(added, 201, 'adding a member with an expiry (setup)');
  await t.add(sub, u, LEVEL.MAINTAINER);
  await t.add(project, u, LEVEL.MAINTAINER);
  await t.add(outside, u, LEVEL.OWNER);
  const stranger = await t.user();
  return { root, sub, project, u, stranger };
});

/** The full name GitLab gives a source the suite made (names equal paths): path parts joined by " / ". */
const fullName = (source: GroupInfo | ProjectInfo) => source.fullPath.split('/').join(' / ');

suite.test(
  {
    case: 'direct-in-hierarchy',
    title: 'the user\'s direct memberships in the group, its subgroup and project, with source, expiry and role; none outside',
    clauses: ['members.billable-memberships.direct'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { root, sub, project, u } = world();
    const items = await listAll<Membership>(as('owner'), billableMembershipsPath(root, u.id), 'membership');
    const bySource = new Map(items.map((m) => [`${m.source_members_url.includes('/-/project_members') ? 'project' : 'group'}:${m.source_id}`, m]));
    expectEqual([...bySource.keys()].sort(), [`group:${root.id}`, `group:${sub.id}`, `project:${project.id}`].sort(), 'the memberships, by source');
    const expected: [GroupInfo | ProjectInfo, number, string, string | null][] = [
      [root, LEVEL.DEVELOPER, 'Developer', expiry],
      [sub, LEVEL.MAINTAINER, 'Maintainer', null],
      [project, LEVEL.MAINTAINER, 'Maintainer', null],
    ];
    for (const [source, level, role, expires] of expected) {
      const m = bySource.get(`${source.kind}:${source.id}`)!;
      expectEqual(m.source_full_name, fullName(source), `source_full_name of the ${source.kind} membership`);
      expectEqual([m.access_level.integer_value, m.access_level.string_value, m.expires_at], [level, role, expires], `access_level and expires_at of the ${source.kind} membership`);
      const page = source.kind === 'group' ? `/groups/${source.fullPath}/-/group_members` : `/${source.fullPath}/-/project_members`;
      expectTrue(m.source_members_url.endsWith(page), `source_members_url of the ${source.kind} membership to end in ${page}`, `got ${m.source_members_url}`);
    }
  },
);

suite.test(
  {
    case: 'pagination',
    title: 'page and per_page page through the memberships with GitLab\'s headers',
    clauses: ['members.pagination'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { root, u } = world();
    const ids = (await listAll<Membership>(as('owner'), billableMembershipsPath(root, u.id), 'membership')).map((m) => m.id);
    await checkPagination(as('owner'), billableMembershipsPath(root, u.id), 'membership', ids);
  },
);

suite.test(
  {
    case: 'user-errors',
    title: 'an unknown user gives 404 "404 Not found"; a user who is not billable in the group 404 "404 User Not Found"; a bad id 400',
    clauses: ['members.billable-memberships.user'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { root, stranger } = world();
    expectError(await as('owner').get(billableMembershipsPath(root, 2147483000)), 404, { message: '404 Not found' });
    expectError(await as('owner').get(billableMembershipsPath(root, stranger.id)), 404, { message: '404 User Not Found' });
    expectParamError(await as('owner').get(billableMembershipsPath(root, 'u')), 'user_id');
  },
);

suite.test(
  {
    case: 'subgroup-and-roles',
    title: 'a subgroup gives 400; Maintainers, Developers and Guests get 400, an outsider 404, nobody 401',
    clauses: ['members.ee.top-level-only', 'members.ee.admin-only', 'members.auth.anonymous'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { root, sub, u } = world();
    expectBadRequest(await as('owner').get(billableMembershipsPath(sub, u.id)));
    for (const role of ['maintainer', 'developer', 'guest'] as const) expectBadRequest(await as(role).get(billableMembershipsPath(root, u.id)));
    expectError(await as('outsider').get(billableMembershipsPath(root, u.id)), 404, { message: '404 Group Not Found' });
    expectAnonymous401(await as('anonymous').get(billableMembershipsPath(root, u.id)));
  },
);
