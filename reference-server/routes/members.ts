// Members of groups and projects (lib/api/members.rb, ee/lib/ee/api/members.rb).
// The endpoints of both source kinds live in members/source-members.ts, the group-only EE ones in
// members/group-members-ee.ts; members/rules.ts and members/entities.ts hold what they share.
import type { RouteModule } from '../http/context.js';
import { groupMembersEeRoutes } from './members/group-members-ee.js';
import { sourceMembersRoutes } from './members/source-members.js';

export const membersRoutes: RouteModule = (app, ctx) => {
  sourceMembersRoutes(app, ctx);
  groupMembersEeRoutes(app, ctx);
};
