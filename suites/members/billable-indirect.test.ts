// GET /groups/:id/billable_members/:user_id/indirect
import { expectEqual, expectError, expectTrue, parity } from '../../runner/core/checks.js';
import { endpoint, fixture } from './kit.js';
import {
  billableIndirectPath,
  checkPagination,
  expectBadRequest,
  expectOwnersOnly,
  GITLAB,
  LEVEL,
  listAll,
  sorted,
  expectSourceNotFound,
  type Membership,
  sharedHierarchy,
} from './helpers.js';


const sources = fixture({ name: 'members-get-billable-member-indirect', scope: 'file', fixtures: { sharedHierarchy }, build: async (t) => {
  const { root, sub, project } = t.sharedHierarchy;
  // u is a member of three groups invited into the hierarchy, and a direct member of its project.
  const u = await t.lease();
  const invited = [await t.group(), await t.group(), await t.group()];
  for (const [i, group] of invited.entries()) await t.add(group, u, [LEVEL.DEVELOPER, LEVEL.REPORTER, LEVEL.MAINTAINER][i]);
  await t.make.share(root, invited[0], LEVEL.DEVELOPER);
  await t.make.share(sub, invited[1], LEVEL.REPORTER);
  await t.make.share(root, invited[2], LEVEL.MAINTAINER);
  await t.add(project, u, LEVEL.DEVELOPER);
  const stranger = await t.lease();
  return { root, sub, project, invited, u, stranger };
} });

const suite = endpoint('billable-indirect', { fixtures: { sources } });

suite.test(
  {
    case: 'invited-groups',
    title: 'the user\'s memberships in groups invited into the hierarchy, not the direct project membership',
    clauses: ['members.billable-indirect.list'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, log, sources }) => {
    const { root, invited, u } = sources;
    const items = await listAll<Membership>(as('owner'), billableIndirectPath(root, u.id), 'membership');
    expectEqual(sorted(items.map((m) => m.source_id)), sorted(invited.map((g) => g.id)), 'the sources of the indirect memberships (the invited groups)');
    for (const [i, group] of invited.entries()) {
      const m = items.find((x) => x.source_id === group.id)!;
      expectEqual(m.access_level.integer_value, [LEVEL.DEVELOPER, LEVEL.REPORTER, LEVEL.MAINTAINER][i], `the level in invited group ${i + 1}`);
      // A group's full name ends with its name; the exact form (its ancestors' names and its own, joined
      // with " / ") is GitLab's (Namespace#full_name); the suite's groups are named as their paths.
      expectTrue(m.source_full_name.endsWith(group.name), `the full name of invited group ${i + 1} to end with its name`, `got ${m.source_full_name}`);
      parity({ log }, 'ee/lib/api/entities/billable_membership.rb (source_full_name: member.source.full_name); app/models/namespace.rb (full_name)', () => expectEqual(m.source_full_name, group.fullPath.split('/').join(' / '), `the full name of invited group ${i + 1}`));
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
  async ({ as, sources }) => {
    const { root, u } = sources;
    const ids = (await listAll<Membership>(as('owner'), billableIndirectPath(root, u.id), 'membership')).map((m) => m.id);
    await checkPagination(as('owner'), billableIndirectPath(root, u.id), 'membership', ids);
  },
);

suite.test(
  {
    case: 'errors',
    title: 'unknown and non-billable users give 404; a subgroup 400; non-owners are refused (400 or 403; GitLab: 400); an outsider 404; nobody 401',
    clauses: ['members.billable-memberships.user', 'members.ee.top-level-only', 'members.ee.admin-only', 'members.auth.anonymous'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    const { root, sub, u, stranger } = sources;
    // The same lookups as the memberships route (ee/lib/ee/api/members.rb get ":id/billable_members/:user_id/indirect").
    expectError(await as('owner').get(billableIndirectPath(root, 2147483000)), 404, { message: '404 Not found', gitlab: `${GITLAB.eeApi} (indirect: User.find); lib/api/api.rb (rescue_from ActiveRecord::RecordNotFound)` });
    expectError(await as('owner').get(billableIndirectPath(root, stranger.id)), 404, { message: '404 User Not Found', gitlab: `${GITLAB.eeApi} (indirect: not_found!('User') unless billable_member?)` });
    expectBadRequest(await as('owner').get(billableIndirectPath(sub, u.id)));
    await expectOwnersOnly(as, (client) => client.get(billableIndirectPath(root, u.id)));
  },
);

suite.test(
  {
    case: 'project-invite',
    title: 'a membership in a group invited into a project of the hierarchy is an indirect membership',
    clauses: ['members.billable-indirect.hierarchy', 'members.billable-indirect.list'],
    requires: { capabilities: ['premium'] },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { project } = sources;
    const invited = await kit.group();
    const v = await kit.member(invited, LEVEL.DEVELOPER);
    await kit.make.share(project, invited, LEVEL.DEVELOPER);
    const items = await listAll<Membership>(as('owner'), billableIndirectPath(sources.root, v.id), 'membership');
    expectEqual(items.map((m) => [m.source_id, m.access_level.integer_value]), [[invited.id, LEVEL.DEVELOPER]], 'the membership in the group invited into the project');
  },
);

suite.test(
  {
    case: 'outside-hierarchy',
    title: 'a membership in a group not invited into the hierarchy is not an indirect membership',
    clauses: ['members.billable-indirect.hierarchy'],
    requires: { capabilities: ['premium'] },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { root, invited } = sources;
    const w = await kit.member(invited[0], LEVEL.DEVELOPER);
    const external = await kit.group();
    await kit.add(external, w, LEVEL.DEVELOPER);
    const items = await listAll<Membership>(as('owner'), billableIndirectPath(root, w.id), 'membership');
    expectEqual(items.map((m) => m.source_id), [invited[0].id], 'only the membership in the invited group (not the external group\'s, nor the seat group\'s)');
  },
);

suite.test(
  {
    case: 'unknown-group',
    title: 'the indirect memberships in a group id that does not exist: 404 (GitLab: "404 Group Not Found")',
    clauses: ['members.ee.unknown-group'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    expectSourceNotFound(await as('owner').get(billableIndirectPath({ kind: 'group', id: 2147483000 }, sources.u.id)), 'group');
  },
);
