// POST /groups/:id/members and POST /projects/:id/members
import { expectEqual, expectFields, expectError, expectOk, expectStatus, expectTrue, expectValidationError, parity } from '../../runner/core/checks.js';
import type { Client, Exchange } from '../../runner/core/client.js';
import { ACCESS, dateIn, today } from '../../runner/core/vocabulary.js';
import { endpoint, fixture } from './kit.js';
import type { ActorInfo } from '../../runner/run/context.js';
import {
  expectForbidden,
  expectInheritedLevelError,
  expectInsufficientScope,
  expectNonMembersRefused,
  expectNotMember,
  expectParamError,
  expectWriteRefused,
  manager,
  MANAGERS,
  memberIds,
  membersPath,
  pendingRequesterIds,
  publicSources,
  readMember,
  requester,
  LEVEL,
  MINIMAL_ACCESS_GROUPS,
  GITLAB,
  type MemberBody,
  belowHierarchy,
  sharedHierarchy,
} from './helpers.js';
import { projectBot } from '../common/project-bot.js';

// A group and a project (in a group of its own), each with the shared actors in their roles; and a
// public group and project with the shared actors and an access requester.
const sources = fixture({ name: 'members-add', scope: 'file', build: async (t) => ({ ...(await t.roleSources()) }) });

const suite = endpoint('add', { fixtures: { sources } });

/** The status of a request adding several users: GitLab's member creators report "success" or "error" (app/services/members/create_service.rb). */
function expectAddStatus(res: Exchange, what = 'the status of the request'): string {
  expectOk(res, 201, 'member-add-result');
  const status = (res.body as { status?: unknown }).status;
  expectTrue(status === 'success' || status === 'error', `${what} to be "success" or "error"`, String(status), res);
  return status as string;
}

suite.test(
  {
    case: 'by-user-id',
    title: 'a member manager (group: Owner; project: Maintainer) adds a user by id with a level and an expiry; the member is returned (201), reads back and is listed',
    clauses: ['members.add.single', 'members.add.expires-at', 'members.entity.shape', 'members.entity.created-by'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as, run } = kit;
    const { [kind]: source } = sources;
    const user = await kit.lease();
    const expiry = dateIn(30);
    const res = await as(manager(kind)).post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.DEVELOPER, expires_at: expiry } });
    expectOk(res, 201, 'member');
    const body = res.body as MemberBody;
    expectEqual([body.id, body.username, body.access_level, body.expires_at], [user.id, user.username, ACCESS.DEVELOPER, expiry], 'id, username, access_level and expires_at of the new member', res);
    expectEqual(body.created_by?.id, run.actors[manager(kind)].id, `created_by to be the ${manager(kind)} who added the member`, res);
    const back = await readMember(as('guest'), source, user.id);
    expectEqual([back.access_level, back.expires_at], [ACCESS.DEVELOPER, expiry], 'the member read back');
    expectTrue((await memberIds(as('developer'), source)).includes(user.id), 'the new member to be listed');
  },
);

suite.test(
  {
    case: 'by-username',
    title: 'a user may be named by username instead of id, in JSON or in form fields',
    clauses: ['members.add.by-username', 'members.add.single'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const [byJson, byForm] = [await kit.lease(), await kit.lease()];
    const json = await as('owner').post(membersPath(source), { body: { username: byJson.username, access_level: ACCESS.REPORTER } });
    expectOk(json, 201, 'member');
    expectEqual((json.body as MemberBody).id, byJson.id, 'the member added by username (JSON)', json);
    expectEqual((await readMember(as('owner'), source, byJson.id)).access_level, ACCESS.REPORTER, 'the member added by username, read back');
    const form = await as('owner').post(membersPath(source), { body: { username: byForm.username, access_level: ACCESS.OWNER }, form: true });
    expectOk(form, 201, 'member');
    expectEqual([(form.body as MemberBody).id, (form.body as MemberBody).expires_at], [byForm.id, null], 'the member added by username (form fields), without expiry', form);
    expectEqual((await readMember(as('owner'), source, byForm.id)).access_level, ACCESS.OWNER, 'the new Owner read back');
  },
);

suite.test(
  {
    case: 'several',
    title: 'several users, comma-separated by id or by username, are added in one request: 201 {"status":"success"}',
    clauses: ['members.add.several'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const [a, b, c, d] = [await kit.lease(), await kit.lease(), await kit.lease(), await kit.lease()];
    const byId = await as(manager(kind)).post(membersPath(source), { body: { user_id: `${a.id},${b.id}`, access_level: ACCESS.REPORTER } });
    const byName = await as(manager(kind)).post(membersPath(source), { body: { username: `${c.username},${d.username}`, access_level: ACCESS.MAINTAINER } });
    for (const [res, how] of [[byId, 'by ids'], [byName, 'by usernames']] as const) {
      expectOk(res, 201, 'member-add-result');
      expectEqual((res.body as { status?: unknown }).status, 'success', `the status of the request ${how}`, res);
      // The service's hash is the whole body in GitLab (lib/api/members.rb returns Members::CreateService's result).
      parity(res, 'lib/api/members.rb (post: Members::CreateService.new(…).execute); app/services/concerns/base_service_utility.rb (success)', () => expectFields(res.body, { status: 'success', message: undefined, queued_users: undefined }, `the whole answer ${how}`, res));
    }
    for (const [user, level] of [[a, ACCESS.REPORTER], [b, ACCESS.REPORTER], [c, ACCESS.MAINTAINER], [d, ACCESS.MAINTAINER]] as const) {
      expectEqual((await readMember(as(manager(kind)), source, user.id)).access_level, level, `the level of ${user.username}`);
    }
  },
);

suite.test(
  {
    case: 'several-errors',
    title: 'adding several users with an invalid level still answers 201, with status "error" and a message naming each user (GitLab: "<username>: <reason>" joined as a sentence); nobody is added',
    clauses: ['members.add.several-errors'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const reason = 'Access level is not included in the list';
    // Rails' to_sentence: "x and y" for two, "x, y, and z" for three; the order of the users is not asserted.
    const sentence = { 2: /^(.+) and (.+)$/, 3: /^(.+), (.+), and (.+)$/ };
    for (const count of [2, 3] as const) {
      const users: ActorInfo[] = [];
      for (let i = 0; i < count; i++) users.push(await kit.lease());
      const res = await as(manager(kind)).post(membersPath(source), { body: { user_id: users.map((u) => u.id).join(','), access_level: 42 } });
      expectOk(res, 201, 'member-add-result');
      const body = res.body as { status: string; message?: string };
      expectEqual(body.status, 'error', 'the status of the request', res);
      // The spec says nothing of a failing several-user add beyond the status: naming each failing
      // user (app/services/members/create_service.rb add_error_for_member) and the sentence are GitLab's.
      parity(res, 'app/services/members/create_service.rb (add_error_for_member: "<username>: <errors>"; formatted_errors: to_sentence); app/models/member.rb (access_level inclusion)', () => {
        const unnamed = users.filter((u) => !String(body.message).includes(u.username)).map((u) => u.username);
        expectEqual(unnamed, [], 'every failing user to be named in the message', res);
        const parts = sentence[count].exec(String(body.message))?.slice(1) ?? [];
        expectEqual(parts.sort(), users.map((u) => `${u.username}: ${reason}`).sort(), `the message: "<username>: ${reason}" for each of ${count} users, as a sentence`, res);
      });
      for (const user of users) await expectNotMember(as('owner'), source, user.id);
    }
  },
);

suite.test(
  {
    case: 'params',
    title: 'access_level is required, and exactly one of user_id and username: 400 in the parameter-error shape; nobody is added',
    clauses: ['members.add.params', 'members.errors.shape'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.lease();
    const client = as(manager(kind));
    expectParamError(await client.post(membersPath(source), { body: { user_id: user.id } }), 'access_level');
    expectParamError(await client.post(membersPath(source), { body: { access_level: ACCESS.GUEST } }), 'user_id');
    expectParamError(await client.post(membersPath(source), { body: { user_id: user.id, username: user.username, access_level: ACCESS.GUEST } }), 'username');
    expectParamError(await client.post(membersPath(source), { body: { user_id: user.id, access_level: 'high' } }), 'access_level');
    expectParamError(await client.post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.GUEST, expires_at: 'soon' } }), 'expires_at');
    await expectNotMember(as('owner'), source, user.id);
  },
);

suite.test(
  {
    case: 'invalid-level-and-expiry',
    title: 'an access_level that is no level, or an expiry in the past, is refused with a 400 validation error; nobody is added',
    clauses: ['members.add.invalid-level', 'members.add.expires-at'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.lease();
    const client = as(manager(kind));
    for (const level of [42, 45, 99]) expectValidationError(await client.post(membersPath(source), { body: { user_id: user.id, access_level: level } }), 'access_level');
    expectValidationError(await client.post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.GUEST, expires_at: dateIn(-2) } }), 'expires_at');
    await expectNotMember(as('owner'), source, user.id);
  },
);

suite.test(
  {
    case: 'unknown-user',
    title: 'an unknown user id or username gives 404 "404 User Not Found"',
    clauses: ['members.add.unknown-user'],
  },
  async ({ kind, as, run, sources }) => {
    const { [kind]: source } = sources;
    const client = as(manager(kind));
    const gitlab = `${GITLAB.helpers} (check_existing_membership: not_found!('User'))`;
    expectError(await client.post(membersPath(source), { body: { user_id: 2147483000, access_level: ACCESS.GUEST } }), 404, { message: '404 User Not Found', gitlab });
    expectError(await client.post(membersPath(source), { body: { username: `${run.prefix}-nobody`, access_level: ACCESS.GUEST } }), 404, { message: '404 User Not Found', gitlab });
  },
);

suite.test(
  {
    case: 'conflict',
    title: 'adding a direct member again gives a member manager 409 and a Developer, who may not add members, 409 or 403 (GitLab: 409 "Member already exists" to both); the level is unchanged',
    clauses: ['members.add.conflict'],
  },
  async ({ kind, as, run, sources }) => {
    const { [kind]: source } = sources;
    // GitLab looks the membership up before the permission check (add_single_member: check_existing_membership first).
    const gitlab = `${GITLAB.helpers} (add_single_member: check_existing_membership before Members::CreateService; conflict!('Member already exists'))`;
    for (const [target, level] of [['developer', ACCESS.DEVELOPER], ['guest', ACCESS.GUEST]] as const) {
      const again = { body: { user_id: run.actors[target].id, access_level: ACCESS.MAINTAINER } };
      expectError(await as(manager(kind)).post(membersPath(source), again), 409, { message: 'Member already exists', gitlab });
      // Two refusals apply to the Developer; the spec orders no checks.
      const byDeveloper = await as('developer').post(membersPath(source), again);
      expectError(byDeveloper, [409, 403]);
      parity(byDeveloper, gitlab, () => expectError(byDeveloper, 409, { message: 'Member already exists', gitlab }));
      expectEqual((await readMember(as('owner'), source, run.actors[target].id)).access_level, level, `the ${target}'s level, unchanged`);
    }
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'members are added by Owners of a group, by Owners and Maintainers of a project (read back); other member roles get 403, an outsider 404, nobody 401',
    clauses: ['members.manage.role', 'members.auth.anonymous'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const refused = await kit.lease();
    const add = (client: Client, user: { id: number }) => client.post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.GUEST } });
    await expectWriteRefused(as, source, (client) => add(client, refused));
    await expectNotMember(as('owner'), source, refused.id);
    for (const role of MANAGERS[kind]) {
      const user = role === MANAGERS[kind][0] ? refused : await kit.lease();
      expectOk(await add(as(role), user), 201, 'member');
      expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.GUEST, `the member the ${role} added, read back`);
    }
  },
);

suite.test(
  {
    case: 'read-api-token',
    title: 'an owner\'s read_api token cannot add members (403 insufficient_scope); nobody is added',
    clauses: ['members.auth.read-api-scope'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.lease();
    expectInsufficientScope(await as('owner', 'read_api').post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.GUEST } }));
    await expectNotMember(as('owner'), source, user.id);
  },
);

suite.test(
  {
    case: 'by-path',
    title: 'the group or project may be named by its full path',
    clauses: ['members.id.path-or-number', 'members.add.single'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.lease();
    expectOk(await as('owner').post(membersPath({ kind, id: source.fullPath }), { body: { user_id: user.id, access_level: ACCESS.REPORTER } }), 201, 'member');
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.REPORTER, `the member added through the ${kind}'s path`);
  },
);

suite.test(
  {
    case: 'several-unknown',
    title: 'several users where some are unknown: 201 with the service status; the known user is added; only unknown users add nobody',
    clauses: ['members.add.several'],
    alone: 'it reads the whole member list back unchanged, which the file\'s other tests change',
  },
  async ({ sources, ...kit }) => {
    const { kind, as, run } = kit;
    const { [kind]: source } = sources;
    const client = as(manager(kind));
    const known = await kit.lease();
    // GitLab resolves the ids with User.id_in, which drops unknown ids (app/services/members/creator_service.rb
    // parse_users_list); whether the service then reports "success" or "error" is not settled: both are accepted.
    expectAddStatus(await client.post(membersPath(source), { body: { user_id: `${known.id},2147483000`, access_level: ACCESS.REPORTER } }));
    // The creators add each resolved user on its own, whatever happens to the others.
    expectEqual((await readMember(as('owner'), source, known.id)).access_level, ACCESS.REPORTER, 'the known user\'s level');

    const before = await memberIds(as('owner'), source);
    expectAddStatus(await client.post(membersPath(source), { body: { user_id: '2147483001,2147483002', access_level: ACCESS.REPORTER } }));
    expectAddStatus(await client.post(membersPath(source), { body: { username: `${run.prefix}-nobody-a,${run.prefix}-nobody-b`, access_level: ACCESS.REPORTER } }), 'the status of the request by usernames');
    expectEqual(await memberIds(as('owner'), source), before, 'the members after requests naming only unknown users (unchanged)');
  },
);

suite.test(
  {
    case: 'member-role-id-type',
    title: 'a non-integer member_role_id is refused with 400 and nobody is added, or (GitLab, whose POST route does not declare it) the user is added',
    clauses: ['members.add.member-role-id', 'members.errors.shape'],
    requires: { capabilities: ['ultimate'], minVersion: '16.6' },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.lease();
    const res = await as('owner').post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.GUEST, member_role_id: 'custom' } });
    // lib/api/members.rb declares no member_role_id on POST: GitLab passes it on to the service without a type check.
    expectStatus(res, [400, 201], 'the spec types member_role_id as an integer; GitLab\'s POST route does not declare it');
    if (res.status === 400) {
      expectParamError(res, 'member_role_id');
      await expectNotMember(as('owner'), source, user.id);
    } else {
      expectOk(res, 201, 'member');
      expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.GUEST, 'the member added with the ignored member_role_id');
    }
  },
);

suite.test(
  {
    case: 'several-with-existing',
    title: 'several users where one is already a member: 201; on success the existing membership takes the new level (it is not duplicated), on error it is unchanged',
    clauses: ['members.add.several'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const [existing, fresh] = [await kit.lease(), await kit.lease()];
    await kit.add(source, existing, ACCESS.REPORTER);
    // GitLab's member creators find the existing membership and assign the new attributes to it
    // (app/services/members/creator_service.rb: existing_members); an
    // "already a member" error for that user would be plausible too, so both outcomes are accepted.
    const status = expectAddStatus(await as(manager(kind)).post(membersPath(source), { body: { user_id: `${existing.id},${fresh.id}`, access_level: ACCESS.DEVELOPER } }));
    const listed = (await memberIds(as('owner'), source)).filter((id) => id === existing.id);
    expectEqual(listed.length, 1, 'the existing member listed once');
    expectEqual(
      (await readMember(as('owner'), source, existing.id)).access_level,
      status === 'success' ? ACCESS.DEVELOPER : ACCESS.REPORTER,
      'the existing member\'s level (the new one on success, the old one on error)',
    );
    // The new user is added either way: the creators handle each user on its own.
    expectEqual((await readMember(as('owner'), source, fresh.id)).access_level, ACCESS.DEVELOPER, 'the new member\'s level');
  },
);

suite.test(
  {
    case: 'inherited-level',
    title: 'a level below the highest one the user holds in the ancestor groups of the group or project is refused with 400 naming that membership; nobody is added; the same level is accepted',
    clauses: ['members.add.inherited-level'],
    fixtures: { sharedHierarchy },
  },
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
    only: { kind: 'project', why: 'only Owners add members of a group, so every group manager may give the Owner role; in a project Maintainers manage members too, but only Owners give the Owner role (manage_owners)' },
  },
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
    requires: { setup: ['access-requests'] },
  },
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
    requires: { setup: ['access-requests'] },
  },
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
    requires: { setup: ['access-requests'] },
  },
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
    requires: { capabilities: ['premium'] },
  },
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
    only: { kind: 'project', why: 'Minimal access is a level of top-level groups; this case checks that a project refuses it' },
  },
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
    requires: { capabilities: ['premium'] },
  },
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
    fixtures: { projectBot },
  },
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
    requires: { setup: ['access-requests'] },
  },
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
    fixtures: { sharedHierarchy },
  },
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
    clauses: ['members.add.params', 'members.add.expires-at'],
  },
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
    clauses: ['members.add.limit', 'members.add.several'],
  },
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
    clauses: ['members.add.expires-today', 'members.add.expires-at'],
  },
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
