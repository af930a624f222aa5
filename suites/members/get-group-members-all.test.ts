// GET /groups/:id/members/all
import { fixture } from '../../fixtures/manifest.js';
import { expectEqual, expectOk, expectStatus, expectTrue } from '../harness/core/checks.js';
import { apiPath } from '../harness/core/client.js';
import { endpoint } from '../harness/run/conformance.js';
import { ROLES } from '../harness/core/vocabulary.js';
import {
  allMembersPath,
  checkPagination,
  exclusively,
  expectParamError,
  expectReadMatrix,
  findIn,
  idsOf,
  LEVEL,
  listAll,
  sorted,
  statePath,
  useMembersWorld,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'list-all');


const world = useMembersWorld('get-group-members-all', async (t) => {
  const top = await t.roleGroup();
  const sub = await t.group({ parent: top });
  // x: Developer above, Maintainer in the subgroup; y: Guest in the subgroup, Maintainer above
  // (added in that order: a subgroup membership may not be lower than an inherited one).
  const [x, y, z] = [await t.user(), await t.user(), await t.user()];
  await t.add(top, x, LEVEL.DEVELOPER);
  await t.add(sub, x, LEVEL.MAINTAINER);
  await t.add(sub, y, LEVEL.GUEST);
  await t.add(top, y, LEVEL.MAINTAINER);
  await t.add(sub, z, LEVEL.DEVELOPER);
  // Groups the subgroup and a public group are shared with.
  const invitedPublic = await t.group({ visibility: 'public' });
  const p = await t.user();
  await t.add(invitedPublic, p, LEVEL.DEVELOPER);
  // q: Maintainer of the invited group, which is invited as Developer.
  const q = await t.user();
  await t.add(invitedPublic, q, LEVEL.MAINTAINER);
  await t.world.shareGroup(sub, invitedPublic, LEVEL.DEVELOPER);
  const invitedPrivate = await t.group();
  const r = await t.user();
  await t.add(invitedPrivate, r, LEVEL.DEVELOPER);
  const shared = await t.group({ visibility: 'public' });
  const sm = await t.user();
  await t.add(shared, sm, LEVEL.DEVELOPER);
  const sg = await t.user();
  await t.add(shared, sg, LEVEL.GUEST);
  await t.world.shareGroup(shared, invitedPublic, LEVEL.DEVELOPER);
  await t.world.shareGroup(shared, invitedPrivate, LEVEL.DEVELOPER);
  // An owner of the shared group who is no member of the private invited group.
  const so = await t.user();
  await t.add(shared, so, LEVEL.OWNER);
  const inSub = [t.run.adminId, ...ROLES.map((role) => t.run.actors[role].id), x.id, y.id, z.id, p.id, q.id];
  return { top, sub, shared, x, y, z, p, q, r, sm, sg, so, inSub };
});

suite.test(
  {
    case: 'inherited-and-invited',
    title: 'all members of a subgroup: its own, those of the parent group and those of a group it is shared with, each once',
    clauses: ['members.all.inherited', 'members.entity.shape'],
    requires: { minVersion: '12.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { sub, inSub } = world();
    const items = await listAll(as('owner'), allMembersPath(sub), 'member');
    const ids = items.map((m) => m.id);
    expectEqual(ids.length, new Set(ids).size, 'each user to appear once');
    expectEqual(sorted(ids), sorted(inSub), 'the direct, inherited and invited members of the subgroup');
  },
);

suite.test(
  {
    case: 'highest-level',
    title: 'a user who is a member of the subgroup and of its parent appears once, with the higher level; a member of an invited group has at most the level the group was invited with',
    clauses: ['members.all.highest-level', 'members.all.invited-level'],
    requires: { minVersion: '12.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { top, sub, x, y, p, q } = world();
    const items = await listAll(as('owner'), allMembersPath(sub), 'member');
    expectEqual(findIn(items, x.id, 'x').access_level, LEVEL.MAINTAINER, 'x: Developer in the parent, Maintainer in the subgroup → 40');
    expectEqual(findIn(items, y.id, 'y').access_level, LEVEL.MAINTAINER, 'y: Guest in the subgroup, Maintainer in the parent → 40');
    expectEqual(findIn(items, run.actors.owner.id, 'the owner').access_level, LEVEL.OWNER, 'the inherited owner');
    expectEqual(findIn(items, p.id, 'p').access_level, LEVEL.DEVELOPER, 'p, Developer of the invited group');
    expectEqual(findIn(items, q.id, 'q').access_level, LEVEL.DEVELOPER, 'q, Maintainer of a group invited as Developer → 30 (the lower of the two)');
    const above = await listAll(as('owner'), allMembersPath(top), 'member');
    expectEqual(findIn(above, x.id, 'x in the parent').access_level, LEVEL.DEVELOPER, 'x in the parent group, where only the Developer membership counts');
  },
);

suite.test(
  {
    case: 'invited-visibility',
    title: 'members of a public invited group are shown to anyone; those of a private one only to its members',
    clauses: ['members.all.invited-visible'],
    requires: { minVersion: '12.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, withToken }) => {
    const { shared, p, r, sm } = world();
    const byOutsider = idsOf(await listAll(as('outsider'), allMembersPath(shared), 'member'));
    expectTrue(byOutsider.includes(p.id), 'an outsider to see the member of the public invited group', `ids: ${byOutsider.join(', ')}`);
    expectTrue(byOutsider.includes(sm.id), 'an outsider to see the direct member of the public group', `ids: ${byOutsider.join(', ')}`);
    expectTrue(!byOutsider.includes(r.id), 'an outsider not to see the member of the private invited group', `ids: ${byOutsider.join(', ')}`);
    const byInvited = idsOf(await listAll(withToken(r.tokens.api, 'a member of the private invited group'), allMembersPath(shared), 'member'));
    expectTrue(byInvited.includes(r.id), 'a member of the private invited group to see its members', `ids: ${byInvited.join(', ')}`);
  },
);

suite.test(
  {
    case: 'invited-private-to-source-members',
    title: 'a member of the shared group sees the members of an invited private group, without their created_by',
    clauses: ['members.all.invited-private-to-source-members', 'members.entity.created-by'],
    requires: { minVersion: '17.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ withToken }) => {
    const { shared, p, r, sm } = world();
    const items = await listAll(withToken(sm.tokens.api, 'a member of the shared group'), allMembersPath(shared), 'member');
    const rowR = findIn(items, r.id, 'the member of the private invited group');
    // gitlab-facts §4: created_by is left out when the member's source is not accessible to the viewer.
    expectEqual(rowR.created_by, undefined, 'no created_by for a member of a group the viewer cannot see');
    expectTrue(findIn(items, p.id, 'the member of the public invited group').created_by !== undefined, 'created_by for the member of the public invited group');
  },
);

suite.test(
  {
    case: 'invited-private-to-owner',
    title: 'an owner of the shared group, who manages its members, sees the members of an invited private group with their created_by',
    clauses: ['members.all.invited-private-to-source-members', 'members.entity.created-by'],
    requires: { minVersion: '17.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ withToken, run }) => {
    const { shared, r, so } = world();
    const items = await listAll(withToken(so.tokens.api, 'an owner of the shared group'), allMembersPath(shared), 'member');
    // GitLab hides the source only from viewers who cannot manage the members (InvitedPrivateGroupAccessibilityAssigner).
    expectEqual(findIn(items, r.id, 'the member of the private invited group').created_by?.id, run.adminId, 'created_by of the private invited group\'s member, shown to an owner');
  },
);

suite.test(
  {
    case: 'invited-private-to-guest',
    title: 'a Guest of the shared group also sees the members of an invited private group',
    clauses: ['members.all.invited-private-to-source-members'],
    requires: { minVersion: '17.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ withToken }) => {
    const { shared, p, r, sm, sg } = world();
    const items = await listAll(withToken(sg.tokens.api, 'a Guest of the shared group'), allMembersPath(shared), 'member');
    const ids = idsOf(items);
    for (const [id, who] of [[r.id, 'the private invited group\'s member'], [p.id, 'the public invited group\'s member'], [sm.id, 'the Developer'], [sg.id, 'the Guest']] as const) {
      expectTrue(ids.includes(id), `the Guest to see ${who}`, `ids: ${ids.join(', ')}`);
    }
    expectEqual(findIn(items, sg.id, 'the Guest').access_level, LEVEL.GUEST, 'the Guest\'s own level');
  },
);

suite.test(
  {
    case: 'invited-private-own-members',
    title: 'a member of an invited private group sees its members with created_by: their source is accessible to them',
    clauses: ['members.all.invited-visible', 'members.entity.created-by'],
    requires: { minVersion: '12.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ withToken, run }) => {
    const { shared, r } = world();
    const items = await listAll(withToken(r.tokens.api, 'a member of the private invited group'), allMembersPath(shared), 'member');
    const own = findIn(items, r.id, 'the viewer\'s own row');
    expectEqual(own.access_level, LEVEL.DEVELOPER, 'the level of the invited group\'s member');
    expectEqual(own.created_by?.id, run.adminId, 'created_by: the administrator who added the member to the private group');
  },
);

suite.test(
  {
    case: 'state-filter',
    title: 'state=awaiting keeps the awaiting members, state=active the others; another value is refused',
    clauses: ['members.all.state-filter'],
    requires: { minVersion: '12.4', capabilities: ['premium'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { top, sub, y, inSub } = world();
    expectOk(await as('owner').put(statePath(top, y.id), { body: { state: 'awaiting' } }), 200, 'member-state-result');
    try {
      const awaiting = await as('owner').get(allMembersPath(sub), { query: { state: 'awaiting' } });
      expectOk(awaiting, 200, 'member', { list: true });
      expectEqual(idsOf(awaiting.body as MemberBody[]), [y.id], 'the awaiting members', awaiting);
      const active = idsOf(await listAll(as('owner'), allMembersPath(sub), 'member', { state: 'active' }));
      expectEqual(active, sorted(inSub.filter((id) => id !== y.id)), 'the active members');
      expectParamError(await as('owner').get(allMembersPath(sub), { query: { state: 'sleeping' } }), 'state');
    } finally {
      expectStatus(await as('owner').put(statePath(top, y.id), { body: { state: 'active' } }), 200, 'making y active again');
    }
  },
);

suite.test(
  {
    case: 'filters',
    title: 'query and user_ids narrow all members as they do direct ones',
    clauses: ['members.list.query', 'members.list.user-ids'],
    requires: { minVersion: '12.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { sub, x, p } = world();
    const byQuery = await as('developer').get(allMembersPath(sub), { query: { query: x.username } });
    expectOk(byQuery, 200, 'member', { list: true });
    expectEqual(idsOf(byQuery.body as MemberBody[]), [x.id], 'the inherited member found by username', byQuery);
    const byIds = await as('developer').get(allMembersPath(sub), { query: { user_ids: `${x.id},${p.id}` } });
    expectOk(byIds, 200, 'member', { list: true });
    expectEqual(idsOf(byIds.body as MemberBody[]), sorted([x.id, p.id]), 'the members named by user_ids', byIds);
  },
);

suite.test(
  {
    case: 'pagination',
    title: 'page and per_page page through all members with GitLab\'s headers',
    clauses: ['members.pagination'],
    requires: { minVersion: '12.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { sub, inSub } = world();
    await checkPagination(as('guest'), allMembersPath(sub), 'member', inSub);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'inherited members of a private subgroup may list all its members; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    requires: { minVersion: '12.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    await expectReadMatrix(as, allMembersPath(world().sub), '404 Group Not Found', 'member', true);
  },
);

suite.test(
  {
    case: 'enterprise-email-in-subgroup',
    title: 'in a subgroup of the enterprise group, its owner sees the enterprise user\'s email (inherited member) and no other',
    clauses: ['members.entity.email-enterprise'],
    requires: { minVersion: '12.4', capabilities: ['enterprise_users'], fixtures: ['enterprise'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, withToken, run }) => {
    const fx = fixture(run.fixtures, 'enterprise')!;
    const { t } = world();
    await exclusively(run, 'enterprise', async () => {
      const sub = await t.world.group({ parent: { kind: 'group', id: fx.group_id, name: String(fx.group_id), fullPath: String(fx.group_id) }, hint: 'enterprise-sub' });
      try {
        const items = await listAll(withToken(fx.ownerToken, 'enterprise group owner'), allMembersPath(sub), 'member');
        expectTrue(typeof findIn(items, fx.enterprise_user_id, 'the enterprise user').email === 'string', 'the owner to see the enterprise user\'s email in the subgroup');
        expectEqual(findIn(items, fx.other_user_id, 'the other member').email, undefined, 'no email for the member who is not an enterprise user');
      } finally {
        expectStatus(await as('admin').delete(apiPath`/groups/${sub.id}`), [202, 204], 'deleting the temporary subgroup');
      }
    });
  },
);
