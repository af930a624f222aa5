// The members area (spec: Endpoints / Members): direct, inherited and invited members of groups and
// projects, and the group-only endpoints of billable and pending members, state, approval, override.
import { defineArea } from '../../runner/core/area.js';
import { PROMOTION_MANAGEMENT } from '../common/promotion.js';
import { membersClauses } from './clauses.js';

const both = (method: string, suffix = '') => ({ group: `${method} /groups/:id/members${suffix}`, project: `${method} /projects/:id/members${suffix}` });

export const members = defineArea({
  name: 'members',
  prefix: 'members',
  endpoints: {
    list: both('GET'),
    'list-all': both('GET', '/all'),
    get: both('GET', '/:user_id'),
    'get-all': both('GET', '/all/:user_id'),
    add: both('POST'),
    edit: both('PUT', '/:user_id'),
    remove: both('DELETE', '/:user_id'),
    billable: 'GET /groups/:id/billable_members',
    'billable-memberships': 'GET /groups/:id/billable_members/:user_id/memberships',
    'billable-indirect': 'GET /groups/:id/billable_members/:user_id/indirect',
    'billable-remove': 'DELETE /groups/:id/billable_members/:user_id',
    state: 'PUT /groups/:id/members/:user_id/state',
    approve: 'PUT /groups/:id/members/:member_id/approve',
    'approve-all': 'POST /groups/:id/members/approve_all',
    pending: 'GET /groups/:id/pending_members',
    'override-set': 'POST /groups/:id/members/:user_id/override',
    'override-remove': 'DELETE /groups/:id/members/:user_id/override',
  },
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
