// POST /groups/:id/members and POST /projects/:id/members: the levels a user may be added at and
// who may be added (inherited levels, the Owner role, access requesters, Minimal access, project
// bots, the per-request limit, expiry). How users are named, several at once, and the refusals are
// in add.test.ts.
import { expectEqual, expectError, expectOk, expectTrue, expectValidationError, parity } from '../../runner/core/checks.js';
import { ACCESS, dateIn, today } from '../../runner/core/vocabulary.js';
import { endpoint } from './kit.js';
import {
  expectForbidden,
  expectInheritedLevelError,
  expectNonMembersRefused,
  expectNotMember,
  manager,
  membersPath,
  pendingRequesterIds,
  publicSources,
  readMember,
  requester,
  LEVEL,
  MINIMAL_ACCESS_GROUPS,
  GITLAB,
  addSources,
  expectAddStatus,
  type MemberBody,
  belowHierarchy,
  sharedHierarchy } from './helpers.js';
import { projectBot } from '../common/project-bot.js';

const suite = endpoint('add', { fixtures: { sources: addSources } });

suite.test(
  {
    case: 'inherited-level',
    title: 'a level below the highest one the user holds in the ancestor groups of the group or project is refused with 400 naming that membership; nobody is added; the same level is accepted',
    clauses: ['members.add.inherited-level'],
    fixtures: { sharedHierarchy } },
  async ({ sharedHierarchy, ...kit }) => {
    const { kind, as } = kit;
    const { top, mid, source } = await belowHierarchy(kit, sharedHierarchy, kind);
    const user = await kit.lease();
    // Reporter in the nearer group, Maintainer in the farther one (added in that order: a subgroup
    // membership may not be lower than an inherited one): the highest counts, not the nearest.
    await kit.add(mid, user, ACCESS.REPORTER);
    await kit.add(top, user, ACCESS.MAINTAINER);
    expectInheritedLevelError(await as('admin').post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.DEVELOPER } }), 'Maintainer', top.name);
    await expectNotMember(as('admin'), source, user.id);
    const same = await as('admin').post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.MAINTAINER } });
    expectOk(same, 201, 'member');
    expectEqual((same.body as MemberBody).access_level, ACCESS.MAINTAINER, 'the level of the member added at the inherited level', same);
    expectEqual((await readMember(as('admin'), source, user.id)).access_level, ACCESS.MAINTAINER, 'the member added at the inherited level, read back');
    // And the other way round: Maintainer in the nearer group, Reporter in the farther one.
    const other = await kit.member(top, ACCESS.REPORTER);
    await kit.add(mid, other, ACCESS.MAINTAINER);
    expectInheritedLevelError(await as('admin').post(membersPath(source), { body: { user_id: other.id, access_level: ACCESS.DEVELOPER } }), 'Maintainer', mid.name);
    await expectNotMember(as('admin'), source, other.id);
  },
);

suite.test(
  {
    case: 'owner-role',
    title: 'a Maintainer may not add an Owner (403); an Owner may',
    clauses: ['members.add.project-owner'],
    only: { kind: 'project', why: 'only Owners add members of a group, so every group manager may give the Owner role; in a project Maintainers manage members too, but only Owners give the Owner role (manage_owners)' } },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.lease();
    expectForbidden(await as('maintainer').post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.OWNER } }), GITLAB.projectOwners);
    await expectNotMember(as('owner'), source, user.id);
    expectOk(await as('owner').post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.OWNER } }), 201, 'member');
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.OWNER, 'the new Owner read back');
  },
);

suite.test(
  {
    case: 'requester-as-owner',
    title: 'a project Maintainer may not make an access requester an Owner through the members endpoint (403); the requester is no member and the request stays pending; an Owner may (201, the request gone)',
    clauses: ['members.add.project-owner', 'members.requester.becomes-member'],
    only: { kind: 'project', why: 'a group Maintainer may not add members at all (case group-maintainer-owner); in a project Maintainers add members, but only Owners give the Owner role (manage_owners)' },
    fixtures: { publicSources },
    requires: { setup: ['access-requests'] } },
  async ({ publicSources, ...kit }) => {
    const { as } = kit;
    const { project } = publicSources;
    // GitLab: spec/requests/api/members_spec.rb (when the user has the rights to manage members but tries to
    // manage members with a higher access level: when an access requester is added as OWNER: 403);
    // Members::CreateService (cannot_assign_owner_responsibilities_to_member_in_project?: AccessDeniedError).
    const pending = await requester(kit, project);
    expectForbidden(await as('maintainer').post(membersPath(project), { body: { user_id: pending.id, access_level: ACCESS.OWNER } }), GITLAB.projectOwners);
    await expectNotMember(as('owner'), project, pending.id);
    expectTrue((await pendingRequesterIds(as('owner'), project)).includes(pending.id), 'the access request to stay pending (GET …/access_requests)');
    // The request is whole: an Owner may approve it at the Owner level through the same endpoint.
    expectOk(await as('owner').post(membersPath(project), { body: { user_id: pending.id, access_level: ACCESS.OWNER } }), 201, 'member');
    expectEqual((await readMember(as('owner'), project, pending.id)).access_level, ACCESS.OWNER, 'the former requester, an Owner');
    expectTrue(!(await pendingRequesterIds(as('owner'), project)).includes(pending.id), 'the access request no longer pending');
  },
);

suite.test(
  {
    case: 'public-source-writes-forbidden',
    title: 'on a public group or project a stranger and an access requester may not add members (403, not 404): the requester adding themselves, the stranger adding the requester; nobody is added and the request stays pending',
    clauses: ['members.public.writes-refused', 'members.requester.not-member'],
    fixtures: { publicSources },
    requires: { setup: ['access-requests'] } },
  async ({ kind, as, withToken, publicSources }) => {
    const sources = publicSources;
    const source = sources[kind];
    const pending = sources.requester;
    await expectNonMembersRefused({ as, withToken }, pending, (client) => client.post(membersPath(source), { body: { user_id: pending.id, access_level: ACCESS.MAINTAINER } }));
    await expectNotMember(as('owner'), source, pending.id);
    expectTrue((await pendingRequesterIds(as('owner'), source)).includes(pending.id), 'the access request to stay pending (GET …/access_requests)');
  },
);

suite.test(
  {
    case: 'requester-becomes-member',
    title: 'a member manager adds a user whose access request is pending: 201 with the Member at the level given, it reads back, and the request is no longer pending',
    clauses: ['members.requester.becomes-member', 'members.add.single'],
    fixtures: { publicSources },
    requires: { setup: ['access-requests'] } },
  async ({ publicSources, ...kit }) => {
    const { kind, as } = kit;
    const sources = publicSources;
    const source = sources[kind];
    const user = await requester(kit, source);
    const client = as(manager(kind));
    expectTrue((await pendingRequesterIds(client, source)).includes(user.id), 'the access request to be pending before the add (setup)');
    const res = await client.post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.MAINTAINER } });
    expectOk(res, 201, 'member');
    const body = res.body as MemberBody;
    expectEqual([body.id, body.access_level], [user.id, ACCESS.MAINTAINER], 'id and access_level of the requester made a member', res);
    expectEqual((await readMember(as('guest'), source, user.id)).access_level, ACCESS.MAINTAINER, 'the former requester read back as a member');
    const after = await pendingRequesterIds(client, source);
    expectTrue(!after.includes(user.id), 'the access request to be gone once the user is a member', `pending: ${after.join(', ') || '(none)'}`);
  },
);

suite.test(
  {
    case: 'minimal-access',
    title: 'an Owner of a top-level group adds a user at Minimal access (5): 201 with access_level 5, and the member reads back so',
    clauses: ['members.minimal-access'],
    only: MINIMAL_ACCESS_GROUPS,
    requires: { capabilities: ['premium'] } },
  async ({ ...kit }) => {
    const { as } = kit;
    // Minimal access is a level of top-level groups only.
    const group = await kit.roleGroup({ top: true });
    const user = await kit.lease();
    const res = await as('owner').post(membersPath(group), { body: { user_id: user.id, access_level: LEVEL.MINIMAL } });
    expectOk(res, 201, 'member');
    expectEqual([(res.body as MemberBody).id, (res.body as MemberBody).access_level], [user.id, LEVEL.MINIMAL], 'id and access_level returned', res);
    expectEqual((await readMember(as('owner'), group, user.id)).access_level, LEVEL.MINIMAL, 'the Minimal access member read back');
  },
);

suite.test(
  {
    case: 'minimal-access-project',
    title: 'Minimal access (5) on a project is refused with a 400 validation error on access_level (GitLab: "is not included in the list"); nobody is added',
    clauses: ['members.minimal-access.project'],
    only: { kind: 'project', why: 'Minimal access is a level of top-level groups; this case checks that a project refuses it' } },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { project } = sources;
    const user = await kit.lease();
    const res = await as('owner').post(membersPath(project), { body: { user_id: user.id, access_level: LEVEL.MINIMAL } });
    expectValidationError(res, 'access_level');
    parity(res, 'app/models/project_member.rb (access_level_inclusion)', () => {
      expectEqual((res.body as { message: Record<string, unknown> }).message.access_level, ['is not included in the list'], 'the access_level errors', res);
    });
    await expectNotMember(as('owner'), project, user.id);
  },
);

suite.test(
  {
    case: 'minimal-access-subgroup',
    title: 'Minimal access (5) in a subgroup is refused with a 400 validation error on access_level (GitLab: "is not included in the list", "supported on top level groups only"); nobody is added',
    clauses: ['members.minimal-access.subgroup'],
    only: MINIMAL_ACCESS_GROUPS,
    requires: { capabilities: ['premium'] } },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { group } = sources;
    const sub = await kit.group({ parent: group });
    const user = await kit.lease();
    const res = await as('owner').post(membersPath(sub), { body: { user_id: user.id, access_level: LEVEL.MINIMAL } });
    expectValidationError(res, 'access_level');
    parity(res, 'ee/app/models/ee/group_member.rb (access_level_inclusion)', () => {
      expectEqual((res.body as { message: Record<string, unknown> }).message.access_level, ['is not included in the list', 'supported on top level groups only'], 'the access_level errors', res);
    });
    await expectNotMember(as('owner'), sub, user.id);
  },
);

suite.test(
  {
    case: 'project-bot',
    title: 'the bot user of another project\'s access token is not added: 400 with a validation error on user_id (GitLab: "project bots cannot be added to other groups / projects"); it is no member',
    clauses: ['members.add.project-bot'],
    fixtures: { projectBot } },
  async ({ kind, as, sources, projectBot }) => {
    const { [kind]: source } = sources;
    const { bot } = projectBot;
    const res = await as(manager(kind)).post(membersPath(source), { body: { user_id: bot.id, access_level: ACCESS.DEVELOPER } });
    expectValidationError(res, 'user_id');
    parity(res, GITLAB.projectBot, () => {
      const texts = (res.body as { message: Record<string, unknown> }).message.user_id;
      expectEqual(texts, ['project bots cannot be added to other groups / projects'], 'the user_id error', res);
    });
    await expectNotMember(as('owner'), source, bot.id);
  },
);

suite.test(
  {
    case: 'group-maintainer-owner',
    title: 'a group Maintainer may not add a user, nor an access requester, as Owner (403); nobody is added and the request stays pending',
    clauses: ['members.manage.group-owner-level'],
    only: { kind: 'group', why: 'in a project a Maintainer manages members and is refused the Owner role by manage_owners (case owner-role)' },
    fixtures: { publicSources },
    requires: { setup: ['access-requests'] } },
  async ({ sources: own, publicSources: sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = own;
    const gitlab = `${GITLAB.managers}; ${GITLAB.forbidden}`;
    const user = await kit.lease();
    expectForbidden(await as('maintainer').post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.OWNER } }), gitlab);
    await expectNotMember(as('owner'), source, user.id);
    const pending = await requester(kit, sources.group);
    expectForbidden(await as('maintainer').post(membersPath(sources.group), { body: { user_id: pending.id, access_level: ACCESS.OWNER } }), gitlab);
    await expectNotMember(as('owner'), sources.group, pending.id);
    expectTrue((await pendingRequesterIds(as('owner'), sources.group)).includes(pending.id), 'the access request to stay pending (GET …/access_requests)');
  },
);

suite.test(
  {
    case: 'above-inherited-level',
    title: 'a level above the one the user holds in an ancestor group is accepted: 201 with that level, read back so',
    clauses: ['members.add.above-inherited', 'members.add.single'],
    fixtures: { sharedHierarchy } },
  async ({ sharedHierarchy, ...kit }) => {
    const { kind, as } = kit;
    const { top, source } = await belowHierarchy(kit, sharedHierarchy, kind);
    const user = await kit.member(top, ACCESS.DEVELOPER);
    const res = await as('admin').post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.MAINTAINER } });
    expectOk(res, 201, 'member');
    expectEqual([(res.body as MemberBody).id, (res.body as MemberBody).access_level], [user.id, ACCESS.MAINTAINER], 'id and access_level of the member added above its inherited Developer', res);
    expectEqual((await readMember(as('admin'), source, user.id)).access_level, ACCESS.MAINTAINER, 'the member read back at the level given');
  },
);

suite.test(
  {
    case: 'params-texts',
    title: 'GitLab parity: user_id with username is refused with {"error":"user_id, username are mutually exclusive"}, neither of them with "user_id, username are missing, at least one parameter must be provided", a past expires_at with {"message":{"expires_at":["cannot be a date in the past"]}}; nobody is added',
    clauses: ['members.add.params', 'members.add.expires-at'] },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.lease();
    const client = as(manager(kind));
    const grape = `${GITLAB.api} (mutually_exclusive :user_id, :username; at_least_one_of :user_id, :username); ${GITLAB.grape}; spec/requests/api/members_spec.rb (returns a 400 if user_id is also provided / if user_id and username is missing)`;
    const both = await client.post(membersPath(source), { body: { user_id: user.id, username: user.username, access_level: ACCESS.GUEST } });
    expectError(both, 400, { error: 'user_id, username are mutually exclusive', gitlab: grape });
    const neither = await client.post(membersPath(source), { body: { access_level: ACCESS.GUEST } });
    expectError(neither, 400, { error: 'user_id, username are missing, at least one parameter must be provided', gitlab: grape });
    const past = await client.post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.GUEST, expires_at: dateIn(-2) } });
    expectValidationError(past, 'expires_at');
    parity(past, `${GITLAB.validation} (validates :expires_at, future_date: true); spec/requests/api/members_spec.rb (access expiry date: when set to a date in the past)`, () => {
      expectEqual((past.body as { message: unknown }).message, { expires_at: ['cannot be a date in the past'] }, 'the whole validation message', past);
    });
    await expectNotMember(as('owner'), source, user.id);
  },
);

suite.test(
  {
    case: 'limit',
    title: 'more than 100 user ids in one request (unknown ones counted) add nobody: 201 with status "error" (GitLab: "Too many users specified (limit is 100)"); 100 are taken',
    clauses: ['members.add.limit', 'members.add.several'] },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const client = as(manager(kind));
    const [refused, taken] = [await kit.lease(), await kit.lease()];
    // Ids no user has: GitLab counts the ids as sent (split and uniq) before it looks a user up.
    const unknown = (from: number) => Array.from({ length: 100 }, (_, i) => String(2147480000 + from + i));
    const res = await client.post(membersPath(source), { body: { user_id: [refused.id, ...unknown(0)].join(','), access_level: ACCESS.REPORTER } });
    expectOk(res, 201, 'member-add-result');
    expectEqual((res.body as { status?: unknown }).status, 'error', 'the status of a request naming 101 users', res);
    parity(res, 'app/services/members/create_service.rb (validate_invitable!: TooManyInvitesError, "Too many users specified (limit is %{user_limit})")', () =>
      expectEqual((res.body as { message?: unknown }).message, 'Too many users specified (limit is 100)', 'the limit message', res),
    );
    await expectNotMember(as('owner'), source, refused.id);
    // 100 ids, the limit itself: the known user is added (whether the unknown ids make the status "error" is not settled).
    expectAddStatus(await client.post(membersPath(source), { body: { user_id: [taken.id, ...unknown(1000).slice(1)].join(','), access_level: ACCESS.REPORTER } }));
    expectEqual((await readMember(as('owner'), source, taken.id)).access_level, ACCESS.REPORTER, 'the level of the user added among 100 ids');
  },
);

suite.test(
  {
    case: 'expires-today',
    title: 'expires_at of today (UTC) is no date in the past: the member is added (201) with that expiry and reads back so',
    clauses: ['members.add.expires-today', 'members.add.expires-at'] },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.lease();
    // GitLab compares with Date.current in the instance's time zone (UTC unless configured otherwise: config/gitlab.yml time_zone).
    const day = today();
    const res = await as(manager(kind)).post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.DEVELOPER, expires_at: day } });
    expectOk(res, 201, 'member');
    expectEqual((res.body as MemberBody).expires_at, day, 'expires_at returned: today', res);
    expectEqual((await readMember(as('guest'), source, user.id)).expires_at, day, 'expires_at read back');
  },
);
