// The invitations area (spec: Endpoints / Invitations): every operation for groups and projects alike.
import { defineArea } from '../../runner/core/area.js';
import { PROMOTION_MANAGEMENT } from '../common/promotion.js';
import { invitationsClauses } from './clauses.js';

const both = (method: string, suffix = '') => ({ group: `${method} /groups/:id/invitations${suffix}`, project: `${method} /projects/:id/invitations${suffix}` });

export const invitations = defineArea({
  name: 'invitations',
  prefix: 'invitations',
  endpoints: {
    create: both('POST'),
    list: both('GET'),
    update: both('PUT', '/:email'),
    delete: both('DELETE', '/:email'),
  },
  clauses: invitationsClauses,
  usesUserPool: true,
  // An invitation names its users by address (email, or GitLab's invite_email) or by id; a pending
  // one by the address in its path. Taking the user back removes the membership it became.
  roleGrantingWrites: [{ collection: 'invitations', userParams: ['email', 'invite_email', 'user_id'] }],
  settings: [PROMOTION_MANAGEMENT],
});
