// Authentication as GitLab's API guard does it: a personal access token from the PRIVATE-TOKEN
// header, an `Authorization: Bearer` header or the `private_token` query parameter; then scopes.
import type { FastifyRequest } from 'fastify';
import type { PersonalAccessToken, User } from '../state/model.js';
import { isExpired, today, type Store } from '../state/store.js';
import { ApiError, forbidden, insufficientScope, unauthorized } from './errors.js';

export interface Actor {
  user?: User;
  token?: PersonalAccessToken;
}

function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers['private-token'];
  if (typeof header === 'string' && header !== '') return header;
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && /^Bearer\s+/i.test(authorization)) return authorization.replace(/^Bearer\s+/i, '');
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (typeof query.private_token === 'string' && query.private_token !== '') return query.private_token;
  return undefined;
}

/** Resolves the caller. A token that is presented but unusable is refused even on public routes. */
export function authenticate(store: Store, request: FastifyRequest): Actor {
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
