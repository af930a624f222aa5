// Project access tokens (lib/api/resource_access_tokens.rb `post ':id/access_tokens'`,
// app/services/resource_access_tokens/create_service.rb): a set-up endpoint beyond the target
// contract. The token belongs to a bot user (user_type project_bot) made for it, who becomes a member
// of the project at the token's level; the members and invitations suites use such a bot as a user
// that GitLab allows in no other group or project.
import { randomBytes } from 'node:crypto';
import { requireScope, requireUser, WRITE_API_SCOPES } from '../../http/auth.js';
import { actorOf, findProject, type RouteModule } from '../../http/context.js';
import { badRequest } from '../../http/errors.js';
import { mergedParams, Params } from '../../http/params.js';
import { ACCESS } from '../../state/model.js';
import { today } from '../../state/store.js';
import { on, routeTable } from '../../http/route-ids.js';

/** The routes of access-tokens, by id. */
export const ACCESS_TOKEN_ROUTES = routeTable({
  create: { method: 'POST', path: '/projects/:id/access_tokens' },
});

/** Gitlab::Auth.resource_bot_scopes: what a resource token may be given. */
const BOT_SCOPES = ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'read_registry', 'write_registry', 'create_runner', 'manage_runner', 'ai_features', 'k8s_proxy', 'self_rotate'];
/** ALLOWED_RESOURCE_ACCESS_LEVELS: Gitlab::Access.options_with_owner. */
const TOKEN_LEVELS = [ACCESS.GUEST, ACCESS.PLANNER, ACCESS.REPORTER, ACCESS.DEVELOPER, ACCESS.MAINTAINER, ACCESS.OWNER];
/** PersonalAccessToken::MAX_PERSONAL_ACCESS_TOKEN_LIFETIME_IN_DAYS: the default expiry. */
const MAX_LIFETIME_DAYS = 365;

type ProjectRoute = { Params: { id: string } };

export const accessTokensRoutes: RouteModule = (app, ctx) => {
  const { store } = ctx;

  on<ProjectRoute>(app, ACCESS_TOKEN_ROUTES.create, async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    const name = params.string('name', { required: true });
    const rawScopes = params.raw.scopes;
    const scopes = (Array.isArray(rawScopes) ? rawScopes : rawScopes === undefined ? [] : String(rawScopes).split(',')).map(String);
    if (rawScopes === undefined) params.addError('scopes is missing');
    else if (scopes.length === 0 || !scopes.every((s) => BOT_SCOPES.includes(s))) params.addError('scopes does not have a valid value');
    const expiresAt = params.date('expires_at') ?? new Date(Date.parse(today()) + MAX_LIFETIME_DAYS * 86_400_000).toISOString().slice(0, 10);
    const description = params.string('description');
    const accessLevel = params.integer('access_level', { values: TOKEN_LEVELS }) ?? ACCESS.MAINTAINER;
    params.done();
    const project = findProject(ctx, request, request.params.id);
    const level = store.accessLevel(project, user);
    // create_resource_access_tokens: admin_project, a Maintainer's; the service's errors are bad_request!.
    if (level < ACCESS.MAINTAINER) throw badRequest('User does not have permission to create project access token');
    if (accessLevel === ACCESS.OWNER && level < ACCESS.OWNER) throw badRequest('Could not provision owner access to project access token');
    if (accessLevel > level) throw badRequest("Access level of the token can't be greater the access level of the user who created the token");
    // Gitlab::Utils::UsernameAndEmailGenerator: "<resource>_<id>_bot_<hex>" at noreply.<host>, confirmed.
    const username = `project_${project.id}_bot_${randomBytes(16).toString('hex')}`;
    const bot = store.createUser({ username, name: name!, email: `${username}@noreply.${request.hostname}`, userType: 'project_bot' });
    // resource.add_member(user, access_level) without a current user: nobody is its created_by.
    store.addMember(store.sourceRef(project), { userId: bot.id, accessLevel, expiresAt, inviteSource: 'access-token' });
    const token = store.createToken(bot.id, name!, scopes, expiresAt);
    reply.code(201);
    // Entities::ResourceAccessTokenWithToken: the PersonalAccessToken entity, access_level and the token.
    return {
      id: token.id,
      name: token.name,
      revoked: false,
      created_at: token.createdAt,
      description: description ?? null,
      scopes: token.scopes,
      user_id: bot.id,
      last_used_at: null,
      active: true,
      expires_at: token.expiresAt,
      access_level: accessLevel,
      resource_type: 'project',
      resource_id: project.id,
      token: token.token,
    };
  });
};
