// Members of groups and projects (lib/api/members.rb; gitlab-facts §4).
import type { FastifyRequest } from 'fastify';
import { requireScope, requireUser, WRITE_API_SCOPES } from '../http/auth.js';
import { actorOf, findGroup, findProject, type Context, type RouteModule } from '../http/context.js';
import { conflict, forbidden, notFound, validationError } from '../http/errors.js';
import { mergedParams, Params } from '../http/params.js';
import { ACCESS, type Source } from '../state/model.js';

type SourceRoute = { Params: { id: string } };

const MEMBER_LEVELS = [ACCESS.GUEST, ACCESS.PLANNER, ACCESS.REPORTER, ACCESS.DEVELOPER, ACCESS.MAINTAINER, ACCESS.OWNER, ACCESS.MINIMAL_ACCESS] as number[];

function findSource(ctx: Context, request: FastifyRequest<SourceRoute>, kind: 'group' | 'project'): Source {
  return kind === 'group' ? findGroup(ctx, request, request.params.id) : findProject(ctx, request, request.params.id);
}

export const membersRoutes: RouteModule = (app, ctx) => {
  const { store } = ctx;

  for (const kind of ['group', 'project'] as const) {
    app.post<SourceRoute>(`/${kind}s/:id/members`, async (request, reply) => {
      const actor = actorOf(ctx, request);
      const user = requireUser(actor);
      requireScope(actor, WRITE_API_SCOPES);
      const source = findSource(ctx, request, kind);
      const params = new Params(mergedParams(request));
      const accessLevel = params.integer('access_level', { required: true });
      const expiresAt = params.date('expires_at');
      const userIdParam = params.string('user_id');
      const username = params.string('username');
      if (userIdParam !== undefined && username !== undefined) params.addError('user_id, username are mutually exclusive');
      if (userIdParam === undefined && username === undefined) params.addError('user_id, username are missing, at least one parameter must be provided');
      params.done();
      const target = userIdParam !== undefined ? (/^\d+$/.test(userIdParam) ? store.users.get(Number(userIdParam)) : undefined) : store.userByUsername(username!);
      if (!target) throw notFound('User');
      // GitLab checks "already a member" before permission (gitlab-facts §0.6).
      if (store.directMembership(source, target.id)) throw conflict('Member already exists');
      if (store.accessLevel(source, user) < ACCESS.MAINTAINER) throw forbidden();
      if (kind === 'project' && accessLevel === ACCESS.OWNER && store.accessLevel(source, user) < ACCESS.OWNER) throw forbidden();
      if (!MEMBER_LEVELS.includes(accessLevel!)) throw validationError({ access_level: ['is not included in the list'] });
      if (expiresAt && expiresAt < new Date().toISOString().slice(0, 10)) throw validationError({ expires_at: ['cannot be a date in the past'] });
      store.addMember(store.sourceRef(source), { userId: target.id, accessLevel: accessLevel!, expiresAt: expiresAt ?? null, createdById: user.id });
      reply.code(201);
      return { id: target.id, username: target.username, access_level: accessLevel };
    });
  }
};
