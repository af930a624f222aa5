// What real clients send beyond one plain value per parameter, as clauses the areas carry and helpers
// their tests use: arrays in Rack's bracket form (the Ruby gem, go-gitlab and GitLab::API::v4 send
// `user_ids[]=1&user_ids[]=2`), comma lists, a plain repeated key, and `sudo` (an administrator acting as
// another user: python-gitlab's `sudo=`, the Ruby gem's `sudo:` option, go-gitlab's WithSudo header).
import { expectError } from '../../runner/core/checks.js';
import type { Clause } from '../../runner/core/clauses.js';
import { apiPath, type Client, type Exchange } from '../../runner/core/client.js';
import { registerSecret } from '../../runner/core/redact.js';
import { dateIn } from '../../runner/core/vocabulary.js';
import type { Kit } from '../../runner/run/conformance.js';

/** Where GitLab reads parameters and `sudo`. */
export const GITLAB_PARAMS = {
  rack: 'Rack lib/rack/query_parser.rb (parse_nested_query, normalize_params: `name[]=` appends to an array, a plain key keeps its last value)',
  sudo: 'lib/api/helpers.rb (current_user, sudo!, sudo_identifier: params[:sudo] || env["HTTP_SUDO"]; find_user: UserFinder#find_by_id_or_username)',
} as const;

/** The `sudo` clauses of an area with the given id prefix; `refusals` for the area that checks sudo's refusals. */
export function sudoClauses(prefix: string, options: { refusals: boolean }): Clause[] {
  const clauses: Clause[] = [
    { id: `${prefix}.http.sudo`, level: 'must', text: 'An administrator\'s token with the sudo scope acts as the user named by the sudo parameter (query or body) or the Sudo header, by id or username, for the whole request: that user\'s permissions on reads and writes, and that user as the author of what it writes.', source: `spec: Authentication 6 ("other authentication methods … not shown"); GitLab: ${GITLAB_PARAMS.sudo}` },
  ];
  if (options.refusals) {
    clauses.push({ id: `${prefix}.http.sudo-refusals`, level: 'must', text: 'sudo is refused to a token that is not an administrator\'s (403), to an administrator\'s token without the sudo scope (403 insufficient_scope), and for a user that does not exist (404). GitLab parity: "403 Forbidden - Must be admin to use sudo", "404 User with ID or username \'<x>\' Not Found".', source: `GitLab: ${GITLAB_PARAMS.sudo}; lib/api/api_guard.rb (InsufficientScopeError)` });
  }
  return clauses;
}

/** A query string with `values` under `name[]` (Rack's array form), then `rest`. */
export function bracketQuery(name: string, values: readonly (string | number)[], rest: Record<string, string | number> = {}): string {
  const pairs = [...values.map((v) => `${encodeURIComponent(`${name}[]`)}=${encodeURIComponent(String(v))}`), ...Object.entries(rest).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)];
  return `?${pairs.join('&')}`;
}

/** A query string with `name` given once per value (a plain repeated key), then `rest`. */
export function repeatedQuery(name: string, values: readonly (string | number)[], rest: Record<string, string | number> = {}): string {
  const pairs = [...values.map((v) => `${name}=${encodeURIComponent(String(v))}`), ...Object.entries(rest).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)];
  return `?${pairs.join('&')}`;
}

/** What the sudo checks use of a test's kit. */
type SudoKit = Pick<Kit, 'make' | 'admin' | 'run' | 'withToken'>;

/**
 * Runs `body` with a client holding a new token of the administrator with scopes api and sudo (the
 * run's admin token need not have sudo; admin_mode too, for an instance with Admin Mode on), and
 * revokes the token afterwards.
 */
export async function withSudoToken<T>(kit: SudoKit, body: (admin: Client) => Promise<T>, scopes: readonly string[] = ['api', 'sudo', 'admin_mode']): Promise<T> {
  // Set-up, as the run's administrator: the contract's POST /users/:id/personal_access_tokens.
  const { make, admin } = kit;
  const created = await make.setup('make a token of the administrator with the sudo scope', admin.post(apiPath`/users/${kit.run.adminId}/personal_access_tokens`, { body: { name: 'conformance-sudo', scopes, expires_at: dateIn(1) } }), [201]);
  const { id, token } = created as { id: number; token: string };
  registerSecret(token);
  try {
    return await body(kit.withToken(token, `admin (${scopes.join(', ')} token)`));
  } finally {
    // Revoked at once where the target can (DELETE /personal_access_tokens/:id); it expires tomorrow anyway.
    await admin.delete(apiPath`/personal_access_tokens/${id}`);
  }
}

/** The request as the named user, through the sudo query parameter. */
export function asSudoQuery(path: string, user: string | number): string {
  return `${path}${path.includes('?') ? '&' : '?'}sudo=${encodeURIComponent(String(user))}`;
}

/** The Sudo header naming `user`. */
export const sudoHeader = (user: string | number) => ({ Sudo: String(user) });

/** sudo's three refusals, each with GitLab's text at the parity level. */
export async function expectSudoRefusals(kit: SudoKit, path: string, known: { username: string }, notAdmin: Client): Promise<void> {
  const byUser: Exchange = await notAdmin.get(asSudoQuery(path, known.username));
  expectError(byUser, 403, { message: /Must be admin to use sudo/, gitlab: GITLAB_PARAMS.sudo });
  await withSudoToken(kit, async (admin) => expectError(await admin.get(asSudoQuery(path, known.username)), 403, { error: 'insufficient_scope', gitlab: 'lib/api/helpers.rb (sudo!: validate_and_save_access_token!(scopes: [:sudo]))' }), ['api', 'admin_mode']);
  await withSudoToken(kit, async (admin) => {
    const missing = `${kit.run.prefix}-nobody`;
    expectError(await admin.get(path, { headers: sudoHeader(missing) }), 404, { message: `404 User with ID or username '${missing}' Not Found`, gitlab: GITLAB_PARAMS.sudo });
  });
}
