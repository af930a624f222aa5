// POST /groups/:id/members/approve_all
import { expectEqual, expectSetUp } from '../../runner/core/checks.js';
import { endpoint, fixture } from './kit.js';
import { approveAllPath, expectMembershipState, expectNotShownSuccess, GITLAB, LEVEL, pendingMembers, statePath } from './helpers.js';
import { subgroupAndRolesCase } from './cases.js';


const sources = fixture({ name: 'members-approve-all-members', scope: 'file', build: async (t) => {
  const { root, sub, project } = await t.hierarchy();
  // a: awaiting in the root group; b: awaiting in the subgroup; c: awaiting in the project only.
  const [a, b, c] = [await t.lease(), await t.lease(), await t.lease()];
  await t.add(root, a, LEVEL.DEVELOPER);
  await t.add(sub, b, LEVEL.DEVELOPER);
  await t.add(project, c, LEVEL.DEVELOPER);
  for (const user of [a, b, c]) expectSetUp(await t.admin.put(statePath(root, user.id), { body: { state: 'awaiting' } }), 'making a member awaiting');
  return { root, sub, project, a, b, c };
} });

const suite = endpoint('approve-all', { fixtures: { sources }, alone: 'its tests run in order: the approval leaves nothing pending for the refusals before it' });

// The refusals run first: the approval below leaves nothing pending.
subgroupAndRolesCase(suite, sources, {
  stays: 'nothing is approved',
  send: (client, group) => client.post(approveAllPath(group)),
  after: async ({ as }, _prepared, { root, a, b, c }) => {
    const pending = (await pendingMembers(as('owner'), root)).map((p) => p.username);
    for (const user of [a, b, c]) expectEqual(pending.includes(user.username), true, `${user.username} still pending`);
  },
});

suite.test(
  {
    case: 'approves',
    title: 'an owner approves every pending member of the hierarchy (200 or 204; GitLab: 204): none is pending, all are active',
    clauses: ['members.approve-all'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    const { root, sub, project, a, b, c } = sources;
    expectNotShownSuccess(await as('owner').post(approveAllPath(root)), GITLAB.noContent);
    const pending = (await pendingMembers(as('owner'), root)).map((p) => p.username);
    for (const user of [a, b, c]) expectEqual(pending.includes(user.username), false, `${user.username} among the pending members`);
    for (const [source, user] of [[root, a], [sub, b], [project, c]] as const) {
      await expectMembershipState(as('owner'), source, user.id, 'active', `${user.username}'s ${source.kind} membership`);
    }
  },
);
