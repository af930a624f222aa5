// DELETE /projects/:id/members/:user_id
import { expectEqual, expectError, expectStatus, expectTrue } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import {
  expectForbidden,
  expectNotMember,
  expectWriteRefused,
  LEVEL,
  memberIds,
  memberPath,
  readMember,
  useMembersWorld,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'remove');


const world = useMembersWorld('remove-project-member', async (t) => {
  const group = await t.group();
  const project = await t.roleProject({ group });
  return { group, project };
});

async function newMember(level: number) {
  const { project, t } = world();
  const user = await t.user();
  await t.add(project, user, level);
  return user;
}

suite.test(
  {
    case: 'removes',
    title: 'a Maintainer removes a member (204); it is no longer a member nor listed',
    clauses: ['members.remove.direct'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project } = world();
    const user = await newMember(LEVEL.DEVELOPER);
    expectStatus(await as('maintainer').delete(memberPath(project, user.id), { query: { unassign_issuables: true } }), 204);
    await expectNotMember(as('maintainer'), project, user.id);
    expectTrue(!(await memberIds(as('maintainer'), project)).includes(user.id), 'the removed member not to be listed');
  },
);

suite.test(
  {
    case: 'not-direct',
    title: 'a member of the project\'s group is not a direct member of the project: 404, and the group membership stays',
    clauses: ['members.remove.not-direct'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, project, t } = world();
    const user = await t.user();
    await t.add(group, user, LEVEL.REPORTER);
    expectError(await as('owner').delete(memberPath(project, user.id)), 404, { message: '404 Not found' });
    expectEqual((await readMember(as('admin'), group, user.id)).access_level, LEVEL.REPORTER, 'the group membership, kept');
  },
);

suite.test(
  {
    case: 'self',
    title: 'a Guest may leave the project by removing themselves',
    clauses: ['members.remove.self'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, withToken }) => {
    const { project } = world();
    const user = await newMember(LEVEL.GUEST);
    expectStatus(await withToken(user.tokens.api, 'the member themselves').delete(memberPath(project, user.id)), 204);
    await expectNotMember(as('owner'), project, user.id);
  },
);

suite.test(
  {
    case: 'sole-owner',
    title: 'a group\'s project has no last-owner rule: its only Owner member is removed (204)',
    clauses: ['members.remove.project-sole-owner'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { group, t } = world();
    // The project's group has no owner but the administrator who made it, and the project one Owner member.
    const project = await t.project({ group });
    const user = await t.user();
    await t.add(project, user, LEVEL.OWNER);
    expectStatus(await as('admin').delete(memberPath(project, user.id)), 204);
    await expectNotMember(as('admin'), project, user.id);
  },
);

suite.test(
  {
    case: 'owner',
    title: 'a Maintainer may not remove an Owner of the project (403); an Owner may',
    clauses: ['members.remove.project-owner', 'members.manage.role'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project } = world();
    const user = await newMember(LEVEL.OWNER);
    expectForbidden(await as('maintainer').delete(memberPath(project, user.id)));
    expectEqual((await readMember(as('owner'), project, user.id)).access_level, LEVEL.OWNER, 'the Owner, still there');
    expectStatus(await as('owner').delete(memberPath(project, user.id)), 204);
    await expectNotMember(as('owner'), project, user.id);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'Owners and Maintainers remove project members; Developers, Reporters and Guests get 403, an outsider 404, nobody 401',
    clauses: ['members.manage.role', 'members.auth.anonymous'],
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project } = world();
    const user = await newMember(LEVEL.REPORTER);
    await expectWriteRefused(as, project, (client) => client.delete(memberPath(project, user.id)));
    expectEqual((await readMember(as('owner'), project, user.id)).access_level, LEVEL.REPORTER, 'the member, still there');
    expectStatus(await as('owner').delete(memberPath(project, user.id)), 204);
    await expectNotMember(as('owner'), project, user.id);
  },
);
