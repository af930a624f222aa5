// DELETE /groups/:id/invitations/:email and DELETE /projects/:id/invitations/:email
// Every case runs for both kinds.
import { endpoint } from './kit.js';
import { expectError, expectStatus, expectTrue, expectSetUp } from '../../runner/core/checks.js';
import { ACCESS, sourceNotFound } from '../../runner/core/vocabulary.js';
import { expectInvited, expectMember, expectNotInvited, expectRefused, GITLAB, invitationsUrl, invitationUrl, inviteOk, manager, membersUrl, MANAGERS, otherCase, UNKNOWN_ID, sharedSources } from './helpers.js';
import { publicWritesRefusedCase } from './cases.js';

const suite = endpoint('delete', { fixtures: { sources: sharedSources } });

/** Where GitLab keeps Owner-level invitations of a project to those who may manage owners. */
const OWNER_ONLY = 'app/services/members/destroy_service.rb (destroying_member_with_owner_access_level? && cannot_revoke_owner_responsibilities_from_member_in_project?); lib/api/api.rb (rescue_from Gitlab::Access::AccessDeniedError); spec/requests/api/invitations_spec.rb (when MAINTAINER tries to remove invitation of an OWNER)';

suite.test(
  {
    case: 'removes',
    title: 'DELETE answers 204 with no content; the invitation is gone and the others stay; a second delete is 404',
    clauses: ['invitations.delete.success', 'invitations.delete.once'],
  },
  async ({ sources, kind, as, email }) => {
    const deleter = as(manager(kind));
    const [gone, stays] = [email(), email()];
    await inviteOk(deleter, sources[kind], [gone, stays]);
    const res = await deleter.delete(invitationUrl(sources[kind], gone));
    expectStatus(res, 204);
    expectTrue(res.bytes.length === 0, 'no content in a 204 answer', `got ${res.bytes.length} bytes`, res);
    await expectNotInvited(as('admin'), sources[kind], gone);
    await expectInvited(as('admin'), sources[kind], stays, ACCESS.GUEST);
    expectError(await deleter.delete(invitationUrl(sources[kind], gone)), 404, { message: '404 Not Found', gitlab: GITLAB.inviteNotFound });
  },
);

suite.test(
  {
    case: 'not-found',
    title: 'DELETE for an unknown address, the address in other letter case, a member\'s address or an invitation of a neighbouring source gives 404; nothing is removed',
    clauses: ['invitations.delete.not-found'],
    requires: { setup: ['group-project-read'] },
  },
  async ({ sources, email, lease, ...kit }) => {
    const target = sources[kit.kind];
    const [address, elsewhere] = [email(), email()];
    await inviteOk(kit.as('owner'), target, address);
    const member = await lease();
    await inviteOk(kit.as('owner'), target, member.email, ACCESS.GUEST);
    // An invitation of the project's group, or of the group's project, is not one of this source's.
    await inviteOk(kit.as('owner'), sources[kit.kind === 'group' ? 'project' : 'group'], elsewhere);
    for (const missing of [email(), otherCase(address), member.email, elsewhere]) {
      expectError(await kit.as('owner').delete(invitationUrl(target, missing)), 404, { message: '404 Not Found', gitlab: GITLAB.inviteNotFound });
    }
    await expectInvited(kit.as('admin'), target, address, ACCESS.GUEST);
    await expectInvited(kit.as('admin'), sources[kit.kind === 'group' ? 'project' : 'group'], elsewhere, ACCESS.GUEST);
    await expectMember(kit, target, member, ACCESS.GUEST);
  },
);

suite.test(
  {
    case: 'once',
    title: 'two deletes sent at once: one succeeds, the other fails cleanly or also finds it; a later delete is 404',
    clauses: ['invitations.delete.once'],
  },
  async ({ sources, kind, as, email }) => {
    const address = email();
    await inviteOk(as('owner'), sources[kind], address);
    const url = invitationUrl(sources[kind], address);
    const both = await Promise.all([as('owner').delete(url), as('owner').delete(url)]);
    expectTrue(both.some((res) => res.status === 204), 'one of two simultaneous deletes to answer 204', `they answered ${both.map((r) => r.status).join(' and ')}`);
    // The other finds nothing (404), loses the race inside the deletion (409 in the spec's Errors,
    // 422 in GitLab: lib/api/invitations.rb unprocessable_entity! unless invite.destroyed?), or found
    // the row too before it went (204).
    for (const res of both) if (res.status !== 204) expectError(res, [404, 409, 422]);
    expectError(await as('owner').delete(url), 404, { message: '404 Not Found', gitlab: GITLAB.inviteNotFound });
    await expectNotInvited(as('admin'), sources[kind], address);
  },
);

suite.test(
  {
    case: 'owner-level',
    title: 'an invitation at Owner: a Maintainer may not delete it in a group (403) nor, in GitLab, in a project (403, it stays); the Owner does',
    clauses: ['invitations.delete.owner-level', 'invitations.delete.success', 'invitations.auth.admin-members'],
  },
  async ({ sources, kind, as, email }) => {
    const target = sources[kind];
    const address = email();
    await inviteOk(as('owner'), target, address, ACCESS.OWNER);
    const res = await as('maintainer').delete(invitationUrl(target, address));
    // In a group only the Owner manages invitations at all (403 for a Maintainer). The spec shows no
    // minimum role (Authentication 7): in a project GitLab's code lets only an Owner remove an
    // invitation at Owner (OWNER_ONLY, every version from 15.0), as it does for members.
    expectError(res, 403, { message: '403 Forbidden', gitlab: kind === 'group' ? GITLAB.forbidden : OWNER_ONLY });
    await expectInvited(as('admin'), target, address, ACCESS.OWNER);
    expectStatus(await as('owner').delete(invitationUrl(target, address)), 204);
    await expectNotInvited(as('admin'), target, address);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'only those who administer members may delete an invitation (group: Owner; project: Maintainer, Owner): the roles below 403, an outsider 404, no token 401, a read_api token 403',
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous', 'invitations.auth.scopes', 'invitations.delete.success'],
  },
  async ({ sources, email, ...kit }) => {
    const target = sources[kit.kind];
    // One invitation for each role that may delete, which deletes it.
    const roles = MANAGERS[kit.kind];
    const addresses = roles.map(() => email());
    await inviteOk(kit.as('owner'), target, addresses);
    await expectRefused(kit, target, (client) => client.delete(invitationUrl(target, addresses[0])));
    for (const role of roles) expectError(await kit.as(role, 'read_api').delete(invitationUrl(target, addresses[0])), 403, { error: 'insufficient_scope', gitlab: GITLAB.scope });
    for (const address of addresses) await expectInvited(kit.as('admin'), target, address, ACCESS.GUEST);
    for (const [i, role] of roles.entries()) expectStatus(await kit.as(role).delete(invitationUrl(target, addresses[i])), 204);
    await expectNotInvited(kit.as('admin'), target, ...addresses);
  },
);

suite.test(
  {
    case: 'by-path',
    title: 'the group or project may be named by its full path and the address sent with a raw @; an unknown one is 404 Group/Project Not Found',
    clauses: ['invitations.path.id', 'invitations.path.email', 'invitations.auth.not-found'],
  },
  async ({ sources, kind, as, email }) => {
    const address = email();
    await inviteOk(as('owner'), sources[kind], address);
    expectError(await as('owner').delete(invitationUrl({ kind, id: UNKNOWN_ID }, address)), 404, { message: sourceNotFound(kind), gitlab: GITLAB.sourceNotFound });
    await expectInvited(as('admin'), sources[kind], address, ACCESS.GUEST);
    expectStatus(await as('owner').delete(`${invitationsUrl({ kind, id: sources[kind].fullPath })}/${address}`), 204);
    await expectNotInvited(as('admin'), sources[kind], address);
  },
);

publicWritesRefusedCase(suite, { done: 'delete', stays: 'it stays', send: (client, target, address) => client.delete(invitationUrl(target, address)) });

suite.test(
  {
    case: 'own-address',
    title: 'a Developer may not delete the invitation addressed to their own unconfirmed address (403); it stays',
    clauses: ['invitations.delete.own-address', 'invitations.auth.admin-members'],
    requires: { setup: ['secondary-emails'] },
  },
  async ({ sources, ...kit }) => {
    const { lease: lend, secondaryEmail } = kit;
    const target = sources[kit.kind];
    // A user lent to the test (its membership is taken back after it), with an unconfirmed address of its own.
    const user = await lend();
    const address = await secondaryEmail(user, false);
    expectSetUp(await kit.as('admin').post(membersUrl(target), { body: { user_id: user.id, access_level: ACCESS.DEVELOPER } }), `making ${user.username} a Developer`);
    // An unconfirmed address names no user: it is invited (invitations.create.confirmed-email).
    await inviteOk(kit.as('owner'), target, address);
    const res = await kit.withToken(user.tokens.api, 'the invitee, a Developer').delete(invitationUrl(target, address));
    expectError(res, 403, { message: '403 Forbidden', gitlab: GITLAB.forbidden });
    await expectInvited(kit.as('admin'), target, address, ACCESS.GUEST);
    expectStatus(await kit.as(manager(kit.kind)).delete(invitationUrl(target, address)), 204);
  },
);
