// Authentication as GitLab's API guard does it: a personal access token from the PRIVATE-TOKEN
// header, an `Authorization: Bearer` header or the `private_token` query parameter; then scopes.
import type { FastifyRequest } from 'fastify';
import type { PersonalAccessToken, User } from '../state/model.js';
import { isExpired, today, type Store } from '../state/store.js';
import { ApiError, forbidden, insufficientScope, notFound, unauthorized } from './errors.js';

export interface Actor {
  /** Who the request acts as: the token's user, or the user an administrator named with `sudo`. */
  user?: User;
  token?: PersonalAccessToken;
}

export function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers['private-token'];
  if (typeof header === 'string' && header !== '') return header;
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && /^Bearer\s+/i.test(authorization)) return authorization.replace(/^Bearer\s+/i, '');
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (typeof query.private_token === 'string' && query.private_token !== '') return query.private_token;
  return undefined;
}

/**
 * `sudo_identifier` (lib/api/helpers.rb): the `sudo` parameter (query or body), else the `Sudo`
 * header. Ruby's `||` takes an empty parameter too; a key without a value (Rack's nil) falls through.
 */
function sudoIdentifier(request: FastifyRequest): unknown {
  for (const bag of [request.body, request.query]) {
    if (bag && typeof bag === 'object' && !Array.isArray(bag)) {
      const value = (bag as Record<string, unknown>).sudo;
      if (value !== undefined && value !== null) return value;
    }
  }
  const header = request.headers.sudo;
  return typeof header === 'string' ? header : undefined;
}

/**
 * `sudo!` (lib/api/helpers.rb): an administrator's token with the `sudo` scope acts as the named user
 * (an id, or a username) for the whole request. Refusals in GitLab's order: no caller 401, a caller who
 * is no administrator 403 "Must be admin to use sudo", a token without the scope 403 insufficient_scope,
 * an unknown user 404 (UserFinder#find_by_id_or_username).
 */
function sudo(store: Store, request: FastifyRequest, actor: Actor): Actor {
  const identifier = sudoIdentifier(request);
  if (identifier === undefined) return actor;
  if (!actor.user || !actor.token) throw unauthorized();
  if (!actor.user.isAdmin) throw forbidden('Must be admin to use sudo');
  if (!actor.token.scopes.includes('sudo')) throw insufficientScope(['sudo']);
  const text = typeof identifier === 'string' || typeof identifier === 'number' ? String(identifier) : '';
  const user = /^\d+$/.test(text) ? store.userByIdText(text) : store.userByUsername(text);
  if (!user) throw notFound(`User with ID or username '${text}'`);
  return { user, token: actor.token };
}

/** Resolves the caller, then `sudo`. A token that is presented but unusable is refused even on public routes. */
export function authenticate(store: Store, request: FastifyRequest): Actor {
  return sudo(store, request, tokenActor(store, request));
}

function tokenActor(store: Store, request: FastifyRequest): Actor {
  const presented = presentedToken(request);
  if (presented === undefined) return {};
  const token = store.tokens.get(presented);
  if (!token) throw unauthorized();
  if (token.revoked) {
    throw new ApiError(401, { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
  }
  if (isExpired(token.expiresAt)) {
    throw new ApiError(401, { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' });
  }
  const user = store.users.get(token.userId);
  if (!user) throw unauthorized();
  if (user.state === 'blocked') throw forbidden('Your account has been blocked.');
  // "User using the API" is one of the activities that set last_activity_on (a date, so once a day).
  user.lastActivityOn = today();
  return { user, token };
}

/** The request's token must carry one of `allowed`; callers without a token are not checked here. */
export function requireScope(actor: Actor, allowed: readonly string[]): void {
  if (!actor.token) return;
  if (!actor.token.scopes.some((scope) => allowed.includes(scope))) throw insufficientScope(allowed as string[]);
}

/** `authenticate!`: members and invitations refuse anonymous callers with 401 before anything else. */
export function requireUser(actor: Actor): User {
  if (!actor.user) throw unauthorized();
  return actor.user;
}

export function requireAdmin(actor: Actor): User {
  const user = requireUser(actor);
  if (!user.isAdmin) throw forbidden();
  return user;
}

/** Scopes that allow API reads and writes respectively (GitLab: `api`; reads also `read_api`). */
export const READ_API_SCOPES = ['api', 'read_api'] as const;
export const WRITE_API_SCOPES = ['api'] as const;
