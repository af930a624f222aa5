// Promotion approval (POST /groups/:id/invitations and POST /projects/:id/invitations): these tests
// turn the instance-wide setting enable_member_promotion_management on, so they live in an
// *.exclusive.test.ts file, which runs alone after every other file (vitest.config.ts).
import { conformance } from '../harness/conformance.js';
import { withPromotionManagement } from '../harness/promotion.js';
import { expectPromotionsQueued, useInvitationsWorld } from './helpers.js';

const world = useInvitationsWorld('invite-promotion', 'group');

conformance(
  {
    id: 'invite-group.queued-for-approval',
    title: 'with promotion approval on, existing users invited above Guest are queued and not added; Guests and new addresses are not',
    endpoint: 'POST /groups/:id/invitations',
    clauses: ['invitations.create.queued'],
    requires: { capabilities: ['promotion_management'] },
  },
  async (kit) => {
    const w = world();
    await withPromotionManagement(kit.as('admin'), true, () => expectPromotionsQueued(kit, w.group, w));
  },
);

conformance(
  {
    id: 'invite-project.queued-for-approval',
    title: 'with promotion approval on, existing users invited to a project above Guest are queued and not added',
    endpoint: 'POST /projects/:id/invitations',
    clauses: ['invitations.create.queued'],
    requires: { capabilities: ['promotion_management'] },
  },
  async (kit) => {
    const w = world();
    await withPromotionManagement(kit.as('admin'), true, () => expectPromotionsQueued(kit, w.project, w));
  },
);
