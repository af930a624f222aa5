// The target contract's set-up endpoints (TARGET-CONTRACT.md §2), as GitLab answers them, a file per
// resource: the instance (version, settings), users, personal access tokens, groups and namespaces,
// projects, shares, branches, and the access requests, project access tokens and deletions the suites
// set up with. Each file declares its routes by id (http/route-ids.ts) and registers them.
import type { RouteModule } from '../../http/context.js';
import { accessRequestsRoutes } from './access-requests.js';
import { accessTokensRoutes } from './access-tokens.js';
import { branchesRoutes } from './branches.js';
import { deletionRoutes } from './deletion.js';
import { groupsRoutes } from './groups.js';
import { projectsRoutes } from './projects.js';
import { settingsRoutes } from './settings.js';
import { sharesRoutes } from './shares.js';
import { tokensRoutes } from './tokens.js';
import { usersRoutes } from './users.js';

export const setupRoutes: RouteModule = (app, ctx) => {
  // POST and GET …/access_requests (lib/api/access_requests.rb): the suites' access requesters.
  accessRequestsRoutes(app, ctx);
  // POST /projects/:id/access_tokens (lib/api/resource_access_tokens.rb): a project bot for the members and invitations suites.
  accessTokensRoutes(app, ctx);
  deletionRoutes(app, ctx);
  for (const resource of [settingsRoutes, usersRoutes, groupsRoutes, projectsRoutes, sharesRoutes, tokensRoutes, branchesRoutes]) resource(app, ctx);
};
