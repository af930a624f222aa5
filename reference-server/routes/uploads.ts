// The uploads GitLab serves outside the API: an avatar at the path its avatar_url names
// (app/uploaders/avatar_uploader.rb, served by UploadsController#show for the models "user", "group"
// and "project", mounted_as "avatar"). A user's avatar is served to anyone; a group's or project's to
// whoever can read it (UploadsController#authorize_access!: read_group / read_project), else 404.
import type { FastifyInstance } from 'fastify';
import { actorOf, type Context } from '../http/context.js';
import type { Avatar } from '../state/model.js';
import { on, routeTable } from '../http/route-ids.js';

/** The routes of uploads, by id. */
export const UPLOAD_ROUTES = routeTable({
  avatar: { method: 'GET', path: '/uploads/-/system/:model/avatar/:id/:filename' },
});

export function uploadsRoutes(app: FastifyInstance, ctx: Context): void {
  on<{ Params: { model: string; id: string; filename: string } }>(app, UPLOAD_ROUTES.avatar, async (request, reply) => {
    const { model, id, filename } = request.params;
    let avatar: Avatar | undefined;
    if (model === 'user') avatar = ctx.store.userByIdText(id)?.avatar;
    else if (model === 'group' || model === 'project') {
      const source = /^\d+$/.test(id) ? (model === 'group' ? ctx.store.groups : ctx.store.projects).get(Number(id)) : undefined;
      if (source && ctx.store.canSee(source, actorOf(ctx, request).user)) avatar = source.avatar;
    }
    if (!avatar || avatar.filename !== filename) return reply.code(404).send({ message: '404 Not Found' });
    return reply.type(avatar.type).send(avatar.content);
  });
}
