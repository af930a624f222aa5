// Promotion approval of POST /groups/:id/invitations and POST /projects/:id/invitations: these tests
// turn the instance-wide setting enable_member_promotion_management on, so they live in an
// *.exclusive.test.ts file, which runs alone after every other file (vitest.config.ts). Every case
// runs for both kinds.
import { endpoint } from '../harness/run/conformance.js';
import { withPromotionManagement } from '../common/promotion.js';
import { expectPromotionsQueued, useInvitationsWorld } from './helpers.js';
import { invitations } from './area.js';

const suite = endpoint(invitations, 'create');

const world = useInvitationsWorld('invitations-create-promotion');

suite.test(
  {
    case: 'queued-for-approval',
    title: 'with promotion approval on, existing users invited above Guest are queued and not added; Guests and new addresses are not',
    clauses: ['invitations.create.queued'],
    requires: { capabilities: ['promotion_management'] },
  },
  async (kit) => {
    const w = world();
    await withPromotionManagement(kit.as('admin'), true, () => expectPromotionsQueued(kit, w.source(kit.kind), w));
  },
);
