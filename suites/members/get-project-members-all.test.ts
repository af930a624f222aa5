// GET /projects/:id/members/all
import { fixture } from '../../fixtures/manifest.js';
import { expectEqual, expectStatus, expectTrue } from '../harness/core/checks.js';
import { apiPath } from '../harness/core/client.js';
import { endpoint } from '../harness/run/conformance.js';
import { ROLES } from '../harness/core/vocabulary.js';
import {
  allMembersPath,
  checkPagination,
  exclusively,
  expectReadMatrix,
  findIn,
  idsOf,
  LEVEL,
  listAll,
  membersPath,
  sorted,
  useMembersWorld,
  withoutAdmin,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'list-all');


const world = useMembersWorld('get-project-members-all', async (t) => {
  const top = await t.roleGroup();
  const sub = await t.group({ parent: top });
  const project = await t.project({ group: sub });
  // x: Developer of the top group, Maintainer of the project; y: Reporter of the project, Owner of the subgroup.
  const [x, y, z] = [await t.user(), await t.user(), await t.user()];
  await t.add(top, x, LEVEL.DEVELOPER);
  await t.add(project, x, LEVEL.MAINTAINER);
  await t.add(project, y, LEVEL.REPORTER);
  await t.add(sub, y, LEVEL.OWNER);
  await t.add(project, z, LEVEL.GUEST);
  // The project is shared with a public group; its parent group with another public group.
  const invitedPublic = await t.group({ visibility: 'public' });
  const p = await t.user();
  await t.add(invitedPublic, p, LEVEL.DEVELOPER);
  await t.world.shareProject(project, invitedPublic, LEVEL.DEVELOPER);
  const intoAncestor = await t.group({ visibility: 'public' });
  const q = await t.user();
  await t.add(intoAncestor, q, LEVEL.REPORTER);
  await t.world.shareGroup(sub, intoAncestor, LEVEL.REPORTER);
  // A public project shared with a public and a private group.
  const publicProject = await t.project({ group: await t.group({ visibility: 'public' }), visibility: 'public' });
  const pm = await t.user();
  await t.add(publicProject, pm, LEVEL.DEVELOPER);
  await t.world.shareProject(publicProject, invitedPublic, LEVEL.DEVELOPER);
  const invitedPrivate = await t.group();
  const r = await t.user();
  await t.add(invitedPrivate, r, LEVEL.DEVELOPER);
  await t.world.shareProject(publicProject, invitedPrivate, LEVEL.DEVELOPER);
  // A project in the administrator's own namespace (no group above it), with the role actors.
  const personal = await t.roleProject();
  const all = [t.run.adminId, ...ROLES.map((role) => t.run.actors[role].id), x.id, y.id, z.id, p.id, q.id];
  return { project, publicProject, personal, x, y, z, p, q, r, pm, all };
});

suite.test(
  {
    case: 'inherited-and-invited',
    title: 'all members of a project: its own, those of its ancestor groups, of the group it is shared with and of a group shared with its parent',
    clauses: ['members.all.inherited', 'members.entity.shape'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, all } = world();
    const ids = (await listAll(as('maintainer'), allMembersPath(project), 'member')).map((m) => m.id);
    expectEqual(ids.length, new Set(ids).size, 'each user to appear once');
    expectEqual(sorted(ids), sorted(all), 'the direct, inherited and invited members of the project');
  },
);

suite.test(
  {
    case: 'highest-level',
    title: 'a user who is a member of the project and of an ancestor group appears once, with the higher level',
    clauses: ['members.all.highest-level'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, x, y, z } = world();
    const items = await listAll(as('developer'), allMembersPath(project), 'member');
    expectEqual(findIn(items, x.id, 'x').access_level, LEVEL.MAINTAINER, 'x: Developer of the top group, Maintainer of the project → 40');
    expectEqual(findIn(items, y.id, 'y').access_level, LEVEL.OWNER, 'y: Reporter of the project, Owner of the subgroup → 50');
    expectEqual(findIn(items, z.id, 'z').access_level, LEVEL.GUEST, 'z: Guest of the project only');
  },
);

suite.test(
  {
    case: 'invited-visibility',
    title: 'members of a public invited group are shown to anyone; those of a private invited group not to an outsider',
    clauses: ['members.all.invited-visible'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, withToken }) => {
    const { publicProject, p, r, pm } = world();
    const byOutsider = idsOf(await listAll(as('outsider'), allMembersPath(publicProject), 'member'));
    expectTrue(byOutsider.includes(p.id) && byOutsider.includes(pm.id), 'an outsider to see the project member and the public invited group\'s member', `ids: ${byOutsider.join(', ')}`);
    expectTrue(!byOutsider.includes(r.id), 'an outsider not to see the private invited group\'s member', `ids: ${byOutsider.join(', ')}`);
    const byInvited = idsOf(await listAll(withToken(r.tokens.api, 'a member of the private invited group'), allMembersPath(publicProject), 'member'));
    expectTrue(byInvited.includes(r.id), 'a member of the private invited group to see its members', `ids: ${byInvited.join(', ')}`);
  },
);

suite.test(
  {
    case: 'invited-private-to-project-members',
    title: 'a member of the project sees the members of a private group the project is shared with',
    clauses: ['members.all.invited-private-to-source-members'],
    requires: { minVersion: '17.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ withToken }) => {
    const { publicProject, r, pm } = world();
    const ids = idsOf(await listAll(withToken(pm.tokens.api, 'a member of the project'), allMembersPath(publicProject), 'member'));
    expectTrue(ids.includes(r.id), 'the project member to see the private invited group\'s member', `ids: ${ids.join(', ')}`);
  },
);

suite.test(
  {
    case: 'pagination',
    title: 'page and per_page page through all members with GitLab\'s headers',
    clauses: ['members.pagination'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const { project, all } = world();
    await checkPagination(as('reporter'), allMembersPath(project), 'member', all);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'inherited members of a private project may list all its members; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    await expectReadMatrix(as, allMembersPath(world().project), '404 Project Not Found', 'member', true);
  },
);

suite.test(
  {
    case: 'enterprise-email',
    title: 'in a project of the enterprise group, its owner sees the enterprise user\'s email and no other',
    clauses: ['members.entity.email-enterprise'],
    requires: { minVersion: '12.4', capabilities: ['enterprise_users'], fixtures: ['enterprise'] },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, withToken, run }) => {
    const fx = fixture(run.fixtures, 'enterprise')!;
    const { t } = world();
    await exclusively(run, 'enterprise', async () => {
      const project = await t.world.project({ group: { kind: 'group', id: fx.group_id, name: String(fx.group_id), fullPath: String(fx.group_id) }, hint: 'enterprise-project' });
      try {
        const items = await listAll(withToken(fx.ownerToken, 'enterprise group owner'), allMembersPath(project), 'member');
        expectTrue(typeof findIn(items, fx.enterprise_user_id, 'the enterprise user').email === 'string', 'the owner to see the enterprise user\'s email in the project');
        expectEqual(findIn(items, fx.other_user_id, 'the other member').email, undefined, 'no email for the member who is not an enterprise user');
        // A direct membership of the project: its source's top-level group is still the enterprise group.
        await t.add(project, { id: fx.enterprise_user_id }, LEVEL.OWNER);
        const direct = await listAll(withToken(fx.ownerToken, 'enterprise group owner'), membersPath(project), 'member');
        expectTrue(typeof findIn(direct, fx.enterprise_user_id, 'the enterprise user, a direct member').email === 'string', 'the owner to see the email of the enterprise user\'s project membership');
      } finally {
        expectStatus(await as('admin').delete(apiPath`/projects/${project.id}`), [202, 204], 'deleting the temporary project');
      }
    });
  },
);

suite.test(
  {
    case: 'no-email',
    title: 'an owner who is not an administrator sees no email among all members',
    clauses: ['members.entity.email-hidden'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as }) => {
    const items = await listAll(as('owner'), allMembersPath(world().project), 'member');
    expectEqual(items.filter((m) => m.email !== undefined).map((m) => m.username), [], 'no member to carry an email');
  },
);

suite.test(
  {
    case: 'user-namespace',
    title: 'all members of a project in a user\'s namespace (no group above it) are its direct members, each once, with their levels',
    clauses: ['members.all.inherited', 'members.entity.shape'],
    requires: { minVersion: '12.4' },
    only: { kind: 'project', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { personal } = world();
    const items = await listAll(as('guest'), allMembersPath(personal), 'member');
    const ids = items.map((m) => m.id);
    expectEqual(ids.length, new Set(ids).size, 'each user to appear once');
    // The administrator owns the namespace: GitLab may list them (as the namespace owner) or not.
    expectEqual(sorted(withoutAdmin(run, ids)), sorted(ROLES.map((role) => run.actors[role].id)), 'the direct members of the personal project');
    expectEqual(findIn(items, run.actors.maintainer.id, 'the maintainer').access_level, LEVEL.MAINTAINER, 'the maintainer\'s level');
  },
);
