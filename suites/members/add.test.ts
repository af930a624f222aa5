// POST /groups/:id/members and POST /projects/:id/members
import { expectEqual, expectFields, expectError, expectOk, expectStatus, expectTrue, expectValidationError, parity } from '../../runner/core/checks.js';
import type { Client } from '../../runner/core/client.js';
import { ACCESS, dateIn } from '../../runner/core/vocabulary.js';
import { endpoint } from './kit.js';
import type { ActorInfo } from '../../runner/run/context.js';
import {
  expectInsufficientScope,
  expectNotMember,
  expectParamError,
  expectWriteRefused,
  manager,
  MANAGERS,
  memberIds,
  membersPath,
  readMember,
  GITLAB,
  addSources,
  expectAddStatus,
  type MemberBody } from './helpers.js';

const suite = endpoint('add', { fixtures: { sources: addSources } });

suite.test(
  {
    case: 'by-user-id',
    title: 'a member manager (group: Owner; project: Maintainer) adds a user by id with a level and an expiry; the member is returned (201), reads back and is listed',
    clauses: ['members.add.single', 'members.add.expires-at', 'members.entity.shape', 'members.entity.created-by'] },
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
    clauses: ['members.add.by-username', 'members.add.single'] },
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
    clauses: ['members.add.several'] },
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
    clauses: ['members.add.several-errors'] },
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
    clauses: ['members.add.params', 'members.errors.shape'] },
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
    clauses: ['members.add.invalid-level', 'members.add.expires-at'] },
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
    clauses: ['members.add.unknown-user'] },
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
    clauses: ['members.add.conflict'] },
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
    clauses: ['members.manage.role', 'members.auth.anonymous'] },
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
    clauses: ['members.auth.read-api-scope'] },
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
    clauses: ['members.id.path-or-number', 'members.add.single'] },
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
    alone: 'it reads the whole member list back unchanged, which the file\'s other tests change' },
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
    requires: { capabilities: ['ultimate'], minVersion: '16.6' } },
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
    clauses: ['members.add.several'] },
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
