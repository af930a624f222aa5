// The instance: its version and the application settings (lib/api/version.rb, lib/api/settings.rb).
import type { FastifyInstance } from 'fastify';
import { requireAdmin, requireScope, requireUser, READ_API_SCOPES, WRITE_API_SCOPES } from '../../http/auth.js';
import { actorOf, type Context, type RouteModule } from '../../http/context.js';
import { mergedParams, Params } from '../../http/params.js';
import { on, routeTable } from '../../http/route-ids.js';

/** The routes of the instance, by id. */
export const SETTINGS_ROUTES = routeTable({
  version: { method: 'GET', path: '/version' },
  get: { method: 'GET', path: '/application/settings' },
  update: { method: 'PUT', path: '/application/settings' },
});

/** GET /version and the application settings. */
export const settingsRoutes: RouteModule = (app, ctx) => {
  versionRoute(app, ctx);
  applicationSettingsRoutes(app, ctx);
};

function versionRoute(app: FastifyInstance, ctx: Context): void {
  on(app, SETTINGS_ROUTES.version, async (request) => {
    requireUser(actorOf(ctx, request));
    return { version: ctx.options.version, revision: 'reference', enterprise: ctx.options.version.endsWith('-ee') };
  });
}

function applicationSettingsRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  // lib/api/settings.rb: `before { authenticated_as_admin! }`; the GET presents the settings (of the
  // many, the reference server keeps one, and shows the deletion delay at GitLab's default:
  // app/models/application_setting_implementation.rb `deletion_adjourned_period: 7`).
  const settingsEntity = () => ({ enable_member_promotion_management: store.settings.enableMemberPromotionManagement, deletion_adjourned_period: 7 });

  on(app, SETTINGS_ROUTES.get, async (request) => {
    const actor = actorOf(ctx, request);
    requireAdmin(actor);
    requireScope(actor, READ_API_SCOPES);
    return settingsEntity();
  });

  on(app, SETTINGS_ROUTES.update, async (request) => {
    const actor = actorOf(ctx, request);
    requireAdmin(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    const promotion = params.boolean('enable_member_promotion_management');
    // lib/api/settings.rb: `at_least_one_of(*optional_attributes)`: a PUT without any setting is a
    // Grape 400 (its text lists every setting; the reference server knows one).
    if (!params.has('enable_member_promotion_management')) {
      params.addError('enable_member_promotion_management are missing, at least one parameter must be provided');
    }
    params.done();
    if (promotion !== undefined) store.settings.enableMemberPromotionManagement = promotion;
    return settingsEntity();
  });
}
