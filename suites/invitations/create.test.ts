// POST /groups/:id/invitations and POST /projects/:id/invitations
// Every case runs for both kinds unless it says why not. The promotion-approval tests are in
// create-promotion.exclusive.test.ts: they turn a global setting on.
import { endpoint } from './kit.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue, parity } from '../../runner/core/checks.js';
import { ACCESS, dateIn, sourceNotFound } from '../../runner/core/vocabulary.js';
import {
  expectAlreadyMember,
  expectInvited,
  expectInviteErrors,
  expectInviteSuccess,
  expectLimitRefused,
  expectMember,
  expectNotInvited,
  expectNotMember,
  expectRefused,
  expectUpdated,
  expectUserIdFailure,
  expectMalformedAddressHandled,
  MINIMAL_ACCESS,
  GITLAB,
  invite,
  invitationsOf,
  inviteOk,
  manager,
  MANAGERS,
  membersUrl,
  MUST_PROVIDE,
  otherCase,
  REINVITE_UPDATES,
  UNKNOWN_ID,
  update,
  type InviteResult,
  freshSource,
  sharedSources } from './helpers.js';

const suite = endpoint('create', { fixtures: { sources: sharedSources } });

/** Where current GitLab refreshes an invitation of an address that is already invited. */
const REINVITE_PENDING = 'app/services/members/invite_member_builder.rb (find_or_initialize_by invite_email: the pending invitation, updated); spec/requests/api/invitations_spec.rb (when invitee is already an invited member: updates the member for that email)';

suite.test(
  {
    case: 'pending-invitation',
    title: 'addresses without an account are invited: 201 {"status":"success"}, each listed with its level, expiry and inviter',
    clauses: ['invitations.create.by-email', 'invitations.create.several', 'invitations.create.expires-at', 'invitations.list.values'] },
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
    clauses: ['invitations.create.several', 'invitations.create.duplicates', 'invitations.list.values'] },
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
    requires: { setup: ['group-project-read'] } },
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
    requires: { setup: ['group-project-read'] } },
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
    requires: { setup: ['group-project-read'] } },
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
    clauses: ['invitations.create.email-or-user-id'] },
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
    clauses: ['invitations.create.access-level'] },
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
    clauses: ['invitations.create.access-level-role', 'invitations.create.result-error'] },
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
    clauses: ['invitations.create.minimal-access'] },
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
    fixtures: { freshSource } },
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
    clauses: ['invitations.create.taken', 'invitations.create.partial', 'invitations.create.result-error'] },
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
    clauses: ['invitations.create.reinvite'] },
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
    requires: { setup: ['group-project-read'] } },
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
    clauses: ['invitations.create.invalid-email', 'invitations.create.partial'] },
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
    requires: { setup: ['group-project-read'] } },
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
    clauses: ['invitations.create.limit'] },
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
    requires: { setup: ['group-project-read'] } },
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
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous'] },
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
      why: 'in a group only an Owner may invite at all (role-matrix); the Owner-level check is the project\'s own (app/services/members/create_service.rb: adding_at_least_one_owner && cannot_assign_owner_responsibilities_to_member_in_project?)' } },
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
    clauses: ['invitations.auth.scopes'] },
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
    clauses: ['invitations.path.id', 'invitations.auth.not-found'] },
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
    clauses: ['invitations.create.invite-source'] },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const address = email();
    expectInviteSuccess(await invite(as('owner'), sources[kind], { email: address, access_level: ACCESS.GUEST, invite_source: 'conformance-suite' }));
    await expectInvited(as('admin'), sources[kind], address, ACCESS.GUEST);
  },
);
