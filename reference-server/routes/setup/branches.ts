// Branches as the set-up makes and reads them (lib/api/branches.rb, lib/api/protected_branches.rb).
import type { FastifyInstance } from 'fastify';
import type { FastifyRequest } from 'fastify';
import { ACCESS, type Project } from '../../state/model.js';
import { requireScope, requireUser, READ_API_SCOPES, WRITE_API_SCOPES } from '../../http/auth.js';
import { actorOf, findProject, webBase, type Context, type RouteModule } from '../../http/context.js';
import { apiError, conflict, forbidden, notFound } from '../../http/errors.js';
import { mergedParams, Params } from '../../http/params.js';
import { RepositoryError } from '../../git/repository.js';
import { commitEntity } from '../commit-entity.js';
import { validRefName } from '../../git/ref-name.js';
import { on, routeTable } from '../../http/route-ids.js';

/** The routes of branches, by id. */
export const BRANCH_ROUTES = routeTable({
  create: { method: 'POST', path: '/projects/:id/repository/branches' },
  protect: { method: 'POST', path: '/projects/:id/protected_branches' },
  get: { method: 'GET', path: '/projects/:id/repository/branches/:branch' },
  exists: { method: 'HEAD', path: '/projects/:id/repository/branches/:branch' },
});

/** The routes of branches. */
export const branchesRoutes: RouteModule = (app, ctx) => {
  branchRoutes(app, ctx);
};

function branchRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  on<{ Params: { id: string } }>(app, BRANCH_ROUTES.create, async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const project = findProject(ctx, request, request.params.id);
    const params = new Params(mergedParams(request));
    const branch = params.string('branch', { required: true, allowBlank: false });
    const ref = params.string('ref', { required: true, allowBlank: false });
    params.done();
    if (store.accessLevel(project, user) < ACCESS.DEVELOPER) throw forbidden();
    try {
      project.repository.createBranch(branch!, ref!);
    } catch (error) {
      if (error instanceof RepositoryError) throw apiError(400, error.message);
      throw error;
    }
    reply.code(201);
    return branchEntity(ctx, request, project, branch!);
  });

  // lib/api/protected_branches.rb (POST :id/protected_branches, authorize_admin_project): protects a
  // branch, or a name no branch has yet, with GitLab's default levels (Maintainers push and merge),
  // the only protection this server holds; a name protected already is 409.
  on<{ Params: { id: string } }>(app, BRANCH_ROUTES.protect, async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const project = findProject(ctx, request, request.params.id);
    const params = new Params(mergedParams(request));
    const name = params.string('name', { required: true });
    params.integer('push_access_level', { values: [ACCESS.MAINTAINER] });
    params.integer('merge_access_level', { values: [ACCESS.MAINTAINER] });
    params.done();
    if (store.accessLevel(project, user) < ACCESS.MAINTAINER) throw forbidden();
    if (project.protectedBranches.has(name!)) throw conflict(`Protected branch '${name}' already exists`);
    project.protectedBranches.add(name!);
    reply.code(201);
    const maintainers = [{ id: project.protectedBranches.size, access_level: ACCESS.MAINTAINER, access_level_description: 'Maintainers', deploy_key_id: null, user_id: null, group_id: null }];
    return { id: project.protectedBranches.size, name, push_access_levels: maintainers, merge_access_levels: maintainers, allow_force_push: false, unprotect_access_levels: [], code_owner_approval_required: false };
  });

  // lib/api/branches.rb: GET answers the Branch entity through `find_branch!`; HEAD only says
  // whether the branch exists (204 or 404), so it is its own route, not GET without a body.
  type BranchRoute = { Params: { id: string; branch: string } };
  const readableProject = (request: FastifyRequest, id: string): Project => {
    const actor = actorOf(ctx, request);
    requireScope(actor, READ_API_SCOPES);
    const project = findProject(ctx, request, id);
    // authorize_read_code!: Reporter and above on a private project.
    if (project.visibility === 'private' && store.accessLevel(project, actor.user) < ACCESS.REPORTER) throw forbidden();
    return project;
  };

  on<BranchRoute>(app, BRANCH_ROUTES.get, { exposeHeadRoute: false }, async (request) => {
    const project = readableProject(request, request.params.id);
    const name = request.params.branch;
    // find_branch! (lib/api/helpers.rb): Gitlab::GitRefValidator first, then the lookup.
    if (!validRefName(name)) throw apiError(400, 'The branch refname is invalid');
    if (!project.repository.branches.has(name)) throw notFound('Branch');
    return branchEntity(ctx, request, project, name);
  });

  on<BranchRoute>(app, BRANCH_ROUTES.exists, async (request, reply) => {
    const project = readableProject(request, request.params.id);
    if (!project.repository.branches.has(request.params.branch)) throw notFound();
    reply.code(204);
  });
}

export function branchEntity(ctx: Context, request: FastifyRequest, project: Project, name: string) {
  const { store } = ctx;
  const repository = project.repository;
  const commit = repository.branchHead(name)!;
  const projectUrl = `${webBase(request)}/${store.projectFullPath(project)}`;
  const isProtected = project.protectedBranches.has(name);
  const user = actorOf(ctx, request).user;
  return {
    name,
    commit: commitEntity(request, store, project, commit),
    merged: mergedToDefault(project, commit.id),
    protected: isProtected,
    // Protected branches here allow Maintainers only (GitLab's default protection), so never Developers.
    developers_can_push: false,
    developers_can_merge: false,
    can_push: user !== undefined && store.accessLevel(project, user) >= (isProtected ? ACCESS.MAINTAINER : ACCESS.DEVELOPER),
    default: name === repository.defaultBranch,
    web_url: `${projectUrl}/-/tree/${name}`,
  };
}

/** Repository#merged_to_root_ref?: not the default branch's head, but one of its ancestors. */
function mergedToDefault(project: Project, head: string): boolean {
  const root = project.repository.branchHead(project.repository.defaultBranch);
  if (!root || root.id === head) return false;
  const seen = new Set<string>();
  const queue = [root.id];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (id === head) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(project.repository.commits.get(id)?.parentIds ?? []));
  }
  return false;
}
