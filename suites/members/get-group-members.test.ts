// GET /groups/:id/members
import { fixture } from '../../fixtures/manifest.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue } from '../harness/core/checks.js';
import { apiPath } from '../harness/core/client.js';
import { endpoint } from '../harness/run/conformance.js';
import { ROLES } from '../harness/core/vocabulary.js';
import {
  checkPagination,
  dateInDays,
  exclusively,
  expectAnonymous401,
  expectParamError,
  expectReadMatrix,
  findIn,
  idsOf,
  LEVEL,
  listAll,
  nameSearchTerm,
  memberIds,
  membersPath,
  sorted,
  useMembersWorld,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'list');

const expiry = dateInDays(40);

const world = useMembersWorld('get-group-members', async (t) => {
  const group = await t.roleGroup();
  const [a, b, c] = [await t.user(), await t.user(), await t.user()];
  // `a` is added with an expiry, by the administrator (its created_by).
  const added = await t.world.admin.post(membersPath(group), { body: { user_id: a.id, access_level: LEVEL.DEVELOPER, expires_at: expiry } });
  expectStatus(added, 201, 'adding a member with an expiry (setup)');
  await t.add(group, b, LEVEL.REPORTER);
  await t.add(group, c, LEVEL.MAINTAINER);
  // A subgroup with one direct member, shared with a group whose member is not a direct member either.
  const sub = await t.group({ parent: group });
  const d = await t.user();
  await t.add(sub, d, LEVEL.DEVELOPER);
  const invited = await t.group();
  await t.add(invited, await t.user(), LEVEL.DEVELOPER);
  await t.world.shareGroup(sub, invited, LEVEL.DEVELOPER);
  const publicGroup = await t.roleGroup({ visibility: 'public' });
  const direct = [t.run.adminId, ...ROLES.map((r) => t.run.actors[r].id), a.id, b.id, c.id];
  return { group, sub, publicGroup, a, b, c, d, direct };
});

suite.test(
  {
    case: 'direct-only',
    title: 'the list holds exactly the direct members: not inherited ones, not members of an invited group',
    clauses: ['members.list.direct-only', 'members.entity.shape'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group, sub, d, direct } = world();
    expectEqual(await memberIds(as('owner'), group), sorted(direct), 'the direct members of the group');
    // The subgroup inherits the group's members and is shared with another group: neither is direct.
    expectEqual(await memberIds(as('owner'), sub), sorted([run.adminId, d.id]), 'the direct members of the subgroup (its creator and d)');
  },
);

suite.test(
  {
    case: 'member-fields',
    title: 'each member shows its level, its expiry (a date or null) and who added it',
    clauses: ['members.entity.shape', 'members.entity.created-by'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group, a, b, c } = world();
    const res = await as('owner').get(membersPath(group), { query: { per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    const items = res.body as MemberBody[];
    const rowA = findIn(items, a.id, 'member a in the list', res);
    expectEqual([rowA.username, rowA.access_level, rowA.expires_at], [a.username, LEVEL.DEVELOPER, expiry], 'username, access_level and expires_at of a', res);
    expectEqual(rowA.created_by?.id, run.adminId, 'created_by of a to be the administrator who added it', res);
    expectEqual(findIn(items, b.id, 'member b', res).access_level, LEVEL.REPORTER, 'access_level of b', res);
    expectEqual(findIn(items, c.id, 'member c', res).expires_at, null, 'expires_at of c (added without expiry) to be null', res);
  },
);

suite.test(
  {
    case: 'no-email-for-owners',
    title: 'an owner who is not an administrator sees no email of ordinary members',
    clauses: ['members.entity.email-hidden'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const items = await listAll(as('owner'), membersPath(world().group), 'member');
    const shown = items.filter((m) => m.email !== undefined).map((m) => m.username);
    expectEqual(shown, [], 'no member to carry an email');
  },
);

suite.test(
  {
    case: 'email-for-admins',
    title: 'an administrator sees every member\'s email',
    clauses: ['members.entity.email-admin'],
    requires: { capabilities: ['premium'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group, a } = world();
    const items = await listAll(as('admin'), membersPath(group), 'member');
    expectEqual(findIn(items, a.id, 'member a').email, a.email, 'the email of a');
    expectEqual(findIn(items, run.actors.developer.id, 'the developer').email, run.actors.developer.email, 'the email of the developer');
    expectTrue(items.every((m) => typeof m.email === 'string'), 'every member to carry an email', items.filter((m) => m.email === undefined).map((m) => m.username).join(', '));
  },
);

suite.test(
  {
    case: 'enterprise-email',
    title: 'owners see the email of the group\'s enterprise users only; other members see none',
    clauses: ['members.entity.email-enterprise'],
    requires: { capabilities: ['enterprise_users'], fixtures: ['enterprise'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ withToken, run }) => {
    const fx = fixture(run.fixtures, 'enterprise')!;
    const enterpriseGroup = { kind: 'group' as const, id: fx.group_id };
    const owner = withToken(fx.ownerToken, 'enterprise group owner');
    const items = await listAll(owner, membersPath(enterpriseGroup), 'member');
    expectTrue(typeof findIn(items, fx.enterprise_user_id, 'the enterprise user').email === 'string', 'the owner to see the enterprise user\'s email');
    expectEqual(findIn(items, fx.other_user_id, 'the other member').email, undefined, 'no email for the member who is not an enterprise user');

    // A Developer of the same group sees no email at all; the temporary member is removed again.
    const { t } = world();
    const viewer = await t.user();
    await exclusively(run, 'enterprise', async () => {
      await t.add(enterpriseGroup, viewer, LEVEL.DEVELOPER);
      try {
        const seen = await listAll(withToken(viewer.tokens.api, 'a developer of the enterprise group'), membersPath(enterpriseGroup), 'member');
        expectEqual(findIn(seen, fx.enterprise_user_id, 'the enterprise user').email, undefined, 'no email for a viewer who is not an owner');
      } finally {
        await t.remove(enterpriseGroup, viewer);
      }
    });
  },
);

suite.test(
  {
    case: 'query',
    title: 'query keeps the members whose username or name contains the string, ignoring case',
    clauses: ['members.list.query'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, a } = world();
    for (const query of [a.username, a.username.toUpperCase().slice(2)]) {
      const res = await as('developer').get(membersPath(group), { query: { query } });
      expectOk(res, 200, 'member', { list: true });
      expectEqual(idsOf(res.body as MemberBody[]), [a.id], `the members matching "${query}"`, res);
    }
    // A part of the name, in capitals: other members may share it, so the expected set comes from the list.
    const term = nameSearchTerm(a.name);
    const everyone = await listAll(as('developer'), membersPath(group), 'member');
    const expected = everyone.filter((m) => `${m.name} ${m.username}`.toLowerCase().includes(term.toLowerCase()));
    const byName = await listAll(as('developer'), membersPath(group), 'member', { query: term });
    expectTrue(byName.some((m) => m.id === a.id), `the member found by the name "${term}"`, `got ids ${idsOf(byName).join(', ')}`);
    expectEqual(idsOf(byName), idsOf(expected), `the members whose name or username contains "${term}"`);
    const none = await as('developer').get(membersPath(group), { query: { query: 'no-such-member-anywhere' } });
    expectOk(none, 200, 'member', { list: true });
    expectEqual(none.body, [], 'no member for a string nobody has', none);
  },
);

suite.test(
  {
    case: 'user-ids',
    title: 'user_ids keeps only the members with these user ids',
    clauses: ['members.list.user-ids'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group, a, c } = world();
    const res = await as('guest').get(membersPath(group), { query: { user_ids: `${a.id},${c.id},${run.actors.outsider.id}` } });
    expectOk(res, 200, 'member', { list: true });
    expectEqual(idsOf(res.body as MemberBody[]), sorted([a.id, c.id]), 'the members named by user_ids (the outsider is no member)', res);
  },
);

suite.test(
  {
    case: 'skip-users',
    title: 'skip_users leaves out the members with these user ids',
    clauses: ['members.list.skip-users'],
    // gitlab-facts §4: the parameter is declared in CE but applied by EE only (unconfirmed).
    requires: { capabilities: ['premium'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, a, b, direct } = world();
    const res = await as('owner').get(membersPath(group), { query: { skip_users: `${a.id},${b.id}`, per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    expectEqual(idsOf(res.body as MemberBody[]), sorted(direct.filter((id) => id !== a.id && id !== b.id)), 'every direct member but a and b', res);
  },
);

suite.test(
  {
    case: 'seat-info',
    title: 'show_seat_info=true adds is_using_seat to each member; without it the field is absent',
    clauses: ['members.entity.seat-info'],
    requires: { capabilities: ['premium'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group } = world();
    const res = await as('owner').get(membersPath(group), { query: { show_seat_info: true, per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    const items = res.body as MemberBody[];
    expectTrue(items.every((m) => typeof m.is_using_seat === 'boolean'), 'is_using_seat (boolean) on every member', '', res);
    const plain = await listAll(as('owner'), membersPath(group), 'member');
    expectTrue(plain.every((m) => m.is_using_seat === undefined), 'no is_using_seat without show_seat_info');
  },
);

suite.test(
  {
    case: 'seat-info-active',
    title: 'with show_seat_info=true, active members in billable roles (Owner, Maintainer, Developer) have is_using_seat true',
    clauses: ['members.entity.seat-info', 'members.entity.seat-active'],
    requires: { capabilities: ['premium'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { group } = world();
    const res = await as('owner').get(membersPath(group), { query: { show_seat_info: true, per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    const items = res.body as MemberBody[];
    for (const role of ['owner', 'maintainer', 'developer'] as const) {
      const member = findIn(items, run.actors[role].id, `the ${role}`, res);
      expectEqual([member.membership_state, member.is_using_seat], ['active', true], `membership_state and is_using_seat of the active ${role}`, res);
    }
  },
);

suite.test(
  {
    case: 'pagination',
    title: 'page and per_page page through the members with GitLab\'s headers; a page past the end is empty',
    clauses: ['members.pagination'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, direct } = world();
    await checkPagination(as('maintainer'), membersPath(group), 'member', direct);
    expectParamError(await as('maintainer').get(membersPath(group), { query: { per_page: 0 } }), 'per_page');
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'every member of a private group may list its members; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    await expectReadMatrix(as, membersPath(world().group), '404 Group Not Found', 'member', true);
  },
);

suite.test(
  {
    case: 'public-group',
    title: 'the members of a public group are readable by any user, but not without a token (401)',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { publicGroup } = world();
    expectOk(await as('outsider').get(membersPath(publicGroup)), 200, 'member', { list: true });
    expectAnonymous401(await as('anonymous').get(membersPath(publicGroup)));
  },
);

suite.test(
  {
    case: 'read-api-token',
    title: 'a read_api token may list members',
    clauses: ['members.auth.read-api-scope'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    expectOk(await as('developer', 'read_api').get(membersPath(world().group)), 200, 'member', { list: true });
  },
);

suite.test(
  {
    case: 'by-path-and-unknown',
    title: 'the group may be named by its full path; an unknown group gives 404 "404 Group Not Found"',
    clauses: ['members.id.path-or-number', 'members.read.visibility', 'members.errors.shape'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, sub, d } = world();
    const res = await as('owner').get(membersPath({ kind: 'group', id: sub.fullPath }));
    expectOk(res, 200, 'member', { list: true });
    expectTrue(idsOf(res.body as MemberBody[]).includes(d.id), 'the subgroup named by its full path to list d', '', res);
    expectTrue(sub.fullPath.startsWith(`${group.fullPath}/`), 'the subgroup path to contain a slash (test setup)');
    expectError(await as('owner').get(membersPath({ kind: 'group', id: 2147483000 })), 404, { message: '404 Group Not Found' });
  },
);

suite.test(
  {
    case: 'no-invitations',
    title: 'a person invited by email is neither among the members nor among all members',
    clauses: ['members.list.no-invitations'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { t } = world();
    const group = await t.group();
    const before = await memberIds(as('admin'), group);
    const invite = await as('admin').post(apiPath`/groups/${group.id}/invitations`, { body: { email: t.world.factories.email('invitee'), access_level: LEVEL.DEVELOPER } });
    expectStatus(invite, 201, 'inviting a person by email (setup, invitations API)');
    expectEqual(await memberIds(as('admin'), group), before, 'the direct members after the invitation');
    expectEqual(await memberIds(as('admin'), group, true), before, 'all members after the invitation');
  },
);

suite.test(
  {
    case: 'bad-filter',
    title: 'user_ids that are not integers are refused with 400 in the parameter-error shape',
    clauses: ['members.errors.shape'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    expectParamError(await as('owner').get(membersPath(world().group), { query: { user_ids: 'one,two' } }), 'user_ids');
  },
);
