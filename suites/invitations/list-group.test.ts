// GET /groups/:id/invitations
import { endpoint } from '../harness/run/conformance.js';
import { expectEqual, expectError, expectTrue } from '../harness/core/checks.js';
import {
  checkPagination,
  checkQuery,
  datePart,
  dateIn,
  expectList,
  expectRefused,
  inviteOk,
  invitationsUrl,
  MAINTAINER,
  REPORTER,
  useInvitationsWorld,
  type Invitation,
} from './helpers.js';
import { invitations } from './area.js';

const suite = endpoint(invitations, 'list');

const world = useInvitationsWorld('list-group', 'group');

suite.test(
  {
    case: 'fields',
    title: 'the list holds exactly the pending invitations, each with address, level, expiry (date or null), creation time and inviter',
    clauses: ['invitations.list.shape', 'invitations.list.values', 'invitations.list.expires-at-date'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { fresh, email } = world();
    const source = await fresh();
    const [dated, open] = [email(), email()];
    const expires = dateIn(20);
    await inviteOk(as('owner'), source, dated, REPORTER, { expires_at: expires });
    await inviteOk(as('owner'), source, open, MAINTAINER);

    const res = await as('owner').get(invitationsUrl(source));
    // The schema takes expires_at as a date (GitLab) or a timestamp (spec), and `id` as optional:
    // the spec lists it, GitLab's entity has none (gitlab-facts §0.15, §8).
    expectEqual(expectList(res).sort(), [dated, open].sort(), 'exactly the two pending invitations');
    const items = res.body as Invitation[];
    const first = items.find((i) => i.invite_email === dated)!;
    const second = items.find((i) => i.invite_email === open)!;
    expectEqual([first.access_level, second.access_level], [REPORTER, MAINTAINER], 'the access levels given');
    expectEqual([datePart(first.expires_at), second.expires_at], [expires, null], 'the expiry date given, and null without one');
    expectEqual([first.created_by_name, second.created_by_name], [run.actors.owner.name, run.actors.owner.name], 'created_by_name to be the inviting owner');
    expectTrue(items.every((i) => i.user_name === undefined), 'no user_name: no user is attached to an address without an account', '', res);
  },
);

suite.test(
  {
    case: 'pending-only',
    title: 'members, including a user added by address, are not listed: only the pending invitation is',
    clauses: ['invitations.list.pending-only'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { fresh, email, user } = world();
    const source = await fresh();
    const person = await user('accepted');
    const address = email();
    await inviteOk(as('owner'), source, [address, person.email]);
    expectEqual(expectList(await as('owner').get(invitationsUrl(source))), [address], 'only the pending invitation in the list');
  },
);

suite.test(
  {
    case: 'direct-only',
    title: 'a group lists its own invitations, not those of its subgroup or its project, nor a subgroup those of its parent',
    clauses: ['invitations.list.direct-only'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, subgroup, project, email } = world();
    const [inGroup, inSubgroup, inProject] = [email(), email(), email()];
    await inviteOk(as('owner'), group, inGroup);
    await inviteOk(as('owner'), subgroup, inSubgroup);
    await inviteOk(as('owner'), project, inProject);

    const ofGroup = expectList(await as('owner').get(invitationsUrl(group)));
    expectTrue(ofGroup.includes(inGroup), 'the group\'s own invitation in its list');
    expectTrue(!ofGroup.includes(inSubgroup) && !ofGroup.includes(inProject), 'no invitation of the subgroup or the project in the group\'s list');
    const ofSubgroup = expectList(await as('owner').get(invitationsUrl(subgroup)));
    expectTrue(ofSubgroup.includes(inSubgroup) && !ofSubgroup.includes(inGroup), 'the subgroup to list its own invitation and not the parent group\'s');
  },
);

suite.test(
  {
    case: 'query-exact',
    title: 'query matches the address exactly: no partial match, case-sensitive; an empty query lists all',
    clauses: ['invitations.list.query'],
    only: { kind: 'group', why: 'TWIN' },
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
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { fresh, email } = world();
    await checkPagination(kit, await fresh(), email);
  },
);

suite.test(
  {
    case: 'pagination-params',
    title: 'per_page above 100 is clamped to 100; per_page=0 and a non-integer page are refused with 400',
    clauses: ['invitations.list.pagination-params'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source } = world();
    const url = invitationsUrl(source);
    const wide = await as('owner').get(url, { query: { per_page: 1000 } });
    expectList(wide);
    expectEqual(wide.headers['x-per-page'], '100', 'X-Per-Page clamped to 100', wide);
    expectError(await as('owner').get(url, { query: { per_page: 0 } }), 400, { error: /^per_page / });
    expectError(await as('owner').get(url, { query: { page: 'first' } }), 400, { error: /^page / });
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'only a group Owner may list invitations: Maintainer and below 403, an outsider 404, no token 401',
    clauses: ['invitations.auth.admin-members', 'invitations.auth.not-found', 'invitations.auth.anonymous'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { source } = world();
    await expectRefused(kit, source, (client) => client.get(invitationsUrl(source)));
    expectList(await kit.as('owner').get(invitationsUrl(source)));
    expectError(await kit.as('owner').get(invitationsUrl({ kind: 'group', id: 2147483000 })), 404, { message: '404 Group Not Found' });
  },
);

suite.test(
  {
    case: 'token-scopes',
    title: 'an Owner\'s read_api token may list invitations; a read_repository token may not (403)',
    clauses: ['invitations.auth.scopes'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source } = world();
    expectList(await as('owner', 'read_api').get(invitationsUrl(source)));
    expectError(await as('owner', 'read_repository').get(invitationsUrl(source)), 403, { error: 'insufficient_scope' });
  },
);

suite.test(
  {
    case: 'group-by-path',
    title: 'the group may be named by its URL-encoded full path',
    clauses: ['invitations.path.id'],
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { source, email } = world();
    const address = email();
    await inviteOk(as('owner'), source, address);
    const res = await as('owner').get(invitationsUrl({ kind: 'group', id: source.fullPath }), { query: { query: address } });
    expectEqual(expectList(res), [address], 'the invitation of the group named by path');
  },
);
