// Personal access tokens (lib/api/users.rb, lib/api/personal_access_tokens.rb): made for a user, read by
// the token itself, revoked.
import type { FastifyInstance } from 'fastify';
import { requireAdmin, requireScope, requireUser, WRITE_API_SCOPES } from '../../http/auth.js';
import { actorOf, type Context, type RouteModule } from '../../http/context.js';
import { badRequest, notFound, recordNotFound, unauthorized } from '../../http/errors.js';
import { mergedParams, Params } from '../../http/params.js';
import { on, routeTable } from '../../http/route-ids.js';

/** The routes of personal access tokens, by id. */
export const TOKEN_ROUTES = routeTable({
  create: { method: 'POST', path: '/users/:id/personal_access_tokens' },
  self: { method: 'GET', path: '/personal_access_tokens/self' },
  revoke: { method: 'DELETE', path: '/personal_access_tokens/:id' },
});

const TOKEN_SCOPES = ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'read_registry', 'write_registry', 'sudo', 'admin_mode', 'create_runner', 'manage_runner', 'ai_features', 'k8s_proxy', 'read_service_ping'];

/** The routes of personal access tokens. */
export const tokensRoutes: RouteModule = (app, ctx) => {
  personalTokenRoutes(app, ctx);
};

function personalTokenRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  on<{ Params: { id: string } }>(app, TOKEN_ROUTES.create, async (request, reply) => {
    const actor = actorOf(ctx, request);
    requireAdmin(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    const name = params.string('name', { required: true, allowBlank: false });
    const rawScopes = params.raw.scopes;
    const scopes = (Array.isArray(rawScopes) ? rawScopes : rawScopes === undefined ? [] : String(rawScopes).split(',')).map(String);
    if (rawScopes === undefined) params.addError('scopes is missing');
    else if (scopes.length === 0 || !scopes.every((s) => TOKEN_SCOPES.includes(s))) params.addError('scopes does not have a valid value');
    const expiresAt = params.date('expires_at');
    params.done();
    const user = store.userByIdText(request.params.id);
    if (!user) throw notFound('User');
    const token = store.createToken(user.id, name!, scopes, expiresAt ?? null);
    reply.code(201);
    return {
      id: token.id,
      name: token.name,
      revoked: false,
      created_at: token.createdAt,
      scopes: token.scopes,
      user_id: user.id,
      active: true,
      expires_at: token.expiresAt,
      token: token.token,
    };
  });

  // lib/api/personal_access_tokens/self_information.rb `get 'self'`: the token the request came with,
  // for a token of any scope (allow_access_with_scope(Gitlab::Auth.all_available_scopes)), as
  // Entities::PersonalAccessToken shows it (no token value).
  on(app, TOKEN_ROUTES.self, async (request) => {
    const token = actorOf(ctx, request).token;
    if (!token) throw unauthorized();
    return {
      id: token.id,
      name: token.name,
      revoked: token.revoked,
      created_at: token.createdAt,
      description: null,
      scopes: token.scopes,
      user_id: token.userId,
      last_used_at: null,
      active: !token.revoked,
      expires_at: token.expiresAt,
    };
  });

  // lib/api/personal_access_tokens.rb `delete ':id'`: PersonalAccessTokens::RevokeService revokes an
  // administrator's any token and a user's own (204); another's is bad_request!; an unknown id 404.
  on<{ Params: { id: string } }>(app, TOKEN_ROUTES.revoke, async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const token = [...store.tokens.values()].find((t) => String(t.id) === request.params.id);
    if (!token) throw recordNotFound();
    if (!user.isAdmin && token.userId !== user.id) throw badRequest();
    token.revoked = true;
    reply.code(204);
  });
}
