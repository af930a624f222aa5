// DELETE /groups/:id/invitations/:email
import { endpoint } from '../harness/run/conformance.js';
import { expectError, expectStatus, expectTrue } from '../harness/core/checks.js';
import {
  expectInvited,
  expectMember,
  expectNotInvited,
  expectRefused,
  GUEST,
  invitationsUrl,
  invitationUrl,
  inviteOk,
  otherCase,
  useInvitationsWorld,
} from './helpers.js';
import { invitations } from './area.js';

const suite = endpoint(invitations, 'delete');

const world = useInvitationsWorld('delete-group', 'group');

suite.test(
  {
    case: 'removes',
    title: 'DELETE answers 204 with no content; the invitation is gone and the others stay',
    clauses: ['invitations.delete.success'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const [gone, stays] = [email(), email()];
    await inviteOk(as('owner'), source, [gone, stays]);
    const res = await as('owner').delete(invitationUrl(source, gone));
    expectStatus(res, 204);
    expectTrue(res.bytes.length === 0, 'no content in a 204 answer', `got ${res.bytes.length} bytes`, res);
    await expectNotInvited(as('admin'), source, gone);
    await expectInvited(as('admin'), source, stays, GUEST);
  },
);

suite.test(
  {
    case: 'not-found',
    title: 'DELETE for an unknown address, the address in other letter case, or a member\'s address gives 404; nothing is removed',
    clauses: ['invitations.delete.not-found'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { source, email, user } = world();
    const address = email();
    await inviteOk(kit.as('owner'), source, address);
    const member = await user('member');
    await inviteOk(kit.as('owner'), source, member.email, GUEST);
    for (const missing of [email(), otherCase(address), member.email]) {
      expectError(await kit.as('owner').delete(invitationUrl(source, missing)), 404, { message: '404 Not Found' });
    }
    await expectInvited(kit.as('admin'), source, address, GUEST);
    await expectMember(kit, source, member, GUEST);
  },
);

suite.test(
  {
    case: 'once',
    title: 'two deletes sent at once: one succeeds, the other fails cleanly or also finds it; a later delete is 404',
    clauses: ['invitations.delete.once'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(as('owner'), source, address);
    const url = invitationUrl(source, address);
    const both = await Promise.all([as('owner').delete(url), as('owner').delete(url)]);
    expectTrue(both.some((res) => res.status === 204), 'one of two simultaneous deletes to answer 204', `they answered ${both.map((r) => r.status).join(' and ')}`);
    // The other finds nothing (404), loses the race inside the deletion (409 in the spec, 422 in
    // GitLab: gitlab-facts §0.14), or found the row too before it went (204).
    for (const res of both) if (res.status !== 204) expectError(res, [404, 409, 422]);
    expectError(await as('owner').delete(url), 404, { message: '404 Not Found' });
    await expectNotInvited(as('admin'), source, address);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'only a group Owner may delete an invitation: Maintainer and below 403, an outsider 404, no token 401, a read_api token 403',
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous', 'invitations.auth.scopes', 'invitations.delete.success'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(kit.as('owner'), source, address);
    const url = invitationUrl(source, address);
    await expectRefused(kit, source, (client) => client.delete(url));
    expectError(await kit.as('owner', 'read_api').delete(url), 403, { error: 'insufficient_scope' });
    await expectInvited(kit.as('admin'), source, address, GUEST);
    expectStatus(await kit.as('owner').delete(url), 204);
    await expectNotInvited(kit.as('admin'), source, address);
  },
);

suite.test(
  {
    case: 'by-path',
    title: 'the group may be named by its full path and the address sent with a raw @; an unknown group is 404 Group Not Found',
    clauses: ['invitations.path.id', 'invitations.path.email', 'invitations.auth.not-found'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(as('owner'), source, address);
    expectError(await as('owner').delete(invitationUrl({ kind: 'group', id: 2147483000 }, address)), 404, { message: '404 Group Not Found' });
    expectStatus(await as('owner').delete(`${invitationsUrl({ kind: 'group', id: source.fullPath })}/${address}`), 204);
    await expectNotInvited(as('admin'), source, address);
  },
);
