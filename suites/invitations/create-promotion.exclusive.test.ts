// Promotion approval of POST /groups/:id/invitations and POST /projects/:id/invitations: these tests
// need the instance-wide setting enable_member_promotion_management at a value, so they live in an
// *.exclusive.test.ts file and declare it: the run's phase of that value runs them, after every other
// file (runner/core/instance-setting.ts). Every case runs for both kinds.
import { endpoint } from './kit.js';
import { expectEqual } from '../../runner/core/checks.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { at } from '../../runner/core/instance-setting.js';
import { PROMOTION_MANAGEMENT, QUEUED } from '../common/promotion.js';
import { expectInviteSuccess, expectMember, expectNotInvited, expectPromotionsQueued, invite, ownSources } from './helpers.js';

const suite = endpoint('create', { fixtures: { sources: ownSources } });

suite.test(
  {
    case: 'promotion-off-existing-user',
    title: 'with promotion approval off, an existing user without a seat invited above Guest is added at once',
    clauses: ['invitations.create.queued-members'],
    requires: { capabilities: ['promotion_management'], setting: at(PROMOTION_MANAGEMENT, false), setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const target = sources[kit.kind];
    const added = await kit.seatless();
    const res = await invite(kit.as('owner'), target, { user_id: String(added.id), access_level: ACCESS.DEVELOPER });
    expectEqual(expectInviteSuccess(res).queued_users, undefined, 'no queued users with approval off', res);
    await expectMember(kit, target, added, ACCESS.DEVELOPER);
  },
);

suite.test(
  {
    case: 'promotion-existing-members',
    title: 'with promotion approval on, a Guest member raised above Guest is queued; billable members are moved up or down to Guest at once',
    clauses: ['invitations.create.queued-members'],
    requires: { capabilities: ['promotion_management'], setting: at(PROMOTION_MANAGEMENT, true), setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const target = sources[kit.kind];
    const owner = kit.as('owner');
    const [guest, developer, maintainer] = await Promise.all([kit.seatless(), kit.seatless(), kit.seatless()]);
    // The members the approval step meets, invited by the administrator, whose requests are never
    // queued (GitLab: promotion_management_required? is false for administrators,
    // ee/app/services/gitlab_subscriptions/member_management/queue_non_billable_to_billable_service.rb).
    for (const [person, level] of [[guest, ACCESS.GUEST], [developer, ACCESS.DEVELOPER], [maintainer, ACCESS.MAINTAINER]] as const) {
      expectEqual(expectInviteSuccess(await invite(kit.as('admin'), target, { user_id: String(person.id), access_level: level })).queued_users, undefined, `${person.username} added by the administrator`);
    }
    const queued = await invite(owner, target, { user_id: String(guest.id), access_level: ACCESS.MAINTAINER });
    expectEqual(expectInviteSuccess(queued).queued_users, { [guest.username]: QUEUED }, `${guest.username}, a Guest, queued for approval`, queued);
    await expectMember(kit, target, guest, ACCESS.GUEST);
    for (const [person, level] of [[developer, ACCESS.MAINTAINER], [maintainer, ACCESS.GUEST]] as const) {
      const res = await invite(owner, target, { user_id: String(person.id), access_level: level });
      expectEqual(expectInviteSuccess(res).queued_users, undefined, `no queued users for ${person.username}, a billable member`, res);
      await expectMember(kit, target, person, level);
    }
    await expectNotInvited(kit.as('admin'), target, guest.email, developer.email, maintainer.email);
  },
);

suite.test(
  {
    case: 'queued-for-approval',
    title: 'with promotion approval on, existing users invited above Guest are queued and not added; Guests and new addresses are not',
    clauses: ['invitations.create.queued'],
    requires: { capabilities: ['promotion_management'], setting: at(PROMOTION_MANAGEMENT, true), setup: ['group-project-read'] },
  },
  async ({ sources, ...kit }) => {
    const users = await Promise.all([kit.seatless(), kit.seatless(), kit.seatless()]);
    await expectPromotionsQueued(kit, sources[kit.kind], users);
  },
);
