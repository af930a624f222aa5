// The members area (spec: Endpoints / Members): direct, inherited and invited members of groups and
// projects, and the group-only endpoints of billable and pending members, state, approval, override.
import { defineArea } from '../../runner/core/area.js';
import { PROMOTION_MANAGEMENT } from '../common/promotion.js';
import { membersClauses } from './clauses.js';

export const members = defineArea({
  name: 'members',
  prefix: 'members',
  clauses: membersClauses,
  usesUserPool: true,
  // Where a test's requests gave a lent user a place: memberships (by id or username, one or a comma
  // list; a billable member by its path), and access requests (the set-up endpoint access-requests:
  // an approved request is a membership), which the user asks for itself.
  roleGrantingWrites: [
    { collection: 'members', userParams: ['user_id', 'user_ids', 'username'] },
    { collection: 'billable_members' },
    { collection: 'access_requests', accessRequest: true },
  ],
  // `…/members/:member_id/approve` names a membership, not a user: normalize.ts tells it by its tail.
  collectionIdKinds: { members: 'user', billable_members: 'user', access_requests: 'user' },
  settings: [PROMOTION_MANAGEMENT],
});
