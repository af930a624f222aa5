// The set-up endpoints the suite uses beyond the target contract's table (TARGET-CONTRACT.md §2;
// README "Set-up endpoints beyond the target contract's table"), each under one name. A target may
// lack any of them; the reference server plays one that does with `--without NAME`
// (reference-server/without.ts), and the suite names what it cannot do without them by these names.
// Both sides import this one module; it imports nothing.

export const EXTRA_SETUP_ENDPOINTS = [
  { name: 'access-requests', description: 'POST, GET and DELETE …/access_requests and PUT …/access_requests/:user_id/approve on groups and projects' },
  { name: 'project-update', description: 'PUT /projects/:id (the repository access level; the path, to rename a project)' },
  { name: 'secondary-emails', description: 'POST and GET /users/:id/emails (secondary addresses)' },
  { name: 'unconfirmed-users', description: 'POST /users without skip_confirmation leaves the address unconfirmed' },
  { name: 'application-settings-read', description: 'GET /application/settings (the PUT is in the contract)' },
  { name: 'permanent-removal', description: 'DELETE /groups/:id and /projects/:id with permanently_remove (GitLab 17 and 18)' },
  { name: 'project-access-tokens', description: 'POST /projects/:id/access_tokens' },
  { name: 'group-project-read', description: 'GET /groups/:id and GET /projects/:id' },
  { name: 'commit-email', description: 'PUT /users/:id with commit_email (a verified address the user commits with)' },
  { name: 'protected-branches', description: 'POST /projects/:id/protected_branches (a branch protected with the default levels: Maintainers push)' },
] as const;

export type ExtraSetupEndpoint = (typeof EXTRA_SETUP_ENDPOINTS)[number]['name'];
export const EXTRA_SETUP_ENDPOINT_NAMES: readonly ExtraSetupEndpoint[] = EXTRA_SETUP_ENDPOINTS.map((e) => e.name);
