// The set-up endpoints the suite uses beyond the target contract (TARGET-CONTRACT.md §2): ordinary
// GitLab endpoints a compatible implementation need not have, since the spec never names them. Their
// names are shared with the reference server (contract/extra-setup-endpoints.ts: `--without NAME`).
// A fixture or test that needs one declares it; when the target lacks it, only they are
// `unsupported`, with the reason, and the report lists what the target lacks.
import { EXTRA_SETUP_ENDPOINTS, type ExtraSetupEndpoint } from '../../contract/extra-setup-endpoints.js';

/** The endpoints of each name, as a reason names them. */
const ENDPOINTS: Record<ExtraSetupEndpoint, string> = {
  'access-requests': 'POST /groups/:id/access_requests, POST /projects/:id/access_requests',
  'project-update': 'PUT /projects/:id (repository_access_level, path)',
  'secondary-emails': 'POST /users/:id/emails',
  'unconfirmed-users': 'POST /users without skip_confirmation',
  'application-settings-read': 'GET /application/settings',
  'project-access-tokens': 'POST /projects/:id/access_tokens',
  'group-project-read': 'GET /groups/:id, GET /projects/:id',
  'protected-branches': 'POST /projects/:id/protected_branches',
  'commit-email': 'PUT /users/:id (commit_email)',
  'permanent-removal': 'DELETE /groups/:id, DELETE /projects/:id with permanently_remove',
};

export const SETUP_NEEDS = Object.fromEntries(EXTRA_SETUP_ENDPOINTS.map((e) => [e.name, { endpoint: ENDPOINTS[e.name], what: e.description }])) as Record<ExtraSetupEndpoint, { endpoint: string; what: string }>;

export type SetupNeed = ExtraSetupEndpoint;
export const SETUP_NEED_NAMES = EXTRA_SETUP_ENDPOINTS.map((e) => e.name) as SetupNeed[];
