// POST /groups/:id/invitations and POST /projects/:id/invitations: who may be invited. The recipients
// beyond plain addresses and users (public sources and their access requesters, unconfirmed and
// secondary addresses, project bots, inherited and licensed levels), the request's edge forms and
// the promotion setting. The core cases are in create.test.ts.
import { endpoint } from './kit.js';
import { SetupError } from '../../runner/run/maker.js';
import { promotionSettingRead } from '../common/promotion.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue, parity } from '../../runner/core/checks.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import {
  expectAlreadyMember,
  expectInvited,
  expectInviteErrors,
  expectInviteSuccess,
  expectMember,
  expectNonMembersRefused,
  expectNotInvited,
  expectNotMember,
  expectUserIdFailure,
  expectMalformedAddressHandled,
  MINIMAL_ACCESS,
  GITLAB,
  invite,
  invitationsUrl,
  listAll,
  manager,
  membersUrl,
  pendingRequesterIds,
  UNKNOWN_ID,
  type InviteResult,
  freshSource,
  sharedSources,
  unconfirmedUser } from './helpers.js';
import { publicSources } from '../common/public-sources.js';
import { projectBot } from '../common/project-bot.js';

const suite = endpoint('create', { fixtures: { sources: sharedSources } });

/** The instance settings endpoints: administrators only; a PUT names at least one setting. */
const SETTINGS = 'lib/api/settings.rb (before { authenticated_as_admin! }; get "application/settings"; put: at_least_one_of)';

suite.test(
  {
    case: 'member-role-id-type',
    title: 'a non-integer member_role_id is refused with 400 and nothing is invited',
    clauses: ['invitations.create.member-role-id'],
    requires: { capabilities: ['ultimate'], minVersion: '16.6' } },
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
    fixtures: { freshSource } },
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
    requires: { setup: ['group-project-read'] } },
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
    requires: { setup: ['group-project-read'] } },
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
    clauses: ['invitations.create.email-type'] },
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
    clauses: ['invitations.create.several'] },
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
    requires: { setup: ['group-project-read'] } },
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
    clauses: ['invitations.create.inherited-level', 'invitations.create.result-error'] },
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
    fixtures: { promotionSettingRead } },
  // The fixture holds the setting still while the test reads it twice (its value is nothing).
  async ({ as, promotionSettingRead: _held }) => {
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
    fixtures: { publicSources } },
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
    requires: { setup: ['access-requests', 'group-project-read'] } },
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
    fixtures: { unconfirmedUser } },
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
    requires: { setup: ['secondary-emails', 'group-project-read'] } },
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
    requires: { setup: ['group-project-read'] } },
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
    requires: { setup: ['group-project-read'] } },
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
    clauses: ['invitations.create.invalid-email'] },
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
    only: { kind: 'group', why: 'Minimal access is a level of top-level groups (ee/app/models/ee/group.rb); a project refuses it (minimal-access)' } },
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
    fixtures: { projectBot } },
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
    fixtures: { projectBot } },
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
    requires: { setup: ['access-requests'] } },
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
    only: { kind: 'group', why: 'in a project a Maintainer invites, and the Owner level is refused by its own rule (case owner-level)' } },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { email } = kit;
    const address = email();
    expectError(await invite(as('maintainer'), sources[kind], { email: address, access_level: ACCESS.OWNER }), 403, { message: '403 Forbidden', gitlab: GITLAB.forbidden });
    await expectNotInvited(as('admin'), sources[kind], address);
  },
);
