// GET /groups/:id/billable_members/:user_id/memberships
import { expectEqual, expectError, expectTrue, parity, expectSetUp } from '../../runner/core/checks.js';
import { dateIn } from '../../runner/core/vocabulary.js';
import { endpoint, fixture } from './kit.js';
import type { GroupInfo, ProjectInfo } from '../../runner/core/vocabulary.js';
import {
  billableMembershipsPath,
  checkPagination,
  expectParamError,
  GITLAB,
  LEVEL,
  listAll,
  membersPath,
  expectSourceNotFound,
  type Membership,
  sharedHierarchy,
} from './helpers.js';
import { subgroupAndRolesCase } from './cases.js';

const expiry = dateIn(60);

const sources = fixture({ name: 'members-get-billable-member-memberships', scope: 'file', fixtures: { sharedHierarchy }, build: async (t) => {
  const { root, sub, project } = t.sharedHierarchy;
  const outside = await t.group();
  // u: Developer of the root group (with an expiry), Maintainer of the subgroup and of the project, and a member elsewhere.
  const u = await t.lease();
  const added = await t.admin.post(membersPath(root), { body: { user_id: u.id, access_level: LEVEL.DEVELOPER, expires_at: expiry } });
  expectSetUp(added, 'adding a member with an expiry');
  await t.add(sub, u, LEVEL.MAINTAINER);
  await t.add(project, u, LEVEL.MAINTAINER);
  await t.add(outside, u, LEVEL.OWNER);
  const stranger = await t.lease();
  return { root, sub, project, u, stranger };
} });

const suite = endpoint('billable-memberships', { fixtures: { sources } });

/** The full name GitLab gives a source the suite made (names equal paths): path parts joined by " / ". */
const fullName = (source: GroupInfo | ProjectInfo) => source.fullPath.split('/').join(' / ');

suite.test(
  {
    case: 'direct-in-hierarchy',
    title: 'the user\'s direct memberships in the group, its subgroup and project, with source, expiry and role; none outside',
    clauses: ['members.billable-memberships.direct'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, log, sources }) => {
    const { root, sub, project, u } = sources;
    const items = await listAll<Membership>(as('owner'), billableMembershipsPath(root, u.id), 'membership');
    // A group and a project may share a numeric id: a membership is told by its source_id and by the
    // source's own name (the last part of its path; the suite's names equal paths), which ends
    // source_full_name (an ancestor's name is in it too, so the end alone tells them apart).
    const ownName = (source: GroupInfo | ProjectInfo) => source.fullPath.split('/').pop()!;
    const endsWithName = (fullName: string, name: string) => fullName.endsWith(name) && !/[\w.-]/.test(fullName.charAt(fullName.length - name.length - 1));
    const of = (source: GroupInfo | ProjectInfo) => items.filter((m) => m.source_id === source.id && endsWithName(m.source_full_name, ownName(source)));
    expectEqual(items.length, 3, 'three direct memberships in the hierarchy (none outside it)');
    const expected: [GroupInfo | ProjectInfo, number, string, string | null][] = [
      [root, LEVEL.DEVELOPER, 'Developer', expiry],
      [sub, LEVEL.MAINTAINER, 'Maintainer', null],
      [project, LEVEL.MAINTAINER, 'Maintainer', null],
    ];
    for (const [source, level, role, expires] of expected) {
      const found = of(source);
      expectEqual(found.length, 1, `one membership of the ${source.kind} ${source.fullPath}`);
      const m = found[0];
      expectEqual([m.access_level.integer_value, m.access_level.string_value, m.expires_at], [level, role, expires], `access_level and expires_at of the ${source.kind} membership`);
      // The form of the full name and of the members page URL is GitLab's (Namespace#full_name, Project#full_name; the members page routes).
      parity({ log }, 'ee/lib/api/entities/billable_membership.rb (source_full_name: member.source.full_name; source_members_url(member))', () => {
        expectEqual(m.source_full_name, fullName(source), `source_full_name of the ${source.kind} membership`);
        const page = source.kind === 'group' ? `/groups/${source.fullPath}/-/group_members` : `/${source.fullPath}/-/project_members`;
        expectTrue(m.source_members_url.endsWith(page), `source_members_url of the ${source.kind} membership to end in ${page}`, `got ${m.source_members_url}`);
      });
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
  async ({ as, sources }) => {
    const { root, u } = sources;
    const ids = (await listAll<Membership>(as('owner'), billableMembershipsPath(root, u.id), 'membership')).map((m) => m.id);
    await checkPagination(as('owner'), billableMembershipsPath(root, u.id), 'membership', ids);
  },
);

suite.test(
  {
    case: 'user-errors',
    title: 'an unknown user and a user who is not billable in the group give 404 (GitLab: "404 Not found" and "404 User Not Found"); a bad id 400',
    clauses: ['members.billable-memberships.user'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    const { root, stranger } = sources;
    expectError(await as('owner').get(billableMembershipsPath(root, 2147483000)), 404, { message: '404 Not found', gitlab: `${GITLAB.eeApi} (User.find); lib/api/api.rb (rescue_from ActiveRecord::RecordNotFound)` });
    expectError(await as('owner').get(billableMembershipsPath(root, stranger.id)), 404, { message: '404 User Not Found', gitlab: `${GITLAB.eeApi} (not_found!('User') unless billable_member?)` });
    expectParamError(await as('owner').get(billableMembershipsPath(root, 'u')), 'user_id', `${GITLAB.eeApi} (requires :user_id, type: Integer); ${GITLAB.grape}`);
  },
);

subgroupAndRolesCase(suite, sources, {
  prepare: async (_kit, { u }) => u,
  send: (client, group, u) => client.get(billableMembershipsPath(group, u.id)),
});

suite.test(
  {
    case: 'unknown-group',
    title: 'the memberships of a billable member in a group id that does not exist: 404 (GitLab: "404 Group Not Found")',
    clauses: ['members.ee.unknown-group'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    expectSourceNotFound(await as('owner').get(billableMembershipsPath({ kind: 'group', id: 2147483000 }, sources.u.id)), 'group');
  },
);
