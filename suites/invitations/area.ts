// The invitations area (spec: Endpoints / Invitations): every operation for groups and projects alike.
import { defineArea } from '../../runner/core/area.js';
import { PROMOTION_MANAGEMENT } from '../common/promotion.js';
import { invitationsClauses } from './clauses.js';

export const invitations = defineArea({
  name: 'invitations',
  prefix: 'invitations',
  clauses: invitationsClauses,
  usesUserPool: true,
  // An invitation names its users by address (email, or GitLab's invite_email) or by id; a pending
  // one by the address in its path. Taking the user back removes the membership it became.
  roleGrantingWrites: [{ collection: 'invitations', userParams: ['email', 'invite_email', 'user_id'] }],
  settings: [PROMOTION_MANAGEMENT],
});
