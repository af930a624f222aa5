// GET /groups/:id/billable_members
import { expectEqual, expectOk, expectTrue, parity, expectSetUp } from '../../runner/core/checks.js';
import { endpoint, fixture } from './kit.js';
import {
  billablePath,
  checkPagination,
  expectBadRequest,
  expectOwnersOnly,
  expectParamError,
  findIn,
  GITLAB,
  idsOf,
  LEVEL,
  listAll,
  nameSearchTerm,
  sorted,
  statePath,
  expectSourceNotFound,
  enterpriseGroup,
  sharedHierarchy,
} from './helpers.js';


interface Billable {
  id: number;
  username: string;
  name: string;
  email?: string | null;
  membership_type: string;
  removable: boolean;
  last_activity_on: string | null;
  last_login_at: string | null;
  /** GitLab's field (ee/lib/api/entities/billable_member.rb); the spec does not list it. */
  is_last_owner?: boolean;
}

const SORTS = ['access_level_asc', 'access_level_desc', 'last_joined', 'name_asc', 'name_desc', 'oldest_joined', 'oldest_sign_in', 'recent_sign_in', 'last_activity_on_asc', 'last_activity_on_desc'];

const sources = fixture({ name: 'members-get-billable-members', scope: 'file', fixtures: { sharedHierarchy }, build: async (t) => {
  // A hierarchy without Guests (whether Guests are billable depends on the plan).
  // At the top: billable members are a top-level group's.
  const root = await t.group({ top: true });
  await t.add(root, t.run.actors.owner, LEVEL.OWNER);
  const sub = await t.group({ parent: root });
  const project = await t.project({ group: sub });
  const [gm, sm, pm, im, pim] = [await t.lease(), await t.lease(), await t.lease(), await t.lease(), await t.lease()];
  await t.add(root, gm, LEVEL.DEVELOPER);
  await t.add(sub, sm, LEVEL.REPORTER);
  await t.add(project, pm, LEVEL.MAINTAINER);
  const invited = await t.group();
  await t.add(invited, im, LEVEL.DEVELOPER);
  await t.make.share(root, invited, LEVEL.DEVELOPER);
  const projectInvited = await t.group();
  await t.add(projectInvited, pim, LEVEL.DEVELOPER);
  await t.make.share(project, projectInvited, LEVEL.DEVELOPER);
  // The run's top-level group with the shared actors in their roles: its billable members are only read.
  const matrixRoot = t.sharedHierarchy.root;
  // A top-level group whose only owner is the administrator who made it, with a Developer.
  const soleOwned = await t.group({ top: true });
  const dev = await t.member(soleOwned, LEVEL.DEVELOPER);
  // Both a member of the top-level group and of a project inside it.
  const both = await t.member(root, LEVEL.DEVELOPER);
  await t.add(project, both, LEVEL.MAINTAINER);
  // An awaiting member holds no seat, so is not billable.
  const awaiting = await t.member(root, LEVEL.DEVELOPER);
  expectSetUp(await t.admin.put(statePath(root, awaiting.id), { body: { state: 'awaiting' } }), 'making a member awaiting');
  // A member who has used the API, so has a last_activity_on (GitLab: "User using the API").
  const busy = await t.member(sub, LEVEL.DEVELOPER);
  expectSetUp(await t.admin.withToken(busy.tokens.api, busy.username).get('/user'), 'a request with the member\'s own token');
  const billable = [t.run.adminId, t.run.actors.owner.id, gm.id, sm.id, pm.id, im.id, pim.id, both.id, busy.id];
  return { root, sub, matrixRoot, soleOwned, dev, both, gm, sm, pm, im, pim, awaiting, busy, billable };
} });

const suite = endpoint('billable', { fixtures: { sources } });

suite.test(
  {
    case: 'list',
    title: 'the billable members of a top-level group: members of the group, its subgroups, projects and invited groups, with membership_type and removable; not awaiting members; in id order when no sort is given',
    clauses: ['members.billable.list', 'members.billable.activity', 'members.billable.awaiting', 'members.billable.default-order'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, run, sources }) => {
    const { root, gm, sm, pm, im, pim, awaiting, billable } = sources;
    const items = await listAll<Billable>(as('owner'), billablePath(root), 'billable-member');
    expectEqual(items.length, new Set(items.map((i) => i.id)).size, 'each billable member to appear once');
    expectEqual(idsOf(items), sorted(billable), 'the billable members of the hierarchy');
    expectEqual(items.some((i) => i.id === awaiting.id), false, 'the awaiting member among the billable ones');
    // GitLab's default sort (ee/lib/ee/api/members.rb: sorting = params[:sort] || 'id_asc').
    expectEqual(items.map((i) => i.id), sorted(billable), 'the billable members in id order (the default sort, id_asc)');
    const kinds: [number, string, boolean][] = [
      [run.actors.owner.id, 'group_member', true],
      [gm.id, 'group_member', true],
      [sm.id, 'group_member', true],
      [pm.id, 'project_member', true],
      [im.id, 'group_invite', false],
      [pim.id, 'project_invite', false],
    ];
    for (const [id, type, removable] of kinds) {
      const item = findIn(items, id, `billable member ${id}`);
      expectEqual([item.membership_type, item.removable], [type, removable], `membership_type and removable of user ${id}`);
    }
  },
);

suite.test(
  {
    case: 'search',
    title: 'search keeps the billable members whose username or name contains the string',
    clauses: ['members.billable.search'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    const { root, pm, sm } = sources;
    const res = await as('owner').get(billablePath(root), { query: { search: pm.username } });
    expectOk(res, 200, 'billable-member', { list: true });
    expectEqual(idsOf(res.body as Billable[]), [pm.id], 'the billable member found by username', res);
    // By a part of the name, in capitals: the match ignores case. Others with that name may match too.
    const term = nameSearchTerm(sm.name);
    const everyone = await listAll<Billable>(as('owner'), billablePath(root), 'billable-member');
    const expected = everyone.filter((i) => i.name.toLowerCase().includes(term.toLowerCase()) || i.username.toLowerCase().includes(term.toLowerCase()));
    const byName = await listAll<Billable>(as('owner'), billablePath(root), 'billable-member', { search: term });
    expectTrue(byName.some((i) => i.id === sm.id), `the billable member found by the name "${term}"`, `got ids ${idsOf(byName).join(', ')}`);
    expectEqual(idsOf(byName), idsOf(expected), `the billable members whose name or username contains "${term}"`);
  },
);

suite.test(
  {
    case: 'sort',
    title: 'every documented sort value is accepted; name_asc and name_desc order by name, the last_activity_on orders by date (GitLab parity: nulls last, descending; nulls first, ascending); another value is refused with 400',
    clauses: ['members.billable.sort', 'members.billable.sort-activity', 'members.billable.activity', 'members.errors.shape'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, log, sources }) => {
    const { root, busy, billable } = sources;
    const orders: Record<string, Billable[]> = {};
    for (const sort of SORTS) {
      orders[sort] = await listAll<Billable>(as('owner'), billablePath(root), 'billable-member', { sort });
      expectEqual(idsOf(orders[sort]), sorted(billable), `the billable members sorted by ${sort}`);
    }
    // First letters only: how whole names compare depends on the database's collation.
    const initials = (items: Billable[]) => items.map((i) => i.name.trim().charAt(0).toLowerCase());
    const asc = initials(orders.name_asc);
    expectTrue(asc.every((c, i) => i === 0 || asc[i - 1] <= c), 'name_asc to order by name', `initials: ${asc.join(' ')}`);
    const desc = initials(orders.name_desc);
    expectTrue(desc.every((c, i) => i === 0 || desc[i - 1] >= c), 'name_desc to order by name, descending', `initials: ${desc.join(' ')}`);
    // Whoever has a date comes first going down and last going up (User.order_recent_last_activity,
    // order_oldest_last_activity); users with the same date may come in any order. The member who
    // used the API has a date (GitLab records it after each API request), most others have none.
    const busyDate = findIn(orders.last_activity_on_desc, busy.id, 'the member who used the API').last_activity_on;
    expectTrue(typeof busyDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(busyDate), 'a last_activity_on date for the member who used the API', `got ${String(busyDate)}`);
    const dates = (items: Billable[]) => items.map((i) => i.last_activity_on ?? '');
    const recent = dates(orders.last_activity_on_desc);
    const oldest = dates(orders.last_activity_on_asc);
    // The names say the order of the dates; where members without activity go is GitLab's (nulls last / first).
    const dated = (list: string[]) => list.filter((d) => d !== '');
    const recentDated = dated(recent);
    const oldestDated = dated(oldest);
    expectTrue(recentDated.every((d, i) => i === 0 || recentDated[i - 1] >= d), 'last_activity_on_desc to order the dated members by date, descending', `dates: ${recent.map((d) => d || 'null').join(' ')}`);
    expectTrue(oldestDated.every((d, i) => i === 0 || oldestDated[i - 1] <= d), 'last_activity_on_asc to order the dated members by date, ascending', `dates: ${oldest.map((d) => d || 'null').join(' ')}`);
    parity({ log }, 'app/models/user.rb (order_recent_last_activity: NULLS LAST; order_oldest_last_activity: NULLS FIRST)', () => {
      expectTrue(recent.every((d, i) => i === 0 || recent[i - 1] >= d), 'last_activity_on_desc to put users without activity last', `dates: ${recent.map((d) => d || 'null').join(' ')}`);
      expectTrue(oldest.every((d, i) => i === 0 || oldest[i - 1] <= d), 'last_activity_on_asc to put users without activity first', `dates: ${oldest.map((d) => d || 'null').join(' ')}`);
    });
    expectParamError(await as('owner').get(billablePath(root), { query: { sort: 'shoe_size' } }), 'sort', `${GITLAB.eeApi} (optional :sort, values: member_sort_options); ${GITLAB.grape}`);
    // With a search as well (ee/spec/requests/api/members_spec.rb "with search and sort params provided"): every documented value taken, another refused.
    for (const sort of SORTS) expectOk(await as('owner').get(billablePath(root), { query: { search: busy.username, sort } }), 200, 'billable-member', { list: true });
    expectParamError(await as('owner').get(billablePath(root), { query: { search: busy.username, sort: 'shoe_size' } }), 'sort', `${GITLAB.eeApi} (optional :sort, values: member_sort_options); ${GITLAB.grape}`);
  },
);

suite.test(
  {
    case: 'pagination',
    title: 'page and per_page page through the billable members with GitLab\'s headers',
    clauses: ['members.pagination'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    const { root, billable } = sources;
    await checkPagination(as('owner'), billablePath(root), 'billable-member', billable);
  },
);

suite.test(
  {
    case: 'subgroup',
    title: 'a subgroup is refused with 400 "400 Bad request", also for its owner',
    clauses: ['members.ee.top-level-only'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    const { sub } = sources;
    expectBadRequest(await as('owner').get(billablePath(sub)));
    expectBadRequest(await as('admin').get(billablePath(sub)));
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'only owners list billable members: Maintainers, Developers and Guests are refused (400 or 403; GitLab: 400), an outsider gets 404, nobody 401',
    clauses: ['members.ee.admin-only', 'members.auth.anonymous'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    const { matrixRoot } = sources;
    expectOk(await as('owner').get(billablePath(matrixRoot)), 200, 'billable-member', { list: true });
    await expectOwnersOnly(as, (client) => client.get(billablePath(matrixRoot)));
  },
);

suite.test(
  {
    case: 'enterprise-email',
    title: 'the owner managing an enterprise user sees that user\'s email among the billable members',
    clauses: ['members.billable.email'],
    requires: { capabilities: ['premium', 'enterprise_users'], provisioned: ['enterprise'] },
    fixtures: { enterpriseGroup },
  },
  async ({ withToken, enterpriseGroup }) => {
    const fx = enterpriseGroup;
    const items = await listAll<Billable>(withToken(fx.ownerToken, 'enterprise group owner'), billablePath({ kind: 'group', id: fx.group_id }), 'billable-member');
    const email = findIn(items, fx.enterprise_user_id, 'the enterprise user').email;
    expectTrue(typeof email === 'string' && email.includes('@'), 'the enterprise user\'s email', `got ${String(email)}`);
  },
);

suite.test(
  {
    case: 'private-email',
    title: 'an owner sees no email for billable members who have no public email',
    clauses: ['members.billable.email'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, run, sources }) => {
    const { root } = sources;
    const items = await listAll<Billable>(as('owner'), billablePath(root), 'billable-member');
    // The suite's users are made without a public email; the administrator's own is unknown. GitLab
    // sends "email": null (ee/lib/api/entities/billable_member.rb exposes public_email as email; older
    // releases leave the field out); the spec shows email "only for some members".
    const shown = items.filter((i) => i.email != null && i.id !== run.adminId).map((i) => i.id);
    expectEqual(shown, [], 'no email for members without a public email');
  },
);

suite.test(
  {
    case: 'last-owner',
    title: 'the billable members of a group with one owner and of one with two (GitLab parity: is_last_owner true for the only owner, false for a member who is no owner and for each of two owners)',
    clauses: ['members.billable.last-owner'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, run, log, sources }) => {
    const { root, soleOwned, dev } = sources;
    const sole = await listAll<Billable>(as('admin'), billablePath(soleOwned), 'billable-member');
    expectEqual(idsOf(sole), sorted([run.adminId, dev.id]), 'the billable members of the group with one owner');
    const two = await listAll<Billable>(as('owner'), billablePath(root), 'billable-member');
    // is_last_owner is GitLab's field: the spec's Billable member table does not list it.
    parity({ log }, `${GITLAB.billableEntity} (expose :last_owner?, as: :is_last_owner)`, () => {
      expectEqual(findIn(sole, run.adminId, 'the sole owner').is_last_owner, true, 'is_last_owner of the group\'s only owner');
      expectEqual(findIn(sole, dev.id, 'the Developer').is_last_owner, false, 'is_last_owner of a Developer');
      for (const id of [run.adminId, run.actors.owner.id]) expectEqual(findIn(two, id, `owner ${id}`).is_last_owner, false, `is_last_owner of owner ${id}, one of two owners`);
    });
  },
);

suite.test(
  {
    case: 'group-member-first',
    title: 'a user who is a member of the top-level group and of a project in it is listed once, as a group_member',
    clauses: ['members.billable.list', 'members.billable.type-order'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    const { root, both } = sources;
    const res = await as('owner').get(billablePath(root), { query: { search: both.username } });
    expectOk(res, 200, 'billable-member', { list: true });
    const items = res.body as Billable[];
    expectEqual(idsOf(items), [both.id], 'the user once', res);
    // ee/lib/api/entities/billable_member.rb membership_type: group_member, then project_member, group_invite, project_invite.
    expectEqual([items[0].membership_type, items[0].removable], ['group_member', true], 'the group membership to count before the project one', res);
  },
);

suite.test(
  {
    case: 'admin-email',
    title: 'an email shown to an administrator among the billable members is the member\'s own (GitLab: every billable member\'s email is shown to administrators)',
    clauses: ['members.billable.admin-email'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, log, sources }) => {
    const { root, gm, pm } = sources;
    const items = await listAll<Billable>(as('admin'), billablePath(root), 'billable-member');
    const known = [[gm, 'the group member'], [pm, 'the project member']] as const;
    // The spec shows email "only for some members": an address shown must be the member's own.
    for (const [user, who] of known) {
      const shown = findIn(items, user.id, who).email;
      expectTrue(shown == null || shown === user.email, `the email shown for ${who} to be theirs`, `got ${String(shown)}`);
    }
    parity({ log }, `${GITLAB.billableEntity} (expose :email if current_user.can_admin_all_resources?)`, () => {
      for (const [user, who] of known) expectEqual(findIn(items, user.id, who).email, user.email, `the email of ${who}, shown to an administrator`);
    });
  },
);

suite.test(
  {
    case: 'unknown-group',
    title: 'the billable members of a group id that does not exist: 404 (GitLab: "404 Group Not Found")',
    clauses: ['members.ee.unknown-group'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    expectSourceNotFound(await as('owner').get(billablePath({ kind: 'group', id: 2147483000 })), 'group');
  },
);
