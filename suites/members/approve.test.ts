// PUT /groups/:id/members/:member_id/approve
import { expectEqual, expectError, expectStatus } from '../../runner/core/checks.js';
import type { Client } from '../../runner/core/client.js';
import { endpoint, fixture, type Hierarchy, type MembersKit } from './kit.js';
import type { Kit } from '../../runner/run/conformance.js';
import type { GroupInfo } from '../../runner/core/vocabulary.js';
import { approvePath, expectMembershipState, expectNotShownSuccess, GITLAB, LEVEL, pendingMembers, statePath, expectSourceNotFound, sharedHierarchy } from './helpers.js';
import { subgroupAndRolesCase } from './cases.js';


const sources = fixture({ name: 'members-approve-member', scope: 'file', fixtures: { sharedHierarchy }, build: (t) => t.sharedHierarchy });

const suite = endpoint('approve', { fixtures: { sources } });

/** A new member of the root group and of the project, made awaiting; its pending entry's id (the member id). */
async function pendingMember(kit: Pick<Kit, 'as'> & MembersKit, { root, project }: Hierarchy): Promise<{ user: { id: number; username: string }; memberId: number }> {
  const client = kit.as('owner');
  const user = await kit.member(root, LEVEL.DEVELOPER);
  await kit.add(project, user, LEVEL.DEVELOPER);
  expectStatus(await client.put(statePath(root, user.id), { body: { state: 'awaiting' } }), 200, 'making the member awaiting');
  return { user, memberId: await pendingId(client, root, user.username) };
}

async function pendingId(client: Client, root: GroupInfo, username: string): Promise<number> {
  const entry = (await pendingMembers(client, root)).find((p) => p.username === username);
  expectEqual(entry !== undefined, true, `${username} among the pending members`);
  return entry!.id;
}

suite.test(
  {
    case: 'one',
    title: 'an owner approves a pending member (200 or 204; GitLab: 204): it leaves the pending list and is active in the group and the project',
    clauses: ['members.approve.one'],
    requires: { capabilities: ['premium'] },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { root, project } = sources;
    const { user, memberId } = await pendingMember(kit, sources);
    expectNotShownSuccess(await as('owner').put(approvePath(root, memberId)), GITLAB.noContent);
    const pending = await pendingMembers(as('owner'), root);
    expectEqual(pending.some((p) => p.username === user.username), false, 'the approved member among the pending ones');
    await expectMembershipState(as('owner'), root, user.id, 'active', 'the group membership');
    await expectMembershipState(as('owner'), project, user.id, 'active', 'the project membership');
  },
);

suite.test(
  {
    case: 'unknown',
    title: 'an unknown member id gives 404 (GitLab: "404 Not Found")',
    clauses: ['members.approve.errors'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    expectError(await as('owner').put(approvePath(sources.root, 2147483000)), 404, { message: '404 Not Found', gitlab: `${GITLAB.eeApi} (approve: not_found! unless member)` });
  },
);

subgroupAndRolesCase(suite, sources, {
  stays: 'the member stays pending',
  prepare: pendingMember,
  send: (client, group, { memberId }) => client.put(approvePath(group, memberId)),
  after: ({ as }, { user }, { root }) => expectMembershipState(as('owner'), root, user.id, 'awaiting', 'the member, still awaiting'),
});

suite.test(
  {
    case: 'only-that-member',
    title: 'approving one pending member leaves another pending member awaiting and pending',
    clauses: ['members.approve.one'],
    requires: { capabilities: ['premium'] },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { root, project } = sources;
    const first = await pendingMember(kit, sources);
    const second = await pendingMember(kit, sources);
    expectNotShownSuccess(await as('owner').put(approvePath(root, first.memberId)), GITLAB.noContent);
    await expectMembershipState(as('owner'), root, first.user.id, 'active', 'the approved member\'s group membership');
    await expectMembershipState(as('owner'), root, second.user.id, 'awaiting', 'the other member\'s group membership, still awaiting');
    await expectMembershipState(as('owner'), project, second.user.id, 'awaiting', 'the other member\'s project membership, still awaiting');
    const pending = await pendingMembers(as('owner'), root);
    expectEqual(
      [pending.some((p) => p.username === first.user.username), pending.some((p) => p.username === second.user.username)],
      [false, true],
      'the approved member has left the pending list; the other is still on it',
    );
  },
);

suite.test(
  {
    case: 'not-pending',
    title: 'approving a member who is already active gives 400 (GitLab: "400 Bad request - No memberships found"); the member stays active',
    clauses: ['members.approve.not-pending'],
    requires: { capabilities: ['premium'] },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { root } = sources;
    // A member id is read from the pending list: the member is approved once, so active, then again.
    const { user, memberId } = await pendingMember(kit, sources);
    expectNotShownSuccess(await as('owner').put(approvePath(root, memberId)), GITLAB.noContent);
    expectError(await as('owner').put(approvePath(root, memberId)), 400, {
      message: '400 Bad request - No memberships found',
      gitlab: `${GITLAB.eeApi} (approve: bad_request!(result[:message])); ee/app/services/members/activate_service.rb`,
    });
    await expectMembershipState(as('owner'), root, user.id, 'active', 'the active member');
  },
);

suite.test(
  {
    case: 'unknown-group',
    title: 'approving in a group id that does not exist gives 404 (GitLab: "404 Group Not Found"); the member stays pending',
    clauses: ['members.ee.unknown-group'],
    requires: { capabilities: ['premium'] },
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { root } = sources;
    const { user, memberId } = await pendingMember(kit, sources);
    expectSourceNotFound(await as('owner').put(approvePath({ kind: 'group', id: 2147483000 }, memberId)), 'group');
    await expectMembershipState(as('owner'), root, user.id, 'awaiting', 'the member, still awaiting');
  },
);
