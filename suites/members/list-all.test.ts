// GET /groups/:id/members/all and GET /projects/:id/members/all: direct, inherited and invited
// members of a group or project.
import { expectEqual, expectOk, expectStatus, expectTrue, parity } from '../../runner/core/checks.js';
import { endpoint, fixture, type MembersContext } from './kit.js';
import type { ActorInfo } from '../../runner/run/context.js';
import { ACCESS, ROLE_LEVEL, ROLES, sourceNotFound, type SourceKind } from '../../runner/core/vocabulary.js';
import type { GroupInfo } from '../../runner/core/vocabulary.js';
import {
  allMembersPath,
  checkPagination,
  expectParamError,
  expectParentMembersRefused,
  expectReadMatrix,
  findIn,
  idsOf,
  inTemporarySource,
  knownDirect,
  listAll,
  manager,
  membersPath,
  privateParent,
  shareWith,
  sorted,
  sourceIn,
  statePath,
  GITLAB,
  type MemberBody,
  personalProject,
  enterpriseGroup,
} from './helpers.js';
import { requesterReadsCase } from './cases.js';
import { projectBot } from '../common/project-bot.js';

/** The groups the sources of both kinds are shared with. */
interface Invited {
  /** p: its Developer; q: its Maintainer (the group is invited as Developer). */
  publicGroup: GroupInfo;
  /** r: its Developer. */
  privateGroup: GroupInfo;
  /** qa: its Reporter; shared with the group right above the source. */
  intoParent: GroupInfo;
}

/** The users of each side's hierarchy and shared source (build). */
interface People {
  x: ActorInfo;
  y: ActorInfo;
  z: ActorInfo;
  sm: ActorInfo;
  sg: ActorInfo;
  so: ActorInfo;
}

/**
 * The source of the kind (a subgroup of a role group; a project in a subgroup of a role group) with
 * members on several levels of its hierarchy and of groups it is shared with, and a public source
 * shared with a public and a private group.
 */
async function build(t: MembersContext, kind: SourceKind, invited: Invited, people: People) {
  // At the top: the state of a membership is set on a top-level group.
  const top = await t.roleGroup({ top: true });
  const sub = await t.group({ parent: top });
  const source = kind === 'group' ? sub : await sourceIn(t, kind, sub);
  // The group right above the source.
  const parent = kind === 'group' ? top : sub;
  // x: Developer of the top group, Maintainer of the source; y: Guest of the source, Maintainer of
  // the group above it (added in that order: a membership may not be lower than an inherited one);
  // z: Guest of the source only.
  const { x, y, z, sm, sg, so } = people;
  await t.add(top, x, ACCESS.DEVELOPER);
  await t.add(source, x, ACCESS.MAINTAINER);
  await t.add(source, y, ACCESS.GUEST);
  await t.add(parent, y, ACCESS.MAINTAINER);
  await t.add(source, z, ACCESS.GUEST);
  await shareWith(t, source, invited.publicGroup, ACCESS.DEVELOPER);
  await t.make.share(parent, invited.intoParent, ACCESS.REPORTER);
  // A public source shared with the public and the private group: sm its Developer, sg its Guest,
  // so the lowest role that manages its members (Owner of a group, Maintainer of a project).
  const shared = await sourceIn(t, kind, await t.group({ visibility: 'public' }), 'public');
  await t.add(shared, sm, ACCESS.DEVELOPER);
  await t.add(shared, sg, ACCESS.GUEST);
  await t.add(shared, so, ROLE_LEVEL[manager(kind)]);
  await shareWith(t, shared, invited.publicGroup, ACCESS.DEVELOPER);
  await shareWith(t, shared, invited.privateGroup, ACCESS.DEVELOPER);
  return { top, parent, source, shared, x, y, z, sm, sg, so };
}

const sources = fixture({ name: 'members-members-list-all', scope: 'file', fixtures: { personalProject, privateParent }, build: async (t) => {
  const publicGroup = await t.group({ visibility: 'public' });
  const [p, q] = [await t.lease(), await t.lease()];
  await t.add(publicGroup, p, ACCESS.DEVELOPER);
  await t.add(publicGroup, q, ACCESS.MAINTAINER);
  const privateGroup = await t.group();
  const r = await t.member(privateGroup, ACCESS.DEVELOPER);
  const intoParent = await t.group({ visibility: 'public' });
  const qa = await t.member(intoParent, ACCESS.REPORTER);
  const invited = { publicGroup, privateGroup, intoParent };
  // The same six users play their parts on both sides: the group's and the project's hierarchies share no group.
  const people: People = { x: await t.lease(), y: await t.lease(), z: await t.lease(), sm: await t.lease(), sg: await t.lease(), so: await t.lease() };
  const sides = { group: await build(t, 'group', invited, people), project: await build(t, 'project', invited, people) };
  // Everyone of the source: the administrator (creator of the groups above), the role actors of
  // the top group, x, y, z, the members of the public group it is shared with and of the group
  // shared with the group above it.
  const everyone = (kind: SourceKind) => {
    const { x, y, z } = sides[kind];
    return [t.run.adminId, ...ROLES.map((role) => t.run.actors[role].id), x.id, y.id, z.id, p.id, q.id, qa.id];
  };
  return {
    group: { ...sides.group, all: everyone('group') },
    project: { ...sides.project, all: everyone('project') },
    p,
    q,
    r,
    qa,
    // A project in the administrator's own namespace (no group above it), with the role actors.
    personal: t.personalProject,
    private: t.privateParent,
  };
} });

const suite = endpoint('list-all', { fixtures: { sources } });

suite.test(
  {
    case: 'inherited-and-invited',
    title: 'all members: its own, those of the groups above it, of a group it is shared with and of a group shared with the group above it, each once',
    clauses: ['members.all.inherited', 'members.all.highest-level', 'members.entity.shape'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, sources }) => {
    const { source, all } = sources[kind];
    const ids = (await listAll(as('maintainer'), allMembersPath(source), 'member')).map((m) => m.id);
    expectEqual(ids.length, new Set(ids).size, 'each user to appear once');
    expectEqual(sorted(ids), sorted(all), `the direct, inherited and invited members of the ${kind}`);
  },
);

suite.test(
  {
    case: 'query-empty',
    title: 'an empty query (query=) lists all members, as without it',
    clauses: ['members.list.query-empty'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, sources }) => {
    const { source, all } = sources[kind];
    const ids = (await listAll(as('maintainer'), allMembersPath(source), 'member', { query: '' })).map((m) => m.id);
    expectEqual(sorted(ids), sorted(all), `the direct, inherited and invited members of the ${kind} with query=`);
  },
);

suite.test(
  {
    case: 'highest-level',
    title: 'a user who is a member of the source and of a group above it appears once, with the higher level; a member of an invited group has at most the level the group was invited with',
    clauses: ['members.all.highest-level', 'members.all.invited-level'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, run, sources }) => {
    const { parent, source, x, y, z } = sources[kind];
    const { p, q, qa } = sources;
    const items = await listAll(as('developer'), allMembersPath(source), 'member');
    expectEqual(findIn(items, x.id, 'x').access_level, ACCESS.MAINTAINER, 'x: Developer of the top group, Maintainer of the source → 40');
    expectEqual(findIn(items, y.id, 'y').access_level, ACCESS.MAINTAINER, 'y: Guest of the source, Maintainer of the group above → 40');
    expectEqual(findIn(items, z.id, 'z').access_level, ACCESS.GUEST, 'z: Guest of the source only');
    expectEqual(findIn(items, run.actors.owner.id, 'the owner').access_level, ACCESS.OWNER, 'the inherited owner');
    expectEqual(findIn(items, p.id, 'p').access_level, ACCESS.DEVELOPER, 'p, Developer of the invited group');
    expectEqual(findIn(items, q.id, 'q').access_level, ACCESS.DEVELOPER, 'q, Maintainer of a group invited as Developer → 30 (the lower of the two)');
    expectEqual(findIn(items, qa.id, 'qa').access_level, ACCESS.REPORTER, 'qa, Reporter of the group shared with the group above');
    const above = await listAll(as('owner'), allMembersPath(parent), 'member');
    expectEqual(findIn(above, x.id, 'x in the group above').access_level, ACCESS.DEVELOPER, 'x in the group above the source, where only the Developer membership counts');
  },
);

suite.test(
  {
    case: 'invited-visibility',
    title: 'members of a public invited group are shown to anyone; those of a private one only to its members',
    clauses: ['members.all.invited-visible'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, withToken, sources }) => {
    const { shared, sm } = sources[kind];
    const { p, r } = sources;
    const byOutsider = idsOf(await listAll(as('outsider'), allMembersPath(shared), 'member'));
    expectTrue(byOutsider.includes(p.id), 'an outsider to see the member of the public invited group', `ids: ${byOutsider.join(', ')}`);
    expectTrue(byOutsider.includes(sm.id), `an outsider to see the direct member of the public ${kind}`, `ids: ${byOutsider.join(', ')}`);
    expectTrue(!byOutsider.includes(r.id), 'an outsider not to see the member of the private invited group', `ids: ${byOutsider.join(', ')}`);
    const byInvited = idsOf(await listAll(withToken(r.tokens.api, 'a member of the private invited group'), allMembersPath(shared), 'member'));
    expectTrue(byInvited.includes(r.id), 'a member of the private invited group to see its members', `ids: ${byInvited.join(', ')}`);
  },
);

suite.test(
  {
    case: 'invited-private-to-source-members',
    title: 'a member of the shared group or project sees the members of an invited private group (GitLab parity: without their created_by)',
    clauses: ['members.all.invited-private-to-source-members', 'members.entity.created-by'],
    requires: { minVersion: '17.0' },
  },
  async ({ kind, withToken, log, sources }) => {
    const { shared, sm } = sources[kind];
    const { p, r } = sources;
    const items = await listAll(withToken(sm.tokens.api, `a member of the shared ${kind}`), allMembersPath(shared), 'member');
    // The schema checked created_by, where present, as a user summary; the spec lists it without condition.
    const rowR = findIn(items, r.id, 'the member of the private invited group');
    expectTrue(findIn(items, p.id, 'the member of the public invited group').created_by !== undefined, 'created_by for the member of the public invited group');
    // GitLab hides who added a member of a private group the viewer cannot see (is_source_accessible_to_current_user).
    parity({ log }, GITLAB.createdBy, () => expectEqual(rowR.created_by, undefined, 'no created_by for a member of a group the viewer cannot see'));
  },
);

suite.test(
  {
    case: 'invited-private-to-manager',
    title: 'a member who manages the members of the shared source (Owner of a group, Maintainer of a project) sees the members of an invited private group with their created_by',
    clauses: ['members.all.invited-private-to-source-members', 'members.entity.created-by'],
    requires: { minVersion: '17.0' },
  },
  async ({ kind, withToken, run, sources }) => {
    const { shared, so, sm } = sources[kind];
    const { r } = sources;
    // A plain member's list first, from whom the source is hidden: the manager's list right after must not be that one.
    await listAll(withToken(sm.tokens.api, `a member of the shared ${kind}`), allMembersPath(shared), 'member');
    const items = await listAll(withToken(so.tokens.api, `a ${manager(kind)} of the shared ${kind}`), allMembersPath(shared), 'member');
    // GitLab hides the source only from viewers who cannot manage the members (app/services/members/invited_private_group_accessibility_assigner.rb).
    expectEqual(findIn(items, r.id, 'the member of the private invited group').created_by?.id, run.adminId, `created_by of the private invited group's member, shown to a ${manager(kind)}`);
  },
);

suite.test(
  {
    case: 'invited-private-to-guest',
    title: 'a Guest of the shared group or project also sees the members of an invited private group',
    clauses: ['members.all.invited-private-to-source-members'],
    requires: { minVersion: '17.0' },
  },
  async ({ kind, withToken, sources }) => {
    const { shared, sm, sg } = sources[kind];
    const { p, r } = sources;
    const items = await listAll(withToken(sg.tokens.api, `a Guest of the shared ${kind}`), allMembersPath(shared), 'member');
    const ids = idsOf(items);
    for (const [id, who] of [[r.id, 'the private invited group\'s member'], [p.id, 'the public invited group\'s member'], [sm.id, 'the Developer'], [sg.id, 'the Guest']] as const) {
      expectTrue(ids.includes(id), `the Guest to see ${who}`, `ids: ${ids.join(', ')}`);
    }
    expectEqual(findIn(items, sg.id, 'the Guest').access_level, ACCESS.GUEST, 'the Guest\'s own level');
  },
);

suite.test(
  {
    case: 'invited-private-own-members',
    title: 'a member of an invited private group sees its members with created_by: their source is accessible to them',
    clauses: ['members.all.invited-visible', 'members.entity.created-by'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, withToken, run, sources }) => {
    const { shared } = sources[kind];
    const { r } = sources;
    const items = await listAll(withToken(r.tokens.api, 'a member of the private invited group'), allMembersPath(shared), 'member');
    const own = findIn(items, r.id, 'the viewer\'s own row');
    expectEqual(own.access_level, ACCESS.DEVELOPER, 'the level of the invited group\'s member');
    expectEqual(own.created_by?.id, run.adminId, 'created_by: the administrator who added the member to the private group');
  },
);

suite.test(
  {
    case: 'state-filter',
    title: 'state=awaiting keeps the awaiting members, state=active the others; another value is refused',
    clauses: ['members.all.state-filter'],
    requires: { minVersion: '12.4', capabilities: ['premium'] },
  },
  async ({ kind, as, sources }) => {
    const { top, source, y, all } = sources[kind];
    // The state is set on the top-level group and applies to the user's memberships in its whole hierarchy.
    expectOk(await as('owner').put(statePath(top, y.id), { body: { state: 'awaiting' } }), 200, 'member-state-result');
    try {
      const awaiting = await as('owner').get(allMembersPath(source), { query: { state: 'awaiting' } });
      expectOk(awaiting, 200, 'member', { list: true });
      expectEqual(idsOf(awaiting.body as MemberBody[]), [y.id], 'the awaiting members', awaiting);
      const active = idsOf(await listAll(as('owner'), allMembersPath(source), 'member', { state: 'active' }));
      expectEqual(active, sorted(all.filter((id) => id !== y.id)), 'the active members');
      expectParamError(await as('owner').get(allMembersPath(source), { query: { state: 'sleeping' } }), 'state', `${GITLAB.eeHelpers} (optional_state_filter_ee: values awaiting, active); ${GITLAB.grape}`);
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
  },
  async ({ kind, as, sources }) => {
    const { source, x } = sources[kind];
    const { p } = sources;
    const byQuery = await as('developer').get(allMembersPath(source), { query: { query: x.username } });
    expectOk(byQuery, 200, 'member', { list: true });
    expectEqual(idsOf(byQuery.body as MemberBody[]), [x.id], 'the member found by username', byQuery);
    const byIds = await as('developer').get(allMembersPath(source), { query: { user_ids: `${x.id},${p.id}` } });
    expectOk(byIds, 200, 'member', { list: true });
    expectEqual(idsOf(byIds.body as MemberBody[]), sorted([x.id, p.id]), 'the members named by user_ids', byIds);
  },
);

suite.test(
  {
    case: 'created-by-absent',
    title: 'in …/members/all, a member nobody added carries no created_by (GitLab parity: absent, not null) — the creator of the groups above, the bot of a project\'s access token — next to a member the administrator added, whose created_by is the administrator',
    clauses: ['members.entity.created-by-absent', 'members.entity.created-by'],
    fixtures: { projectBot },
  },
  async ({ kind, as, run, log, sources, projectBot }) => {
    const { source, x } = sources[kind];
    // The group: a subgroup of a top-level group, the administrator the direct Owner of both through
    // Groups::CreateService (add_owner, no current_user). The project: the run's project with a bot,
    // a member through ResourceAccessTokens::CreateService (add_member, no current_user).
    const { project, bot } = projectBot;
    const [nobodys, userId] = kind === 'group' ? [source, run.adminId] : [project, bot.id];
    const row = findIn(await listAll(as('owner'), allMembersPath(nobodys), 'member'), userId, kind === 'group' ? 'the administrator who made the groups' : 'the project\'s bot');
    expectTrue(row.created_by === undefined || row.created_by === null, 'no created_by for a member nobody added', `got ${JSON.stringify(row.created_by)}`);
    parity({ log }, `${GITLAB.createdBy} (expose_nil: false)`, () => expectTrue(!Object.hasOwn(row, 'created_by'), 'created_by left out', `got ${JSON.stringify(row.created_by)}`));
    // x: Developer of the top group and Maintainer of the source, both added by the administrator.
    const added = findIn(await listAll(as('owner'), allMembersPath(source), 'member'), x.id, 'x, added by the administrator');
    expectEqual(added.created_by?.id, run.adminId, 'created_by of x: the administrator who added it');
  },
);

suite.test(
  {
    case: 'pagination',
    title: 'page and per_page page through all members with GitLab\'s headers',
    clauses: ['members.pagination'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, sources }) => {
    const { source, all } = sources[kind];
    await checkPagination(as('guest'), allMembersPath(source), 'member', all);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'inherited members of a private group or project may list all its members; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, sources }) => {
    await expectReadMatrix(as, allMembersPath(sources[kind].source), sourceNotFound(kind), 'member', true);
  },
);

suite.test(
  {
    case: 'enterprise-email',
    title: 'in a subgroup or project of the enterprise group, its owner sees the enterprise user\'s email (inherited or direct member) and no other',
    clauses: ['members.entity.email-enterprise'],
    requires: { minVersion: '12.4', capabilities: ['enterprise_users'], provisioned: ['enterprise'] },
    fixtures: { enterpriseGroup },
  },
  async ({ enterpriseGroup, ...kit }) => {
    const { kind, withToken } = kit;
    const fx = enterpriseGroup;
    const owner = withToken(fx.ownerToken, 'enterprise group owner');
    await inTemporarySource(kit, kind, fx.group_id, `enterprise-${kind}`, async (source) => {
      const items = await listAll(owner, allMembersPath(source), 'member');
      expectTrue(typeof findIn(items, fx.enterprise_user_id, 'the enterprise user').email === 'string', `the owner to see the enterprise user's email in the ${kind}`);
      expectEqual(findIn(items, fx.other_user_id, 'the other member').email, undefined, 'no email for the member who is not an enterprise user');
      // Direct memberships of the source: its top-level group is still the enterprise group.
      for (const id of [fx.enterprise_user_id, fx.other_user_id]) await kit.add(source, { id }, ACCESS.OWNER);
      const direct = await listAll(owner, membersPath(source), 'member');
      expectTrue(typeof findIn(direct, fx.enterprise_user_id, 'the enterprise user, a direct member').email === 'string', `the owner to see the email of the enterprise user's ${kind} membership`);
      const all = await listAll(owner, allMembersPath(source), 'member');
      expectTrue(typeof findIn(all, fx.enterprise_user_id, 'the enterprise user, a direct member').email === 'string', `the owner to see the email of the enterprise user among all members of the ${kind}`);
      expectEqual(findIn(all, fx.other_user_id, 'the other member, a direct member').email, undefined, 'no email for the direct member who is not an enterprise user');
    });
  },
);

suite.test(
  {
    case: 'no-email',
    title: 'an owner who is not an administrator sees no email among all members',
    clauses: ['members.entity.email-hidden'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, sources }) => {
    const items = await listAll(as('owner'), allMembersPath(sources[kind].source), 'member');
    expectEqual(items.filter((m) => m.email !== undefined).map((m) => m.username), [], 'no member to carry an email');
  },
);

suite.test(
  {
    case: 'user-namespace',
    title: 'all members of a project in a user\'s namespace (no group above it) are its direct members, each once, with their levels',
    clauses: ['members.all.inherited', 'members.entity.shape'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'only a project can live in a user\'s personal namespace; a group always has a group or nothing above it' },
  },
  async ({ as, run, sources }) => {
    const { personal } = sources;
    const items = await listAll(as('guest'), allMembersPath(personal), 'member');
    const ids = items.map((m) => m.id);
    expectEqual(ids.length, new Set(ids).size, 'each user to appear once');
    // The administrator owns the namespace: GitLab may list them (as the namespace owner) or not.
    expectEqual(sorted(knownDirect(run, 'project', ids)), sorted(ROLES.map((role) => run.actors[role].id)), 'the direct members of the personal project');
    expectEqual(findIn(items, run.actors.maintainer.id, 'the maintainer').access_level, ACCESS.MAINTAINER, 'the maintainer\'s level');
  },
);

requesterReadsCase(suite, { lists: 'all its members', path: allMembersPath });

suite.test(
  {
    case: 'subgroup-member-private-parent',
    title: 'a member of a subgroup only may not list all members of the private parent group: 403 or 404 (GitLab: 403 "403 Forbidden")',
    clauses: ['members.read.private-parent'],
    only: { kind: 'group', why: 'only a group has subgroups whose members may see it without being its members' },
  },
  async ({ withToken, sources }) => {
    const { parent, subMember } = sources.private;
    expectParentMembersRefused(await withToken(subMember.tokens.api, 'a member of the subgroup only').get(allMembersPath(parent)));
  },
);

suite.test(
  {
    case: 'user-ids-with-non-member',
    title: 'user_ids naming a member and a user who is none lists the member only',
    clauses: ['members.list.user-ids'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, run, sources }) => {
    const { source, x } = sources[kind];
    const res = await as('developer').get(allMembersPath(source), { query: { user_ids: `${x.id},${run.actors.outsider.id}` } });
    expectOk(res, 200, 'member', { list: true });
    expectEqual(idsOf(res.body as MemberBody[]), [x.id], 'only the member among the user_ids', res);
  },
);
