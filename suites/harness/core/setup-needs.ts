// The set-up endpoints the suite uses beyond the target contract (TARGET-CONTRACT.md §2): ordinary
// GitLab endpoints a compatible implementation need not have, since the spec never names them. A
// fixture or test that needs one declares it; when the target lacks it, only they are
// `unsupported`, with the reason, and the report lists what the target lacks. The reference server
// plays a target without each of them (`--without <name>`).

export const SETUP_NEEDS = {
  'access-requests': { endpoint: 'POST /groups/:id/access_requests, POST /projects/:id/access_requests', what: 'a user asks for access (an access requester)' },
  'repository-access-level': { endpoint: 'PUT /projects/:id (repository_access_level)', what: 'a project\'s repository feature turned off or to members only' },
  'secondary-emails': { endpoint: 'POST /users/:id/emails', what: 'a secondary address, confirmed or not' },
  'unconfirmed-users': { endpoint: 'POST /users without skip_confirmation', what: 'a user whose primary address is unconfirmed' },
  'application-settings-read': { endpoint: 'GET /application/settings', what: 'reading the promotion-approval setting, to put it back' },
  'project-access-tokens': { endpoint: 'POST /projects/:id/access_tokens', what: 'a project access token and its bot user' },
} as const;

export type SetupNeed = keyof typeof SETUP_NEEDS;
export const SETUP_NEED_NAMES = Object.keys(SETUP_NEEDS) as SetupNeed[];
