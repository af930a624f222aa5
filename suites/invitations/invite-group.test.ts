// POST /groups/:id/invitations
// The promotion-approval tests are in promotion.exclusive.test.ts: they turn a global setting on.
import { endpoint } from '../harness/run/conformance.js';
import { expectEqual, expectError, expectOk, expectTrue } from '../harness/core/checks.js';
import { apiPath } from '../harness/core/client.js';
import {
  dateIn,
  DEVELOPER,
  expectInvited,
  expectInviteErrors,
  expectInviteSuccess,
  expectMember,
  expectNotInvited,
  expectNotMember,
  expectRefused,
  GUEST,
  invite,
  invitationsOf,
  invitationsUrl,
  inviteOk,
  MUST_PROVIDE,
  otherCase,
  REPORTER,
  useInvitationsWorld,
  type InviteResult,
} from './helpers.js';
import { invitations } from './area.js';

const suite = endpoint(invitations, 'create');

const world = useInvitationsWorld('invite-group', 'group');

suite.test(
  {
    case: 'pending-invitation',
    title: 'an address without an account is invited: 201 {"status":"success"}, listed with its level, expiry and inviter',
    clauses: ['invitations.create.by-email', 'invitations.create.expires-at', 'invitations.list.values'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { source, email } = world();
    const address = email();
    const expires = dateIn(30);
    expectInviteSuccess(await invite(as('owner'), source, { email: address, access_level: REPORTER, expires_at: expires }));
    const invitation = await expectInvited(as('admin'), source, address, REPORTER, expires);
    expectEqual(invitation.created_by_name, run.actors.owner.name, 'created_by_name to be the name of the inviting owner');
  },
);

suite.test(
  {
    case: 'several-addresses',
    title: 'several comma-separated addresses are each invited once, even when one is repeated',
    clauses: ['invitations.create.several', 'invitations.create.duplicates', 'invitations.list.values'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const [a, b, c] = [email(), email(), email()];
    expectInviteSuccess(await invite(as('owner'), source, { email: `${a},${b},${c},${a}`, access_level: DEVELOPER }));
    for (const address of [a, b, c]) await expectInvited(as('admin'), source, address, DEVELOPER, null);
  },
);

suite.test(
  {
    case: 'existing-user-email',
    title: 'the address of an existing user makes that user a direct member, not a pending invitation',
    clauses: ['invitations.create.existing-user-email', 'invitations.list.pending-only'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { source, user } = world();
    const person = await user('by-email');
    await expectNotMember(kit, source, person);
    expectInviteSuccess(await invite(kit.as('owner'), source, { email: person.email, access_level: GUEST }));
    await expectNotInvited(kit.as('admin'), source, person.email);
    await expectMember(kit, source, person, GUEST);
  },
);

suite.test(
  {
    case: 'user-ids',
    title: 'several user ids add those users as direct members; an unknown id is dropped without an error entry',
    clauses: ['invitations.create.user-id', 'invitations.create.several'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { source, user } = world();
    const [first, second] = [await user('by-id'), await user('by-id')];
    expectInviteSuccess(await invite(kit.as('owner'), source, { user_id: `${first.id},2147483000,${second.id}`, access_level: GUEST }));
    await expectMember(kit, source, first, GUEST);
    await expectMember(kit, source, second, GUEST);
  },
);

suite.test(
  {
    case: 'email-or-user-id-required',
    title: 'a request with neither email nor user_id, or only blank ones, is refused with 400',
    clauses: ['invitations.create.email-or-user-id'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source } = world();
    expectError(await invite(as('owner'), source, { access_level: GUEST }), 400, { message: MUST_PROVIDE });
    expectError(await invite(as('owner'), source, { email: '', user_id: '', access_level: GUEST }), 400, { message: MUST_PROVIDE });
  },
);

suite.test(
  {
    case: 'access-level-checked',
    title: 'a missing, non-integer or unlisted access_level (60, Admin) is refused with 400 and nothing is invited',
    clauses: ['invitations.create.access-level'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    expectError(await invite(as('owner'), source, { email: address }), 400, { error: /^access_level / });
    expectError(await invite(as('owner'), source, { email: address, access_level: 'developer' }), 400, { error: /^access_level / });
    expectError(await invite(as('owner'), source, { email: address, access_level: 60 }), 400, { error: 'access_level does not have a valid value' });
    await expectNotInvited(as('admin'), source, address);
  },
);

suite.test(
  {
    case: 'no-access-level-refused',
    title: 'access_level 0 (No access) is no role a member can hold: reported per recipient, nothing is invited',
    clauses: ['invitations.create.access-level-role', 'invitations.create.result-error'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    const res = await invite(as('owner'), source, { email: address, access_level: 0 });
    // The docs list 0 among the valid values, so the model refuses it per recipient; a target whose
    // parameter check refuses it outright (400) does not invite anyone either.
    if (res.status === 400) expectError(res, 400, { error: 'access_level does not have a valid value' });
    else expectInviteErrors(res, { [address]: 'Access level is not included in the list' });
    await expectNotInvited(as('admin'), source, address);
  },
);

suite.test(
  {
    case: 'taken-in-other-case',
    title: 'an address already invited in other letter case is reported as taken while the other addresses are invited',
    clauses: ['invitations.create.taken', 'invitations.create.partial', 'invitations.create.result-error'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const [first, second] = [email(), email()];
    await inviteOk(as('owner'), source, first);
    const variant = otherCase(first);
    const res = await invite(as('owner'), source, { email: `${variant},${second}`, access_level: GUEST });
    expectInviteErrors(res, { [variant]: 'Invite email has already been taken' });
    await expectInvited(as('admin'), source, second, GUEST);
    await expectInvited(as('admin'), source, first, GUEST);
    await expectNotInvited(as('admin'), source, variant);
  },
);

suite.test(
  {
    case: 'reinvite-updates',
    title: 're-inviting a pending address updates that invitation (older GitLab: reports it as taken and keeps it)',
    clauses: ['invitations.create.reinvite'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(as('owner'), source, address, GUEST);
    const expires = dateIn(45);
    const res = await invite(as('owner'), source, { email: address, access_level: REPORTER, expires_at: expires });
    expectOk(res, 201, 'invitation-result');
    if ((res.body as InviteResult).status === 'success') {
      await expectInvited(as('admin'), source, address, REPORTER, expires);
    } else {
      // gitlab-facts §8: before about 15.x GitLab answered a re-invite with an error and kept the first invitation.
      expectInviteErrors(res, { [address]: 'Invite email has already been taken' });
      await expectInvited(as('admin'), source, address, GUEST, null);
    }
  },
);

suite.test(
  {
    case: 'already-member',
    title: 'inviting a direct member by address or user id makes no invitation; the other addresses are invited',
    clauses: ['invitations.create.already-member', 'invitations.create.partial'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { source, email, user } = world();
    const owner = kit.as('owner');
    const person = await user('member');
    expectInviteSuccess(await invite(owner, source, { user_id: person.id, access_level: GUEST }));
    const other = email();

    // The spec reports "User already exists in source"; newer GitLab updates the membership instead
    // and answers success. Either way no pending invitation appears for the member.
    const byEmail = await invite(owner, source, { email: `${person.email},${other}`, access_level: GUEST });
    if ((byEmail.body as InviteResult | undefined)?.status === 'error') expectInviteErrors(byEmail, { [person.email]: 'User already exists in source' });
    else expectInviteSuccess(byEmail);
    await expectInvited(kit.as('admin'), source, other, GUEST);

    const byId = await invite(owner, source, { user_id: person.id, access_level: GUEST });
    if ((byId.body as InviteResult | undefined)?.status === 'error') {
      // The docs key user_id failures by username; older releases keyed them by the user's address.
      const message = (byId.body as InviteResult).message;
      const byAddress = typeof message === 'object' && person.email in message;
      expectInviteErrors(byId, { [byAddress ? person.email : person.username]: 'User already exists in source' });
    } else {
      expectInviteSuccess(byId);
    }
    await expectNotInvited(kit.as('admin'), source, person.email);
    await expectMember(kit, source, person, GUEST);
  },
);

suite.test(
  {
    case: 'invalid-address',
    title: 'a malformed address is reported as invalid and nothing is invited for it (GitLab may refuse the whole request)',
    clauses: ['invitations.create.invalid-email', 'invitations.create.partial'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const good = email();
    const bad = 'not-an-address';
    const res = await invite(as('owner'), source, { email: `${bad},${good}`, access_level: GUEST });
    if (res.status === 400) {
      // GitLab's email_or_email_list parameter check refuses a list with a malformed address (gitlab-facts §3).
      expectError(res, 400, { error: /email/ });
      await expectNotInvited(as('admin'), source, good);
    } else {
      expectInviteErrors(res, { [bad]: 'Invite email is invalid' });
      await expectInvited(as('admin'), source, good, GUEST);
    }
    await expectNotInvited(as('admin'), source, bad);
  },
);

suite.test(
  {
    case: 'expires-at-checked',
    title: 'a malformed expires_at is refused with 400; a past one is reported per recipient; nothing is invited',
    clauses: ['invitations.create.expires-at', 'invitations.create.result-error'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    expectError(await invite(as('owner'), source, { email: address, access_level: GUEST, expires_at: 'next tuesday' }), 400, { error: /^expires_at / });
    expectInviteErrors(await invite(as('owner'), source, { email: address, access_level: GUEST, expires_at: dateIn(-3) }), { [address]: /expires at/i });
    await expectNotInvited(as('admin'), source, address);
  },
);

suite.test(
  {
    case: 'limit-100',
    title: 'more than 100 recipients at once: 201 with status "error", the limit message, and nothing invited',
    clauses: ['invitations.create.limit'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const many = Array.from({ length: 101 }, () => email('bulk'));
    const res = await invite(as('owner'), source, { email: many.join(','), access_level: GUEST });
    expectOk(res, 201, 'invitation-result');
    const body = res.body as InviteResult;
    expectEqual(body.status, 'error', 'status "error"', res);
    expectEqual(body.message, 'Too many users specified (limit is 100)', 'the limit message', res);
    // gitlab-facts §3: the reason is passed back by newer releases only.
    if (body.reason !== undefined) expectEqual(body.reason, 'too_many_invites_error', 'reason', res);
    await expectNotInvited(as('admin'), source, ...many);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'only a group Owner may invite: Maintainer and below 403, an outsider 404, no token 401; nothing is invited for them',
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { source, email } = world();
    const tried: string[] = [];
    await expectRefused(kit, source, (client) => {
      tried.push(email());
      return invite(client, source, { email: tried[tried.length - 1], access_level: GUEST });
    });
    await expectNotInvited(kit.as('admin'), source, ...tried);
    const address = email();
    expectInviteSuccess(await invite(kit.as('owner'), source, { email: address, access_level: GUEST }));
    await expectInvited(kit.as('admin'), source, address, GUEST);
  },
);

suite.test(
  {
    case: 'read-api-token',
    title: 'an Owner\'s read_api token may not invite (403 insufficient_scope)',
    clauses: ['invitations.auth.scopes'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    expectError(await invite(as('owner', 'read_api'), source, { email: address, access_level: GUEST }), 403, { error: 'insufficient_scope' });
    await expectNotInvited(as('admin'), source, address);
  },
);

suite.test(
  {
    case: 'group-by-path',
    title: 'the group may be named by its URL-encoded full path; an unknown group is 404 Group Not Found',
    clauses: ['invitations.path.id', 'invitations.auth.not-found'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    expectInviteSuccess(await invite(as('owner'), { kind: 'group', id: source.fullPath }, { email: address, access_level: GUEST }));
    await expectInvited(as('admin'), source, address, GUEST);
    expectError(await invite(as('owner'), { kind: 'group', id: 2147483000 }, { email: email(), access_level: GUEST }), 404, { message: '404 Group Not Found' });
  },
);

suite.test(
  {
    case: 'invite-source',
    title: 'invite_source is accepted and does not change the result',
    clauses: ['invitations.create.invite-source'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    expectInviteSuccess(await invite(as('owner'), source, { email: address, access_level: GUEST, invite_source: 'conformance-suite' }));
    await expectInvited(as('admin'), source, address, GUEST);
  },
);

suite.test(
  {
    case: 'member-role-id-type',
    title: 'a non-integer member_role_id is refused with 400 and nothing is invited',
    clauses: ['invitations.create.member-role-id'],
    requires: { capabilities: ['ultimate'], minVersion: '16.6' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    expectError(await invite(as('owner'), source, { email: address, access_level: GUEST, member_role_id: 'custom' }), 400, { error: 'member_role_id is invalid' });
    await expectNotInvited(as('admin'), source, address);
  },
);

suite.test(
  {
    case: 'no-5xx',
    title: 'malformed parameters never make the server fail: every answer is 201 or 4xx',
    clauses: ['invitations.errors.no-5xx'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { fresh, email } = world();
    // A source of its own: some of these inputs may be invited with odd addresses.
    const source = await fresh();
    const bodies: Record<string, unknown>[] = [
      { email: email(), access_level: 'ten' },
      { email: email(), access_level: [] },
      { email: email(), access_level: {} },
      { email: email(), access_level: '99999999999999999999999' },
      { email: {}, access_level: GUEST },
      { email: [email(), 7, null], access_level: GUEST },
      { email: ',, ,', access_level: GUEST },
      { email: '@', access_level: GUEST },
      { email: `${'x'.repeat(3000)}@example.com`, access_level: GUEST },
      { user_id: 'abc,-1,1.5', access_level: GUEST },
      { user_id: {}, access_level: GUEST },
      { user_id: '99999999999999999999999', access_level: GUEST },
      { email: email(), access_level: GUEST, expires_at: '2030-13-45' },
      { email: email(), access_level: GUEST, expires_at: { year: 2030 } },
      { email: email(), access_level: GUEST, invite_source: ['a', 'b'] },
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
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { source, user } = world();
    const person = await user('no-access');
    const res = await invite(kit.as('owner'), source, { user_id: person.id, access_level: 0 });
    if (res.status === 400) expectError(res, 400, { error: 'access_level does not have a valid value' });
    else {
      // The docs key user_id failures by username; older releases keyed them by the user's address.
      const message = (res.body as InviteResult | undefined)?.message;
      const byAddress = typeof message === 'object' && person.email in message;
      expectInviteErrors(res, { [byAddress ? person.email : person.username]: 'Access level is not included in the list' });
    }
    await expectNotMember(kit, source, person);
  },
);

suite.test(
  {
    case: 'email-object-refused',
    title: 'email sent as an object instead of a string or list is refused with 400 and nothing is invited',
    clauses: ['invitations.create.email-type'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    // Grape's CommaSeparatedToArray turns anything but a string or an array into an empty list,
    // so GitLab answers "Must provide either email or user_id"; a stricter type check is a 400 too.
    expectError(await invite(as('owner'), source, { email: { address }, access_level: GUEST }), 400);
    await expectNotInvited(as('admin'), source, address);
  },
);

suite.test(
  {
    case: 'spaces-around-commas',
    title: 'spaces around the commas of an email list are ignored: each address is invited',
    clauses: ['invitations.create.several'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const [first, second, third] = [email(), email(), email()];
    // Grape's CommaSeparatedToArray strips each part.
    expectInviteSuccess(await invite(as('owner'), source, { email: `${first} , ${second},  ${third}`, access_level: GUEST }));
    for (const address of [first, second, third]) await expectInvited(as('admin'), source, address, GUEST);
  },
);

suite.test(
  {
    case: 'member-listed-once',
    title: 'inviting a direct member again by user_id, next to an unknown id, leaves that user listed once and adds no one else',
    clauses: ['invitations.create.already-member', 'invitations.create.user-id'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { fresh, user } = world();
    const source = await fresh();
    const owner = kit.as('owner');
    const person = await user('listed-once');
    const listMembers = async () => {
      const res = await kit.as('admin').get(apiPath`/groups/${source.id}/members`, { query: { per_page: 100 } });
      expectOk(res, 200, 'member', { list: true });
      return (res.body as { id: number }[]).map((m) => m.id);
    };
    expectInviteSuccess(await invite(owner, source, { user_id: person.id, access_level: GUEST }));
    const before = await listMembers();

    // "User already exists in source" (spec) or an update of the membership (newer GitLab); the
    // unknown id is dropped either way.
    const again = await invite(owner, source, { user_id: `${person.id},2147483000`, access_level: DEVELOPER });
    if ((again.body as InviteResult | undefined)?.status === 'error') {
      const message = (again.body as InviteResult).message;
      const byAddress = typeof message === 'object' && person.email in message;
      expectInviteErrors(again, { [byAddress ? person.email : person.username]: 'User already exists in source' });
    } else {
      expectInviteSuccess(again);
    }
    const after = await listMembers();
    expectEqual(after.filter((id) => id === person.id).length, 1, `${person.username} listed once among the members`);
    expectEqual([...after].sort((a, b) => a - b), [...before].sort((a, b) => a - b), 'the same members as before');
  },
);

suite.test(
  {
    case: 'limit-counts-all',
    title: 'exactly 100 addresses are invited; 99 addresses and 2 user ids (101 recipients) hit the limit and nothing is invited',
    clauses: ['invitations.create.limit', 'invitations.create.several'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { fresh, email, user } = world();
    const owner = kit.as('owner');
    const source = await fresh();
    const hundred = Array.from({ length: 100 }, () => email('bulk'));
    expectInviteSuccess(await invite(owner, source, { email: hundred.join(','), access_level: GUEST }));
    const listed = new Set((await invitationsOf(kit.as('admin'), source)).map((i) => i.invite_email));
    expectTrue(hundred.every((address) => listed.has(address)), 'all 100 addresses invited', `${hundred.filter((a) => !listed.has(a)).length} missing`);

    const other = await fresh();
    const many = Array.from({ length: 99 }, () => email('bulk'));
    const [first, second] = [await user('bulk'), await user('bulk')];
    const res = await invite(owner, other, { email: many.join(','), user_id: `${first.id},${second.id}`, access_level: GUEST });
    expectOk(res, 201, 'invitation-result');
    const body = res.body as InviteResult;
    expectEqual(body.status, 'error', 'status "error"', res);
    expectEqual(body.message, 'Too many users specified (limit is 100)', 'the limit message', res);
    await expectNotInvited(kit.as('admin'), other, ...many);
    await expectNotMember(kit, other, first);
    await expectNotMember(kit, other, second);
  },
);

suite.test(
  {
    case: 'inherited-level',
    title: 'inviting a user into a subgroup below the level they hold in its parent is reported for that address, and the user is not added',
    clauses: ['invitations.create.inherited-level', 'invitations.create.result-error'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, subgroup, user } = world();
    const person = await user();
    expectOk(await as('owner').post(apiPath`/groups/${group.id}/members`, { body: { user_id: person.id, access_level: DEVELOPER } }), 201, 'member');
    const res = await invite(as('owner'), subgroup, { email: person.email, access_level: REPORTER });
    expectInviteErrors(res, { [person.email]: `Access level should be greater than or equal to Developer inherited membership from group ${group.name}` });
    expectError(await as('admin').get(apiPath`/groups/${subgroup.id}/members/${person.id}`), 404);
  },
);
