// GET /groups/:id/members and GET /projects/:id/members: the direct members of a group or project.
import { isDeepStrictEqual } from 'node:util';
import { expectEqual, expectOk, expectStatus, expectTrue, parity, expectSetUp } from '../../runner/core/checks.js';
import { endpoint, fixture, type MembersContext } from './kit.js';
import { segment } from '../../runner/core/client.js';
import { ACCESS, dateIn, ROLES, sourceNotFound, sourcePath, type SourceKind } from '../../runner/core/vocabulary.js';
import {
  checkPagination,
  expectAnonymous401,
  expectParamError,
  expectPerPageZeroRefused,
  expectReadMatrix,
  expectSourceNotFound,
  findIn,
  idsOf,
  inTemporarySource,
  knownDirect,
  listAll,
  memberIds,
  membersPath,
  nameSearchTerm,
  roleSourceIn,
  shareWith,
  sorted,
  LEVEL,
  GITLAB,
  type MemberBody,
  personalProject,
  enterpriseGroup,
} from './helpers.js';
import { minimalAccessCase, requesterReadsCase } from './cases.js';
import { projectBot } from '../common/project-bot.js';

const expiry = dateIn(40);

/**
 * A source of the kind with the role actors and a, b, c as direct members, below a group with a
 * member of its own (inherited, not direct) and shared with a group whose member is not direct
 * either; and a public source with the role actors.
 */
async function build(t: MembersContext, kind: SourceKind) {
  const parent = await t.group();
  const inherited = await t.member(parent, ACCESS.DEVELOPER);
  const source = await roleSourceIn(t, kind, parent);
  const [a, b, c] = [await t.lease(), await t.lease(), await t.lease()];
  // `a` is added with an expiry, by the administrator (its created_by).
  const added = await t.admin.post(membersPath(source), { body: { user_id: a.id, access_level: ACCESS.DEVELOPER, expires_at: expiry } });
  expectSetUp(added, 'adding a member with an expiry');
  await t.add(source, b, ACCESS.REPORTER);
  await t.add(source, c, ACCESS.MAINTAINER);
  const invited = await t.group();
  const viaInvite = await t.member(invited, ACCESS.DEVELOPER);
  await shareWith(t, source, invited, ACCESS.DEVELOPER);
  const publicSource = await roleSourceIn(t, kind, await t.group({ visibility: 'public' }), 'public');
  // The administrator created the source: always a group's direct Owner, maybe a project's member (knownDirect).
  const direct = [...(kind === 'group' ? [t.run.adminId] : []), ...ROLES.map((r) => t.run.actors[r].id), a.id, b.id, c.id];
  return { source, publicSource, a, b, c, inherited, viaInvite, direct };
}

const sources = fixture({ name: 'members-members-list', scope: 'file', fixtures: { personalProject }, build: async (t) => ({
  group: await build(t, 'group'),
  project: await build(t, 'project'),
  // A project in the administrator's own namespace: no group above it.
  personal: t.personalProject,
}) });

const suite = endpoint('list', { fixtures: { sources } });

suite.test(
  {
    case: 'direct-only',
    title: 'the list holds exactly the direct members: not members of the group above, not members of a group it is shared with',
    clauses: ['members.list.direct-only', 'members.entity.shape'],
  },
  async ({ kind, as, run, sources }) => {
    const { source, inherited, viaInvite, direct } = sources[kind];
    const ids = await memberIds(as('owner'), source);
    expectEqual(knownDirect(run, kind, ids), sorted(direct), `the direct members of the ${kind}`);
    expectTrue(!ids.includes(inherited.id) && !ids.includes(viaInvite.id), 'neither the member of the group above nor the invited group\'s member to be listed', `ids: ${ids.join(', ')}`);
  },
);

suite.test(
  {
    case: 'member-fields',
    title: 'each member shows its level, its expiry (a date or null) and who added it',
    clauses: ['members.entity.shape', 'members.entity.created-by'],
  },
  async ({ kind, as, run, sources }) => {
    const { source, a, b, c } = sources[kind];
    const items = await listAll(as('developer'), membersPath(source), 'member');
    const rowA = findIn(items, a.id, 'member a in the list');
    expectEqual([rowA.username, rowA.access_level, rowA.expires_at], [a.username, ACCESS.DEVELOPER, expiry], 'username, access_level and expires_at of a');
    expectEqual(rowA.created_by?.id, run.adminId, 'created_by of a to be the administrator who added it');
    const rowB = findIn(items, b.id, 'member b');
    expectEqual([rowB.access_level, rowB.expires_at], [ACCESS.REPORTER, null], 'access_level and expires_at of b (added without expiry: null)');
    const rowC = findIn(items, c.id, 'member c');
    expectEqual([rowC.access_level, rowC.expires_at], [ACCESS.MAINTAINER, null], 'access_level and expires_at of c (added without expiry: null)');
  },
);

suite.test(
  {
    case: 'created-by-absent',
    title: 'in the list, a member nobody added carries no created_by (GitLab parity: absent, not null) — the creator of a group, the bot of a project\'s access token — next to a member the administrator added, whose created_by is the administrator',
    clauses: ['members.entity.created-by-absent', 'members.entity.created-by'],
    fixtures: { projectBot },
  },
  async ({ kind, as, run, log, sources, projectBot }) => {
    const { source, a } = sources[kind];
    // GitLab: spec/requests/api/members_spec.rb (GET members: contain_exactly(a_hash_including('created_by' => …), hash_not_including('created_by'))).
    // A group's creator is its Owner through Groups::CreateService (add_owner, no current_user); a
    // project's bot through ResourceAccessTokens::CreateService (add_member, no current_user).
    const { project, bot } = projectBot;
    const [nobodys, userId] = kind === 'group' ? [source, run.adminId] : [project, bot.id];
    const row = findIn(await listAll(as('owner'), membersPath(nobodys), 'member'), userId, kind === 'group' ? 'the administrator who made the group' : 'the project\'s bot');
    expectTrue(row.created_by === undefined || row.created_by === null, 'no created_by for a member nobody added', `got ${JSON.stringify(row.created_by)}`);
    parity({ log }, `${GITLAB.createdBy} (expose_nil: false)`, () => expectTrue(!Object.hasOwn(row, 'created_by'), 'created_by left out', `got ${JSON.stringify(row.created_by)}`));
    const added = findIn(await listAll(as('owner'), membersPath(source), 'member'), a.id, 'member a, added by the administrator');
    expectEqual(added.created_by?.id, run.adminId, 'created_by of a: the administrator who added it');
  },
);

suite.test(
  {
    case: 'no-email-for-owners',
    title: 'an owner who is not an administrator sees no email of ordinary members',
    clauses: ['members.entity.email-hidden'],
  },
  async ({ kind, as, sources }) => {
    const items = await listAll(as('owner'), membersPath(sources[kind].source), 'member');
    expectEqual(items.filter((m) => m.email !== undefined).map((m) => m.username), [], 'no member to carry an email');
  },
);

suite.test(
  {
    case: 'email-for-admins',
    title: 'an email shown to an administrator is the member\'s own (GitLab: every member\'s email is shown to administrators)',
    clauses: ['members.entity.email-admin'],
    requires: { capabilities: ['premium'] },
  },
  async ({ kind, as, run, log, sources }) => {
    const { source, a } = sources[kind];
    const items = await listAll(as('admin'), membersPath(source), 'member');
    const known = [[a.id, a.email, 'a'], [run.actors.developer.id, run.actors.developer.email, 'the developer']] as const;
    // The spec's rule names group owners only; an address shown must at least be the member's own.
    for (const [id, email, who] of known) {
      const shown = findIn(items, id, who).email;
      expectTrue(shown === undefined || shown === email, `the email shown for ${who} to be theirs`, `got ${String(shown)}`);
    }
    parity({ log }, `${GITLAB.eeEntity} (email if current_user.can_admin_all_resources?)`, () => {
      for (const [id, email, who] of known) expectEqual(findIn(items, id, who).email, email, `the email of ${who}, shown to an administrator`);
      expectTrue(items.every((m) => typeof m.email === 'string'), 'every member to carry an email for an administrator', items.filter((m) => m.email === undefined).map((m) => m.username).join(', '));
    });
  },
);

suite.test(
  {
    case: 'enterprise-email',
    title: 'owners of the enterprise group see the email of its enterprise users only, in the group and in its projects; other members see none',
    clauses: ['members.entity.email-enterprise'],
    requires: { capabilities: ['enterprise_users'], provisioned: ['enterprise'] },
    fixtures: { enterpriseGroup },
  },
  async ({ enterpriseGroup, ...kit }) => {
    const { kind, withToken } = kit;
    const fx = enterpriseGroup;
    const owner = withToken(fx.ownerToken, 'enterprise group owner');
    const viewer = await kit.lease();
    // The group itself; for a project, one made in the group with both users as direct members.
    const check = async (source: { kind: SourceKind; id: number }) => {
      const items = await listAll(owner, membersPath(source), 'member');
      expectTrue(typeof findIn(items, fx.enterprise_user_id, 'the enterprise user').email === 'string', 'the owner to see the enterprise user\'s email');
      expectEqual(findIn(items, fx.other_user_id, 'the other member').email, undefined, 'no email for the member who is not an enterprise user');
      // A Developer of the same source sees no email at all; the temporary member is removed again.
      await kit.add(source, viewer, ACCESS.DEVELOPER);
      try {
        const seen = await listAll(withToken(viewer.tokens.api, `a developer of the ${kind}`), membersPath(source), 'member');
        expectEqual(findIn(seen, fx.enterprise_user_id, 'the enterprise user').email, undefined, 'no email for a viewer who is not an owner');
      } finally {
        await kit.remove(source, viewer);
      }
    };
    if (kind === 'group') return check({ kind: 'group', id: fx.group_id });
    return inTemporarySource(kit, kind, fx.group_id, 'enterprise-project', async (project) => {
      // As Owners: a direct membership may not be lower than the level the users hold in the group.
      for (const id of [fx.enterprise_user_id, fx.other_user_id]) await kit.add(project, { id }, ACCESS.OWNER);
      await check(project);
    });
  },
);

suite.test(
  {
    case: 'query',
    title: 'query keeps the members whose username or name contains the string, ignoring case (GitLab: User.search)',
    clauses: ['members.list.query'],
  },
  async ({ kind, as, sources }) => {
    const { source, a } = sources[kind];
    for (const query of [a.username, a.username.toUpperCase().slice(2)]) {
      const res = await as('developer').get(membersPath(source), { query: { query } });
      expectOk(res, 200, 'member', { list: true });
      expectEqual(idsOf(res.body as MemberBody[]), [a.id], `the members matching "${query}"`, res);
    }
    // A part of the name, in capitals: other members may share it, so the expected set comes from the list.
    const term = nameSearchTerm(a.name);
    const everyone = await listAll(as('developer'), membersPath(source), 'member');
    const expected = everyone.filter((m) => `${m.name} ${m.username}`.toLowerCase().includes(term.toLowerCase()));
    const byName = await listAll(as('developer'), membersPath(source), 'member', { query: term });
    expectTrue(byName.some((m) => m.id === a.id), `the member found by the name "${term}"`, `got ids ${idsOf(byName).join(', ')}`);
    expectEqual(idsOf(byName), idsOf(expected), `the members whose name or username contains "${term}"`);
    const none = await as('developer').get(membersPath(source), { query: { query: 'no-such-member-anywhere' } });
    expectOk(none, 200, 'member', { list: true });
    expectEqual(none.body, [], 'no member for a string nobody has', none);
  },
);

suite.test(
  {
    case: 'query-empty',
    title: 'an empty query (query=) lists every direct member, as without it',
    clauses: ['members.list.query-empty'],
  },
  async ({ kind, as, run, sources }) => {
    const { source, direct } = sources[kind];
    const items = await listAll(as('developer'), membersPath(source), 'member', { query: '' });
    expectEqual(knownDirect(run, kind, idsOf(items)), sorted(direct), `the direct members of the ${kind} with query=`);
  },
);

suite.test(
  {
    case: 'seat-info-false',
    title: 'show_seat_info=false adds no seat information: each member has the fields it has without the parameter (GitLab: no is_using_seat)',
    clauses: ['members.entity.seat-hidden'],
    requires: { capabilities: ['premium'] },
  },
  async ({ kind, as, sources }) => {
    const { source } = sources[kind];
    const res = await as('owner').get(membersPath(source), { query: { show_seat_info: false, per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    const items = res.body as MemberBody[];
    const plain = new Map((await listAll(as('owner'), membersPath(source), 'member')).map((m) => [m.id, Object.keys(m).sort()]));
    const extra = items.filter((m) => !isDeepStrictEqual(Object.keys(m).sort(), plain.get(m.id))).map((m) => m.username);
    expectEqual(extra, [], 'every member to carry the fields it carries without show_seat_info', res);
    parity(res, `${GITLAB.eeEntity} (expose :is_using_seat, if: options[:show_seat_info])`, () => {
      expectTrue(items.every((m) => m.is_using_seat === undefined), 'no is_using_seat with show_seat_info=false', '', res);
    });
  },
);

suite.test(
  {
    case: 'user-ids',
    title: 'user_ids keeps only the members with these user ids',
    clauses: ['members.list.user-ids'],
  },
  async ({ kind, as, run, sources }) => {
    const { source, a, c, inherited } = sources[kind];
    const res = await as('guest').get(membersPath(source), { query: { user_ids: `${a.id},${c.id},${run.actors.outsider.id},${inherited.id}` } });
    expectOk(res, 200, 'member', { list: true });
    expectEqual(idsOf(res.body as MemberBody[]), sorted([a.id, c.id]), 'the members named by user_ids (the outsider is no member, the member of the group above no direct one)', res);
  },
);

suite.test(
  {
    case: 'skip-users',
    title: 'skip_users leaves out the members with these user ids',
    clauses: ['members.list.skip-users'],
    // The parameter is declared in CE (lib/api/members.rb) but applied by EE only (ee/lib/ee/api/helpers/members_helpers.rb retrieve_members).
    requires: { capabilities: ['premium'] },
  },
  async ({ kind, as, run, sources }) => {
    const { source, a, b, direct } = sources[kind];
    const res = await as('owner').get(membersPath(source), { query: { skip_users: `${a.id},${b.id}`, per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    expectEqual(knownDirect(run, kind, idsOf(res.body as MemberBody[])), sorted(direct.filter((id) => id !== a.id && id !== b.id)), 'every direct member but a and b', res);
  },
);

suite.test(
  {
    case: 'seat-info',
    title: 'show_seat_info=true adds seat information to each member (GitLab: is_using_seat, absent without it)',
    clauses: ['members.entity.seat-info'],
    requires: { capabilities: ['premium'] },
  },
  async ({ kind, as, log, sources }) => {
    const { source } = sources[kind];
    const res = await as('owner').get(membersPath(source), { query: { show_seat_info: true, per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    const items = res.body as MemberBody[];
    const plain = await listAll(as('owner'), membersPath(source), 'member');
    // The spec names no field ("include seat information"): each member carries something the answer without the parameter does not.
    const without = new Map(plain.map((m) => [m.id, new Set(Object.keys(m))]));
    const bare = items.filter((m) => Object.keys(m).every((key) => without.get(m.id)?.has(key) ?? true)).map((m) => m.username);
    expectEqual(bare, [], 'every member to carry a field with show_seat_info=true that it lacks without it', res);
    const gitlab = `${GITLAB.eeEntity} (expose :is_using_seat, if: options[:show_seat_info])`;
    parity(res, gitlab, () => expectTrue(items.every((m) => typeof m.is_using_seat === 'boolean'), 'is_using_seat (boolean) on every member', '', res));
    parity({ log }, gitlab, () => expectTrue(plain.every((m) => m.is_using_seat === undefined), 'no is_using_seat without show_seat_info'));
  },
);

suite.test(
  {
    case: 'seat-info-active',
    title: 'with show_seat_info=true, the members are listed (GitLab parity: active members in billable roles, Owner, Maintainer, Developer, have membership_state "active" and is_using_seat true)',
    clauses: ['members.entity.seat-info', 'members.entity.seat-active'],
    requires: { capabilities: ['premium'] },
  },
  async ({ kind, as, run, sources }) => {
    const { source } = sources[kind];
    const res = await as('owner').get(membersPath(source), { query: { show_seat_info: true, per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    const items = res.body as MemberBody[];
    const members = (['owner', 'maintainer', 'developer'] as const).map((role) => [role, findIn(items, run.actors[role].id, `the ${role}`, res)] as const);
    // Both fields are GitLab's (the spec's Member table lists neither).
    parity(res, `${GITLAB.eeEntity} (is_using_seat, membership_state); ee/app/models/ee/member.rb (is_using_seat)`, () => {
      for (const [role, member] of members) expectEqual([member.membership_state, member.is_using_seat], ['active', true], `membership_state and is_using_seat of the active ${role}`, res);
    });
  },
);

suite.test(
  {
    case: 'pagination',
    title: 'page and per_page page through the members with GitLab\'s headers; a page past the end is empty; per_page=0 is refused',
    clauses: ['members.pagination'],
  },
  async ({ kind, as, run, sources }) => {
    const { source, direct } = sources[kind];
    const ids = await memberIds(as('maintainer'), source);
    expectEqual(knownDirect(run, kind, ids), sorted(direct), 'the direct members to page through');
    await checkPagination(as('maintainer'), membersPath(source), 'member', ids);
    expectPerPageZeroRefused(await as('maintainer').get(membersPath(source), { query: { per_page: 0 } }));
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'every member of a private group or project may list its members; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
  },
  async ({ kind, as, sources }) => {
    await expectReadMatrix(as, membersPath(sources[kind].source), sourceNotFound(kind), 'member', true);
  },
);

suite.test(
  {
    case: 'public-source',
    title: 'the members of a public group or project are readable by any user, but not without a token (401)',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
  },
  async ({ kind, as, sources }) => {
    const { publicSource } = sources[kind];
    expectOk(await as('outsider').get(membersPath(publicSource)), 200, 'member', { list: true });
    expectAnonymous401(await as('anonymous').get(membersPath(publicSource)));
  },
);

suite.test(
  {
    case: 'read-api-token',
    title: 'a read_api token may list members',
    clauses: ['members.auth.read-api-scope'],
  },
  async ({ kind, as, sources }) => {
    expectOk(await as('developer', 'read_api').get(membersPath(sources[kind].source)), 200, 'member', { list: true });
  },
);

suite.test(
  {
    case: 'by-path-and-unknown',
    title: 'the source may be named by its URL-encoded full path; an unknown one gives 404 "404 Group Not Found" / "404 Project Not Found"',
    clauses: ['members.id.path-or-number', 'members.read.visibility', 'members.errors.shape', 'members.auth.read-api-scope'],
  },
  async ({ kind, as, run, sources }) => {
    const { source, direct } = sources[kind];
    expectTrue(source.fullPath.includes('/'), 'the full path to contain a slash (test setup)', source.fullPath);
    const res = await as('reporter', 'read_api').get(membersPath({ kind, id: source.fullPath }), { query: { per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    expectEqual(knownDirect(run, kind, idsOf(res.body as MemberBody[])), sorted(direct), `the members of the ${kind} named by its path`, res);
    expectSourceNotFound(await as('reporter').get(membersPath({ kind, id: 2147483000 })), kind);
    expectSourceNotFound(await as('reporter').get(membersPath({ kind, id: `${source.fullPath}-nowhere` })), kind);
  },
);

suite.test(
  {
    case: 'no-invitations',
    title: 'a person invited by email is neither among the members nor among all members',
    clauses: ['members.list.no-invitations'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: side } = sources;
    // The file's source (only its own tests change it, one at a time); the invitation is withdrawn again.
    const { source } = side;
    const address = kit.names.email('invitee');
    const before = { direct: await memberIds(as('admin'), source), all: await memberIds(as('admin'), source, true) };
    const invite = await as('admin').post(`${sourcePath(source)}/invitations`, { body: { email: address, access_level: ACCESS.DEVELOPER } });
    expectSetUp(invite, 'inviting a person by email', { usable: (body) => (body as { status?: unknown }).status === 'success' });
    try {
      expectEqual(await memberIds(as('admin'), source), before.direct, 'the direct members after the invitation');
      expectEqual(await memberIds(as('admin'), source, true), before.all, 'all members after the invitation');
    } finally {
      await as('admin').delete(`${sourcePath(source)}/invitations/${segment(address)}`);
    }
  },
);

suite.test(
  {
    case: 'bad-filter',
    title: 'user_ids that are not integers name no member: refused (400 in the parameter-error shape) or read as no user (200, an empty list; GitLab: its to_i reads them as 0)',
    clauses: ['members.errors.shape'],
  },
  async ({ kind, as, sources }) => {
    const res = await as('owner').get(membersPath(sources[kind].source), { query: { user_ids: 'one,two' } });
    // The spec types user_ids as integers and leaves other values open; GitLab reads each piece with
    // Ruby's to_i (lib/api/validations/types/comma_separated_to_integer_array.rb), so "one" is user 0.
    expectStatus(res, [200, 400], 'a refusal of the values, or a list of the members they name (none)');
    if (res.status === 400) expectParamError(res, 'user_ids', `${GITLAB.api} (optional :user_ids, type: Array[Integer]); ${GITLAB.grape}`);
    else expectOk(res, 200, 'member', { list: true });
    const gitlab = `${GITLAB.api} (optional :user_ids, type: Array[Integer], coerce_with: CommaSeparatedToIntegerArray.coerce); lib/api/validations/types/comma_separated_to_integer_array.rb (map(&:to_i))`;
    parity(res, gitlab, () => {
      expectStatus(res, 200);
      expectEqual(res.body, [], 'no member: "one" and "two" read as 0, which names no user', res);
    });
  },
);

suite.test(
  {
    case: 'user-namespace',
    title: 'members of a project in a user\'s namespace are listed to a Developer, without anyone\'s email',
    clauses: ['members.list.direct-only', 'members.entity.email-hidden'],
    only: { kind: 'project', why: 'only a project can live in a user\'s personal namespace; a group always has a group or nothing above it' },
  },
  async ({ as, run, sources }) => {
    const { personal } = sources;
    const items = await listAll(as('developer'), membersPath(personal), 'member');
    // The administrator owns the namespace and may or may not be listed as a direct member.
    expectEqual(knownDirect(run, 'project', idsOf(items)), sorted(ROLES.map((r) => run.actors[r].id)), 'the direct members of the personal project');
    expectEqual(items.filter((m) => m.email !== undefined).map((m) => m.id), [], 'no email shown to a Developer');
    expectEqual(findIn(items, run.actors.guest.id, 'the guest').access_level, ACCESS.GUEST, 'the guest\'s level');
  },
);

requesterReadsCase(suite, { lists: 'its members', path: membersPath });

minimalAccessCase(suite, {
  title: 'a Minimal access member of a top-level group is listed among its direct members, with access_level 5',
  clauses: ['members.list.direct-only'],
  async check({ as, run }, { group, user }) {
    const items = await listAll(as('admin'), membersPath(group), 'member');
    expectEqual(idsOf(items), sorted([run.adminId, user.id]), 'the direct members: the administrator who made the group and the Minimal access member');
    expectEqual(findIn(items, user.id, 'the Minimal access member').access_level, LEVEL.MINIMAL, 'the Minimal access member\'s access_level');
  },
});
