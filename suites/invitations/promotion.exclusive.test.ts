// Promotion approval (POST /groups/:id/invitations and POST /projects/:id/invitations): these tests
// turn the instance-wide setting enable_member_promotion_management on, so they live in an
// *.exclusive.test.ts file, which runs alone after every other file (vitest.config.ts).
import { endpoint } from '../harness/run/conformance.js';
import { withPromotionManagement } from '../common/promotion.js';
import { expectPromotionsQueued, useInvitationsWorld } from './helpers.js';
import { invitations } from './area.js';

const createSuite = endpoint(invitations, 'create');

const world = useInvitationsWorld('invite-promotion', 'group');

createSuite.test(
  {
    case: 'queued-for-approval',
    title: 'with promotion approval on, existing users invited above Guest are queued and not added; Guests and new addresses are not',
    clauses: ['invitations.create.queued'],
    requires: { capabilities: ['promotion_management'] },
    only: { kind: 'group', why: 'TWIN' },
  },
  async (kit) => {
    const w = world();
    await withPromotionManagement(kit.as('admin'), true, () => expectPromotionsQueued(kit, w.group, w));
  },
);

createSuite.test(
  {
    case: 'queued-for-approval',
    title: 'with promotion approval on, existing users invited to a project above Guest are queued and not added',
    clauses: ['invitations.create.queued'],
    requires: { capabilities: ['promotion_management'] },
    only: { kind: 'project', why: 'TWIN' },
  },
  async (kit) => {
    const w = world();
    await withPromotionManagement(kit.as('admin'), true, () => expectPromotionsQueued(kit, w.project, w));
  },
);
