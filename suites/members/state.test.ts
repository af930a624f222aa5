// PUT /groups/:id/members/:user_id/state
import { expectEqual, expectFields, expectError, expectOk } from '../../runner/core/checks.js';
import { endpoint, fixture, type Hierarchy, type MembersKit } from './kit.js';
import {
  expectMembershipState,
  expectParamError,
  expectSourceNotFound,
  GITLAB,
  LEVEL,
  membersPath,
  pendingMembers,
  statePath,
  sharedHierarchy,
} from './helpers.js';
import { subgroupAndRolesCase } from './cases.js';


const sources = fixture({ name: 'members-set-member-state', scope: 'file', fixtures: { sharedHierarchy }, build: (t) => t.sharedHierarchy });

const suite = endpoint('state', { fixtures: { sources } });

/** A new member of the root group and of the project in its subgroup. */
async function newMember(kit: MembersKit, { root, project }: Hierarchy) {
  const user = await kit.member(root, LEVEL.DEVELOPER);
  await kit.add(project, user, LEVEL.DEVELOPER);
  return user;
}

suite.test(
  {
    case: 'awaiting-then-active',
    title: 'awaiting and then active: {"success":true} each time, applied to the group and its project, and shown by pending members',
    clauses: ['members.state.set', 'members.entity.membership-state'],
    requires: { capabilities: ['premium'] },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { root, project } = sources;
    const user = await newMember(kit, sources);
    const awaiting = await as('owner').put(statePath(root, user.id), { body: { state: 'awaiting' } });
    expectOk(awaiting, 200, 'member-state-result');
    expectFields(awaiting.body, { success: true }, 'the answer', awaiting);
    await expectMembershipState(as('owner'), root, user.id, 'awaiting', 'the group membership');
    await expectMembershipState(as('owner'), project, user.id, 'awaiting', 'the project membership');
    const pending = await pendingMembers(as('owner'), root);
    expectEqual(pending.filter((p) => p.username === user.username).map((p) => p.approved), [false], 'the user among the pending members, not approved');

    expectOk(await as('owner').put(statePath(root, user.id), { body: { state: 'active' } }), 200, 'member-state-result');
    await expectMembershipState(as('owner'), root, user.id, 'active', 'the group membership after activation');
    await expectMembershipState(as('owner'), project, user.id, 'active', 'the project membership after activation');
    const after = await pendingMembers(as('owner'), root);
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
  async ({ sources, ...kit }) => {
    const { as, withToken } = kit;
    const { root } = sources;
    const user = await newMember(kit, sources);
    const self = withToken(user.tokens.api, 'the member');
    expectOk(await as('owner').put(statePath(root, user.id), { body: { state: 'awaiting' } }), 200, 'member-state-result');
    // An awaiting membership gives no access (GITLAB.awaitingAccess): the private group is hidden from the member.
    expectSourceNotFound(await self.get(membersPath(root)), 'group');
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
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { root } = sources;
    const user = await newMember(kit, sources);
    const grape = `${GITLAB.eeApi} (requires :state, values: awaiting active); ${GITLAB.grape}`;
    expectParamError(await as('owner').put(statePath(root, user.id), { body: {} }), 'state', grape);
    expectParamError(await as('owner').put(statePath(root, user.id), { body: { state: 'blocked' } }), 'state', grape);
    expectError(await as('owner').put(statePath(root, 2147483000), { body: { state: 'active' } }), 404, { message: '404 User Not Found', gitlab: `${GITLAB.eeApi} (state: not_found!('User') unless user)` });
    await expectMembershipState(as('owner'), root, user.id, 'active', 'the state, unchanged');
  },
);

subgroupAndRolesCase(suite, sources, {
  stays: 'the state stays',
  prepare: newMember,
  send: (client, group, user) => client.put(statePath(group, user.id), { body: { state: 'awaiting' } }),
  outsider: (res) => expectError(res, 404, { message: '404 Group Not Found', gitlab: `${GITLAB.eeApi} (state: find_group; not_found!('Group'))` }),
  after: ({ as }, user, { root }) => expectMembershipState(as('owner'), root, user.id, 'active', 'the state, unchanged'),
});

suite.test(
  {
    case: 'no-membership',
    title: 'a user with no membership in the hierarchy cannot be given a state: refused (GitLab: 422 with the service\'s message)',
    clauses: ['members.state.set'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, run, sources }) => {
    // The spec shows no status for it; GitLab's code settles it: the service's error comes back through
    // unprocessable_entity!(result[:message]) (ee/lib/ee/api/members.rb, state route, every version from 15.0): 422.
    const res = await as('owner').put(statePath(sources.root, run.actors.outsider.id), { body: { state: 'awaiting' } });
    expectError(res, 422);
  },
);
