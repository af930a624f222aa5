// DELETE /groups/:id/members/:user_id and DELETE /projects/:id/members/:user_id
import { expectEqual, expectError, expectSetUp, expectStatus, expectTrue, fail, parity } from '../../runner/core/checks.js';
import type { Client, Exchange } from '../../runner/core/client.js';
import { ACCESS, sourcePath, type SourceRef } from '../../runner/core/vocabulary.js';
import { endpoint, fixture } from './kit.js';
import {
  expectForbidden,
  expectInsufficientScope,
  expectNotMember,
  expectParamError,
  eventually,
  expectNotShownSuccess,
  expectWriteRefused,
  manager,
  MANAGERS,
  memberIds,
  memberPath,
  membersPath,
  pendingRequesterIds,
  publicSources,
  readMember,
  readAnyMember,
  GITLAB,
  sharedHierarchy,
} from './helpers.js';
import { projectBotKeptCase, lastOwnerCase, subgroupOwnedAbove, minimalAccessCase, publicWritesRefusedCase } from './cases.js';

// The group kind: a group with the shared actors in their roles, a subgroup and a project in that
// subgroup. The project kind: a project with the shared actors in their roles, in a group whose
// only member is the administrator who made it.
const sources = fixture({ name: 'members-remove', scope: 'file', fixtures: { sharedHierarchy }, build: async (t) => {
  // The group side is the run's EE hierarchy (its tests work with members of their own, one by one).
  const { root: group, sub, project: subProject } = t.sharedHierarchy;
  const projectGroup = await t.group();
  const project = await t.roleProject({ group: projectGroup });
  return { group, sub, subProject, projectGroup, project };
} });

const suite = endpoint('remove', { fixtures: { sources } });

suite.test(
  {
    case: 'removes',
    title: 'a member manager (group: Owner; project: Maintainer) removes a member (200 or 204; GitLab: 204, no body); it is no longer a member nor listed; unassign_issuables is accepted',
    clauses: ['members.remove.direct'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const [a, b] = [await kit.member(source, ACCESS.DEVELOPER), await kit.member(source, ACCESS.DEVELOPER)];
    const client = as(manager(kind));
    expectNotShownSuccess(await client.delete(memberPath(source, a.id)));
    await expectNotMember(client, source, a.id);
    expectTrue(!(await memberIds(client, source)).includes(a.id), 'the removed member not to be listed');
    // unassign_issuables is accepted (its effect, on issues, is outside this API).
    expectNotShownSuccess(await client.delete(memberPath(source, b.id), { query: { unassign_issuables: true } }));
    await expectNotMember(client, source, b.id);
    expectTrue(!(await memberIds(client, source)).includes(b.id), 'the member removed with unassign_issuables not to be listed');
  },
);

/** GitLab's own date before any membership (spec/support/shared_examples/requests/api/status_shared_examples.rb '412 response'). */
const LONG_AGO = new Date('1990-01-12T06:00:48Z').toUTCString();

suite.test(
  {
    case: 'if-unmodified-since-stale',
    title: 'If-Unmodified-Since before the membership\'s last change: 412 (GitLab: {"message":"412 Precondition Failed"}) and the member stays',
    clauses: ['members.remove.if-unmodified-since'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.DEVELOPER);
    const res = await as(manager(kind)).delete(memberPath(source, user.id), { headers: { 'If-Unmodified-Since': LONG_AGO } });
    expectError(res, 412, { message: '412 Precondition Failed', gitlab: 'lib/api/helpers.rb (check_unmodified_since!)' });
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.DEVELOPER, 'the member, still there');
  },
);

suite.test(
  {
    case: 'if-unmodified-since-current',
    title: 'If-Unmodified-Since after the membership\'s last change: the member is removed as usual (200 or 204; GitLab: 204, no body)',
    clauses: ['members.remove.if-unmodified-since', 'members.remove.direct'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.DEVELOPER);
    // An hour after the membership was made, by the target's own clock (created_at): later than any change since.
    const created = (await readMember(as('owner'), source, user.id)).created_at;
    const since = new Date(Date.parse(created) + 3_600_000).toUTCString();
    expectNotShownSuccess(await as(manager(kind)).delete(memberPath(source, user.id), { headers: { 'If-Unmodified-Since': since } }));
    await expectNotMember(as('owner'), source, user.id);
  },
);

suite.test(
  {
    case: 'subresources',
    title: 'removing a group member removes their subgroup and project memberships, unless skip_subresources=true',
    clauses: ['members.remove.subresources'],
    only: { kind: 'group', why: 'a project has no subgroups or projects below it' },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { group, sub, subProject } = sources;
    const [u, v] = [await kit.lease(), await kit.lease()];
    for (const user of [u, v]) {
      await kit.add(group, user, ACCESS.DEVELOPER);
      await kit.add(sub, user, ACCESS.DEVELOPER);
      await kit.add(subProject, user, ACCESS.MAINTAINER);
    }
    expectNotShownSuccess(await as('owner').delete(memberPath(group, u.id)));
    await expectNotMember(as('owner'), group, u.id);
    await expectNotMember(as('owner'), sub, u.id);
    await expectNotMember(as('owner'), subProject, u.id);

    expectNotShownSuccess(await as('owner').delete(memberPath(group, v.id), { query: { skip_subresources: true } }));
    await expectNotMember(as('owner'), group, v.id);
    expectEqual((await readMember(as('owner'), sub, v.id)).access_level, ACCESS.DEVELOPER, 'v\'s subgroup membership, kept');
    expectEqual((await readMember(as('owner'), subProject, v.id)).access_level, ACCESS.MAINTAINER, 'v\'s project membership, kept');
  },
);

suite.test(
  {
    case: 'not-direct',
    title: 'a member of the parent group (of a subgroup, or of a group\'s project) is not a direct member of it, nor is a user of no membership: 404, and the group membership stays',
    clauses: ['members.remove.not-direct'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as, run } = kit;
    const w = sources;
    // The group kind acts on the subgroup, whose parent is the role group; the project kind on the project, in its group.
    const [source, parent] = kind === 'group' ? [w.sub, w.group] : [w.project, w.projectGroup];
    const user = await kit.member(parent, ACCESS.REPORTER);
    expectError(await as('owner').delete(memberPath(source, user.id)), 404, { message: '404 Not found', gitlab: GITLAB.recordNotFound });
    expectEqual((await readMember(as('admin'), parent, user.id)).access_level, ACCESS.REPORTER, 'the group membership, kept');
    expectError(await as('owner').delete(memberPath(source, run.actors.outsider.id)), 404, { message: '404 Not found', gitlab: GITLAB.recordNotFound });
  },
);

suite.test(
  {
    case: 'not-direct-below',
    title: 'a user who is only a member of a project inside the group cannot be removed through the group: 404, and the project membership stays',
    clauses: ['members.remove.not-direct'],
    only: { kind: 'group', why: 'a project has no projects inside it' },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { group, subProject } = sources;
    const user = await kit.member(subProject, ACCESS.DEVELOPER);
    expectError(await as('owner').delete(memberPath(group, user.id)), 404, { message: '404 Not found', gitlab: GITLAB.recordNotFound });
    expectEqual((await readMember(as('owner'), subProject, user.id)).access_level, ACCESS.DEVELOPER, 'the project membership, kept');
  },
);

suite.test(
  {
    case: 'self',
    title: 'a Developer or a Guest, who may not manage members, may leave by removing themselves',
    clauses: ['members.remove.self'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as, withToken } = kit;
    const { [kind]: source } = sources;
    for (const level of [ACCESS.DEVELOPER, ACCESS.GUEST]) {
      const user = await kit.member(source, level);
      expectNotShownSuccess(await withToken(user.tokens.api, 'the member themselves').delete(memberPath(source, user.id)));
      await expectNotMember(as('owner'), source, user.id);
    }
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'other members are removed by Owners of a group, by Owners and Maintainers of a project; other member roles get 403, an owner\'s read_api token 403, an outsider 404, nobody 401',
    clauses: ['members.manage.role', 'members.auth.anonymous', 'members.auth.read-api-scope'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.GUEST);
    const remove = (client: Client, target: { id: number }) => client.delete(memberPath(source, target.id));
    await expectWriteRefused(as, source, (client) => remove(client, user));
    expectInsufficientScope(await remove(as('owner', 'read_api'), user));
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.GUEST, 'the member, still there');
    for (const role of MANAGERS[kind]) {
      const target = role === MANAGERS[kind][0] ? user : await kit.member(source, ACCESS.REPORTER);
      expectNotShownSuccess(await remove(as(role), target));
      await expectNotMember(as('owner'), source, target.id);
    }
  },
);

suite.test(
  {
    case: 'boolean-params',
    title: 'skip_subresources and unassign_issuables must be booleans: another value gives 400 naming the parameter; the member stays',
    clauses: ['members.remove.params', 'members.errors.shape'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.REPORTER);
    for (const param of ['skip_subresources', 'unassign_issuables']) {
      expectParamError(await as(manager(kind)).delete(memberPath(source, user.id), { query: { [param]: 'maybe' } }), param, `${GITLAB.api} (optional :${param}, type: Boolean); ${GITLAB.grape}`);
    }
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.REPORTER, 'the member, still there at its level');
  },
);

// Members::DestroyService raises AccessDeniedError on the policy's refusal.
lastOwnerCase(suite, {
  title: 'the last owner of a top-level group (its only direct Owner) is not removed, not even by an administrator: 403, and stays an Owner',
  clause: 'members.remove.last-owner',
  why: 'the last-owner rule is the group\'s (GroupMember#last_owner_of_the_group?); a project\'s only Owner member is removed (case sole-owner)',
  writes: [(admin, path) => admin.delete(path)],
  stays: (back) => expectEqual(back.access_level, ACCESS.OWNER, 'the last owner, still an Owner'),
});

suite.test(
  {
    case: 'inherited-owner',
    title: 'a subgroup whose parent has an Owner has no last owner: its only direct Owner (the administrator, who made both) is removed (200 or 204; GitLab: 204), and still owns it through the parent (…/members/all)',
    clauses: ['members.remove.inherited-owner'],
    only: { kind: 'group', why: 'the last-owner rule is the group\'s; a subgroup counts the Owners of its ancestors (members_with_parents)' },
  },
  async ({ ...kit }) => {
    const { as, run } = kit;
    // GroupMember#last_owner_of_the_group? leaves out only the member's own row; for a subgroup the
    // rows are members_with_parents, so the administrator's Owner membership of the parent remains.
    const { sub } = await subgroupOwnedAbove(kit, as('admin'), run.adminId);
    expectNotShownSuccess(await as('admin').delete(memberPath(sub, run.adminId)));
    await expectNotMember(as('admin'), sub, run.adminId);
    expectEqual(await memberIds(as('admin'), sub), [], 'the subgroup\'s direct members after the removal');
    expectEqual((await readAnyMember(as('admin'), sub, run.adminId)).access_level, ACCESS.OWNER, 'the administrator, an Owner of the subgroup through the parent (…/members/all/:user_id)');
  },
);

suite.test(
  {
    case: 'sole-owner',
    title: 'a group\'s project has no last-owner rule: its only Owner member is removed (200 or 204; GitLab: 204)',
    clauses: ['members.remove.project-sole-owner'],
    only: { kind: 'project', why: 'the counterpart of the group\'s last-owner rule (case last-owner): ProjectMemberPolicy has no last-owner condition' },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { projectGroup } = sources;
    // The project's group has no owner but the administrator who made it, and the project one Owner member.
    const project = await kit.project({ group: projectGroup });
    const user = await kit.member(project, ACCESS.OWNER);
    expectNotShownSuccess(await as('admin').delete(memberPath(project, user.id)));
    await expectNotMember(as('admin'), project, user.id);
  },
);

suite.test(
  {
    case: 'personal-namespace-holder',
    title: 'the holder of a personal namespace, an Owner member of its project, is neither edited nor removed (403) by a Maintainer, another Owner or themselves (an administrator)',
    clauses: ['members.owners.personal-namespace-holder'],
    only: { kind: 'project', why: 'only a project lives in a user\'s personal namespace' },
  },
  async ({ ...kit }) => {
    const { as, run, withToken } = kit;
    // A project of the run's administrator's own namespace: the administrator holds it.
    const project = await kit.project();
    const holder = run.adminId;
    expectEqual((await readMember(as('admin'), project, holder)).access_level, ACCESS.OWNER, 'the namespace holder\'s membership of the personal project');
    const maintainer = await kit.member(project, ACCESS.MAINTAINER);
    const owner = await kit.member(project, ACCESS.OWNER);
    for (const [who, client] of [['a Maintainer', withToken(maintainer.tokens.api, 'a Maintainer')], ['another Owner', withToken(owner.tokens.api, 'another Owner')]] as const) {
      expectForbidden(await client.put(memberPath(project, holder), { body: { access_level: ACCESS.DEVELOPER } }), GITLAB.personalNamespaceHolder);
      expectForbidden(await client.delete(memberPath(project, holder)), GITLAB.personalNamespaceHolder);
      expectEqual((await readMember(as('admin'), project, holder)).access_level, ACCESS.OWNER, `the holder's level after ${who} tried to edit and remove it`);
    }
    expectForbidden(await as('admin').delete(memberPath(project, holder)), GITLAB.personalNamespaceHolder);
    expectEqual((await readMember(as('admin'), project, holder)).access_level, ACCESS.OWNER, 'the holder\'s level after they tried to leave');
  },
);

suite.test(
  {
    case: 'owner',
    title: 'a Maintainer may not remove an Owner of the project (403); an Owner may',
    clauses: ['members.remove.project-owner', 'members.manage.role'],
    only: { kind: 'project', why: 'only Owners remove members of a group, so every group manager may remove an Owner; in a project Maintainers manage members too, but only Owners remove an Owner (manage_owners)' },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.member(source, ACCESS.OWNER);
    expectForbidden(await as('maintainer').delete(memberPath(source, user.id)), GITLAB.projectOwners);
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.OWNER, 'the Owner, still there');
    expectNotShownSuccess(await as('owner').delete(memberPath(source, user.id)));
    await expectNotMember(as('owner'), source, user.id);
  },
);

publicWritesRefusedCase(suite, { done: 'remove', stays: 'the member stays', kept: 'the Developer, still a member', send: (client, path) => client.delete(path) });

suite.test(
  {
    case: 'requester-not-removed',
    title: 'DELETE …/members/:user_id of a user whose access request is pending gives a member manager 404 (GitLab: "404 Not found"); the request stays pending',
    clauses: ['members.requester.not-member'],
    fixtures: { publicSources },
    requires: { setup: ['access-requests'] },
  },
  async ({ kind, as, publicSources }) => {
    const sources = publicSources;
    const source = sources[kind];
    const pending = sources.requester;
    const client = as(manager(kind));
    expectError(await client.delete(memberPath(source, pending.id)), 404, { message: '404 Not found', gitlab: `${GITLAB.recordNotFound}; ${GITLAB.accessRequests}` });
    await expectNotMember(client, source, pending.id);
    const after = await pendingRequesterIds(client, source);
    expectTrue(after.includes(pending.id), 'the access request to stay pending (GET …/access_requests)', `pending: ${after.join(', ') || '(none)'}`);
  },
);

minimalAccessCase(suite, {
  title: 'an Owner of a top-level group removes a Minimal access member (200 or 204; GitLab: 204); it is no longer a member',
  clauses: ['members.remove.direct'],
  sources,
  async check({ as }, { group, user }) {
    expectNotShownSuccess(await as('owner').delete(memberPath(group, user.id)));
    await expectNotMember(as('owner'), group, user.id);
  },
});

suite.test(
  {
    case: 'group-maintainer-owner',
    title: 'a group Maintainer may not remove an Owner of the group (403); the Owner stays',
    clauses: ['members.manage.group-owner-level'],
    only: { kind: 'group', why: 'a project Maintainer\'s removal of an Owner is case owner' },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const owner = await kit.member(source, ACCESS.OWNER);
    expectForbidden(await as('maintainer').delete(memberPath(source, owner.id)), `${GITLAB.managers}; ${GITLAB.forbidden}`);
    expectEqual((await readMember(as('owner'), source, owner.id)).access_level, ACCESS.OWNER, 'the Owner, still there');
  },
);

projectBotKeptCase(suite, { done: 'removed', stays: 'it stays a member', send: (client, path) => client.delete(path) });

suite.test(
  {
    case: 'subresources-false',
    title: 'skip_subresources=false, sent, removes the subgroup and project memberships as without it',
    clauses: ['members.remove.subresources'],
    only: { kind: 'group', why: 'a project has no subgroups or projects below it' },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { group, sub, subProject } = sources;
    const user = await kit.lease();
    await kit.add(group, user, ACCESS.DEVELOPER);
    await kit.add(sub, user, ACCESS.DEVELOPER);
    await kit.add(subProject, user, ACCESS.MAINTAINER);
    expectNotShownSuccess(await as('owner').delete(memberPath(group, user.id), { query: { skip_subresources: false } }));
    await expectNotMember(as('owner'), group, user.id);
    await expectNotMember(as('owner'), sub, user.id);
    await expectNotMember(as('owner'), subProject, user.id);
  },
);

/** GitLab's members_delete limit at its default (lib/gitlab/application_rate_limiter.rb; application setting members_delete_limit: 60 a minute). */
const REMOVALS_PER_MINUTE = 60;

suite.test(
  {
    case: 'rate-limit',
    title: 'one user\'s removal requests on one group or project are limited: past 60 in a minute (refused ones count too) the target answers 429 (GitLab: {"message":{"error":"This endpoint has been requested too many times. Try again later."}}) and the member stays',
    clauses: ['members.remove.rate-limit'],
    requires: { capabilities: ['member_removal_rate_limit'] },
  },
  async ({ ...kit }) => {
    const { kind, as, withToken } = kit;
    // A source and a caller of the test's own: the limit counts per source and user, so no other
    // request of the run counts here, and the run's own removals (as the administrator) are not limited.
    const source = kind === 'group' ? await kit.group() : await kit.project();
    const user = await kit.member(source, ACCESS.DEVELOPER);
    // The member removes themselves with a date before the membership was made: each request is
    // refused (412) after the limiter has counted it (GITLAB.rateLimit: the check comes first).
    const self = withToken(user.tokens.api, 'the member themselves');
    const remove = () => self.delete(memberPath(source, user.id), { headers: { 'If-Unmodified-Since': LONG_AGO } });
    // GitLab counts in fixed periods of a minute, which the requests may straddle: within 121 one is
    // throttled (the 61st of a period), and never one of the first 60.
    let throttled: Exchange | undefined;
    for (let sent = 1; sent <= 2 * REMOVALS_PER_MINUTE + 1 && !throttled; sent++) {
      const res = await remove();
      if (res.status !== 429) {
        expectStatus(res, 412, 'the stale removal refused while under the limit');
        continue;
      }
      expectTrue(sent > REMOVALS_PER_MINUTE, `no 429 within the first ${REMOVALS_PER_MINUTE} removal requests`, `request ${sent} was throttled`, res);
      throttled = res;
    }
    if (!throttled) fail(`a 429 within ${2 * REMOVALS_PER_MINUTE + 1} removal requests of one user on one ${kind}`, 'none was throttled');
    expectError(throttled, 429);
    parity(throttled, GITLAB.rateLimit, () => {
      // Fields beyond GitLab's are a target's freedom (README: unknown fields); the text is parity.
      expectEqual((throttled.body as { message?: { error?: unknown } } | undefined)?.message?.error, 'This endpoint has been requested too many times. Try again later.', 'message.error of the 429', throttled);
    });
    expectEqual((await readMember(as('admin'), source, user.id)).access_level, ACCESS.DEVELOPER, 'the member, still there');
  },
);

// ---- what a removal takes with it (Members::DestroyService) -----------------------------------

/** The addresses of the pending invitations of a source (GET …/invitations, one page: a test's own source holds a few). */
async function invitedEmails(client: Client, source: SourceRef): Promise<string[]> {
  const res = await client.get(`${sourcePath(source)}/invitations`, { query: { per_page: 100 } });
  expectStatus(res, 200, `reading the pending invitations of ${source.kind} ${source.id}`);
  return (res.body as { invite_email: string }[]).map((i) => i.invite_email).sort();
}

/** Invites an address to a source with the inviter's own token (the set-up of a test: it must work). */
async function inviteAs(client: Client, source: SourceRef, email: string): Promise<void> {
  const res = await client.post(`${sourcePath(source)}/invitations`, { body: { email, access_level: ACCESS.GUEST } });
  expectSetUp(res, `inviting ${email} to ${source.kind} ${source.id}`, { usable: (body) => (body as { status?: unknown }).status === 'success' });
}

const INVITATIONS_GONE = 'app/services/members/destroy_service.rb (delete_invited_members, delete_project_invitations_by: unless skip_subresources)';

suite.test(
  {
    case: 'invitations-created',
    title: 'removing a group Owner withdraws the pending invitations they created in the group, its subgroup and the subgroup\'s project; others\' stay; with skip_subresources=true theirs stay too',
    clauses: ['members.remove.invitations-created'],
    only: { kind: 'group', why: 'the project side is invitations-created-project' },
  },
  async ({ ...kit }) => {
    const { as, withToken, names } = kit;
    // A hierarchy of this test's own: its invitations are counted.
    const root = await kit.roleGroup();
    const sub = await kit.group({ parent: root });
    const project = await kit.project({ group: sub });
    const places = [root, sub, project] as const;
    const [u, v] = [await kit.member(root, ACCESS.OWNER), await kit.member(root, ACCESS.OWNER)];
    const byU = places.map(() => names.email('by-u'));
    const byV = places.map(() => names.email('by-v'));
    const byOwner = names.email('by-owner');
    for (const [i, place] of places.entries()) {
      await inviteAs(withToken(u.tokens.api, 'u'), place, byU[i]);
      await inviteAs(withToken(v.tokens.api, 'v'), place, byV[i]);
    }
    await inviteAs(as('owner'), root, byOwner);

    expectNotShownSuccess(await as('owner').delete(memberPath(root, u.id)));
    for (const [i, place] of places.entries()) {
      const wanted = (place === root ? [byV[i], byOwner] : [byV[i]]).sort();
      expectEqual(await invitedEmails(as('owner'), place), wanted, `the pending invitations of the ${['group', 'subgroup', 'project'][i]} after u's removal: u's withdrawn (${INVITATIONS_GONE}), v's and the owner's kept`);
    }
    expectNotShownSuccess(await as('owner').delete(memberPath(root, v.id), { query: { skip_subresources: true } }));
    for (const [i, place] of places.entries()) {
      expectTrue((await invitedEmails(as('owner'), place)).includes(byV[i]), `v's invitation to the ${['group', 'subgroup', 'project'][i]} kept (skip_subresources=true)`);
    }
  },
);

suite.test(
  {
    case: 'invitations-created-project',
    title: 'removing a project Maintainer withdraws the pending invitations they created there (another Maintainer\'s stay; with skip_subresources=true theirs stay too), and the removed user no longer finds the private project (404)',
    clauses: ['members.remove.invitations-created', 'members.remove.access-gone'],
    only: { kind: 'project', why: 'the group side is invitations-created' },
  },
  async ({ ...kit }) => {
    const { as, withToken, names } = kit;
    // A private project of this test's own (in a group whose only member is the administrator): its invitations are counted.
    const project = await kit.roleProject({ group: await kit.group() });
    const [u, v] = [await kit.member(project, ACCESS.MAINTAINER), await kit.member(project, ACCESS.MAINTAINER)];
    const asU = withToken(u.tokens.api, 'u, the removed Maintainer');
    const [byU, byV] = [names.email('by-u'), names.email('by-v')];
    await inviteAs(asU, project, byU);
    await inviteAs(withToken(v.tokens.api, 'v'), project, byV);
    expectStatus(await asU.get(membersPath(project)), 200, 'u reads the members of the private project while a member');

    expectNotShownSuccess(await as('owner').delete(memberPath(project, u.id)));
    expectEqual(await invitedEmails(as('owner'), project), [byV], `the pending invitations after u's removal: u's withdrawn (${INVITATIONS_GONE}), v's kept`);
    // GitLab refreshes the removed user's project authorizations in a job (app/models/project_member.rb
    // refresh_member_authorized_projects); the reference server at once: a bounded wait for either.
    await eventually('the removed user to find the private project no more (404)', async () => (await asU.get(membersPath(project))).status === 404);
    expectError(await asU.get(membersPath(project)), 404, { message: '404 Project Not Found', gitlab: GITLAB.sourceNotFound });

    expectNotShownSuccess(await as('owner').delete(memberPath(project, v.id), { query: { skip_subresources: true } }));
    expectEqual(await invitedEmails(as('owner'), project), [byV], 'v\'s invitation kept (skip_subresources=true)');
  },
);

suite.test(
  {
    case: 'owner-peers',
    title: 'in a group with other Owners, an Owner removes another Owner, and an Owner removes themselves (200 or 204; GitLab: 204)',
    clauses: ['members.owners.peers', 'members.remove.self'],
    only: { kind: 'group', why: 'the last-owner rule is the group\'s (a project\'s is sole-owner)' },
  },
  async ({ sources, ...kit }) => {
    const { as, withToken } = kit;
    const { group } = sources;
    const [removed, leaving] = [await kit.member(group, ACCESS.OWNER), await kit.member(group, ACCESS.OWNER)];
    expectNotShownSuccess(await as('owner').delete(memberPath(group, removed.id)));
    await expectNotMember(as('owner'), group, removed.id);
    expectNotShownSuccess(await withToken(leaving.tokens.api, 'the Owner themselves').delete(memberPath(group, leaving.id)));
    await expectNotMember(as('owner'), group, leaving.id);
  },
);
