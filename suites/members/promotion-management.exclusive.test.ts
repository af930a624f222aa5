// Promotion management: with the application setting enable_member_promotion_management on, a
// non-administrator's request that gives a billable role to a user who holds none is queued for
// an administrator's approval. The setting is instance-wide, so every test of it lives in this
// *.exclusive.test.ts file, which runs alone after every other file (vitest.config.ts); each test
// turns it on only for its own requests and restores the value it found.
import { expectEqual, expectOk } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import { QUEUED, withPromotionManagement } from '../common/promotion.js';
import {
  expectNotMember,
  LEVEL,
  memberPath,
  membersPath,
  readMember,
  useMembersWorld,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const addSuite = endpoint(members, 'add');
const editSuite = endpoint(members, 'edit');

const world = useMembersWorld('promotion-management', async (t) => ({
  group: await t.roleGroup(),
  project: await t.roleProject({ group: await t.group() }),
}));

addSuite.test(
  {
    case: 'add-single',
    title: 'adding one user without a seat as Developer is queued with the queue text; the user is not added',
    clauses: ['members.promotion.add-single'],
    requires: { capabilities: ['promotion_management'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { group, t } = world();
    const newcomer = await t.newcomer();
    await withPromotionManagement(kit.as('admin'), true, async () => {
      const res = await kit.as('owner').post(membersPath(group), { body: { user_id: newcomer.id, access_level: LEVEL.DEVELOPER } });
      // A POST answers 201 in Grape; the status of a queued answer is not documented: 200 or 201.
      expectOk(res, [200, 201], 'member-queued');
      expectEqual(res.body, { message: { [newcomer.username]: QUEUED } }, 'the queue answer naming the user', res);
    });
    await expectNotMember(kit.as('owner'), group, newcomer.id);
  },
);

addSuite.test(
  {
    case: 'add-single-project',
    title: 'on a project too, adding a user without a seat as Maintainer is queued; the user is not added',
    clauses: ['members.promotion.add-single'],
    requires: { capabilities: ['promotion_management'] },
    only: { kind: 'project', why: 'TWIN' },
  },
  async (kit) => {
    const { project, t } = world();
    const newcomer = await t.newcomer();
    await withPromotionManagement(kit.as('admin'), true, async () => {
      const res = await kit.as('maintainer').post(membersPath(project), { body: { username: newcomer.username, access_level: LEVEL.MAINTAINER } });
      expectOk(res, [200, 201], 'member-queued');
      expectEqual(res.body, { message: { [newcomer.username]: QUEUED } }, 'the queue answer naming the user', res);
    });
    await expectNotMember(kit.as('owner'), project, newcomer.id);
  },
);

addSuite.test(
  {
    case: 'add-several',
    title: 'adding several users without a seat answers {"queued_users": …, "status":"success"}; none is added',
    clauses: ['members.promotion.add-several'],
    requires: { capabilities: ['promotion_management'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { group, t } = world();
    const [a, b] = [await t.newcomer(), await t.newcomer()];
    await withPromotionManagement(kit.as('admin'), true, async () => {
      const res = await kit.as('owner').post(membersPath(group), { body: { user_id: `${a.id},${b.id}`, access_level: LEVEL.REPORTER } });
      expectOk(res, 201, 'member-add-result');
      expectEqual(res.body, { queued_users: { [a.username]: QUEUED, [b.username]: QUEUED }, status: 'success' }, 'the queue answer naming both users', res);
    });
    for (const user of [a, b]) await expectNotMember(kit.as('owner'), group, user.id);
  },
);

editSuite.test(
  {
    case: 'edit',
    title: 'promoting a Guest without a seat to Developer is queued; the member stays a Guest',
    clauses: ['members.promotion.edit'],
    requires: { capabilities: ['promotion_management'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { group, t } = world();
    const guest = await t.newcomer();
    await t.add(group, guest, LEVEL.GUEST);
    await withPromotionManagement(kit.as('admin'), true, async () => {
      const res = await kit.as('owner').put(memberPath(group, guest.id), { body: { access_level: LEVEL.DEVELOPER } });
      expectOk(res, 200, 'member-queued');
      expectEqual(res.body, { message: { [guest.username]: QUEUED } }, 'the queue answer naming the user', res);
    });
    expectEqual((await readMember(kit.as('owner'), group, guest.id)).access_level, LEVEL.GUEST, 'the member\'s level after the queued promotion');
  },
);

addSuite.test(
  {
    case: 'not-queued',
    title: 'a Guest role, an administrator\'s request, and a user who already holds a seat are not queued: the members are added',
    clauses: ['members.promotion.not-queued'],
    requires: { capabilities: ['promotion_management'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { group, t } = world();
    const [asGuest, byAdmin] = [await t.newcomer(), await t.newcomer()];
    // Reporter in a group of its own: already billable, so a billable role is no promotion.
    const seated = await t.user();
    await withPromotionManagement(kit.as('admin'), true, async () => {
      const guest = await kit.as('owner').post(membersPath(group), { body: { user_id: asGuest.id, access_level: LEVEL.GUEST } });
      expectOk(guest, 201, 'member');
      expectEqual((guest.body as MemberBody).access_level, LEVEL.GUEST, 'the Guest added at once', guest);
      expectOk(await kit.as('admin').post(membersPath(group), { body: { user_id: byAdmin.id, access_level: LEVEL.DEVELOPER } }), 201, 'member');
      expectOk(await kit.as('owner').post(membersPath(group), { body: { user_id: seated.id, access_level: LEVEL.DEVELOPER } }), 201, 'member');
    });
    expectEqual((await readMember(kit.as('owner'), group, asGuest.id)).access_level, LEVEL.GUEST, 'the Guest read back');
    expectEqual((await readMember(kit.as('owner'), group, byAdmin.id)).access_level, LEVEL.DEVELOPER, 'the member the administrator added, read back');
    expectEqual((await readMember(kit.as('owner'), group, seated.id)).access_level, LEVEL.DEVELOPER, 'the member who already held a seat, read back');
  },
);

addSuite.test(
  {
    case: 'setting-off',
    title: 'with the setting off, an owner adds a user without a seat as Developer at once',
    clauses: ['members.promotion.not-queued'],
    requires: { capabilities: ['promotion_management'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const { group, t } = world();
    const newcomer = await t.newcomer();
    await withPromotionManagement(kit.as('admin'), false, async () => {
      const res = await kit.as('owner').post(membersPath(group), { body: { user_id: newcomer.id, access_level: LEVEL.DEVELOPER } });
      expectOk(res, 201, 'member');
      expectEqual((res.body as MemberBody).access_level, LEVEL.DEVELOPER, 'the member added at once', res);
    });
    expectEqual((await readMember(kit.as('owner'), group, newcomer.id)).access_level, LEVEL.DEVELOPER, 'the member read back');
  },
);
