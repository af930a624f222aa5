// Sharing a group or a project with a group (lib/api/groups.rb, lib/api/projects.rb `share`), and taking the share back.
import type { FastifyInstance } from 'fastify';
import { ACCESS } from '../../state/model.js';
import { requireScope, requireUser, WRITE_API_SCOPES } from '../../http/auth.js';
import { actorOf, findGroup, findProject, type Context, type RouteModule } from '../../http/context.js';
import { apiError, forbidden, notFound } from '../../http/errors.js';
import { mergedParams, Params } from '../../http/params.js';
import { ALL_ACCESS_VALUES } from './common.js';
import { groupDetail } from './entities.js';
import { on, routeTable } from '../../http/route-ids.js';

/** The routes of shares, by id. */
export const SHARE_ROUTES = routeTable({
  group: { method: 'POST', path: '/groups/:id/share' },
  project: { method: 'POST', path: '/projects/:id/share' },
  remove: { method: 'DELETE', path: '/:kind/:id/share/:group_id' },
});

/** The routes of shares. */
export const sharesRoutes: RouteModule = (app, ctx) => {
  shareRoutes(app, ctx);
};

function shareRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  on<{ Params: { id: string } }>(app, SHARE_ROUTES.group, async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const group = findGroup(ctx, request, request.params.id);
    const params = new Params(mergedParams(request));
    const groupId = params.integer('group_id', { required: true });
    const access = params.integer('group_access', { required: true, values: ALL_ACCESS_VALUES });
    const expiresAt = params.date('expires_at');
    params.done();
    const invited = store.groups.get(groupId!);
    if (!invited || !store.canSee(invited, user)) throw notFound('Group');
    if (store.accessLevel(group, user) < ACCESS.OWNER) throw forbidden();
    if (group.sharedWith.some((l) => l.groupId === invited.id)) throw apiError(409, 'Shared group The group has already been shared with this group');
    group.sharedWith.push({ groupId: invited.id, accessLevel: access!, expiresAt: expiresAt ?? null });
    reply.code(201);
    return groupDetail(ctx, request, group);
  });

  // lib/api/groups.rb `delete ":id/share/:group_id"` (admin_group: Owner) and lib/api/projects.rb
  // `delete ":id/share/:group_id"` (authorize_admin_project: Maintainer): the link goes, 204; a group the
  // source is not shared with is 404 "Group Link Not Found".
  for (const kind of ['group', 'project'] as const) {
    on<{ Params: { id: string; group_id: string } }>(app, SHARE_ROUTES.remove, { kind }, async (request, reply) => {
      const actor = actorOf(ctx, request);
      const user = requireUser(actor);
      requireScope(actor, WRITE_API_SCOPES);
      const source = kind === 'group' ? findGroup(ctx, request, request.params.id) : findProject(ctx, request, request.params.id);
      if (store.accessLevel(source, user) < (kind === 'group' ? ACCESS.OWNER : ACCESS.MAINTAINER)) throw forbidden();
      const index = source.sharedWith.findIndex((l) => String(l.groupId) === request.params.group_id);
      if (index < 0) throw notFound('Group Link');
      source.sharedWith.splice(index, 1);
      reply.code(204);
    });
  }

  on<{ Params: { id: string } }>(app, SHARE_ROUTES.project, async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const project = findProject(ctx, request, request.params.id);
    const params = new Params(mergedParams(request));
    const groupId = params.integer('group_id', { required: true });
    const access = params.integer('group_access', { required: true, values: ALL_ACCESS_VALUES });
    const expiresAt = params.date('expires_at');
    params.done();
    if (store.accessLevel(project, user) < ACCESS.MAINTAINER) throw forbidden();
    const invited = store.groups.get(groupId!);
    if (!invited || !store.canSee(invited, user)) throw notFound('Group');
    if (project.sharedWith.some((l) => l.groupId === invited.id)) throw apiError(409, { group_id: ['has already been taken'] });
    project.sharedWith.push({ groupId: invited.id, accessLevel: access!, expiresAt: expiresAt ?? null });
    reply.code(201);
    return { id: project.sharedWith.length, project_id: project.id, group_id: invited.id, group_access: access, expires_at: expiresAt ?? null };
  });
}
