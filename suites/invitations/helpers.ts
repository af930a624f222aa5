// Shared pieces of the invitations suite: the sources of its tests (the run's private group with one shared
// actor per role, a subgroup and a private project in it, so that every test runs for both kinds), who may
// manage invitations of each kind, invitation URLs, invite calls with checks of their answers,
// read-backs through the invitation list (every page) and the members API, the refusal matrix, and
// the promotion-approval check.
import { segment, type Client, type Exchange } from '../../runner/core/client.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue, parity } from '../../runner/core/checks.js';
import type { Kit } from '../../runner/run/conformance.js';

/** What the checks below use of a test's kit. */
type Checking = Pick<Kit, 'as' | 'withToken' | 'make' | 'admin' | 'mayUse'>;
import { fixture } from '../../runner/run/fixture.js';
import type { InvitationsKit } from './kit.js';
import type { Maker } from '../../runner/run/maker.js';
import { QUEUED } from '../common/promotion.js';
import { ACCESS, datePart, ROLES, sourceNotFound, sourcePath, type GroupInfo, type ProjectInfo, type Role, type SourceInfo, type SourceKind, type SourceRef } from '../../runner/core/vocabulary.js';
import { type ActorInfo } from '../../runner/run/context.js';
import { emptyList } from '../common/empty-list.js';
import { MANAGERS, manager } from '../common/managers.js';
import { listAll } from '../common/read.js';

export const MUST_PROVIDE = '400 Bad request - Must provide either email or user_id as a parameter';
const ALREADY_MEMBER = 'User already exists in source';
const ALREADY_MEMBER_TEXT = 'app/models/member.rb (validates :user_id, uniqueness, message: "already exists in source"); doc/api/invitations.md (example error response)';
/** Where GitLab updates a direct member who is invited again. */
export const REINVITE_UPDATES = 'app/services/members/creator_service.rb (parse_users_list: existing_members; member_attributes: access_level, expires_at: args[:expires_at]); spec/requests/api/invitations_spec.rb (updates an already existing active member)';

/**
 * Where GitLab writes the texts and does the things these tests check beyond the spec: the `gitlab`
 * citation of expectError texts and of parity checks.
 */
export const GITLAB = {
  /** The endpoints: parameters, lookups, permission, answers. */
  api: 'lib/api/invitations.rb',
  /** Grape's parameter errors: {"error": "<param> <reason>"}. */
  grape: 'lib/api/api.rb (rescue_from Grape::Exceptions::Base: {"error": …}); Grape lib/grape/locale/en.yml',
  /** bad_request! before the source lookup. */
  mustProvide: 'lib/api/invitations.rb (bad_request! before find_source and authorize_admin_source_member!)',
  /** authorize_admin_source_member!: 403 "403 Forbidden". */
  forbidden: 'lib/api/helpers/members_helpers.rb (authorize_admin_source_member!); lib/api/helpers.rb (authorize!, forbidden!)',
  /** find_group! / find_project!: 404 "404 Group Not Found" / "404 Project Not Found". */
  sourceNotFound: 'lib/api/helpers/members_helpers.rb (find_source); lib/api/helpers.rb (find_group!, find_project!: not_found!)',
  /** before { authenticate! }: 401 "401 Unauthorized". */
  unauthorized: 'lib/api/invitations.rb (before { authenticate! }); lib/api/helpers.rb (unauthorized!)',
  /** A read_api or read_repository token on a write: 403 {"error":"insufficient_scope"}. */
  scope: 'lib/api/api.rb (allow_access_with_scope :api; :read_api only for GET and HEAD); lib/api/api_guard.rb (insufficient_scope)',
  /** The bare not_found! of PUT and DELETE: 404 "404 Not Found". */
  inviteNotFound: 'lib/api/invitations.rb (not_found! unless invite)',
  /** The parameter check of access_level on POST: 0 is no member access level. */
  accessLevels: 'lib/api/invitations.rb (requires :access_level, values: member_access_levels); lib/api/helpers/members_helpers.rb (member_access_levels: Gitlab::Access.all_values, plus 5 in EE); lib/gitlab/access.rb (all_values)',
  /** Per-recipient texts: the Member model's validations, by way of the invite service. */
  memberModel: 'app/models/member.rb (validations); app/services/members/invite_service.rb (add_error_for_member)' } as const;
/** An id that names no group, project or user. */
export const UNKNOWN_ID = 2147483000;

/** The sources of the invitations tests: a group with the shared actors in their roles, a subgroup and a project in it. */
export interface InvitationSources {
  /** A private group with the shared actors in their roles. */
  group: GroupInfo;
  /** A subgroup of `group`, without members of its own. */
  subgroup: GroupInfo;
  /** A private project in `group`: the shared actors hold their roles there by inheritance. */
  project: ProjectInfo;
}

/** The source next to `sources[kind]` whose invitations are not its own: the group's project, the project's group. */
export const neighbour = (sources: InvitationSources, kind: SourceKind): SourceInfo => (kind === 'group' ? sources.project : sources.group);

/** The group, its subgroup and its project of the invitations tests (a test reads the source of its kind as `sources[kind]`). */
async function invitationSources(make: Maker): Promise<InvitationSources> {
  // At the top: Minimal access is a level of top-level groups only.
  const group = await make.group({ top: true, hint: 'invitations', roles: true });
  const [subgroup, project] = await Promise.all([make.group({ parent: group, hint: 'sub' }), invitationsProject(make, group)]);
  return { group, subgroup, project };
}

/** Projects inherit the roles of the group; invitations need no repository. */
const invitationsProject = (make: Maker, group: GroupInfo) => make.project({ group, hint: 'invitations', empty: true });

/**
 * The run's group, subgroup and project of the invitations files: their tests invite addresses and
 * users of their own, count only in sources of their own (freshSource) and read the shared ones
 * address by address.
 */
export const sharedSources = fixture({ name: 'invitation-sources', scope: 'run', build: ({ make }) => invitationSources(make) });

/**
 * The same for one file alone, per kind of source: the promotion-approval file queues requests
 * there, which no clean-up can withdraw, and a seatless user serves each source once. Run-scoped,
 * though only that file uses it: both of the setting's phases load the file, and share it.
 */
export const ownSources = fixture({
  name: 'invitation-own-sources',
  scope: 'run',
  perKind: true,
  fixtures: { sharedSources },
  // Only the source of the instance's kind is made (and the group a project needs above it); the field
  // of the other kind, which its tests never read, is the run's shared one.
  async build({ make, sharedSources: shared, kind }) {
    const group = await make.group({ top: true, hint: 'invitations', roles: true });
    return kind === 'project' ? { group, subgroup: shared.subgroup, project: await invitationsProject(make, group) } : { group, subgroup: await make.group({ parent: group, hint: 'sub' }), project: shared.project };
  } });

/**
 * A source of the test's kind with the shared actors in their roles and no pending invitation, for
 * tests that count: one an earlier test held, its invitations withdrawn (withdrawInvitations), else a new one.
 */
export const freshSource = fixture({
  name: 'invitations-fresh-source',
  scope: 'test',
  fixtures: { sharedSources },
  build: ({ make, sharedSources, kind }): Promise<SourceInfo> => (kind === 'group' ? make.group({ hint: 'invitations', roles: true }) : invitationsProject(make, sharedSources.group)),
  reset: (source, { admin }) => withdrawInvitations(admin, source),
  most: 1 });

/** The run's user whose primary address is unconfirmed (made without skip_confirmation, without tokens): invite it into each source once. */
export const unconfirmedUser = fixture({ name: 'unconfirmed-user', scope: 'run', requires: { setup: ['unconfirmed-users'] }, build: ({ make }) => make.user('unconfirmed', [], { unconfirmed: true }) });

// ---- who may manage invitations ------------------------------------------------------------

/**
 * The roles that may administer members and invitations: Owner of a group; Maintainer or Owner of a
 * project (lib/api/invitations.rb authorize_admin_source_member!; app/policies/group_policy.rb enables
 * admin_group_member for owners, app/policies/project_policy.rb admin_project_member for maintainers).
 */
export { MANAGERS, manager };

/**
 * Everyone else is refused: 403 for members below the needed role, 404 for an outsider of the
 * private source, 401 without a token (statuses GitLab's code settles: GITLAB.forbidden,
 * GITLAB.sourceNotFound, GITLAB.unauthorized; their texts are parity). `send` makes the request as
 * one caller.
 */
export async function expectRefused(kit: Checking, source: SourceRef, send: (client: Client) => Promise<Exchange>): Promise<void> {
  const below = ROLES.filter((role) => !(MANAGERS[source.kind] as readonly Role[]).includes(role));
  for (const role of below) expectError(await send(kit.as(role)), 403, { message: '403 Forbidden', gitlab: GITLAB.forbidden });
  expectError(await send(kit.as('outsider')), 404, { message: sourceNotFound(source.kind), gitlab: GITLAB.sourceNotFound });
  expectError(await send(kit.as('anonymous')), 401, { message: '401 Unauthorized', gitlab: GITLAB.unauthorized });
}

/**
 * On a public source the non-members, a stranger (the shared outsider) and `requester`, whose access
 * request is pending, are refused with 403, not the 404 of a private source (invitations.auth.public-non-member;
 * text "403 Forbidden" at parity).
 */
export async function expectNonMembersRefused(kit: Checking, requester: ActorInfo, send: (client: Client) => Promise<Exchange>): Promise<void> {
  for (const client of [kit.as('outsider'), kit.withToken(requester.tokens.api, 'access requester')]) {
    expectError(await send(client), 403, { message: '403 Forbidden', gitlab: `${GITLAB.forbidden}; app/policies/group_policy.rb (public_group: read_group); app/policies/project_policy.rb (public_project)` });
  }
}

/** The ids of the users whose access request to `source` is pending (GET …/access_requests, a set-up endpoint: lib/api/access_requests.rb). */
export async function pendingRequesterIds(client: Client, source: SourceRef): Promise<number[]> {
  const res = await client.get(`${sourcePath(source)}/access_requests`, { query: { per_page: 100 } });
  expectStatus(res, 200, 'the access requests to be readable by a member manager (GET …/access_requests)');
  expectTrue(Array.isArray(res.body), 'the access requests to be a list', '', res);
  return (res.body as { id: number }[]).map((r) => r.id);
}

// ---- URLs ----------------------------------------------------------------------------------

/** The same address with its local part in upper case. */
export function otherCase(email: string): string {
  const at = email.indexOf('@');
  return email.slice(0, at).toUpperCase() + email.slice(at);
}

export const invitationsUrl = (source: SourceRef) => `${sourcePath(source)}/invitations`;
export const invitationUrl = (source: SourceRef, email: string) => `${invitationsUrl(source)}/${segment(email)}`;
export const membersUrl = (source: SourceRef) => `${sourcePath(source)}/members`;
const memberUrl = (source: SourceRef, userId: number) => `${membersUrl(source)}/${userId}`;

// ---- inviting ------------------------------------------------------------------------------

export interface InviteResult {
  status: string;
  message?: string | Record<string, string>;
  queued_users?: Record<string, string>;
  reason?: string;
}

export function invite(client: Client, source: SourceRef, body: Record<string, unknown>): Promise<Exchange> {
  return client.post(invitationsUrl(source), { body });
}

/**
 * 201 {"status":"success"}: every recipient was invited or added. The body is the spec's; the 201 is
 * GitLab's (lib/api/invitations.rb returns the service's hash from a POST, which Grape answers 201).
 */
export function expectInviteSuccess(res: Exchange): InviteResult {
  expectOk(res, 201, 'invitation-result');
  const body = res.body as InviteResult;
  expectEqual(body.status, 'success', 'status "success"', res);
  return body;
}

/**
 * 201 with status "error" and a message object naming exactly the failing recipients (spec:
 * Endpoints/Invitations, Responses). The text of each is GitLab's: checked at the parity level
 * against `gitlab`, the path that writes it.
 */
export function expectInviteErrors(res: Exchange, failures: Record<string, string | RegExp>, gitlab: string): void {
  expectOk(res, 201, 'invitation-result');
  const body = res.body as InviteResult;
  expectEqual(body.status, 'error', 'status "error"', res);
  const message = typeof body.message === 'object' && body.message !== null ? body.message : {};
  expectEqual(Object.keys(message).sort(), Object.keys(failures).sort(), 'message to name exactly the failing recipients', res);
  parity(res, gitlab, () => {
    for (const [who, text] of Object.entries(failures)) {
      const actual = message[who];
      const ok = text instanceof RegExp ? text.test(actual) : actual === text;
      expectTrue(ok, `the message for ${who}`, `wanted ${String(text)}, got ${JSON.stringify(actual)}`, res);
    }
  });
}

/**
 * The one failure of a user given by user_id: the spec keys failures by "email or username"; GitLab
 * keys it by username (app/services/members/invite_service.rb invited_object).
 */
export function expectUserIdFailure(res: Exchange, user: ActorInfo, text: string, gitlab: string): void {
  const message = (res.body as InviteResult | undefined)?.message;
  const byAddress = typeof message === 'object' && message !== null && user.email in message;
  expectInviteErrors(res, { [byAddress ? user.email : user.username]: text }, gitlab);
  parity(res, 'app/services/members/invite_service.rb (invited_object: the username of a user given by user_id)', () => {
    expectTrue(!byAddress, `the failure of ${user.username}, given by user_id, keyed by username`, 'it is keyed by the address', res);
  });
}

/**
 * Inviting a direct member again, by address or by user_id, at `level` (the member held `before`).
 * A success means the membership now has the requested level; a failure for that recipient (the
 * spec's sample text "User already exists in source", GitLab's docs) that it kept its level. GitLab
 * updates the membership and answers success (parity: app/services/members/creator_service.rb
 * finds the existing member and sets its access_level; spec/requests/api/invitations_spec.rb
 * "updates an already existing active member"). Either way no pending invitation appears (the caller
 * checks). Returns the level the member holds now.
 */
export async function expectAlreadyMember(kit: Checking, source: SourceInfo, res: Exchange, user: ActorInfo, by: 'email' | 'user_id', level: number, before: number): Promise<number> {
  const refused = (res.body as InviteResult | undefined)?.status === 'error';
  if (!refused) expectInviteSuccess(res);
  else if (by === 'email') expectInviteErrors(res, { [user.email]: ALREADY_MEMBER }, ALREADY_MEMBER_TEXT);
  else expectUserIdFailure(res, user, ALREADY_MEMBER, ALREADY_MEMBER_TEXT);
  parity(res, REINVITE_UPDATES, () => expectTrue(!refused, `re-inviting ${user.username}, a direct member, to succeed and update the membership`, 'it was reported as a failure', res));
  const now = refused ? before : level;
  await expectMember(kit, source, user, now);
  return now;
}

/**
 * More than 100 recipients: nothing is done, 201 with status "error" and a message (GitLab's code
 * settles the limit: app/services/members/create_service.rb DEFAULT_INVITE_LIMIT, validate_invitable!).
 * GitLab's message is one string and it passes back a reason (parity); the spec's form of a failure
 * is a map of recipients, which the schema accepts too.
 */
export function expectLimitRefused(res: Exchange): void {
  expectOk(res, 201, 'invitation-result');
  const body = res.body as InviteResult;
  expectEqual(body.status, 'error', 'status "error"', res);
  parity(res, 'app/services/members/create_service.rb (TooManyInvitesError: error(e.message, pass_back: { reason: … })); spec/services/members/invite_service_spec.rb (limits the number of emails to 100)', () => {
    expectEqual(body.message, 'Too many users specified (limit is 100)', 'the limit message', res);
    expectEqual(body.reason, 'too_many_invites_error', 'reason', res);
  });
}

/** Invites one address or several and insists it worked (the set-up of a test). */
export async function inviteOk(client: Client, source: SourceRef, email: string | string[], accessLevel: number = ACCESS.GUEST, extra: Record<string, unknown> = {}): Promise<void> {
  expectInviteSuccess(await invite(client, source, { email: [email].flat().join(','), access_level: accessLevel, ...extra }));
}

/** PUT …/invitations/:email. */
export function update(client: Client, source: SourceRef, email: string, body: Record<string, unknown>): Promise<Exchange> {
  return client.put(invitationUrl(source, email), { body });
}

/** A 200 update answer carrying the new access level and expiry date. */
export function expectUpdated(res: Exchange, accessLevel: number, expiresAt: string | null): void {
  expectOk(res, 200, 'invitation-update');
  const body = res.body as { access_level: number; expires_at: string | null };
  expectEqual(body.access_level, accessLevel, 'access_level in the answer', res);
  expectEqual(datePart(body.expires_at), expiresAt, 'the expiry date in the answer', res);
}

/** GitLab's parameter check of email: one malformed address refuses the whole request. */
export const INVALID_EMAIL = 'lib/api/validations/validators/email_or_email_list.rb; spec/requests/api/invitations_spec.rb (returns 400 when the comma-separated email list is not a valid format)';

/** Where EE takes access_level 5 and which sources hold it. */
export const MINIMAL_ACCESS = 'ee/lib/ee/api/helpers/members_helpers.rb (member_access_levels + MINIMAL_ACCESS); ee/app/models/ee/group.rb (access_level_roles: Minimal Access when minimal_access_role_allowed?); ee/app/models/ee/group_member.rb, app/models/project_member.rb (access_level_inclusion)';

/**
 * An invitation whose address list holds a malformed address. GitLab's email_or_email_list parameter
 * check refuses the whole request before anything is done (400, no one invited; spec/requests/api/
 * invitations_spec.rb "returns 400 when the comma-separated email list is not a valid format"); the
 * spec's form is a failure for that recipient with the others invited. Either way the bad one is not.
 */
export async function expectMalformedAddressHandled(as: Checking['as'], source: SourceRef, list: (bad: string) => string | string[], good: string, level: number): Promise<void> {
  const bad = 'not-an-address';
  const res = await invite(as('owner'), source, { email: list(bad), access_level: level });
  parity(res, INVALID_EMAIL, () => expectStatus(res, 400, 'GitLab refuses the whole request in its parameter check'));
  if (res.status === 400) {
    expectError(res, 400, { error: 'email contains an invalid email address', gitlab: INVALID_EMAIL });
    await expectNotInvited(as('admin'), source, good);
  } else {
    expectInviteErrors(res, { [bad]: 'Invite email is invalid' }, 'app/services/members/invite_service.rb (invalid_emails)');
    await expectInvited(as('admin'), source, good, level);
  }
  await expectNotInvited(as('admin'), source, bad);
}

// ---- reading back --------------------------------------------------------------------------

export interface Invitation {
  id?: number;
  invite_email: string;
  created_at: string;
  access_level: number;
  expires_at: string | null;
  user_name?: string;
  created_by_name: string | null;
}

/** A list answer: 200, every item an Invitation; the addresses. */
export function expectList(res: Exchange): string[] {
  expectOk(res, 200, 'invitation', { list: true });
  return (res.body as Invitation[]).map((i) => i.invite_email);
}

export { listAll };

/** Above this many invitations a source is not emptied for reuse: a new one costs less. */
const WITHDRAW_AT_MOST = 100;

/** Withdraws every pending invitation of a source; its members stay (the tests that count, count invitations). */
const withdrawInvitations = (admin: Client, source: SourceInfo) =>
  emptyList<Invitation>(admin, invitationsUrl(source), (i) => invitationUrl(source, i.invite_email), WITHDRAW_AT_MOST);

/** Every pending invitation of a source, on every page. */
export function invitationsOf(client: Client, source: SourceRef): Promise<Invitation[]> {
  return listAll<Invitation>(client, invitationsUrl(source), 'invitation');
}

/** The address is listed once, at `accessLevel` and, when given, expiring on `expiresAt` (null: no expiry). */
/**
 * The pending invitations of one address in a source: the list asked for that address (`query`: one
 * short page, which other files inviting into the run's sources at the same time cannot shift), or,
 * when that answer is not exactly its invitation, every page of the whole list, filtered here.
 */
export async function invitationsOfAddress(admin: Client, source: SourceRef, email: string): Promise<Invitation[]> {
  const res = await admin.get(invitationsUrl(source), { query: { query: email } });
  const body = res.body as Invitation[];
  if (res.status === 200 && Array.isArray(body) && body.length === 1 && body[0].invite_email === email) return body;
  return (await invitationsOf(admin, source)).filter((i) => i.invite_email === email);
}

export async function expectInvited(admin: Client, source: SourceRef, email: string, accessLevel: number, expiresAt?: string | null): Promise<Invitation> {
  const matches = await invitationsOfAddress(admin, source, email);
  expectEqual(matches.length, 1, `one pending invitation for ${email} in the list of ${source.kind} ${source.id}`);
  expectEqual(matches[0].access_level, accessLevel, `the invitation of ${email} to have access_level ${accessLevel}`);
  if (expiresAt !== undefined) expectEqual(datePart(matches[0].expires_at), expiresAt, `the invitation of ${email} to expire on ${expiresAt}`);
  return matches[0];
}

/** No pending invitation for any of `emails`, in the whole list (which other files' invitations at the same time can only shorten: never a false alarm). */
export async function expectNotInvited(admin: Client, source: SourceRef, ...emails: string[]): Promise<void> {
  const listed = new Set((await invitationsOf(admin, source)).map((i) => i.invite_email));
  for (const email of emails) expectTrue(!listed.has(email), `no pending invitation for ${email}`, `the list of ${source.kind} ${source.id} shows one`);
}

/**
 * The user is a direct member at `accessLevel` (GET …/members/:user_id), and now sees the private
 * group or project: GET /groups/:id or /projects/:id as the user, a read beyond the spec's forms (the
 * test needs "group-project-read"; a target whose administrator cannot read the source either lacks it).
 */
export async function expectMember(kit: Checking, source: SourceInfo, user: ActorInfo, accessLevel: number): Promise<void> {
  const res = await kit.as('admin').get(memberUrl(source, user.id));
  expectStatus(res, 200, `${user.username} to be a direct member of ${source.kind} ${source.fullPath}`);
  expectEqual((res.body as { access_level?: unknown }).access_level, accessLevel, `${user.username}'s access_level`, res);
  await expectSeesSource(kit, source, user, true);
}

export async function expectNotMember(kit: Checking, source: SourceInfo, user: ActorInfo): Promise<void> {
  expectStatus(await kit.as('admin').get(memberUrl(source, user.id)), 404, `${user.username} not to be a direct member of ${source.kind} ${source.fullPath}`);
  await expectSeesSource(kit, source, user, false);
}

/** Whether the user sees the private source (200) or not (404); unsupported where even the administrator cannot read it. */
async function expectSeesSource(kit: Checking, source: SourceInfo, user: ActorInfo, sees: boolean): Promise<void> {
  const { make, admin } = kit;
  kit.mayUse('group-project-read');
  const own = await kit.withToken(user.tokens.api, user.username).get(sourcePath(source));
  if (own.status !== (sees ? 200 : 404)) await make.setup(`read ${source.kind} ${source.fullPath} as the administrator`, admin.get(sourcePath(source)), [200], 'group-project-read');
  expectStatus(own, sees ? 200 : 404, sees ? `${user.username}, now a member, to see the private ${source.kind}` : `${user.username}, not a member, not to see the private ${source.kind}`);
}

// ---- promotion approval --------------------------------------------------------------------

/**
 * With promotion approval on: existing users invited above Guest, by user_id or by address, are
 * queued under their username with the spec's text and not added; a Guest (no billable role) and an
 * address without an account are not queued (GitLab:
 * ee/app/services/gitlab_subscriptions/member_management/queue_non_billable_to_billable_service.rb;
 * ee/spec/requests/api/invitations_spec.rb). `users`: three seatless users (by id, by address, as a Guest).
 */
export async function expectPromotionsQueued(kit: Checking & Pick<InvitationsKit, 'email'>, source: SourceInfo, [byId, byEmail, guest]: ActorInfo[]): Promise<void> {
  const owner = kit.as('owner');
  const admin = kit.as('admin');

  for (const [user, body] of [
    [byId, { user_id: String(byId.id), access_level: ACCESS.DEVELOPER }],
    [byEmail, { email: byEmail.email, access_level: ACCESS.MAINTAINER }],
  ] as const) {
    const res = await invite(owner, source, body);
    const result = expectInviteSuccess(res);
    expectEqual(result.queued_users, { [user.username]: QUEUED }, `${user.username} to be queued for approval`, res);
    await expectNotMember(kit, source, user);
    await expectNotInvited(admin, source, user.email);
  }

  const asGuest = expectInviteSuccess(await invite(owner, source, { user_id: String(guest.id), access_level: ACCESS.GUEST }));
  expectEqual(asGuest.queued_users, undefined, 'no queued users for a Guest invitation');
  await expectMember(kit, source, guest, ACCESS.GUEST);

  const address = kit.email();
  const pending = expectInviteSuccess(await invite(owner, source, { email: address, access_level: ACCESS.DEVELOPER }));
  expectEqual(pending.queued_users, undefined, 'no queued users for an address without an account');
  await expectInvited(admin, source, address, ACCESS.DEVELOPER);
}
