// PUT /groups/:id/members/:user_id and PUT /projects/:id/members/:user_id
import { expectEqual, expectError, expectOk, expectValidationError, parity } from '../../runner/core/checks.js';
import type { Client } from '../../runner/core/client.js';
import { ACCESS, dateIn } from '../../runner/core/vocabulary.js';
import { endpoint, fixture } from './kit.js';
import {
  expectForbidden,
  expectInheritedLevelError,
  expectInsufficientScope,
  expectParamError,
  expectWriteRefused,
  manager,
  MANAGERS,
  memberPath,
  readMember,
  LEVEL,
  GITLAB,
  type MemberBody,
  belowHierarchy,
  sharedHierarchy,
} from './helpers.js';
import { projectBotKeptCase, lastOwnerCase, subgroupOwnedAbove, minimalAccessCase, publicWritesRefusedCase } from './cases.js';

// A group and a project (in a group of its own), each with the shared actors in their roles; and a
// public group and project with the shared actors and an access requester.
// The run's EE hierarchy: its root (the shared actors in their roles) and its project, where they hold
// them by inheritance; the tests edit members of their own, one by one.
const sources = fixture({ name: 'members-edit', scope: 'file', fixtures: { sharedHierarchy }, build: (t) => {
  const { root, project } = t.sharedHierarchy;
  return { group: root, project };
} });

const suite = endpoint('edit', { fixtures: { sources } });

suite.test(
  {
    case: 'level-and-expiry',
    title: 'a member manager (group: Owner; project: Maintainer) raises and lowers a member\'s level and sets an expiry; the member is returned (200) with the new values and reads back so',
    clauses: ['members.edit.level', 'members.entity.shape'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.DEVELOPER);
    const expiry = dateIn(9);
    const res = await as(manager(kind)).put(memberPath(source, user.id), { body: { access_level: ACCESS.MAINTAINER, expires_at: expiry } });
    expectOk(res, 200, 'member');
    const body = res.body as MemberBody;
    expectEqual([body.id, body.access_level, body.expires_at], [user.id, ACCESS.MAINTAINER, expiry], 'id, access_level and expires_at returned', res);
    const back = await readMember(as('guest'), source, user.id);
    expectEqual([back.access_level, back.expires_at], [ACCESS.MAINTAINER, expiry], 'the member read back');
    // Lowering works as well as raising.
    const lowered = await as(manager(kind)).put(memberPath(source, user.id), { body: { access_level: ACCESS.GUEST } });
    expectOk(lowered, 200, 'member');
    expectEqual((lowered.body as MemberBody).access_level, ACCESS.GUEST, 'the lowered level returned', lowered);
    expectEqual((await readMember(as('reporter'), source, user.id)).access_level, ACCESS.GUEST, 'the lowered level read back');
  },
);

suite.test(
  {
    case: 'not-a-member',
    title: 'editing a user who is not a direct member gives a member manager 404, and callers who may not edit 404 or 403 (GitLab: 404 "404 Not found" to all)',
    clauses: ['members.edit.not-member'],
  },
  async ({ kind, as, run, sources }) => {
    const { [kind]: source } = sources;
    // GitLab looks the membership up (find_by!) before authorize_update_source_member!.
    const gitlab = `${GITLAB.api} (put: find_by! before authorize_update_source_member!); lib/api/api.rb (rescue_from ActiveRecord::RecordNotFound)`;
    const edit = (role: 'owner' | 'maintainer' | 'developer' | 'guest') => as(role).put(memberPath(source, run.actors.outsider.id), { body: { access_level: ACCESS.GUEST } });
    expectError(await edit(manager(kind)), 404, { message: '404 Not found', gitlab });
    for (const role of ['developer', 'guest'] as const) {
      // Two refusals apply; the spec orders no checks.
      const res = await edit(role);
      expectError(res, [404, 403]);
      parity(res, gitlab, () => expectError(res, 404, { message: '404 Not found', gitlab }));
    }
  },
);

suite.test(
  {
    case: 'params',
    title: 'access_level is required; an invalid level is refused with a validation error; the member is unchanged',
    clauses: ['members.edit.params', 'members.errors.shape'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.REPORTER);
    const client = as(manager(kind));
    for (const body of [{ expires_at: dateIn(5) }, {}]) expectParamError(await client.put(memberPath(source, user.id), { body }), 'access_level', `${GITLAB.api} (requires :access_level); ${GITLAB.grape}`);
    for (const level of [33, 1]) expectValidationError(await client.put(memberPath(source, user.id), { body: { access_level: level } }), 'access_level');
    const back = await readMember(as('owner'), source, user.id);
    expectEqual([back.access_level, back.expires_at], [ACCESS.REPORTER, null], 'the member, unchanged');
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'members are edited by Owners of a group, by Owners and Maintainers of a project (read back); other member roles get 403, an outsider 404, nobody 401',
    clauses: ['members.manage.role', 'members.auth.anonymous'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.GUEST);
    const edit = (client: Client, level: number) => client.put(memberPath(source, user.id), { body: { access_level: level } });
    await expectWriteRefused(as, source, (client) => edit(client, ACCESS.MAINTAINER));
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.GUEST, 'the level after the refused edits');
    const levels = [ACCESS.REPORTER, ACCESS.DEVELOPER];
    for (const [i, role] of MANAGERS[kind].entries()) {
      expectOk(await edit(as(role), levels[i]), 200, 'member');
      expectEqual((await readMember(as('owner'), source, user.id)).access_level, levels[i], `the level after the ${role}'s edit`);
    }
  },
);

suite.test(
  {
    case: 'read-api-token',
    title: 'an owner\'s read_api token cannot edit members (403 insufficient_scope); the level is unchanged',
    clauses: ['members.auth.read-api-scope'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.REPORTER);
    expectInsufficientScope(await as('owner', 'read_api').put(memberPath(source, user.id), { body: { access_level: ACCESS.DEVELOPER } }));
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.REPORTER, 'the level, unchanged');
  },
);

suite.test(
  {
    case: 'member-role-id-type',
    title: 'a non-integer member_role_id is refused with 400 naming it; the member is unchanged',
    clauses: ['members.edit.member-role-id', 'members.errors.shape'],
    requires: { capabilities: ['ultimate'], minVersion: '16.6' },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.REPORTER);
    expectParamError(await as('owner').put(memberPath(source, user.id), { body: { access_level: ACCESS.DEVELOPER, member_role_id: 'custom' } }), 'member_role_id', `${GITLAB.eeHelpers} (optional_put_params_ee: member_role_id, type: Integer); ${GITLAB.grape}`);
    const back = await readMember(as('owner'), source, user.id);
    expectEqual([back.access_level, back.expires_at], [ACCESS.REPORTER, null], 'the member, unchanged');
  },
);

suite.test(
  {
    case: 'inherited-level',
    title: 'lowering a member of a subgroup or of a group\'s project below the level they hold in an ancestor group is refused with 400 naming that membership; the level stays',
    clauses: ['members.edit.inherited-level'],
    fixtures: { sharedHierarchy },
  },
  async ({ sharedHierarchy, ...kit }) => {
    const { kind, as } = kit;
    const { top, source } = await belowHierarchy(kit, sharedHierarchy, kind);
    const user = await kit.member(top, ACCESS.DEVELOPER);
    await kit.add(source, user, ACCESS.MAINTAINER);
    expectInheritedLevelError(await as('admin').put(memberPath(source, user.id), { body: { access_level: ACCESS.REPORTER } }), 'Developer', top.name);
    expectEqual((await readMember(as('admin'), source, user.id)).access_level, ACCESS.MAINTAINER, 'the level after the refused edit');
  },
);

lastOwnerCase(suite, {
  title: 'the last owner of a top-level group (its only direct Owner) may not be edited, not even by an administrator: 403, and the member stays an Owner without expiry',
  clause: 'members.edit.last-owner',
  why: 'the last-owner rule is the group\'s (GroupMemberPolicy, GroupMember#last_owner_of_the_group?); ProjectMemberPolicy has no such condition',
  writes: [
    (admin, path) => admin.put(path, { body: { access_level: ACCESS.MAINTAINER } }),
    (admin, path) => admin.put(path, { body: { access_level: ACCESS.OWNER, expires_at: dateIn(30) } }),
  ],
  stays: (back) => expectEqual([back.access_level, back.expires_at], [ACCESS.OWNER, null], 'the last owner after the refused edits'),
});

suite.test(
  {
    case: 'inherited-owner',
    title: 'a subgroup whose parent has an Owner has no last owner: its only direct Owner (the administrator, who made both) gets an expiry (200, returned and read back), and lowering it below its Owner membership of the parent is the inherited-level 400, not a 403',
    clauses: ['members.edit.inherited-owner', 'members.edit.inherited-level'],
    only: { kind: 'group', why: 'the last-owner rule is the group\'s; a subgroup counts the Owners of its ancestors (members_with_parents)' },
  },
  async ({ ...kit }) => {
    const { as, run } = kit;
    // GroupMember#last_owner_of_the_group? leaves out only the member's own row; for a subgroup the
    // rows are members_with_parents, so the administrator's Owner membership of the parent remains.
    const { parent, sub } = await subgroupOwnedAbove(kit, as('admin'), run.adminId);
    const expiry = dateIn(30);
    const res = await as('admin').put(memberPath(sub, run.adminId), { body: { access_level: ACCESS.OWNER, expires_at: expiry } });
    expectOk(res, 200, 'member');
    const body = res.body as MemberBody;
    expectEqual([body.id, body.access_level, body.expires_at], [run.adminId, ACCESS.OWNER, expiry], 'id, access_level and expires_at returned', res);
    const back = await readMember(as('admin'), sub, run.adminId);
    expectEqual([back.access_level, back.expires_at], [ACCESS.OWNER, expiry], 'the subgroup\'s Owner read back with its expiry');
    // Not the last owner, so the edit reaches the model: Member#higher_access_level_than_group.
    expectInheritedLevelError(await as('admin').put(memberPath(sub, run.adminId), { body: { access_level: ACCESS.MAINTAINER } }), 'Owner', parent.name);
    expectEqual((await readMember(as('admin'), sub, run.adminId)).access_level, ACCESS.OWNER, 'the level after the refused lowering');
  },
);

suite.test(
  {
    case: 'owner-role',
    title: 'a Maintainer may neither make a member Owner nor change an Owner (403); an Owner may do both',
    clauses: ['members.edit.project-owner'],
    only: { kind: 'project', why: 'only Owners edit members of a group, so every group manager may give and change the Owner role; in a project Maintainers manage members too, but only Owners give or change the Owner role (manage_owners)' },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.DEVELOPER);
    expectForbidden(await as('maintainer').put(memberPath(source, user.id), { body: { access_level: ACCESS.OWNER } }), GITLAB.projectOwners);
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.DEVELOPER, 'the level after the refused promotion');
    expectOk(await as('owner').put(memberPath(source, user.id), { body: { access_level: ACCESS.OWNER } }), 200, 'member');
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.OWNER, 'the new Owner read back');
    expectForbidden(await as('maintainer').put(memberPath(source, user.id), { body: { access_level: ACCESS.GUEST } }), GITLAB.projectOwners);
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.OWNER, 'the Owner, unchanged by the Maintainer');
    expectOk(await as('owner').put(memberPath(source, user.id), { body: { access_level: ACCESS.MAINTAINER } }), 200, 'member');
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.MAINTAINER, 'the former Owner, made Maintainer by the Owner, read back');
  },
);

publicWritesRefusedCase(suite, { done: 'edit', stays: 'the level is unchanged', kept: 'the Developer\'s level, unchanged', send: (client, path) => client.put(path, { body: { access_level: ACCESS.MAINTAINER } }) });

suite.test(
  {
    case: 'past-expiry',
    title: 'an expires_at in the past is refused with a 400 validation error on expires_at (GitLab: "cannot be a date in the past"); the member is unchanged',
    clauses: ['members.edit.expires-at-past', 'members.errors.shape'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.REPORTER);
    const res = await as(manager(kind)).put(memberPath(source, user.id), { body: { access_level: ACCESS.MAINTAINER, expires_at: dateIn(-2) } });
    expectValidationError(res, 'expires_at');
    parity(res, `${GITLAB.validation} (expires_at); app/validators/future_date_validator.rb`, () => {
      expectEqual((res.body as { message: Record<string, unknown> }).message.expires_at, ['cannot be a date in the past'], 'the expires_at error', res);
    });
    const back = await readMember(as('owner'), source, user.id);
    expectEqual([back.access_level, back.expires_at], [ACCESS.REPORTER, null], 'the member, unchanged');
  },
);

minimalAccessCase(suite, {
  title: 'an Owner of a top-level group sets the expiry of a Minimal access member (200, the new expiry returned and read back)',
  clauses: ['members.edit.level'],
  sources,
  async check({ as }, { group, user }) {
    const expiry = dateIn(2);
    const res = await as('owner').put(memberPath(group, user.id), { body: { access_level: LEVEL.MINIMAL, expires_at: expiry } });
    expectOk(res, 200, 'member');
    const body = res.body as MemberBody;
    expectEqual([body.id, body.access_level, body.expires_at], [user.id, LEVEL.MINIMAL, expiry], 'id, access_level and expires_at returned', res);
    const back = await readMember(as('owner'), group, user.id);
    expectEqual([back.access_level, back.expires_at], [LEVEL.MINIMAL, expiry], 'the member read back');
  },
});

suite.test(
  {
    case: 'group-maintainer-owner',
    title: 'a group Maintainer may neither raise a member to Owner nor change an Owner of the group (403); the levels stay',
    clauses: ['members.manage.group-owner-level'],
    only: { kind: 'group', why: 'in a project a Maintainer manages members and is refused the Owner role by manage_owners (case owner-role)' },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const gitlab = `${GITLAB.managers}; ${GITLAB.forbidden}`;
    const [developer, owner] = [await kit.member(source, ACCESS.DEVELOPER), await kit.member(source, ACCESS.OWNER)];
    expectForbidden(await as('maintainer').put(memberPath(source, developer.id), { body: { access_level: ACCESS.OWNER } }), gitlab);
    expectEqual((await readMember(as('owner'), source, developer.id)).access_level, ACCESS.DEVELOPER, 'the Developer, not raised to Owner');
    expectForbidden(await as('maintainer').put(memberPath(source, owner.id), { body: { access_level: ACCESS.DEVELOPER } }), gitlab);
    expectEqual((await readMember(as('owner'), source, owner.id)).access_level, ACCESS.OWNER, 'the Owner, unchanged');
  },
);

projectBotKeptCase(suite, { done: 'edited', stays: 'its level stays', send: (client, path) => client.put(path, { body: { access_level: ACCESS.DEVELOPER } }) });

suite.test(
  {
    case: 'same-level',
    title: 'a PUT with the level the member already has is no error: 200 with the Member, its level and expiry unchanged, and so read back',
    clauses: ['members.edit.same-level', 'members.edit.level'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.DEVELOPER);
    const expiry = dateIn(12);
    expectOk(await as(manager(kind)).put(memberPath(source, user.id), { body: { access_level: ACCESS.DEVELOPER, expires_at: expiry } }), 200, 'member');
    // GitLab's Members::UpdateService saves nothing when nothing changed and answers success all the same.
    const res = await as(manager(kind)).put(memberPath(source, user.id), { body: { access_level: ACCESS.DEVELOPER } });
    expectOk(res, 200, 'member');
    const body = res.body as MemberBody;
    expectEqual([body.id, body.access_level, body.expires_at], [user.id, ACCESS.DEVELOPER, expiry], 'id, access_level and expires_at returned: unchanged', res);
    const back = await readMember(as('guest'), source, user.id);
    expectEqual([back.access_level, back.expires_at], [ACCESS.DEVELOPER, expiry], 'the member read back, unchanged');
  },
);

suite.test(
  {
    case: 'owner-self-raise',
    title: 'a project Maintainer may not raise their own membership to Owner (403); their level stays Maintainer',
    clauses: ['members.edit.project-owner-self', 'members.edit.project-owner'],
    only: { kind: 'project', why: 'in a group only Owners edit members, and an Owner is one already' },
  },
  async ({ sources, ...kit }) => {
    const { as, withToken } = kit;
    const { project: source } = sources;
    const user = await kit.member(source, ACCESS.MAINTAINER);
    expectForbidden(await withToken(user.tokens.api, 'the Maintainer themselves').put(memberPath(source, user.id), { body: { access_level: ACCESS.OWNER } }), GITLAB.projectOwners);
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.MAINTAINER, 'the Maintainer\'s own level, unchanged');
  },
);

suite.test(
  {
    case: 'owner-peers',
    title: 'in a group with another Owner, an Owner lowers their own membership (200), and is then lowered by that Owner like any member',
    clauses: ['members.owners.peers'],
    only: { kind: 'group', why: 'a project\'s owners are group_member_policy\'s concern only in groups' },
  },
  async ({ sources, ...kit }) => {
    const { as, withToken } = kit;
    const { group: source } = sources;
    const user = await kit.member(source, ACCESS.OWNER);
    const self = await withToken(user.tokens.api, 'the Owner themselves').put(memberPath(source, user.id), { body: { access_level: ACCESS.MAINTAINER } });
    expectOk(self, 200, 'member');
    expectEqual((await readMember(as('guest'), source, user.id)).access_level, ACCESS.MAINTAINER, 'the level the Owner lowered their own membership to');
    expectOk(await as('owner').put(memberPath(source, user.id), { body: { access_level: ACCESS.OWNER } }), 200, 'member');
    expectOk(await as('owner').put(memberPath(source, user.id), { body: { access_level: ACCESS.DEVELOPER } }), 200, 'member');
    expectEqual((await readMember(as('guest'), source, user.id)).access_level, ACCESS.DEVELOPER, 'the former Owner lowered by the other Owner');
  },
);
