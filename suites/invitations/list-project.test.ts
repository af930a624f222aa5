// GET /projects/:id/invitations
import { endpoint } from '../harness/run/conformance.js';
import { expectEqual, expectError, expectTrue } from '../harness/core/checks.js';
import {
  checkPagination,
  checkQuery,
  datePart,
  dateIn,
  DEVELOPER,
  expectList,
  expectRefused,
  GUEST,
  inviteOk,
  invitationsUrl,
  useInvitationsWorld,
  type Invitation,
} from './helpers.js';
import { invitations } from './area.js';

const suite = endpoint(invitations, 'list');

const world = useInvitationsWorld('list-project', 'project');

suite.test(
  {
    case: 'fields',
    title: 'the project lists its pending invitations with address, level, expiry and inviter; members are not listed',
    clauses: ['invitations.list.shape', 'invitations.list.values', 'invitations.list.expires-at-date', 'invitations.list.pending-only'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { fresh, email, user } = world();
    const source = await fresh();
    const address = email();
    const person = await user('accepted');
    const expires = dateIn(9);
    await inviteOk(as('maintainer'), source, address, DEVELOPER, { expires_at: expires });
    await inviteOk(as('maintainer'), source, person.email, GUEST);

    const res = await as('maintainer').get(invitationsUrl(source));
    // Schema: expires_at a date (GitLab) or timestamp (spec); `id` optional (gitlab-facts §0.15, §8).
    expectEqual(expectList(res), [address], 'only the pending invitation, not the user added by address');
    const [invitation] = res.body as Invitation[];
    expectEqual(invitation.access_level, DEVELOPER, 'the access level given', res);
    expectEqual(datePart(invitation.expires_at), expires, 'the expiry date given', res);
    expectEqual(invitation.created_by_name, run.actors.maintainer.name, 'created_by_name to be the inviting maintainer', res);
  },
);

suite.test(
  {
    case: 'direct-only',
    title: 'a project lists its own invitations, not those of its group',
    clauses: ['invitations.list.direct-only'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, source, email } = world();
    const [inGroup, inProject] = [email(), email()];
    await inviteOk(as('owner'), group, inGroup);
    await inviteOk(as('owner'), source, inProject);
    const listed = expectList(await as('maintainer').get(invitationsUrl(source)));
    expectTrue(listed.includes(inProject) && !listed.includes(inGroup), 'the project to list its own invitation and not its group\'s', `it lists ${listed.join(', ')}`);
  },
);

suite.test(
  {
    case: 'query-exact',
    title: 'query matches the address exactly: no partial match, case-sensitive; an empty query lists all',
    clauses: ['invitations.list.query'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async (kit) => {
    const { fresh, email } = world();
    await checkQuery(kit, await fresh(), email);
  },
);

suite.test(
  {
    case: 'pagination',
    title: 'page and per_page split the list with GitLab\'s headers; a page past the end is empty',
    clauses: ['invitations.list.pagination'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async (kit) => {
    const { fresh, email } = world();
    await checkPagination(kit, await fresh(), email);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'project Maintainers and Owners may list invitations (also with read_api); Developer and below 403, an outsider 404, no token 401',
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous', 'invitations.auth.scopes'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async (kit) => {
    const { source } = world();
    await expectRefused(kit, source, (client) => client.get(invitationsUrl(source)));
    for (const role of ['owner', 'maintainer'] as const) expectList(await kit.as(role).get(invitationsUrl(source)));
    expectList(await kit.as('maintainer', 'read_api').get(invitationsUrl(source)));
    expectError(await kit.as('owner').get(invitationsUrl({ kind: 'project', id: 2147483000 })), 404, { message: '404 Project Not Found' });
  },
);
