// The uploads GitLab serves outside the API: a user's avatar at the path its avatar_url names
// (app/uploaders/avatar_uploader.rb, served by UploadsController#show for model "user", mounted_as
// "avatar"), without a token, as GitLab serves avatars of public profiles.
import type { FastifyInstance } from 'fastify';
import type { Context } from '../http/context.js';

export function uploadsRoutes(app: FastifyInstance, ctx: Context): void {
  app.get<{ Params: { id: string; filename: string } }>('/uploads/-/system/user/avatar/:id/:filename', async (request, reply) => {
    const user = ctx.store.userByIdText(request.params.id);
    const avatar = user?.avatar;
    if (!avatar || avatar.filename !== request.params.filename) return reply.code(404).send({ message: '404 Not Found' });
    return reply.type(avatar.type).send(avatar.content);
  });
}
