// Promotion management: with the application setting enable_member_promotion_management on, a
// non-administrator's request that gives a billable role to a user who holds none is queued for
// an administrator's approval. The setting is instance-wide, so every test of it lives in this
// *.exclusive.test.ts file and declares the value it needs: the run's phase of that value runs it,
// after every other file (runner/core/instance-setting.ts), and the run's clean-up puts back the
// value it found. Each test runs on a group (requests of its Owner) and on a project (requests of its
// Maintainer).
import { expectEqual, expectFields, expectOk, expectStatus, parity } from '../../runner/core/checks.js';
import { endpoint, fixture, type MembersKit } from './kit.js';
import type { Kit } from '../../runner/run/conformance.js';
import { at } from '../../runner/core/instance-setting.js';
import { PROMOTION_MANAGEMENT, QUEUED } from '../common/promotion.js';
import { ACCESS, type GroupInfo, type ProjectInfo, type SourceKind } from '../../runner/core/vocabulary.js';
import { expectNotMember, manager, memberPath, membersPath, readMember, type MemberBody } from './helpers.js';

/** Where GitLab answers a queued promotion with 202 Accepted. */
const QUEUED_STATUS_GITLAB = 'ee/lib/ee/api/helpers/members_helpers.rb; ee/spec/requests/api/members_spec.rb (single member api response, update membership api response: :accepted)';

// Built per kind: a seatless user serves each source once (its queued promotion stays), and the tests of each kind draw from the same seatless pool.
// Run-scoped, though only this file uses it: both of the setting's phases load the file, and share it.
const sources = fixture({ name: 'members-promotion-management', scope: 'run', perKind: true, build: async ({ roleSource, kind }) => ({ [kind!]: await roleSource(kind!) }) as Record<SourceKind, GroupInfo | ProjectInfo> });

const addSuite = endpoint('add', { fixtures: { sources } });
const editSuite = endpoint('edit', { fixtures: { sources } });

/**
 * A member at `from`, raised to `to` in the test's phase: updated at once (200), the level
 * returned and read back. At a level that takes a seat the member is a pool user, who holds one
 * already; below it, a user without a seat.
 */
async function expectRaisedAtOnce(kit: Kit & MembersKit, sources: Record<SourceKind, GroupInfo | ProjectInfo>, from: number, to: number): Promise<void> {
  const { kind, as } = kit;
  const { [kind]: source } = sources;
  const member = from >= ACCESS.REPORTER ? await kit.lease() : await kit.seatless();
  await kit.add(source, member, from);
  const res = await as(manager(kind)).put(memberPath(source, member.id), { body: { access_level: to } });
  expectOk(res, 200, 'member');
  expectEqual((res.body as MemberBody).access_level, to, 'the raised level returned', res);
  expectEqual((await readMember(as('owner'), source, member.id)).access_level, to, 'the raised level read back');
}

addSuite.test(
  {
    case: 'setting-off',
    title: 'with the setting off, a member manager adds a user without a seat as Developer at once',
    clauses: ['members.promotion.not-queued'],
    requires: { capabilities: ['promotion_management'], setting: at(PROMOTION_MANAGEMENT, false) },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const user = await kit.seatless();
    const res = await as(manager(kind)).post(membersPath(source), { body: { user_id: user.id, access_level: ACCESS.DEVELOPER } });
    expectOk(res, 201, 'member');
    expectEqual((res.body as MemberBody).access_level, ACCESS.DEVELOPER, 'the member added at once', res);
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.DEVELOPER, 'the member read back');
  },
);

editSuite.test(
  {
    case: 'edit-setting-off',
    title: 'with the setting off, a Guest without a seat raised to Developer is updated at once (200)',
    clauses: ['members.promotion.not-queued', 'members.edit.level'],
    requires: { capabilities: ['promotion_management'], setting: at(PROMOTION_MANAGEMENT, false) },
  },
  ({ sources, ...kit }) => expectRaisedAtOnce(kit, sources, ACCESS.GUEST, ACCESS.DEVELOPER),
);

addSuite.test(
  {
    case: 'add-single',
    title: 'a member manager adding one user without a seat as Developer (by id) or Maintainer (by username) is queued with the queue text; the user is not added',
    clauses: ['members.promotion.add-single'],
    requires: { capabilities: ['promotion_management'], setting: at(PROMOTION_MANAGEMENT, true) },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const [byId, byName] = await Promise.all([kit.seatless(), kit.seatless()]);
    for (const [user, body] of [
      [byId, { user_id: byId.id, access_level: ACCESS.DEVELOPER }],
      [byName, { username: byName.username, access_level: ACCESS.MAINTAINER }],
    ] as const) {
      const res = await as(manager(kind)).post(membersPath(source), { body });
      // The spec gives no status for a queued answer; GitLab answers 202 Accepted (ee/spec/requests/api/members_spec.rb "single member api response").
      expectOk(res, [200, 201, 202], 'member-queued');
      parity(res, QUEUED_STATUS_GITLAB, () => expectStatus(res, 202));
      expectFields(res.body, { message: { [user.username]: QUEUED }, status: undefined }, 'the queue answer naming the user', res);
    }
    for (const user of [byId, byName]) await expectNotMember(as('owner'), source, user.id);
  },
);

addSuite.test(
  {
    case: 'add-several',
    title: 'adding several users without a seat answers {"queued_users": …, "status":"success"}; none is added',
    clauses: ['members.promotion.add-several'],
    requires: { capabilities: ['promotion_management'], setting: at(PROMOTION_MANAGEMENT, true) },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const [a, b] = await Promise.all([kit.seatless(), kit.seatless()]);
    const res = await as(manager(kind)).post(membersPath(source), { body: { user_id: `${a.id},${b.id}`, access_level: ACCESS.REPORTER } });
    // The spec gives the body; the status is Grape's for a POST that returns the service's hash (lib/api/members.rb).
    expectOk(res, 201, 'member-add-result');
    expectFields(res.body, { queued_users: { [a.username]: QUEUED, [b.username]: QUEUED }, status: 'success' }, 'the queue answer naming both users', res);
    for (const user of [a, b]) await expectNotMember(as('owner'), source, user.id);
  },
);

editSuite.test(
  {
    case: 'edit',
    title: 'promoting a Guest without a seat to Developer is queued; the member stays a Guest',
    clauses: ['members.promotion.edit'],
    requires: { capabilities: ['promotion_management'], setting: at(PROMOTION_MANAGEMENT, true) },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    const guest = await kit.seatless();
    await kit.add(source, guest, ACCESS.GUEST);
    const res = await as(manager(kind)).put(memberPath(source, guest.id), { body: { access_level: ACCESS.DEVELOPER } });
    expectOk(res, [200, 202], 'member-queued');
    parity(res, QUEUED_STATUS_GITLAB, () => expectStatus(res, 202));
    expectFields(res.body, { message: { [guest.username]: QUEUED }, status: undefined }, 'the queue answer naming the user', res);
    expectEqual((await readMember(as('owner'), source, guest.id)).access_level, ACCESS.GUEST, 'the member\'s level after the queued promotion');
  },
);

addSuite.test(
  {
    case: 'not-queued',
    title: 'a Guest role, an administrator\'s request, and a user who already holds a seat are not queued: the members are added',
    clauses: ['members.promotion.not-queued'],
    requires: { capabilities: ['promotion_management'], setting: at(PROMOTION_MANAGEMENT, true) },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    // byAdmin is a user of the test's own: an administrator giving a seat with approval on carries
    // out the user's queued requests elsewhere (World.seatlessFor).
    const [asGuest, byAdmin] = await Promise.all([kit.seatless(), kit.newcomer()]);
    // Reporter in a group of its own: already billable, so a billable role is no promotion. An
    // administrator's request is never queued (GitLab: promotion_management_required? is false for
    // administrators, ee/app/services/gitlab_subscriptions/member_management/queue_non_billable_to_billable_service.rb).
    const seated = await kit.lease();
    const guest = await as(manager(kind)).post(membersPath(source), { body: { user_id: asGuest.id, access_level: ACCESS.GUEST } });
    expectOk(guest, 201, 'member');
    expectEqual((guest.body as MemberBody).access_level, ACCESS.GUEST, 'the Guest added at once', guest);
    expectOk(await as('admin').post(membersPath(source), { body: { user_id: byAdmin.id, access_level: ACCESS.DEVELOPER } }), 201, 'member');
    expectOk(await as(manager(kind)).post(membersPath(source), { body: { user_id: seated.id, access_level: ACCESS.DEVELOPER } }), 201, 'member');
    expectEqual((await readMember(as('owner'), source, asGuest.id)).access_level, ACCESS.GUEST, 'the Guest read back');
    expectEqual((await readMember(as('owner'), source, byAdmin.id)).access_level, ACCESS.DEVELOPER, 'the member the administrator added, read back');
    expectEqual((await readMember(as('owner'), source, seated.id)).access_level, ACCESS.DEVELOPER, 'the member who already held a seat, read back');
  },
);

addSuite.test(
  {
    case: 'add-several-seated',
    title: 'with the setting on, several users who already hold a seat are added at once (201, {"status":"success"}), not queued',
    clauses: ['members.promotion.not-queued', 'members.add.several'],
    requires: { capabilities: ['promotion_management'], setting: at(PROMOTION_MANAGEMENT, true) },
  },
  async ({ sources, ...kit }) => {
    const { kind, as } = kit;
    const { [kind]: source } = sources;
    // Reporters in a group of their own: already billable (ee/spec/requests/api/members_spec.rb "when both users are already billable").
    const [a, b] = await Promise.all([kit.lease(), kit.lease()]);
    const res = await as(manager(kind)).post(membersPath(source), { body: { user_id: `${a.id},${b.id}`, access_level: ACCESS.DEVELOPER } });
    expectOk(res, 201, 'member-add-result');
    expectFields(res.body, { status: 'success', queued_users: undefined }, 'the answer of an add with nobody queued', res);
    for (const user of [a, b]) expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.DEVELOPER, `user ${user.id}, added at once`);
  },
);

editSuite.test(
  {
    case: 'edit-seated',
    title: 'with the setting on, a Developer (who holds a seat) raised to Maintainer is updated at once (200)',
    clauses: ['members.promotion.not-queued', 'members.edit.level'],
    requires: { capabilities: ['promotion_management'], setting: at(PROMOTION_MANAGEMENT, true) },
  },
  ({ sources, ...kit }) => expectRaisedAtOnce(kit, sources, ACCESS.DEVELOPER, ACCESS.MAINTAINER),
);
