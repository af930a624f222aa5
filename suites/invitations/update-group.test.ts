// PUT /groups/:id/invitations/:email
import { endpoint } from '../harness/run/conformance.js';
import { expectError, expectTrue, expectValidationError } from '../harness/core/checks.js';
import {
  dateIn,
  DEVELOPER,
  expectInvited,
  expectRefused,
  expectUpdated,
  GUEST,
  invitationsUrl,
  invitationUrl,
  inviteOk,
  MAINTAINER,
  otherCase,
  REPORTER,
  update,
  useInvitationsWorld,
} from './helpers.js';
import { invitations } from './area.js';

const suite = endpoint(invitations, 'update');

const world = useInvitationsWorld('update-group', 'group');

suite.test(
  {
    case: 'level-and-expiry',
    title: 'PUT changes the access level and expiry date of a pending invitation: 200 with the new values, and the list shows them',
    clauses: ['invitations.update.fields'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(as('owner'), source, address, GUEST);
    const expires = dateIn(60);
    expectUpdated(await update(as('owner'), source, address, { access_level: MAINTAINER, expires_at: expires }), MAINTAINER, expires);
    await expectInvited(as('admin'), source, address, MAINTAINER, expires);
  },
);

suite.test(
  {
    case: 'timestamp-expiry',
    title: 'PUT takes expires_at as an ISO 8601 timestamp; the invitation expires on that date',
    clauses: ['invitations.update.timestamp', 'invitations.list.expires-at-date'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(as('owner'), source, address, REPORTER);
    const day = dateIn(40);
    // Noon UTC: the date is the same in every time zone a target may store dates in.
    expectUpdated(await update(as('owner'), source, address, { expires_at: `${day}T12:00:00Z` }), REPORTER, day);
    await expectInvited(as('admin'), source, address, REPORTER, day);
  },
);

suite.test(
  {
    case: 'one-field',
    title: 'PUT with only access_level keeps the expiry; with only expires_at keeps the level (or, per the spec, sets 30)',
    clauses: ['invitations.update.partial'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    const expires = dateIn(25);
    await inviteOk(as('owner'), source, address, GUEST, { expires_at: expires });
    expectUpdated(await update(as('owner'), source, address, { access_level: REPORTER }), REPORTER, expires);
    await expectInvited(as('admin'), source, address, REPORTER, expires);

    const later = dateIn(50);
    const res = await update(as('owner'), source, address, { expires_at: later });
    // GitLab updates only the parameters given; the spec's table says access_level defaults to 30.
    const level = (res.body as { access_level?: number } | undefined)?.access_level;
    expectTrue(level === REPORTER || level === DEVELOPER, 'access_level to stay 20 (GitLab) or become the spec\'s default 30', `it is ${String(level)}`, res);
    expectUpdated(res, level!, later);
    await expectInvited(as('admin'), source, address, level!, later);
  },
);

suite.test(
  {
    case: 'not-found',
    title: 'PUT for an unknown address, the address in other letter case, or a member\'s address gives 404 Not Found',
    clauses: ['invitations.update.not-found'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email, user } = world();
    const address = email();
    await inviteOk(as('owner'), source, address, GUEST);
    const member = await user('member');
    await inviteOk(as('owner'), source, member.email, GUEST);
    for (const missing of [email(), otherCase(address), member.email]) {
      expectError(await update(as('owner'), source, missing, { access_level: REPORTER }), 404, { message: '404 Not Found' });
    }
    await expectInvited(as('admin'), source, address, GUEST);
  },
);

suite.test(
  {
    case: 'no-parameters',
    title: 'PUT without access_level and expires_at gives 400 Bad request and changes nothing',
    clauses: ['invitations.update.no-params'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    const expires = dateIn(12);
    await inviteOk(as('owner'), source, address, REPORTER, { expires_at: expires });
    expectError(await update(as('owner'), source, address, {}), 400, { message: '400 Bad request' });
    await expectInvited(as('admin'), source, address, REPORTER, expires);
  },
);

suite.test(
  {
    case: 'validation',
    title: 'an unlisted access_level, a malformed or a past expires_at is refused with 400 and the invitation is unchanged',
    clauses: ['invitations.update.validation'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    const expires = dateIn(10);
    await inviteOk(as('owner'), source, address, REPORTER, { expires_at: expires });
    expectError(await update(as('owner'), source, address, { access_level: 60 }), 400, { error: 'access_level does not have a valid value' });
    expectError(await update(as('owner'), source, address, { expires_at: 'someday' }), 400, { error: /^expires_at / });
    expectValidationError(await update(as('owner'), source, address, { expires_at: dateIn(-5) }), 'expires_at');
    await expectInvited(as('admin'), source, address, REPORTER, expires);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'only a group Owner may update an invitation: Maintainer and below 403, an outsider 404, no token 401, a read_api token 403',
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous', 'invitations.auth.scopes'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(kit.as('owner'), source, address, GUEST);
    await expectRefused(kit, source, (client) => update(client, source, address, { access_level: MAINTAINER }));
    expectError(await update(kit.as('owner', 'read_api'), source, address, { access_level: MAINTAINER }), 403, { error: 'insufficient_scope' });
    await expectInvited(kit.as('admin'), source, address, GUEST);
    expectUpdated(await update(kit.as('owner'), source, address, { access_level: REPORTER }), REPORTER, null);
    expectError(await update(kit.as('owner'), { kind: 'group', id: 2147483000 }, address, { access_level: REPORTER }), 404, { message: '404 Group Not Found' });
  },
);

suite.test(
  {
    case: 'email-path',
    title: 'the address is one path segment, with @ sent as is or URL-encoded; the group may be named by its full path',
    clauses: ['invitations.path.email', 'invitations.path.id'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(as('owner'), source, address, GUEST);
    const raw = await as('owner').put(`${invitationsUrl(source)}/${address}`, { body: { access_level: REPORTER } });
    expectUpdated(raw, REPORTER, null);
    expectUpdated(await as('owner').put(invitationUrl({ kind: 'group', id: source.fullPath }, address), { body: { access_level: DEVELOPER } }), DEVELOPER, null);
    await expectInvited(as('admin'), source, address, DEVELOPER);
  },
);

suite.test(
  {
    case: 'no-5xx',
    title: 'malformed parameters and addresses never make the server fail: every answer is 4xx',
    clauses: ['invitations.errors.no-5xx'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(as('owner'), source, address, GUEST);
    const attempts = [
      update(as('owner'), source, address, { access_level: {} }),
      update(as('owner'), source, address, { access_level: [] }),
      update(as('owner'), source, address, { expires_at: { day: 1 } }),
      update(as('owner'), source, address, { expires_at: '2031-13-45' }),
      update(as('owner'), source, 'x'.repeat(4000), { access_level: REPORTER }),
      as('owner').put(`${invitationsUrl(source)}/%E0%A4%A`, { body: { access_level: REPORTER } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expectTrue(res.status >= 400 && res.status < 500, 'a 4xx answer to malformed input', `got HTTP ${res.status}`, res);
    }
    await expectInvited(as('admin'), source, address, GUEST);
  },
);
