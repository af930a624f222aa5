// PUT /groups/:id/members/:user_id/state
import { expectEqual, expectError, expectOk } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import {
  expectAnonymous401,
  expectBadRequest,
  expectParamError,
  LEVEL,
  listAll,
  membersPath,
  pendingPath,
  readMember,
  statePath,
  useMembersWorld,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'state');


const world = useMembersWorld('set-member-state', async (t) => {
  const root = await t.roleGroup();
  const sub = await t.group({ parent: root });
  const project = await t.project({ group: sub });
  return { root, sub, project };
});

/** A new member of the root group and of the project in its subgroup. */
async function newMember() {
  const { root, project, t } = world();
  const user = await t.user();
  await t.add(root, user, LEVEL.DEVELOPER);
  await t.add(project, user, LEVEL.DEVELOPER);
  return user;
}

suite.test(
  {
    case: 'awaiting-then-active',
    title: 'awaiting and then active: {"success":true} each time, applied to the group and its project, and shown by pending members',
    clauses: ['members.state.set', 'members.entity.membership-state'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { root, project } = world();
    const user = await newMember();
    const awaiting = await as('owner').put(statePath(root, user.id), { body: { state: 'awaiting' } });
    expectOk(awaiting, 200, 'member-state-result');
    expectEqual(awaiting.body, { success: true }, 'the answer', awaiting);
    expectEqual((await readMember(as('owner'), root, user.id)).membership_state, 'awaiting', 'the group membership\'s state');
    expectEqual((await readMember(as('owner'), project, user.id)).membership_state, 'awaiting', 'the project membership\'s state');
    const pending = await listAll<{ username?: string; approved: boolean }>(as('owner'), pendingPath(root), 'pending-member');
    expectEqual(pending.filter((p) => p.username === user.username).map((p) => p.approved), [false], 'the user among the pending members, not approved');

    expectOk(await as('owner').put(statePath(root, user.id), { body: { state: 'active' } }), 200, 'member-state-result');
    expectEqual((await readMember(as('owner'), root, user.id)).membership_state, 'active', 'the group membership\'s state after activation');
    expectEqual((await readMember(as('owner'), project, user.id)).membership_state, 'active', 'the project membership\'s state after activation');
    const after = await listAll<{ username?: string }>(as('owner'), pendingPath(root), 'pending-member');
    expectEqual(after.some((p) => p.username === user.username), false, 'the user among the pending members after activation');
  },
);

suite.test(
  {
    case: 'access',
    title: 'an awaiting member cannot see the private group; once active again it can',
    clauses: ['members.state.access'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, withToken }) => {
    const { root } = world();
    const user = await newMember();
    const self = withToken(user.tokens.api, 'the member');
    expectOk(await as('owner').put(statePath(root, user.id), { body: { state: 'awaiting' } }), 200, 'member-state-result');
    expectError(await self.get(membersPath(root)), 404, { message: '404 Group Not Found' });
    expectOk(await as('owner').put(statePath(root, user.id), { body: { state: 'active' } }), 200, 'member-state-result');
    expectOk(await self.get(membersPath(root)), 200, 'member', { list: true });
  },
);

suite.test(
  {
    case: 'params',
    title: 'state is required and must be awaiting or active (400); an unknown user gives 404 "404 User Not Found"',
    clauses: ['members.state.params', 'members.errors.shape'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { root } = world();
    const user = await newMember();
    expectParamError(await as('owner').put(statePath(root, user.id), { body: {} }), 'state');
    expectParamError(await as('owner').put(statePath(root, user.id), { body: { state: 'blocked' } }), 'state');
    expectError(await as('owner').put(statePath(root, 2147483000), { body: { state: 'active' } }), 404, { message: '404 User Not Found' });
    expectEqual((await readMember(as('owner'), root, user.id)).membership_state, 'active', 'the state, unchanged');
  },
);

suite.test(
  {
    case: 'subgroup-and-roles',
    title: 'a subgroup gives 400; Maintainers, Developers and Guests get 400, an outsider 404, nobody 401; the state stays',
    clauses: ['members.ee.top-level-only', 'members.ee.admin-only', 'members.auth.anonymous'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { root, sub } = world();
    const user = await newMember();
    const body = { body: { state: 'awaiting' } };
    expectBadRequest(await as('owner').put(statePath(sub, user.id), body));
    for (const role of ['maintainer', 'developer', 'guest'] as const) expectBadRequest(await as(role).put(statePath(root, user.id), body));
    expectError(await as('outsider').put(statePath(root, user.id), body), 404, { message: '404 Group Not Found' });
    expectAnonymous401(await as('anonymous').put(statePath(root, user.id), body));
    expectEqual((await readMember(as('owner'), root, user.id)).membership_state, 'active', 'the state, unchanged');
  },
);

suite.test(
  {
    case: 'no-membership',
    title: 'a user with no membership in the hierarchy cannot be given a state: 422 with the service\'s message',
    clauses: ['members.state.set'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, run }) => {
    // gitlab-facts §4: the service's error comes back through unprocessable_entity!(message).
    expectError(await as('owner').put(statePath(world().root, run.actors.outsider.id), { body: { state: 'awaiting' } }), 422);
  },
);
