// DELETE /groups/:id/billable_members/:user_id
import { expectEqual, expectError, expectStatus } from '../../runner/core/checks.js';
import { endpoint, fixture } from './kit.js';
import {
  billableMemberPath,
  billablePath,
  eventually,
  expectAnonymous401,
  expectNotShownSuccess,
  expectSourceNotFound,
  GITLAB,
  idsOf,
  LEVEL,
  listAll,
  memberPath,
  readMember,
  sharedHierarchy,
} from './helpers.js';

/** The removal service's refusals: current GitLab's words, or those of releases that removed at once (GITLAB.scheduleDeletion). */
const NOT_ROOT = /^400 Bad request - (Must be a root namespace|Invalid group provided, must be top-level)$/;
const NOT_AUTHORIZED = /^400 Bad request - (User not authorized|User unauthorized to remove member)$/;


const sources = fixture({ name: 'members-remove-billable-member', scope: 'file', fixtures: { sharedHierarchy }, build: (t) => t.sharedHierarchy });

const suite = endpoint('billable-remove', { fixtures: { sources } });

suite.test(
  {
    case: 'whole-hierarchy',
    title: 'a billable member is removed from the group, its subgroup and project (200 or 204; GitLab: 204), and is no longer billable',
    clauses: ['members.billable-remove'],
    requires: { capabilities: ['premium'] },
  },
  async ({ sources, as, ...kit }) => {
    const { root, sub, project } = sources;
    const u = await kit.member(root, LEVEL.DEVELOPER);
    await kit.add(sub, u, LEVEL.MAINTAINER);
    await kit.add(project, u, LEVEL.MAINTAINER);
    expectNotShownSuccess(await as('owner').delete(billableMemberPath(root, u.id)), GITLAB.noContent);
    // GitLab removes the memberships asynchronously (GITLAB.scheduleDeletion schedules the removal): wait for them to go.
    await eventually('u to leave the group, the subgroup and the project', async () => {
      const statuses = await Promise.all([root, sub, project].map(async (s) => (await as('owner').get(memberPath(s, u.id))).status));
      return statuses.every((status) => status === 404);
    });
    const billable = idsOf(await listAll(as('owner'), billablePath(root), 'billable-member'));
    expectEqual(billable.includes(u.id), false, 'u among the billable members after the removal');
  },
);

suite.test(
  {
    case: 'project-member-only',
    title: 'a user who is only a member of a project of the hierarchy is removed through the top-level group too',
    clauses: ['members.billable-remove'],
    requires: { capabilities: ['premium'] },
  },
  async ({ sources, as, ...kit }) => {
    const { root, project } = sources;
    const v = await kit.member(project, LEVEL.DEVELOPER);
    expectNotShownSuccess(await as('owner').delete(billableMemberPath(root, v.id)), GITLAB.noContent);
    await eventually('v to leave the project', async () => (await as('owner').get(memberPath(project, v.id))).status === 404);
  },
);

suite.test(
  {
    case: 'refused',
    title: 'a subgroup, a caller who is not an owner and a user who is no member are refused, and nothing changes',
    clauses: ['members.billable-remove.errors', 'members.ee.top-level-only', 'members.auth.anonymous'],
    requires: { capabilities: ['premium'] },
  },
  async ({ sources, as, run, ...kit }) => {
    const { root, sub } = sources;
    const w = await kit.member(root, LEVEL.REPORTER);
    await kit.add(sub, w, LEVEL.REPORTER);
    expectError(await as('owner').delete(billableMemberPath(sub, w.id)), 400, { message: NOT_ROOT, gitlab: GITLAB.scheduleDeletion });
    // The removal service refuses a non-owner with an error the endpoint renders as 400 "400 Bad request - User not authorized"
    // (GITLAB.scheduleDeletion; from 15.0 BillableMembers::DestroyService's "User unauthorized to remove member", also 400):
    // the spec shows no status, GitLab's code settles 400.
    for (const role of ['maintainer', 'developer'] as const) {
      expectError(await as(role).delete(billableMemberPath(root, w.id)), 400, { message: NOT_AUTHORIZED, gitlab: GITLAB.scheduleDeletion });
    }
    expectSourceNotFound(await as('outsider').delete(billableMemberPath(root, w.id)), 'group');
    expectAnonymous401(await as('anonymous').delete(billableMemberPath(root, w.id)));
    // Users who do not exist or belong to no source of the hierarchy: GitLab schedules a deletion record (its validation may
    // refuse an unknown user with 400) and the removal finds nothing; the spec says nothing. Either way nothing changes.
    expectStatus(await as('owner').delete(billableMemberPath(root, 2147483000)), [400, 404], 'an unknown user is refused');
    expectStatus(await as('owner').delete(billableMemberPath(root, run.actors.outsider.id)), [200, 204, 400, 404], 'a user who is no member: nothing to remove');
    expectEqual((await readMember(as('owner'), root, w.id)).access_level, LEVEL.REPORTER, 'w, still a member of the group');
    expectEqual((await readMember(as('owner'), sub, w.id)).access_level, LEVEL.REPORTER, 'w, still a member of the subgroup');
  },
);

suite.test(
  {
    case: 'refusal-reasons',
    title: 'a refusal by the removal service is 400 "400 Bad request - <reason>": a subgroup, and a non-owner or a user who is no member when they get 400; nothing changes',
    clauses: ['members.billable-remove.errors', 'members.ee.top-level-only'],
    requires: { capabilities: ['premium'] },
  },
  async ({ sources, as, run, ...kit }) => {
    const { root, sub } = sources;
    const w = await kit.member(root, LEVEL.REPORTER);
    await kit.add(sub, w, LEVEL.REPORTER);
    // A service error comes back as 400 "400 Bad request - <msg>" (bad_request!(result[:message]), GITLAB.scheduleDeletion), so the reason is never empty.
    const withReason = /^400 Bad request - \S/;
    expectError(await as('owner').delete(billableMemberPath(sub, w.id)), 400, { message: withReason, gitlab: GITLAB.scheduleDeletion });
    const byMaintainer = await as('maintainer').delete(billableMemberPath(root, w.id));
    expectError(byMaintainer, 400, { message: withReason, gitlab: GITLAB.scheduleDeletion });
    const noMember = await as('owner').delete(billableMemberPath(root, run.actors.outsider.id));
    expectStatus(noMember, [200, 204, 400, 404], 'a user who is no member: nothing to remove (the spec says nothing)');
    if (noMember.status === 400) expectError(noMember, 400, { message: withReason, gitlab: GITLAB.scheduleDeletion });
    expectEqual((await readMember(as('owner'), root, w.id)).access_level, LEVEL.REPORTER, 'w, still a member of the group');
    expectEqual((await readMember(as('owner'), sub, w.id)).access_level, LEVEL.REPORTER, 'w, still a member of the subgroup');
  },
);
