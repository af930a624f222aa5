// GET /groups/:id/members/all/:user_id
import { expectEqual, expectError } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import { allMemberPath, expectParamError, expectReadMatrix, LEVEL, readAnyMember, useMembersWorld } from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'get-all');


const world = useMembersWorld('get-group-member-all', async (t) => {
  const top = await t.roleGroup();
  const sub = await t.group({ parent: top });
  const [x, y] = [await t.user(), await t.user()];
  await t.add(top, x, LEVEL.DEVELOPER);
  await t.add(sub, x, LEVEL.OWNER);
  await t.add(sub, y, LEVEL.REPORTER);
  await t.add(top, y, LEVEL.MAINTAINER);
  const invitedPublic = await t.group({ visibility: 'public' });
  const p = await t.user();
  await t.add(invitedPublic, p, LEVEL.MAINTAINER);
  await t.world.shareGroup(sub, invitedPublic, LEVEL.MAINTAINER);
  const invitedPrivate = await t.group();
  const r = await t.user();
  await t.add(invitedPrivate, r, LEVEL.DEVELOPER);
  const shared = await t.group({ visibility: 'public' });
  const sm = await t.user();
  await t.add(shared, sm, LEVEL.DEVELOPER);
  await t.world.shareGroup(shared, invitedPrivate, LEVEL.DEVELOPER);
  return { top, sub, shared, x, y, p, r, sm };
});

suite.test(
  {
    case: 'inherited-and-invited',
    title: 'an inherited member and a member of an invited group are found, with their levels',
    clauses: ['members.get-all.member', 'members.entity.shape'],
    requires: { minVersion: '12.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { sub, p } = world();
    const inherited = await readAnyMember(as('guest'), sub, run.actors.maintainer.id);
    expectEqual([inherited.id, inherited.access_level], [run.actors.maintainer.id, LEVEL.MAINTAINER], 'the Maintainer of the parent group, inherited');
    const invited = await readAnyMember(as('guest'), sub, p.id);
    expectEqual([invited.id, invited.access_level], [p.id, LEVEL.MAINTAINER], 'the Maintainer of the invited group');
  },
);

suite.test(
  {
    case: 'highest-level',
    title: 'a user who is a member of the subgroup and of its parent is found with the higher level',
    clauses: ['members.get-all.member', 'members.all.highest-level'],
    requires: { minVersion: '12.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { sub, x, y } = world();
    expectEqual((await readAnyMember(as('owner'), sub, x.id)).access_level, LEVEL.OWNER, 'x: Developer above, Owner of the subgroup → 50');
    expectEqual((await readAnyMember(as('owner'), sub, y.id)).access_level, LEVEL.MAINTAINER, 'y: Reporter of the subgroup, Maintainer above → 40');
  },
);

suite.test(
  {
    case: 'not-a-member',
    title: 'a user who is no member in any way gives 404 "404 Not found"; a user_id that is not a number gives 400',
    clauses: ['members.get-all.member', 'members.get.user-id-integer'],
    requires: { minVersion: '12.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, run }) => {
    const { sub } = world();
    expectError(await as('owner').get(allMemberPath(sub, run.actors.outsider.id)), 404, { message: '404 Not found' });
    expectParamError(await as('owner').get(allMemberPath(sub, 'x1')), 'user_id');
  },
);

suite.test(
  {
    case: 'invited-private',
    title: 'a member of an invited private group is not found for an outsider, and is found for a member of the shared group',
    clauses: ['members.get-all.member', 'members.all.invited-visible', 'members.all.invited-private-to-source-members'],
    requires: { minVersion: '17.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as, withToken }) => {
    const { shared, r, sm } = world();
    expectError(await as('outsider').get(allMemberPath(shared, r.id)), 404, { message: '404 Not found' });
    expectEqual((await readAnyMember(withToken(sm.tokens.api, 'a member of the shared group'), shared, r.id)).id, r.id, 'the private invited group\'s member, for a member of the shared group');
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'inherited members of a private subgroup may read a member; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    requires: { minVersion: '12.4' },
    only: { kind: 'group', why: 'TWIN' },
  },
  async ({ as }) => {
    const { sub, x } = world();
    await expectReadMatrix(as, allMemberPath(sub, x.id), '404 Group Not Found', 'member', false);
  },
);
