// Promotion approval of POST /groups/:id/invitations and POST /projects/:id/invitations: these tests
// turn the instance-wide setting enable_member_promotion_management on, so they live in an
// *.exclusive.test.ts file, which runs alone after every other file (vitest.config.ts). Every case
// runs for both kinds.
import { endpoint } from '../../runner/run/conformance.js';
import { expectEqual } from '../../runner/core/checks.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { QUEUED, withPromotionManagement } from '../common/promotion.js';
import { expectInviteSuccess, expectMember, expectNotInvited, expectPromotionsQueued, invite, invitationsWorld, ownSources } from './helpers.js';
import { invitations } from './area.js';

const suite = endpoint(invitations, 'create', { uses: [ownSources] });

const world = invitationsWorld(ownSources);

// promotion-existing-members is declared first: its phase with the setting off then comes before
// the tests that need it on, which hold it together once (suites/common/promotion.ts).
suite.test(
  {
    case: 'promotion-existing-members',
    title: 'approval off: an existing user invited above Guest is added; on: a Guest member raised above Guest is queued, billable members are moved up or down to Guest',
    clauses: ['invitations.create.queued-members'],
    requires: { capabilities: ['promotion_management'], setup: ['application-settings-read', 'group-project-read'] },
  },
  async (kit) => {
    const w = world(kit);
    const target = w.source(kit.kind);
    const owner = kit.as('owner');
    const [added, guest, developer, maintainer] = await Promise.all([w.seatless(), w.seatless(), w.seatless(), w.seatless()]);
    await withPromotionManagement(kit, false, async () => {
      const res = await invite(owner, target, { user_id: String(added.id), access_level: ACCESS.DEVELOPER });
      expectEqual(expectInviteSuccess(res).queued_users, undefined, 'no queued users with approval off', res);
      await expectMember(kit, target, added, ACCESS.DEVELOPER);
      // The members the approval step meets below, at their levels before it is on.
      for (const [person, level] of [[guest, ACCESS.GUEST], [developer, ACCESS.DEVELOPER], [maintainer, ACCESS.MAINTAINER]] as const) {
        expectInviteSuccess(await invite(owner, target, { user_id: String(person.id), access_level: level }));
      }
    });
    await withPromotionManagement(kit, true, async () => {
      const queued = await invite(owner, target, { user_id: String(guest.id), access_level: ACCESS.MAINTAINER });
      expectEqual(expectInviteSuccess(queued).queued_users, { [guest.username]: QUEUED }, `${guest.username}, a Guest, queued for approval`, queued);
      await expectMember(kit, target, guest, ACCESS.GUEST);
      for (const [person, level] of [[developer, ACCESS.MAINTAINER], [maintainer, ACCESS.GUEST]] as const) {
        const res = await invite(owner, target, { user_id: String(person.id), access_level: level });
        expectEqual(expectInviteSuccess(res).queued_users, undefined, `no queued users for ${person.username}, a billable member`, res);
        await expectMember(kit, target, person, level);
      }
      await expectNotInvited(kit.as('admin'), target, guest.email, developer.email, maintainer.email);
    });
  },
);

suite.test(
  {
    case: 'queued-for-approval',
    title: 'with promotion approval on, existing users invited above Guest are queued and not added; Guests and new addresses are not',
    clauses: ['invitations.create.queued'],
    requires: { capabilities: ['promotion_management'], setup: ['application-settings-read', 'group-project-read'] },
  },
  async (kit) => {
    const w = world(kit);
    // Its users are lent before it holds the setting (suites/common/promotion.ts).
    const users = await Promise.all([w.seatless(), w.seatless(), w.seatless()]);
    await withPromotionManagement(kit, true, () => expectPromotionsQueued(kit, w.source(kit.kind), w, users));
  },
);
