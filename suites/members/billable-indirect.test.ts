// GET /groups/:id/billable_members/:user_id/indirect
import { expectEqual, expectError, expectStatus } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import {
  billableIndirectPath,
  checkPagination,
  expectAnonymous401,
  expectBadRequest,
  LEVEL,
  listAll,
  sorted,
  useMembersWorld,
  type Membership,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'billable-indirect');


const world = useMembersWorld('get-billable-member-indirect', async (t) => {
  const root = await t.roleGroup();
  const sub = await t.group({ parent: root });
  const project = await t.project({ group: sub });
  // u is a member of three groups invited into the hierarchy, and a direct member of its project.
  const u = await t.user();
  const invited = [await t.group(), await t.group(), await t.group()];
  for (const [i, group] of invited.entries()) await t.add(group, u, [LEVEL.DEVELOPER, LEVEL.REPORTER, LEVEL.MAINTAINER][i]);
  await t.world.shareGroup(root, invited[0], LEVEL.DEVELOPER);
  await t.world.shareGroup(sub, invited[1], LEVEL.REPORTER);
  await t.world.shareGroup(root, invited[2], LEVEL.MAINTAINER);
  await t.add(project, u, LEVEL.DEVELOPER);
  const stranger = await t.user();
  return { root, sub, invited, u, stranger };
});

suite.test(
  {
    case: 'invited-groups',
    title: 'the user\'s memberships in groups invited into the hierarchy, not the direct project membership',
    clauses: ['members.billable-indirect.list'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { root, invited, u } = world();
    const items = await listAll<Membership>(as('owner'), billableIndirectPath(root, u.id), 'membership');
    expectEqual(sorted(items.map((m) => m.source_id)), sorted(invited.map((g) => g.id)), 'the sources of the indirect memberships (the invited groups)');
    for (const [i, group] of invited.entries()) {
      const m = items.find((x) => x.source_id === group.id)!;
      expectEqual(m.access_level.integer_value, [LEVEL.DEVELOPER, LEVEL.REPORTER, LEVEL.MAINTAINER][i], `the level in invited group ${i + 1}`);
      expectEqual(m.source_full_name, group.fullPath, `the full name of invited group ${i + 1}`);
    }
  },
);

suite.test(
  {
    case: 'pagination',
    title: 'page and per_page page through the indirect memberships with GitLab\'s headers',
    clauses: ['members.pagination'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { root, u } = world();
    const ids = (await listAll<Membership>(as('owner'), billableIndirectPath(root, u.id), 'membership')).map((m) => m.id);
    await checkPagination(as('owner'), billableIndirectPath(root, u.id), 'membership', ids);
  },
);

suite.test(
  {
    case: 'errors',
    title: 'unknown and non-billable users give 404; a subgroup and non-owners 400; an outsider 404; nobody 401',
    clauses: ['members.billable-memberships.user', 'members.ee.top-level-only', 'members.ee.admin-only', 'members.auth.anonymous'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { root, sub, u, stranger } = world();
    // The code of this experimental endpoint was not read (gitlab-facts §7): the 404 texts are not checked.
    expectStatus(await as('owner').get(billableIndirectPath(root, 2147483000)), 404);
    expectStatus(await as('owner').get(billableIndirectPath(root, stranger.id)), 404);
    expectBadRequest(await as('owner').get(billableIndirectPath(sub, u.id)));
    for (const role of ['maintainer', 'developer', 'guest'] as const) expectBadRequest(await as(role).get(billableIndirectPath(root, u.id)));
    expectError(await as('outsider').get(billableIndirectPath(root, u.id)), 404, { message: '404 Group Not Found' });
    expectAnonymous401(await as('anonymous').get(billableIndirectPath(root, u.id)));
  },
);
