// POST /groups/:id/invitations and POST /projects/:id/invitations
// Every case runs for both kinds unless it says why not. The promotion-approval tests are in
// create-promotion.exclusive.test.ts: they turn a global setting on.
import { endpoint } from './kit.js';
import type { Kit } from '../../runner/run/conformance.js';
import { SetupError } from '../../runner/run/maker.js';
import { promotionSettingRead } from '../common/promotion.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue, parity } from '../../runner/core/checks.js';
import { ACCESS, dateIn, sourceNotFound, type SourceRef } from '../../runner/core/vocabulary.js';
import {
  expectAlreadyMember,
  expectInvited,
  expectInviteErrors,
  expectInviteSuccess,
  expectLimitRefused,
  expectMember,
  expectNonMembersRefused,
  expectNotInvited,
  expectNotMember,
  expectRefused,
  expectUpdated,
  expectUserIdFailure,
  GITLAB,
  invite,
  invitationsOf,
  invitationsUrl,
  inviteOk,
  listAll,
  manager,
  MANAGERS,
  membersUrl,
  MUST_PROVIDE,
  otherCase,
  pendingRequesterIds,
  REINVITE_UPDATES,
  UNKNOWN_ID,
  update,
  type InviteResult,
  freshSource,
  sharedSources,
  unconfirmedUser,
} from './helpers.js';
import { publicSources } from '../common/public-sources.js';
import { projectBot } from '../common/project-bot.js';

const suite = endpoint('create', { fixtures: { sources: sharedSources } });

/** Where current GitLab refreshes an invitation of an address that is already invited. */
const REINVITE_PENDING = 'app/services/members/invite_member_builder.rb (find_or_initialize_by invite_email: the pending invitation, updated); spec/requests/api/invitations_spec.rb (when invitee is already an invited member: updates the member for that email)';

/** GitLab's parameter check of email: one malformed address refuses the whole request. */
const INVALID_EMAIL = 'lib/api/validations/validators/email_or_email_list.rb; spec/requests/api/invitations_spec.rb (returns 400 when the comma-separated email list is not a valid format)';

/**
 * An invitation whose address list holds a malformed address. GitLab's email_or_email_list parameter
 * check refuses the whole request before anything is done (400, no one invited; spec/requests/api/
 * invitations_spec.rb "returns 400 when the comma-separated email list is not a valid format"); the
 * spec's form is a failure for that recipient with the others invited. Either way the bad one is not.
 */
async function expectMalformedAddressHandled(as: Kit['as'], source: SourceRef, list: (bad: string) => string | string[], good: string, level: number): Promise<void> {
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
/** Where EE takes access_level 5 and which sources hold it. */
const MINIMAL_ACCESS = 'ee/lib/ee/api/helpers/members_helpers.rb (member_access_levels + MINIMAL_ACCESS); ee/app/models/ee/group.rb (access_level_roles: Minimal Access when minimal_access_role_allowed?); ee/app/models/ee/group_member.rb, app/models/project_member.rb (access_level_inclusion)';
/** The instance settings endpoints: administrators only; a PUT names at least one setting. */
const SETTINGS = 'lib/api/settings.rb (before { authenticated_as_admin! }; get "application/settings"; put: at_least_one_of)';

suite.test(
  {
    case: 'pending-invitation',
    title: 'addresses without an account are invited: 201 {"status":"success"}, each listed with its level, expiry and inviter',
    clauses: ['invitations.create.by-email', 'invitations.create.several', 'invitations.create.expires-at', 'invitations.list.values'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as, run } = kit;
    const { email } = kit;
    const inviter = manager(kind);
    const [a, b] = [email(), email()];
    const expires = dateIn(30);
    expectInviteSuccess(await invite(as(inviter), sources[kind], { email: `${a},${b}`, access_level: ACCESS.MAINTAINER, expires_at: expires }));
    for (const address of [a, b]) {
      const invitation = await expectInvited(as('admin'), sources[kind], address, ACCESS.MAINTAINER, expires);
      expectEqual(invitation.created_by_name, run.actors[inviter].name, `created_by_name to be the name of the inviting ${inviter}`);
    }
    // One address alone, at another level.
    const single = email();
    expectInviteSuccess(await invite(as(inviter), sources[kind], { email: single, access_level: ACCESS.REPORTER, expires_at: expires }));
    await expectInvited(as('admin'), sources[kind], single, ACCESS.REPORTER, expires);
  },
);

suite.test(
  {
    case: 'several-addresses',
    title: 'several comma-separated addresses are each invited once, even when one is repeated',
    clauses: ['invitations.create.several', 'invitations.create.duplicates', 'invitations.list.values'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const [a, b, c] = [email(), email(), email()];
    expectInviteSuccess(await invite(as('owner'), sources[kind], { email: `${a},${b},${c},${a}`, access_level: ACCESS.DEVELOPER }));
    for (const address of [a, b, c]) await expectInvited(as('admin'), sources[kind], address, ACCESS.DEVELOPER, null);
  },
);

suite.test(
  {
    case: 'existing-user-email',
    title: 'the address of an existing user makes that user a direct member, not a pending invitation',
    clauses: ['invitations.create.existing-user-email', 'invitations.list.pending-only'],
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const { lease } = kit;
    const target = sources[kit.kind];
    const person = await lease();
    await expectNotMember(kit, target, person);
    expectInviteSuccess(await invite(kit.as('owner'), target, { email: person.email, access_level: ACCESS.GUEST }));
    await expectNotInvited(kit.as('admin'), target, person.email);
    await expectMember(kit, target, person, ACCESS.GUEST);
  },
);

suite.test(
  {
    case: 'user-ids',
    title: 'several user ids add those users as direct members; an unknown id is dropped without an error entry',
    clauses: ['invitations.create.user-id', 'invitations.create.several'],
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const { lease } = kit;
    const target = sources[kit.kind];
    const [first, second] = [await lease(), await lease()];
    expectInviteSuccess(await invite(kit.as('owner'), target, { user_id: `${first.id},${UNKNOWN_ID},${second.id}`, access_level: ACCESS.GUEST }));
    await expectMember(kit, target, first, ACCESS.GUEST);
    await expectMember(kit, target, second, ACCESS.GUEST);
  },
);

suite.test(
  {
    case: 'email-and-user-id',
    title: 'an existing user\'s address and a user id in one request both make direct members, not pending invitations',
    clauses: ['invitations.create.existing-user-email', 'invitations.create.user-id', 'invitations.list.pending-only'],
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const { lease } = kit;
    const target = sources[kit.kind];
    const [byEmail, byId] = [await lease(), await lease()];
    await expectNotMember(kit, target, byEmail);
    expectInviteSuccess(await invite(kit.as('owner'), target, { email: byEmail.email, user_id: `${byId.id},${UNKNOWN_ID}`, access_level: ACCESS.GUEST }));
    await expectNotInvited(kit.as('admin'), target, byEmail.email, byId.email);
    await expectMember(kit, target, byEmail, ACCESS.GUEST);
    await expectMember(kit, target, byId, ACCESS.GUEST);
  },
);

suite.test(
  {
    case: 'email-or-user-id-required',
    title: 'a request with neither email nor user_id, or only blank ones, is refused with 400',
    clauses: ['invitations.create.email-or-user-id'],
  },
  async ({ kind, as, sources }) => {
    
    // The spec makes one of them required; the text is GitLab's (spec/requests/api/invitations_spec.rb).
    expectError(await invite(as('owner'), sources[kind], { access_level: ACCESS.GUEST }), 400, { message: MUST_PROVIDE, gitlab: GITLAB.mustProvide });
    expectError(await invite(as('owner'), sources[kind], { email: '', user_id: '', access_level: ACCESS.GUEST }), 400, { message: MUST_PROVIDE, gitlab: GITLAB.mustProvide });
    // The order of checks is GitLab's: its 400 comes before the source lookup and the permission
    // check, so a Developer, or a request for an unknown source, gets it too. The spec gives no order.
    for (const [res, refusal] of [
      [await invite(as('developer'), sources[kind], { access_level: ACCESS.GUEST }), 403],
      [await invite(as('owner'), { kind, id: UNKNOWN_ID }, { access_level: ACCESS.GUEST }), 404],
    ] as const) {
      expectError(res, [400, refusal]);
      parity(res, GITLAB.mustProvide, () => expectStatus(res, 400, 'GitLab checks for email or user_id first'));
    }
  },
);

suite.test(
  {
    case: 'access-level-checked',
    title: 'a missing, non-integer or unlisted access_level (60, Admin) is refused with 400 and nothing is invited',
    clauses: ['invitations.create.access-level'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const address = email();
    expectError(await invite(as('owner'), sources[kind], { email: address }), 400, { error: /^access_level /, gitlab: GITLAB.grape });
    expectError(await invite(as('owner'), sources[kind], { email: address, access_level: 'developer' }), 400, { error: /^access_level /, gitlab: GITLAB.grape });
    // 60 (Admin) is "not listed as valid for invitations" (spec: Access levels).
    expectError(await invite(as('owner'), sources[kind], { email: address, access_level: 60 }), 400, { error: 'access_level does not have a valid value', gitlab: GITLAB.grape });
    await expectNotInvited(as('admin'), sources[kind], address);
  },
);

suite.test(
  {
    case: 'no-access-level-refused',
    title: 'access_level 0 (No access) is no role a member can hold: nothing is invited (GitLab: 400 for the whole request; elsewhere perhaps per recipient)',
    clauses: ['invitations.create.access-level-role', 'invitations.create.result-error'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const [address, other] = [email(), email()];
    const res = await invite(as('owner'), sources[kind], { email: `${address},${other}`, access_level: ACCESS.NO_ACCESS });
    // The spec lists 0 among the access levels, so a target may take the parameter and refuse it per
    // recipient, as the Member model does. GitLab's parameter check refuses 0 outright
    // (member_access_levels is Gitlab::Access.all_values, plus 5 in EE, without 0): 400.
    if (res.status === 400) expectError(res, 400, { error: 'access_level does not have a valid value', gitlab: GITLAB.grape });
    else expectInviteErrors(res, { [address]: 'Access level is not included in the list', [other]: 'Access level is not included in the list' }, GITLAB.memberModel);
    parity(res, GITLAB.accessLevels, () => expectStatus(res, 400, 'GitLab refuses access_level 0 in its parameter check'));
    await expectNotInvited(as('admin'), sources[kind], address, other);
  },
);

suite.test(
  {
    case: 'minimal-access',
    title: 'access_level 5 (Minimal access) invites at that level or no one (GitLab with a licence: a top-level group takes it, a project refuses it per recipient)',
    clauses: ['invitations.create.minimal-access'],
  },
  async ({ sources, ...kit }) => {
    const { email } = kit;
    const target = sources[kit.kind];
    const address = email();
    const res = await invite(kit.as('owner'), target, { email: address, access_level: ACCESS.MINIMAL });
    const outcome = res.status === 400 ? 'refused' : (res.body as InviteResult | undefined)?.status === 'error' ? 'reported' : 'invited';
    // The spec lists 5 among the access levels: a target takes it as a level, or refuses it (in its
    // parameter check, or per recipient, as a level this source cannot hold).
    if (outcome === 'refused') expectError(res, 400, { error: 'access_level does not have a valid value', gitlab: GITLAB.accessLevels });
    // A project adds no other text (app/models/project_member.rb access_level_inclusion); an EE group may (licence).
    else if (outcome === 'reported') expectInviteErrors(res, { [address]: kit.kind === 'project' ? 'Access level is not included in the list' : /^Access level is not included in the list/ }, MINIMAL_ACCESS);
    else expectInviteSuccess(res);
    if (outcome === 'invited') await expectInvited(kit.as('admin'), target, address, ACCESS.MINIMAL);
    else await expectNotInvited(kit.as('admin'), target, address);
    // GitLab EE takes 5 in its parameter check; with a licence (Premium) a top-level group holds
    // Minimal Access members, a project does not. Without one, the answer depends on the edition.
    if (kit.run.capabilities.includes('premium')) {
      const wanted = kit.kind === 'group' ? 'invited' : 'reported';
      parity(res, MINIMAL_ACCESS, () => expectEqual(outcome, wanted, `access_level 5 in a ${kit.kind === 'group' ? 'top-level group' : 'project'} to be ${wanted}`, res));
    }
  },
);

suite.test(
  {
    case: 'lower-case',
    title: 'an address without an account sent with capitals is invited once, listed as sent or (GitLab) in lower case, and updated by the listed address',
    clauses: ['invitations.create.lower-case', 'invitations.create.by-email', 'invitations.update.fields'],
    fixtures: { freshSource },
  },
  async ({ freshSource, ...kit }) => {
    const { as, log } = kit;
    const { email } = kit;
    // A source of the file's own: the whole list is read, which other files could shift in a shared one.
    const target = freshSource;
    const lower = email();
    const sent = otherCase(lower);
    expectInviteSuccess(await invite(as('owner'), target, { email: sent, access_level: ACCESS.GUEST }));
    const rows = (await invitationsOf(as('admin'), target)).filter((i) => i.invite_email.toLowerCase() === lower);
    expectEqual(rows.length, 1, `one pending invitation for ${sent}`);
    const listed = rows[0].invite_email;
    expectTrue(listed === sent || listed === lower, `the invitation of ${sent} listed as sent or in lower case`, `it is listed as ${listed}`);
    parity({ log }, 'app/services/members/invite_member_builder.rb (record.invite_email = invitee.downcase if record.new_record?)', () => {
      expectEqual(listed, lower, `the invitation of ${sent} stored in lower case`);
    });
    expectUpdated(await update(as('owner'), target, listed, { access_level: ACCESS.REPORTER }), ACCESS.REPORTER, null);
    await expectInvited(as('admin'), target, listed, ACCESS.REPORTER);
  },
);

suite.test(
  {
    case: 'taken-in-other-case',
    title: 'an address already invited in other letter case is reported as taken while the other addresses are invited',
    clauses: ['invitations.create.taken', 'invitations.create.partial', 'invitations.create.result-error'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const target = sources[kind];
    const [first, second, third] = [email(), email(), email()];
    await inviteOk(as('owner'), target, first);
    const variant = otherCase(first);
    // GitLab stores a new invitation's address in lower case, so the variant fails the uniqueness
    // check (app/services/members/invite_member_builder.rb; app/models/member.rb). The text is the
    // spec's sample (older GitLab) or current GitLab's wording: parity.
    const taken = { [variant]: /^(Invite email|The member's email address) has already been taken$/ };
    const gitlab = 'app/models/member.rb (validates :invite_email, uniqueness); spec/services/members/invite_service_spec.rb (with case insensitive emails)';
    // The taken address before and after a good one.
    expectInviteErrors(await invite(as('owner'), target, { email: `${variant},${second}`, access_level: ACCESS.GUEST }), taken, gitlab);
    expectInviteErrors(await invite(as('owner'), target, { email: `${third},${variant}`, access_level: ACCESS.GUEST }), taken, gitlab);
    for (const address of [first, second, third]) await expectInvited(as('admin'), target, address, ACCESS.GUEST);
    await expectNotInvited(as('admin'), target, variant);
  },
);

suite.test(
  {
    case: 'reinvite-updates',
    title: 're-inviting a pending address updates that invitation (older GitLab: reports it as taken and keeps it)',
    clauses: ['invitations.create.reinvite'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const address = email();
    await inviteOk(as('owner'), sources[kind], address, ACCESS.GUEST);
    const expires = dateIn(45);
    const res = await invite(as('owner'), sources[kind], { email: address, access_level: ACCESS.REPORTER, expires_at: expires });
    expectOk(res, 201, 'invitation-result');
    // GitLab parity: current GitLab refreshes the pending invitation and answers success.
    parity(res, REINVITE_PENDING, () => expectEqual((res.body as InviteResult).status, 'success', 'the re-invite of a pending address to succeed', res));
    if ((res.body as InviteResult).status === 'success') {
      await expectInvited(as('admin'), sources[kind], address, ACCESS.REPORTER, expires);
    } else {
      // Current GitLab refreshes the invitation (app/services/members/invite_member_builder.rb
      // find_or_initialize_by invite_email; spec/requests/api/invitations_spec.rb "updates the member
      // for that email"); GitLab's docs show the re-invite reported instead, the invitation kept.
      expectInviteErrors(res, { [address]: 'Invite email has already been taken' }, 'doc/api/invitations.md (example error response); app/models/member.rb (validates :invite_email, uniqueness)');
      await expectInvited(as('admin'), sources[kind], address, ACCESS.GUEST, null);
    }
  },
);

suite.test(
  {
    case: 'already-member',
    title: 'inviting a direct member again, by address or user id, makes no invitation and (GitLab) raises their level; the other addresses are invited',
    clauses: ['invitations.create.already-member', 'invitations.create.partial'],
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const { email, lease } = kit;
    const target = sources[kit.kind];
    const owner = kit.as('owner');
    const person = await lease();
    expectInviteSuccess(await invite(owner, target, { user_id: String(person.id), access_level: ACCESS.GUEST, expires_at: dateIn(20) }));
    const other = email();

    // By address, at a higher level, next to an address without an account.
    const byEmail = await invite(owner, target, { email: `${person.email},${other}`, access_level: ACCESS.REPORTER });
    const level = await expectAlreadyMember(kit, target, byEmail, person, 'email', ACCESS.REPORTER, ACCESS.GUEST);
    await expectInvited(kit.as('admin'), target, other, ACCESS.REPORTER);
    // GitLab sets the expiry the re-invite sends: none here, so the membership no longer expires.
    const member = await kit.as('admin').get(`${membersUrl(target)}/${person.id}`);
    parity(member, REINVITE_UPDATES, () => expectEqual((member.body as { expires_at?: unknown }).expires_at, null, `${person.username}'s expiry cleared by a re-invite without expires_at`, member));

    // By user id, higher again.
    await expectAlreadyMember(kit, target, await invite(owner, target, { user_id: String(person.id), access_level: ACCESS.DEVELOPER }), person, 'user_id', ACCESS.DEVELOPER, level);
    await expectNotInvited(kit.as('admin'), target, person.email);
  },
);

suite.test(
  {
    case: 'invalid-address',
    title: 'a malformed address invites no one for it (GitLab: 400 for the whole request, no one invited; elsewhere perhaps per recipient)',
    clauses: ['invitations.create.invalid-email', 'invitations.create.partial'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const good = email();
    await expectMalformedAddressHandled(as, sources[kind], (bad) => `${bad},${good}`, good, ACCESS.GUEST);
  },
);

suite.test(
  {
    case: 'expires-at-checked',
    title: 'a malformed expires_at is refused with 400; a past one is reported per recipient; nothing is invited',
    clauses: ['invitations.create.expires-at', 'invitations.create.result-error'],
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const { email, lease } = kit;
    const { as } = kit;
    const target = sources[kit.kind];
    const address = email();
    // No date at all: GitLab's DateTime parameter refuses it. (Not a weekday name: Ruby's Date.parse
    // reads "next tuesday" as this week's Tuesday, which GitLab would take.)
    expectError(await invite(as('owner'), target, { email: address, access_level: ACCESS.GUEST, expires_at: '2031-13-45' }), 400, { error: 'expires_at is invalid', gitlab: GITLAB.grape });
    const pastDate = 'app/models/member.rb (validates :expires_at, future_date); spec/requests/api/invitations_spec.rb (when set to a date in the past)';
    expectInviteErrors(await invite(as('owner'), target, { email: address, access_level: ACCESS.GUEST, expires_at: dateIn(-3) }), { [address]: 'Expires at cannot be a date in the past' }, pastDate);
    await expectNotInvited(as('admin'), target, address);
    // An existing user given by user_id fails the same validation and does not become a member.
    const person = await lease();
    expectUserIdFailure(await invite(as('owner'), target, { user_id: String(person.id), access_level: ACCESS.GUEST, expires_at: dateIn(-3) }), person, 'Expires at cannot be a date in the past', pastDate);
    await expectNotMember(kit, target, person);
  },
);

suite.test(
  {
    case: 'limit-100',
    title: 'more than 100 recipients at once: 201 with status "error", the limit message, and nothing invited',
    clauses: ['invitations.create.limit'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const many = Array.from({ length: 101 }, () => email('bulk'));
    expectLimitRefused(await invite(as('owner'), sources[kind], { email: many.join(','), access_level: ACCESS.GUEST }));
    await expectNotInvited(as('admin'), sources[kind], ...many);
  },
);

suite.test(
  {
    case: 'limit-counts-all',
    title: 'exactly 100 addresses are invited; 99 addresses and 2 user ids (101 recipients) hit the limit and nothing is invited',
    clauses: ['invitations.create.limit', 'invitations.create.several'],
    fixtures: { freshSource },
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, freshSource, ...kit }) => {
    const { email, lease } = kit;
    const owner = kit.as('owner');
    const source = freshSource;
    const hundred = Array.from({ length: 100 }, () => email('bulk'));
    expectInviteSuccess(await invite(owner, source, { email: hundred.join(','), access_level: ACCESS.GUEST }));
    const listed = new Set((await invitationsOf(kit.as('admin'), source)).map((i) => i.invite_email));
    expectTrue(hundred.every((address) => listed.has(address)), 'all 100 addresses invited', `${hundred.filter((a) => !listed.has(a)).length} missing`);

    // Refused whole, so the run's source serves: nothing is looked for there but what this request named.
    const other = sources[kit.kind];
    const many = Array.from({ length: 99 }, () => email('bulk'));
    const [first, second] = [await lease(), await lease()];
    expectLimitRefused(await invite(owner, other, { email: many.join(','), user_id: `${first.id},${second.id}`, access_level: ACCESS.GUEST }));
    await expectNotInvited(kit.as('admin'), other, ...many);
    await expectNotMember(kit, other, first);
    await expectNotMember(kit, other, second);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'only those who administer members may invite (group: Owner; project: Maintainer, Owner): the roles below 403, an outsider 404, no token 401',
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous'],
  },
  async ({ sources, ...kit }) => {
    const { email } = kit;
    const target = sources[kit.kind];
    const tried: string[] = [];
    await expectRefused(kit, target, (client) => {
      tried.push(email());
      return invite(client, target, { email: tried[tried.length - 1], access_level: ACCESS.GUEST });
    });
    await expectNotInvited(kit.as('admin'), target, ...tried);
    for (const role of MANAGERS[kit.kind]) {
      const address = email();
      expectInviteSuccess(await invite(kit.as(role), target, { email: address, access_level: ACCESS.GUEST }));
      await expectInvited(kit.as('admin'), target, address, ACCESS.GUEST);
    }
  },
);

suite.test(
  {
    case: 'owner-level',
    title: 'a Maintainer may not invite at the Owner level (403); an Owner may',
    clauses: ['invitations.create.project-owner'],
    only: {
      kind: 'project',
      why: 'in a group only an Owner may invite at all (role-matrix); the Owner-level check is the project\'s own (app/services/members/create_service.rb: adding_at_least_one_owner && cannot_assign_owner_responsibilities_to_member_in_project?)',
    },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const [refused, allowed] = [email(), email()];
    expectError(await invite(as('maintainer'), sources[kind], { email: refused, access_level: ACCESS.OWNER }), 403, { message: '403 Forbidden', gitlab: 'lib/api/api.rb (rescue_from Gitlab::Access::AccessDeniedError)' });
    await expectNotInvited(as('admin'), sources[kind], refused);
    expectInviteSuccess(await invite(as('owner'), sources[kind], { email: allowed, access_level: ACCESS.OWNER }));
    await expectInvited(as('admin'), sources[kind], allowed, ACCESS.OWNER);
  },
);

suite.test(
  {
    case: 'read-api-token',
    title: 'a read_api token of a member who may invite is refused (403 insufficient_scope)',
    clauses: ['invitations.auth.scopes'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const tried: string[] = [];
    for (const role of MANAGERS[kind]) {
      tried.push(email());
      expectError(await invite(as(role, 'read_api'), sources[kind], { email: tried[tried.length - 1], access_level: ACCESS.GUEST }), 403, { error: 'insufficient_scope', gitlab: GITLAB.scope });
    }
    await expectNotInvited(as('admin'), sources[kind], ...tried);
  },
);

suite.test(
  {
    case: 'by-path',
    title: 'the group or project may be named by its URL-encoded full path; an unknown one is 404 Group/Project Not Found',
    clauses: ['invitations.path.id', 'invitations.auth.not-found'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const address = email();
    expectInviteSuccess(await invite(as('owner'), { kind, id: sources[kind].fullPath }, { email: address, access_level: ACCESS.GUEST }));
    await expectInvited(as('admin'), sources[kind], address, ACCESS.GUEST);
    const unknown = email();
    expectError(await invite(as('owner'), { kind, id: UNKNOWN_ID }, { email: unknown, access_level: ACCESS.GUEST }), 404, { message: sourceNotFound(kind), gitlab: GITLAB.sourceNotFound });
  },
);

suite.test(
  {
    case: 'invite-source',
    title: 'invite_source is accepted and does not change the result',
    clauses: ['invitations.create.invite-source'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const address = email();
    expectInviteSuccess(await invite(as('owner'), sources[kind], { email: address, access_level: ACCESS.GUEST, invite_source: 'conformance-suite' }));
    await expectInvited(as('admin'), sources[kind], address, ACCESS.GUEST);
  },
);

suite.test(
  {
    case: 'member-role-id-type',
    title: 'a non-integer member_role_id is refused with 400 and nothing is invited',
    clauses: ['invitations.create.member-role-id'],
    requires: { capabilities: ['ultimate'], minVersion: '16.6' },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const address = email();
    expectError(await invite(as('owner'), sources[kind], { email: address, access_level: ACCESS.GUEST, member_role_id: 'custom' }), 400, { error: 'member_role_id is invalid', gitlab: 'ee/lib/ee/api/invitations.rb (optional :member_role_id, type: Integer); lib/api/api.rb (Grape errors)' });
    await expectNotInvited(as('admin'), sources[kind], address);
  },
);

suite.test(
  {
    case: 'no-5xx',
    title: 'malformed parameters never make the server fail: every answer is 201 or 4xx',
    clauses: ['invitations.errors.no-5xx'],
    fixtures: { freshSource },
  },
  async ({ freshSource, ...kit }) => {
    const { as } = kit;
    const { email } = kit;
    // A source of its own: some of these inputs may be invited with odd addresses. GitLab refuses
    // the malformed ones in its parameter checks (400: lib/api/api.rb, email_or_email_list.rb) or
    // takes them and invites no one (user ids that name nobody).
    const source = freshSource;
    const bodies: Record<string, unknown>[] = [
      { email: email(), access_level: 'ten' },
      { email: email(), access_level: [] },
      { email: email(), access_level: {} },
      { email: email(), access_level: '99999999999999999999999' },
      { email: {}, access_level: ACCESS.GUEST },
      { email: [email(), 7, null], access_level: ACCESS.GUEST },
      { email: ',, ,', access_level: ACCESS.GUEST },
      { email: '@', access_level: ACCESS.GUEST },
      { email: `${'x'.repeat(3000)}@example.com`, access_level: ACCESS.GUEST },
      { user_id: 'abc,-1,1.5', access_level: ACCESS.GUEST },
      { user_id: {}, access_level: ACCESS.GUEST },
      { user_id: '99999999999999999999999', access_level: ACCESS.GUEST },
      { email: email(), access_level: ACCESS.GUEST, expires_at: '2030-13-45' },
      { email: email(), access_level: ACCESS.GUEST, expires_at: { year: 2030 } },
      { email: email(), access_level: ACCESS.GUEST, invite_source: ['a', 'b'] },
    ];
    for (const body of bodies) {
      const res = await invite(as('owner'), source, body);
      expectTrue(res.status === 201 || (res.status >= 400 && res.status < 500), 'a 201 or 4xx answer to malformed input', `got HTTP ${res.status}`, res);
    }
    const form = await as('owner').post(invitationsUrl(source), { form: true, body: { email: 'a@@b,,', access_level: '1e3' } });
    expectTrue(form.status >= 400 && form.status < 500, 'a 4xx answer to malformed form fields', `got HTTP ${form.status}`, form);
  },
);

suite.test(
  {
    case: 'user-id-no-access-level',
    title: 'access_level 0 for a user given by user_id is refused for that user, who does not become a member',
    clauses: ['invitations.create.access-level-role', 'invitations.create.user-id'],
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const { lease } = kit;
    const target = sources[kit.kind];
    const person = await lease();
    const res = await invite(kit.as('owner'), target, { user_id: String(person.id), access_level: 0 });
    // GitLab: 400 from its parameter check (see no-access-level-refused); per recipient elsewhere.
    if (res.status === 400) expectError(res, 400, { error: 'access_level does not have a valid value', gitlab: GITLAB.grape });
    else expectUserIdFailure(res, person, 'Access level is not included in the list', GITLAB.memberModel);
    parity(res, GITLAB.accessLevels, () => expectStatus(res, 400, 'GitLab refuses access_level 0 in its parameter check'));
    await expectNotMember(kit, target, person);
  },
);

suite.test(
  {
    case: 'email-object-refused',
    title: 'email or user_id sent as an object instead of a string or list is refused with 400 and nothing is invited',
    clauses: ['invitations.create.email-type'],
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const { email, lease } = kit;
    const target = sources[kit.kind];
    const address = email();
    const person = await lease();
    // Grape's CommaSeparatedToArray turns anything but a string or an array into an empty list
    // (lib/api/validations/types/comma_separated_to_array.rb), so GitLab answers "Must provide
    // either email or user_id" (lib/api/invitations.rb); a stricter type check is a 400 too.
    expectError(await invite(kit.as('owner'), target, { email: { address }, access_level: ACCESS.GUEST }), 400);
    expectError(await invite(kit.as('owner'), target, { user_id: { id: person.id }, access_level: ACCESS.GUEST }), 400);
    await expectNotInvited(kit.as('admin'), target, address);
    await expectNotMember(kit, target, person);
  },
);

suite.test(
  {
    case: 'null-in-address-list',
    title: 'a null item of an email list invites no one for it (GitLab: it is dropped and the other address is invited)',
    clauses: ['invitations.create.email-type'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const address = email();
    const res = await invite(as('owner'), sources[kind], { email: [address, null], access_level: ACCESS.GUEST });
    // The spec has lists of strings only: a target may refuse the null with 400, then invites no one.
    expectTrue(res.status === 201 || res.status === 400, 'a 201 or a 400 answer', `got HTTP ${res.status}`, res);
    // CommaSeparatedToArray maps each item through to_s and split(','): nil gives no part (lib/api/validations/types/comma_separated_to_array.rb).
    const dropped = 'lib/api/validations/types/comma_separated_to_array.rb (nil.to_s.split(",") is empty)';
    parity(res, dropped, () => expectStatus(res, 201, 'GitLab drops the null item'));
    if (res.status === 201) {
      expectInviteSuccess(res);
      await expectInvited(as('admin'), sources[kind], address, ACCESS.GUEST);
    } else await expectNotInvited(as('admin'), sources[kind], address);
  },
);

suite.test(
  {
    case: 'spaces-around-commas',
    title: 'spaces around the commas of an email list are ignored: each address is invited',
    clauses: ['invitations.create.several'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const [first, second, third] = [email(), email(), email()];
    // Grape's CommaSeparatedToArray strips each part (lib/api/validations/types/comma_separated_to_array.rb).
    expectInviteSuccess(await invite(as('owner'), sources[kind], { email: `${first} , ${second},  ${third}`, access_level: ACCESS.GUEST }));
    for (const address of [first, second, third]) await expectInvited(as('admin'), sources[kind], address, ACCESS.GUEST);
  },
);

suite.test(
  {
    case: 'member-listed-once',
    title: 'inviting a direct member again by user_id, next to an unknown id, leaves that user listed once and adds no one else',
    clauses: ['invitations.create.already-member', 'invitations.create.user-id'],
    fixtures: { freshSource },
    requires: { setup: ['group-project-read'] },
  },
  async ({ freshSource, ...kit }) => {
    const { lease } = kit;
    const source = freshSource;
    const owner = kit.as('owner');
    const person = await lease();
    const listMembers = async () => (await listAll<{ id: number }>(kit.as('admin'), membersUrl(source), 'member')).map((m) => m.id).sort((a, b) => a - b);
    expectInviteSuccess(await invite(owner, source, { user_id: String(person.id), access_level: ACCESS.GUEST }));
    const before = await listMembers();

    // "User already exists in source" (spec's sample) or an update of the membership (GitLab); the
    // unknown id is dropped either way.
    await expectAlreadyMember(kit, source, await invite(owner, source, { user_id: `${person.id},${UNKNOWN_ID}`, access_level: ACCESS.DEVELOPER }), person, 'user_id', ACCESS.DEVELOPER, ACCESS.GUEST);
    const after = await listMembers();
    expectEqual(after.filter((id) => id === person.id).length, 1, `${person.username} listed once among the members`);
    expectEqual(after, before, 'the same members as before');
  },
);

suite.test(
  {
    case: 'inherited-level',
    title: 'inviting a user below the level they hold in an ancestor group is reported for that address, and the user is not added',
    clauses: ['invitations.create.inherited-level', 'invitations.create.result-error'],
  },
  async ({ sources, ...kit }) => {
    // GitLab checks every source's ancestors (Member#higher_access_level_than_group; spec/requests/api/invitations_spec.rb
    // runs "does not create the member if group level is higher" for groups and projects): a subgroup of
    // the group, or the project in it.
    const { kind, as } = kit;
    const { lease } = kit; const { group, subgroup, project } = sources;
    const target = kind === 'group' ? subgroup : project;
    const person = await lease();
    expectOk(await as('owner').post(membersUrl(group), { body: { user_id: person.id, access_level: ACCESS.DEVELOPER } }), 201, 'member');
    const res = await invite(as('owner'), target, { email: person.email, access_level: ACCESS.REPORTER });
    expectInviteErrors(
      res,
      { [person.email]: `Access level should be greater than or equal to Developer inherited membership from group ${group.name}` },
      'app/models/member.rb (higher_access_level_than_group); spec/requests/api/invitations_spec.rb (does not create the member if group level is higher)',
    );
    expectError(await as('admin').get(`${membersUrl(target)}/${person.id}`), 404);
  },
);

suite.test(
  {
    case: 'promotion-setting',
    title: 'the administrator reads enable_member_promotion_management with GET /application/settings; a PUT without any setting changes nothing (GitLab: 400)',
    clauses: ['invitations.create.promotion-setting'],
    requires: { capabilities: ['promotion_management'], setup: ['application-settings-read'] },
    fixtures: { promotionSettingRead },
  },
  async ({ as }) => {
    const admin = as('admin');
    const read = async () => {
      const res = await admin.get('/application/settings');
      // GET /application/settings is beyond the target contract: a target without it cannot run this test.
      if (res.status !== 200) throw new SetupError('read the application settings', res, [200], 'application-settings-read');
      const value = (res.body as { enable_member_promotion_management?: unknown }).enable_member_promotion_management;
      expectTrue(typeof value === 'boolean', 'enable_member_promotion_management to be a boolean', `it is ${JSON.stringify(value)}`, res);
      return value as boolean;
    };
    const before = await read();
    // Not part of what the suite needs of the target (it always names the setting): any answer but a
    // server error, as long as the setting stays. GitLab's PUT needs at least one setting.
    const bare = await admin.put('/application/settings');
    expectTrue(bare.status < 500, 'an answer below 500 to a PUT without any setting', `got HTTP ${bare.status}`, bare);
    parity(bare, SETTINGS, () => expectError(bare, 400, { error: /are missing, at least one parameter must be provided$/, gitlab: SETTINGS }));
    expectEqual(await read(), before, 'the setting unchanged by a PUT without any setting');
    const byOwner = await as('owner').get('/application/settings');
    parity(byOwner, SETTINGS, () => expectError(byOwner, 403, { message: '403 Forbidden', gitlab: SETTINGS }));
  },
);

suite.test(
  {
    case: 'public-source-writes-forbidden',
    title: 'on a public group or project a stranger and an access requester may not invite (403, not 404); nothing is invited and the requester is no member',
    clauses: ['invitations.auth.public-non-member'],
    fixtures: { publicSources },
  },
  async ({ publicSources, ...kit }) => {
    const { email } = kit;
    const sources = publicSources;
    const target = sources[kit.kind];
    const address = email();
    await expectNonMembersRefused(kit, sources.requester, (client) => invite(client, target, { email: address, access_level: ACCESS.MAINTAINER }));
    await expectNonMembersRefused(kit, sources.requester, (client) => invite(client, target, { user_id: String(sources.requester.id), access_level: ACCESS.MAINTAINER }));
    await expectNotInvited(kit.as('admin'), target, address);
    expectStatus(await kit.as('admin').get(`${membersUrl(target)}/${sources.requester.id}`), 404, 'the requester not to be a member');
  },
);

suite.test(
  {
    case: 'requester-becomes-member',
    title: 'inviting the address of a user whose access request is pending makes them a direct member at the level given (201, success), not a pending invitation; the request is no longer pending',
    clauses: ['invitations.create.requester', 'invitations.create.existing-user-email'],
    fixtures: { publicSources },
    requires: { setup: ['access-requests', 'group-project-read'] },
  },
  async ({ publicSources, ...kit }) => {
    const target = publicSources[kit.kind];
    const user = await kit.requester(target);
    const client = kit.as(manager(kit.kind));
    expectTrue((await pendingRequesterIds(client, target)).includes(user.id), 'the access request to be pending before the invitation (setup)');
    expectInviteSuccess(await invite(client, target, { email: user.email, access_level: ACCESS.MAINTAINER }));
    await expectMember(kit, target, user, ACCESS.MAINTAINER);
    await expectNotInvited(kit.as('admin'), target, user.email);
    const after = await pendingRequesterIds(client, target);
    expectTrue(!after.includes(user.id), 'the access request to be gone once the user is a member', `pending: ${after.join(', ') || '(none)'}`);
  },
);

suite.test(
  {
    case: 'unconfirmed-primary',
    title: 'the address of a user who has not confirmed it is invited as a pending invitation; the user is not added',
    clauses: ['invitations.create.confirmed-email', 'invitations.create.by-email'],
    fixtures: { unconfirmedUser },
  },
  async ({ kind, as, sources, unconfirmedUser }) => {
    
    const target = sources[kind];
    const person = await unconfirmedUser;
    expectInviteSuccess(await invite(as('owner'), target, { email: person.email, access_level: ACCESS.DEVELOPER }));
    await expectInvited(as('admin'), target, person.email, ACCESS.DEVELOPER);
    // The user has no token (an unconfirmed account may not be let in): the members API says who is a member.
    expectError(await as('admin').get(`${membersUrl(target)}/${person.id}`), 404);
  },
);

suite.test(
  {
    case: 'secondary-email',
    title: 'a confirmed secondary address adds its user as a direct member; an unconfirmed one is invited as a pending invitation',
    clauses: ['invitations.create.confirmed-email', 'invitations.create.existing-user-email'],
    requires: { setup: ['secondary-emails', 'group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const { lease, secondaryEmail } = kit;
    const target = sources[kit.kind];
    // Users lent to the test: an invitation by a secondary address names them by it (Maker.addEmail notes it).
    const [confirmed, unconfirmed] = [await lease(), await lease()];
    const [confirmedAddress, unconfirmedAddress] = [await secondaryEmail(confirmed, true), await secondaryEmail(unconfirmed, false)];
    expectInviteSuccess(await invite(kit.as('owner'), target, { email: confirmedAddress, access_level: ACCESS.DEVELOPER }));
    await expectMember(kit, target, confirmed, ACCESS.DEVELOPER);
    await expectNotInvited(kit.as('admin'), target, confirmedAddress, confirmed.email);
    expectInviteSuccess(await invite(kit.as('owner'), target, { email: unconfirmedAddress, access_level: ACCESS.DEVELOPER }));
    await expectInvited(kit.as('admin'), target, unconfirmedAddress, ACCESS.DEVELOPER);
    await expectNotMember(kit, target, unconfirmed);
  },
);

suite.test(
  {
    case: 'addresses-and-user-ids',
    title: 'new addresses and user ids in one request: each address gets a pending invitation and each user becomes a direct member',
    clauses: ['invitations.create.several', 'invitations.create.by-email', 'invitations.create.user-id'],
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const { email, lease } = kit;
    const target = sources[kit.kind];
    const [a, b] = [email(), email()];
    const [first, second] = [await lease(), await lease()];
    expectInviteSuccess(await invite(kit.as('owner'), target, { email: `${a},${b}`, user_id: `${first.id},${second.id}`, access_level: ACCESS.DEVELOPER }));
    for (const address of [a, b]) await expectInvited(kit.as('admin'), target, address, ACCESS.DEVELOPER);
    for (const person of [first, second]) await expectMember(kit, target, person, ACCESS.DEVELOPER);
    await expectNotInvited(kit.as('admin'), target, first.email, second.email);
  },
);

suite.test(
  {
    case: 'above-inherited-level',
    title: 'inviting a user above the level they hold in an ancestor group makes them a direct member at the requested level',
    clauses: ['invitations.create.above-inherited'],
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    // As inherited-level: the subgroup of the group, or the project in it.
    const { lease } = kit; const { group, subgroup, project } = sources;
    const target = kit.kind === 'group' ? subgroup : project;
    const person = await lease();
    expectOk(await kit.as('owner').post(membersUrl(group), { body: { user_id: person.id, access_level: ACCESS.DEVELOPER } }), 201, 'member');
    expectInviteSuccess(await invite(kit.as('owner'), target, { email: person.email, access_level: ACCESS.MAINTAINER }));
    await expectMember(kit, target, person, ACCESS.MAINTAINER);
    await expectNotInvited(kit.as('admin'), target, person.email);
  },
);

suite.test(
  {
    case: 'invalid-address-list',
    title: 'email sent as a JSON array with a malformed address invites no one for it (GitLab: 400 for the whole request)',
    clauses: ['invitations.create.invalid-email'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const good = email();
    // As invalid-address, with the list as a JSON array (spec/requests/api/invitations_spec.rb "returns 400 when the email list is not a valid format").
    await expectMalformedAddressHandled(as, sources[kind], (bad) => [good, bad], good, ACCESS.MAINTAINER);
  },
);

suite.test(
  {
    case: 'minimal-access-licensed',
    title: 'with a licence, access_level 5 invites to a top-level group at Minimal access and is refused for the address in a subgroup',
    clauses: ['invitations.create.minimal-access-licensed', 'invitations.create.result-error'],
    requires: { capabilities: ['premium'] },
    only: { kind: 'group', why: 'Minimal access is a level of top-level groups (ee/app/models/ee/group.rb); a project refuses it (minimal-access)' },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { email } = kit; const { group, subgroup } = sources;
    const [top, sub] = [email(), email()];
    expectInviteSuccess(await invite(as('owner'), group, { email: top, access_level: ACCESS.MINIMAL }));
    await expectInvited(as('admin'), group, top, ACCESS.MINIMAL);
    expectInviteErrors(
      await invite(as('owner'), subgroup, { email: sub, access_level: ACCESS.MINIMAL }),
      { [sub]: 'Access level is not included in the list and Access level supported on top level groups only' },
      `${MINIMAL_ACCESS} (errors.full_messages.to_sentence; app/services/members/invite_service.rb add_error_for_member)`,
    );
    await expectNotInvited(as('admin'), subgroup, sub);
  },
);

suite.test(
  {
    case: 'project-bot',
    title: 'inviting the bot user of another project\'s access token by user_id adds no member: 201, status "error" for it (GitLab: keyed by its username, "User project bots cannot be added to other groups / projects")',
    clauses: ['invitations.create.project-bot', 'invitations.create.result-error'],
    fixtures: { projectBot },
  },
  async ({ kind, as, sources, projectBot }) => {
    
    const target = sources[kind];
    const { bot } = projectBot;
    const res = await invite(as('owner'), target, { user_id: String(bot.id), access_level: ACCESS.DEVELOPER });
    expectOk(res, 201, 'invitation-result');
    const body = res.body as InviteResult;
    expectEqual(body.status, 'error', 'status "error"', res);
    const message = typeof body.message === 'object' && body.message !== null ? body.message : {};
    expectEqual(Object.keys(message).length, 1, 'one failing recipient in the message', res);
    parity(res, 'app/services/members/invite_service.rb (add_error_for_member: invited_object, the username of a user given by user_id); app/models/member.rb (project bots cannot be added to other groups / projects); spec/requests/api/invitations_spec.rb (when adding project bot)', () => {
      expectEqual(message, { [bot.username]: 'User project bots cannot be added to other groups / projects' }, 'the failure of the bot', res);
    });
    expectError(await as('admin').get(`${membersUrl(target)}/${bot.id}`), 404);
  },
);

suite.test(
  {
    case: 'project-bot-by-email',
    title: 'inviting the bot user of another project\'s access token by its address adds no member: 201, status "error" for that address (GitLab: "User project bots cannot be added to other groups / projects"), no member and no pending invitation',
    clauses: ['invitations.create.project-bot', 'invitations.create.result-error'],
    fixtures: { projectBot },
  },
  async ({ kind, as, sources, projectBot }) => {
    
    const target = sources[kind];
    const { bot } = projectBot;
    // GitLab: spec/requests/api/invitations_spec.rb (when adding project bot: params { email: project_bot.email }:
    // json_response['message'][project_bot.email]). Members::CreatorService finds the user by a confirmed
    // address; the Member validation refuses the bot; InviteService#invited_object keys the failure by the
    // address as it was sent (the spec: a message "mapping each failing email or username").
    const res = await invite(as('owner'), target, { email: bot.email, access_level: ACCESS.DEVELOPER });
    expectInviteErrors(res, { [bot.email]: 'User project bots cannot be added to other groups / projects' }, 'app/services/members/invite_service.rb (add_error_for_member: invited_object, the address as sent); app/models/member.rb (project bots cannot be added to other groups / projects); spec/requests/api/invitations_spec.rb (when adding project bot)');
    expectError(await as('admin').get(`${membersUrl(target)}/${bot.id}`), 404);
    await expectNotInvited(as('admin'), target, bot.email);
  },
);

suite.test(
  {
    case: 'requester-as-owner',
    title: 'a Maintainer may not invite an access requester as Owner (403, in a group as in a project); the request stays pending and the requester is no member',
    clauses: ['invitations.create.project-owner', 'invitations.auth.admin-members'],
    fixtures: { publicSources },
    requires: { setup: ['access-requests'] },
  },
  async ({ publicSources, ...kit }) => {
    const target = publicSources[kit.kind];
    const pending = await kit.requester(target);
    const res = await invite(kit.as('maintainer'), target, { user_id: String(pending.id), access_level: ACCESS.OWNER });
    expectError(res, 403, { message: '403 Forbidden', gitlab: kit.kind === 'group' ? GITLAB.forbidden : 'app/services/members/create_service.rb (adding_at_least_one_owner && cannot_assign_owner_responsibilities_to_member_in_project?); spec/requests/api/invitations_spec.rb (when an access_requester is added as OWNER: 403)' });
    expectError(await kit.as('admin').get(`${membersUrl(target)}/${pending.id}`), 404);
    expectTrue((await pendingRequesterIds(kit.as('owner'), target)).includes(pending.id), 'the access request to stay pending (GET …/access_requests)');
  },
);

suite.test(
  {
    case: 'group-maintainer-owner',
    title: 'a group Maintainer may not invite at the Owner level (403); nothing is invited',
    clauses: ['invitations.auth.admin-members'],
    only: { kind: 'group', why: 'in a project a Maintainer invites, and the Owner level is refused by its own rule (case owner-level)' },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const address = email();
    expectError(await invite(as('maintainer'), sources[kind], { email: address, access_level: ACCESS.OWNER }), 403, { message: '403 Forbidden', gitlab: GITLAB.forbidden });
    await expectNotInvited(as('admin'), sources[kind], address);
  },
);
