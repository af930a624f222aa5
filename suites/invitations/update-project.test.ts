// PUT /projects/:id/invitations/:email
import { endpoint } from '../harness/run/conformance.js';
import { expectError, expectValidationError } from '../harness/core/checks.js';
import {
  dateIn,
  expectInvited,
  expectRefused,
  expectUpdated,
  GUEST,
  inviteOk,
  MAINTAINER,
  otherCase,
  REPORTER,
  update,
  useInvitationsWorld,
} from './helpers.js';
import { invitations } from './area.js';

const suite = endpoint(invitations, 'update');

const world = useInvitationsWorld('update-project', 'project');

suite.test(
  {
    case: 'level-and-expiry',
    title: 'PUT changes the access level and expiry (sent as a timestamp) of a pending project invitation; the list shows them',
    clauses: ['invitations.update.fields', 'invitations.update.timestamp'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(as('maintainer'), source, address, GUEST);
    const day = dateIn(33);
    expectUpdated(await update(as('maintainer'), source, address, { access_level: MAINTAINER, expires_at: `${day}T12:00:00Z` }), MAINTAINER, day);
    await expectInvited(as('admin'), source, address, MAINTAINER, day);
  },
);

suite.test(
  {
    case: 'not-found-and-no-parameters',
    title: 'PUT for an address without a pending project invitation is 404; without parameters 400; nothing changes',
    clauses: ['invitations.update.not-found', 'invitations.update.no-params'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, source, email } = world();
    const [address, ofGroup] = [email(), email()];
    await inviteOk(as('owner'), source, address, REPORTER);
    await inviteOk(as('owner'), group, ofGroup, REPORTER);
    // An invitation of the parent group is not one of the project's.
    for (const missing of [email(), otherCase(address), ofGroup]) {
      expectError(await update(as('owner'), source, missing, { access_level: GUEST }), 404, { message: '404 Not Found' });
    }
    expectError(await update(as('owner'), source, address, {}), 400, { message: '400 Bad request' });
    await expectInvited(as('admin'), source, address, REPORTER, null);
    await expectInvited(as('admin'), group, ofGroup, REPORTER, null);
  },
);

suite.test(
  {
    case: 'validation',
    title: 'an unlisted access_level or a past expires_at is refused with 400 and the project invitation is unchanged',
    clauses: ['invitations.update.validation'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(as('owner'), source, address, REPORTER);
    expectError(await update(as('owner'), source, address, { access_level: 60 }), 400, { error: 'access_level does not have a valid value' });
    expectError(await update(as('owner'), source, address, { expires_at: dateIn(-2) }), 400);
    await expectInvited(as('admin'), source, address, REPORTER, null);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'project Maintainers and Owners may update invitations; Developer and below 403, an outsider 404, no token 401',
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async (kit) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(kit.as('owner'), source, address, GUEST);
    await expectRefused(kit, source, (client) => update(client, source, address, { access_level: MAINTAINER }));
    await expectInvited(kit.as('admin'), source, address, GUEST);
    expectUpdated(await update(kit.as('maintainer'), source, address, { access_level: REPORTER }), REPORTER, null);
    expectUpdated(await update(kit.as('owner'), { kind: 'project', id: source.fullPath }, address, { access_level: MAINTAINER }), MAINTAINER, null);
    await expectInvited(kit.as('admin'), source, address, MAINTAINER);
    expectError(await update(kit.as('owner'), { kind: 'project', id: 2147483000 }, address, { access_level: REPORTER }), 404, { message: '404 Project Not Found' });
  },
);

suite.test(
  {
    case: 'no-role-level',
    title: 'access_level 5 (Minimal access) or 0 (No access) is refused with 400 and the project invitation keeps its level',
    clauses: ['invitations.update.role-level'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(as('owner'), source, address, REPORTER);
    // GitLab's parameter check ({"error": ...}) or the model ({"message": {"access_level": [...]}}).
    for (const level of [5, 0]) expectError(await update(as('owner'), source, address, { access_level: level }), 400);
    await expectInvited(as('admin'), source, address, REPORTER, null);
  },
);

suite.test(
  {
    case: 'past-expiry-message',
    title: 'a past expires_at is refused with 400 {"message":{"expires_at":[text]}} and the project invitation keeps its expiry',
    clauses: ['invitations.update.validation'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    const expires = dateIn(12);
    await inviteOk(as('owner'), source, address, GUEST, { expires_at: expires });
    const res = await update(as('owner'), source, address, { expires_at: dateIn(-3) });
    expectValidationError(res, 'expires_at');
    await expectInvited(as('admin'), source, address, GUEST, expires);
  },
);
