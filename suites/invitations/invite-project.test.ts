// POST /projects/:id/invitations
// The promotion-approval test of this form is in promotion.exclusive.test.ts (one file for the instance-wide setting).
import { endpoint } from '../harness/run/conformance.js';
import { expectEqual, expectError } from '../harness/core/checks.js';
import {
  dateIn,
  expectInvited,
  expectInviteErrors,
  expectInviteSuccess,
  expectMember,
  expectNotInvited,
  expectNotMember,
  expectRefused,
  GUEST,
  invite,
  inviteOk,
  MAINTAINER,
  MUST_PROVIDE,
  otherCase,
  OWNER,
  REPORTER,
  useInvitationsWorld,
} from './helpers.js';
import { invitations } from './area.js';

const suite = endpoint(invitations, 'create');

const world = useInvitationsWorld('invite-project', 'project');

suite.test(
  {
    case: 'pending-invitation',
    title: 'addresses without an account are invited to the project: 201 {"status":"success"}, listed with level, expiry and inviter',
    clauses: ['invitations.create.by-email', 'invitations.create.several', 'invitations.create.expires-at', 'invitations.list.values'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { source, email } = world();
    const [a, b] = [email(), email()];
    const expires = dateIn(14);
    expectInviteSuccess(await invite(as('maintainer'), source, { email: `${a},${b}`, access_level: MAINTAINER, expires_at: expires }));
    for (const address of [a, b]) {
      const invitation = await expectInvited(as('admin'), source, address, MAINTAINER, expires);
      expectEqual(invitation.created_by_name, run.actors.maintainer.name, 'created_by_name to be the name of the inviting maintainer');
    }
  },
);

suite.test(
  {
    case: 'existing-users',
    title: 'an existing user\'s address and a user id both make direct project members, not pending invitations',
    clauses: ['invitations.create.existing-user-email', 'invitations.create.user-id', 'invitations.list.pending-only'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async (kit) => {
    const { source, user } = world();
    const [byEmail, byId] = [await user('by-email'), await user('by-id')];
    await expectNotMember(kit, source, byEmail);
    expectInviteSuccess(await invite(kit.as('owner'), source, { email: byEmail.email, user_id: `${byId.id},2147483000`, access_level: GUEST }));
    await expectNotInvited(kit.as('admin'), source, byEmail.email, byId.email);
    await expectMember(kit, source, byEmail, GUEST);
    await expectMember(kit, source, byId, GUEST);
  },
);

suite.test(
  {
    case: 'taken-in-other-case',
    title: 'an address already invited to the project in other letter case is reported while the other address is invited',
    clauses: ['invitations.create.taken', 'invitations.create.partial', 'invitations.create.result-error'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const [first, second] = [email(), email()];
    await inviteOk(as('owner'), source, first);
    const variant = otherCase(first);
    expectInviteErrors(await invite(as('owner'), source, { email: `${second},${variant}`, access_level: GUEST }), { [variant]: 'Invite email has already been taken' });
    await expectInvited(as('admin'), source, second, GUEST);
    await expectNotInvited(as('admin'), source, variant);
  },
);

suite.test(
  {
    case: 'parameters-checked',
    title: 'neither email nor user_id, or an unlisted access_level, is refused with 400 and nothing is invited',
    clauses: ['invitations.create.email-or-user-id', 'invitations.create.access-level'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    expectError(await invite(as('owner'), source, { access_level: REPORTER }), 400, { message: MUST_PROVIDE });
    expectError(await invite(as('owner'), source, { email: address, access_level: 60 }), 400, { error: 'access_level does not have a valid value' });
    await expectNotInvited(as('admin'), source, address);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'project Maintainers and Owners may invite; Developer and below 403, an outsider 404, no token 401',
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async (kit) => {
    const { source, email } = world();
    const tried: string[] = [];
    await expectRefused(kit, source, (client) => {
      tried.push(email());
      return invite(client, source, { email: tried[tried.length - 1], access_level: GUEST });
    });
    await expectNotInvited(kit.as('admin'), source, ...tried);
    for (const role of ['owner', 'maintainer'] as const) {
      const address = email();
      expectInviteSuccess(await invite(kit.as(role), source, { email: address, access_level: GUEST }));
      await expectInvited(kit.as('admin'), source, address, GUEST);
    }
    expectError(await invite(kit.as('owner'), { kind: 'project', id: 2147483000 }, { email: email(), access_level: GUEST }), 404, { message: '404 Project Not Found' });
  },
);

suite.test(
  {
    case: 'owner-level',
    title: 'a Maintainer may not invite at the Owner level (403); an Owner may',
    clauses: ['invitations.create.project-owner'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const [refused, allowed] = [email(), email()];
    expectError(await invite(as('maintainer'), source, { email: refused, access_level: OWNER }), 403, { message: '403 Forbidden' });
    await expectNotInvited(as('admin'), source, refused);
    expectInviteSuccess(await invite(as('owner'), source, { email: allowed, access_level: OWNER }));
    await expectInvited(as('admin'), source, allowed, OWNER);
  },
);

suite.test(
  {
    case: 'project-by-path',
    title: 'the project may be named by its URL-encoded full path',
    clauses: ['invitations.path.id'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    expectInviteSuccess(await invite(as('owner'), { kind: 'project', id: source.fullPath }, { email: address, access_level: GUEST }));
    await expectInvited(as('admin'), source, address, GUEST);
  },
);
