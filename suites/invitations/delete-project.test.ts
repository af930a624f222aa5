// DELETE /projects/:id/invitations/:email
import { endpoint } from '../harness/run/conformance.js';
import { expectError, expectStatus, expectTrue } from '../harness/core/checks.js';
import {
  expectInvited,
  expectNotInvited,
  expectRefused,
  GUEST,
  invitationUrl,
  inviteOk,
  otherCase,
  useInvitationsWorld,
} from './helpers.js';
import { invitations } from './area.js';

const suite = endpoint(invitations, 'delete');

const world = useInvitationsWorld('delete-project', 'project');

suite.test(
  {
    case: 'removes',
    title: 'DELETE answers 204 with no content; the project invitation is gone, the others stay; a second delete is 404',
    clauses: ['invitations.delete.success', 'invitations.delete.once'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const [gone, stays] = [email(), email()];
    await inviteOk(as('maintainer'), source, [gone, stays]);
    const res = await as('maintainer').delete(invitationUrl(source, gone));
    expectStatus(res, 204);
    expectTrue(res.bytes.length === 0, 'no content in a 204 answer', `got ${res.bytes.length} bytes`, res);
    await expectNotInvited(as('admin'), source, gone);
    await expectInvited(as('admin'), source, stays, GUEST);
    expectError(await as('maintainer').delete(invitationUrl(source, gone)), 404, { message: '404 Not Found' });
  },
);

suite.test(
  {
    case: 'not-found',
    title: 'DELETE for an unknown address, the address in other letter case, or a group invitation gives 404; nothing is removed',
    clauses: ['invitations.delete.not-found'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, source, email } = world();
    const [address, ofGroup] = [email(), email()];
    await inviteOk(as('owner'), source, address);
    await inviteOk(as('owner'), group, ofGroup);
    for (const missing of [email(), otherCase(address), ofGroup]) {
      expectError(await as('owner').delete(invitationUrl(source, missing)), 404, { message: '404 Not Found' });
    }
    await expectInvited(as('admin'), source, address, GUEST);
    await expectInvited(as('admin'), group, ofGroup, GUEST);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'project Maintainers and Owners may delete invitations; Developer and below 403, an outsider 404, no token 401',
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous', 'invitations.delete.success'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async (kit) => {
    const { source, email } = world();
    const [first, second] = [email(), email()];
    await inviteOk(kit.as('owner'), source, [first, second]);
    await expectRefused(kit, source, (client) => client.delete(invitationUrl(source, first)));
    await expectInvited(kit.as('admin'), source, first, GUEST);
    expectStatus(await kit.as('maintainer').delete(invitationUrl(source, first)), 204);
    expectStatus(await kit.as('owner').delete(invitationUrl({ kind: 'project', id: source.fullPath }, second)), 204);
    await expectNotInvited(kit.as('admin'), source, first, second);
    expectError(await kit.as('owner').delete(invitationUrl({ kind: 'project', id: 2147483000 }, first)), 404, { message: '404 Project Not Found' });
  },
);
