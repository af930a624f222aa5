// GET /projects/:id/members/all/:user_id
import { expectEqual, expectError } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import { allMemberPath, expectReadMatrix, LEVEL, readAnyMember, useMembersWorld } from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'get-all');


const world = useMembersWorld('get-project-member-all', async (t) => {
  const group = await t.roleGroup();
  const project = await t.project({ group });
  const x = await t.user();
  await t.add(group, x, LEVEL.REPORTER);
  await t.add(project, x, LEVEL.MAINTAINER);
  // Public, so that every version shows its members to the project's members (spec: Versioning 5).
  const invited = await t.group({ visibility: 'public' });
  const p = await t.user();
  await t.add(invited, p, LEVEL.DEVELOPER);
  await t.world.shareProject(project, invited, LEVEL.DEVELOPER);
  return { group, project, x, p };
});

suite.test(
  {
    case: 'inherited-and-invited',
    title: 'a member of the project\'s group and a member of a group the project is shared with are found',
    clauses: ['members.get-all.member', 'members.entity.shape'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { project, p } = world();
    const inherited = await readAnyMember(as('developer'), project, run.actors.guest.id);
    expectEqual([inherited.id, inherited.access_level], [run.actors.guest.id, LEVEL.GUEST], 'the Guest of the group, inherited');
    const invited = await readAnyMember(as('developer'), project, p.id);
    expectEqual([invited.id, invited.access_level], [p.id, LEVEL.DEVELOPER], 'the Developer of the invited group');
  },
);

suite.test(
  {
    case: 'highest-level',
    title: 'a user who is a member of the project and of its group is found with the higher level',
    clauses: ['members.get-all.member', 'members.all.highest-level'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, x } = world();
    expectEqual((await readAnyMember(as('guest'), project, x.id)).access_level, LEVEL.MAINTAINER, 'x: Reporter of the group, Maintainer of the project → 40');
  },
);

suite.test(
  {
    case: 'not-a-member',
    title: 'a user who is no member of the project in any way gives 404 "404 Not found"',
    clauses: ['members.get-all.member'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    expectError(await as('owner').get(allMemberPath(world().project, run.actors.outsider.id)), 404, { message: '404 Not found' });
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'inherited members of a private project may read a member; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, x } = world();
    await expectReadMatrix(as, allMemberPath(project, x.id), '404 Project Not Found', 'member', false);
  },
);
