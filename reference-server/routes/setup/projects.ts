// Projects (lib/api/projects.rb): listed, read, created and changed.
import type { FastifyInstance } from 'fastify';
import { ACCESS, type FeatureAccessLevel, type Group, type Project, type Visibility } from '../../state/model.js';
import { requireScope, requireUser, READ_API_SCOPES, WRITE_API_SCOPES } from '../../http/auth.js';
import { actorOf, findProject, type Context, type RouteModule } from '../../http/context.js';
import { apiError, forbidden, notFound, validationError } from '../../http/errors.js';
import { mergedParams, Params } from '../../http/params.js';
import { paginate } from '../../http/pagination.js';
import { ALL_ACCESS_VALUES, contains, FEATURE_LEVELS, listOrder, PATH_PATTERN, rank, sortBy, uploadedAvatar, VISIBILITIES } from './common.js';
import { projectEntity } from './entities.js';
import { on, routeTable } from '../../http/route-ids.js';

/** The routes of projects, by id. */
export const PROJECT_ROUTES = routeTable({
  list: { method: 'GET', path: '/projects' },
  get: { method: 'GET', path: '/projects/:id' },
  create: { method: 'POST', path: '/projects' },
  update: { method: 'PUT', path: '/projects/:id' },
});

/** The routes of projects. */
export const projectsRoutes: RouteModule = (app, ctx) => {
  listProjectsRoute(app, ctx);
  projectRoutes(app, ctx);
  updateProjectRoute(app, ctx);
};

function listProjectsRoute(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  // lib/api/projects.rb `get` (ProjectsFinder): the projects the caller can see, narrowed by owned,
  // membership, min_access_level (inherited access counts), visibility, id_after/id_before, creation
  // dates (updated_after/before, last_activity_after/before: no project changes after its creation
  // here), search (with search_namespaces: the full path too); nothing here is archived, starred,
  // imported or topic-tagged, so asking for those finds nothing. Ordered by created_at, newest first,
  // unless order_by/sort say otherwise (ties by id in the same direction).
  on(app, PROJECT_ROUTES.list, async (request, reply) => {
    const actor = actorOf(ctx, request);
    requireScope(actor, READ_API_SCOPES);
    const params = new Params(mergedParams(request));
    const search = params.string('search');
    const searchNamespaces = params.boolean('search_namespaces') === true;
    // owned (lib/api/projects.rb; User#owned_projects): the caller's personal projects and those of groups they own.
    const owned = params.boolean('owned') === true;
    const ownedBy = (p: Project) => {
      const group = store.projectGroup(p);
      return group ? store.accessLevel(group, actor.user) >= ACCESS.OWNER : p.namespace.id === actor.user?.id;
    };
    const membership = params.boolean('membership') === true;
    const minAccess = params.integer('min_access_level', { values: ALL_ACCESS_VALUES });
    const visibility = params.string('visibility', { values: VISIBILITIES });
    const idAfter = params.integer('id_after');
    const idBefore = params.integer('id_before');
    const after = [params.dateTime('updated_after'), params.dateTime('last_activity_after')];
    const before = [params.dateTime('updated_before'), params.dateTime('last_activity_before')];
    const nothingHere = params.boolean('archived') === true || params.boolean('starred') === true || params.boolean('imported') === true || params.has('topic') || params.has('topic_id');
    for (const name of ['simple', 'statistics', 'with_issues_enabled', 'with_merge_requests_enabled']) params.boolean(name);
    const order = listOrder(params, ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count'], 'created_at', 'desc');
    params.done();
    const access = (p: Project) => (actor.user ? store.projectAccess(p, actor.user.id) : 0);
    const projects = [...store.projects.values()].filter(
      (p) =>
        !nothingHere &&
        store.canSee(p, actor.user) &&
        (!owned || ownedBy(p)) &&
        (!membership || access(p) > 0) &&
        (minAccess === undefined || access(p) >= minAccess) &&
        (visibility === undefined || p.visibility === visibility) &&
        (idAfter === undefined || p.id > idAfter) &&
        (idBefore === undefined || p.id < idBefore) &&
        after.every((t) => t === undefined || Date.parse(p.createdAt) > t) &&
        before.every((t) => t === undefined || Date.parse(p.createdAt) < t) &&
        (contains(p.name, search) || contains(p.path, search) || (searchNamespaces && contains(store.projectFullPath(p), search))),
    );
    const created = (p: Project) => p.createdAt;
    const keys: Record<string, (p: Project) => string | number> = { id: (p) => p.id, name: (p) => p.name, path: (p) => p.path, created_at: created, updated_at: created, last_activity_at: created, similarity: (p) => p.name, star_count: () => 0 };
    sortBy(projects, order, keys, (p) => p.id);
    return paginate(request, reply, projects.map((p) => projectEntity(ctx, request, p)), params);
  });
}

/** One project: read and created. */
function projectRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  on<{ Params: { id: string } }>(app, PROJECT_ROUTES.get, async (request) => {
    requireScope(actorOf(ctx, request), READ_API_SCOPES);
    return projectEntity(ctx, request, findProject(ctx, request, request.params.id));
  });

  on(app, PROJECT_ROUTES.create, async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    const name = params.string('name');
    const path = params.string('path');
    const namespaceId = params.integer('namespace_id');
    const visibility = params.string('visibility', { values: VISIBILITIES }) as Visibility | undefined;
    const withReadme = params.boolean('initialize_with_readme') ?? false;
    const defaultBranch = params.string('default_branch');
    const description = params.string('description');
    const avatar = uploadedAvatar(params);
    if (name === undefined && path === undefined) params.addError('name, path are missing, at least one parameter must be provided');
    params.done();
    const projectPath = path ?? name!.toLowerCase().replace(/[^a-z0-9_.-]+/g, '-');
    let namespace: Project['namespace'] = { kind: 'user', id: user.id };
    let group: Group | undefined;
    if (namespaceId !== undefined) {
      group = store.groups.get(namespaceId);
      if (group) {
        if (store.accessLevel(group, user) < ACCESS.DEVELOPER) throw apiError(403, { namespace: ['is not valid'] });
        namespace = { kind: 'group', id: group.id };
      } else if (namespaceId !== user.id || !store.users.has(namespaceId)) {
        throw notFound('Namespace');
      }
    }
    if (!PATH_PATTERN.test(projectPath)) throw validationError({ path: ['can contain only letters, digits, \'_\', \'-\' and \'.\'.'] });
    const taken = [...store.projects.values()].some(
      (p) => p.namespace.kind === namespace.kind && p.namespace.id === namespace.id && p.path.toLowerCase() === projectPath.toLowerCase(),
    );
    if (taken) throw validationError({ path: ['has already been taken'], name: ['has already been taken'] });
    const chosen = visibility ?? 'private';
    if (group && rank(chosen) > rank(group.visibility)) {
      throw validationError({ visibility_level: [`${chosen} is not allowed in a ${group.visibility} group.`] });
    }
    const project = store.createProject({
      name: name ?? projectPath,
      path: projectPath,
      namespace,
      visibility: chosen,
      creatorId: user.id,
      defaultBranch: defaultBranch ?? 'main',
    });
    // Projects::CreateService: the holder of a personal namespace becomes the project's Owner member
    // (app/models/member.rb: "The creator of a personal project gets added as a ProjectMember with OWNER access").
    if (namespace.kind === 'user') store.addMember({ kind: 'project', id: project.id }, { userId: user.id, accessLevel: ACCESS.OWNER });
    if (description !== undefined) project.description = description;
    if (avatar) project.avatar = avatar;
    if (withReadme) {
      const signature = { name: user.name, email: user.email, time: Math.floor(Date.now() / 1000) };
      project.repository.commit({
        branch: project.repository.defaultBranch,
        action: { kind: 'create', path: 'README.md', content: Buffer.from(`# ${project.name}\n`) },
        message: 'Initial commit',
        author: signature,
        committer: signature,
      });
    }
    reply.code(201);
    return projectEntity(ctx, request, project);
  });
}

function updateProjectRoute(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  // lib/api/projects.rb `put ':id'`: authorize_admin_project (Maintainer and above), renaming and a
  // visibility change need more (:rename_project, :change_visibility_level: Owner here), then
  // Projects::UpdateService; a failed validation is render_validation_error! (400 {"message":{…}}).
  // Of the many settings the reference server keeps name, path, description, visibility and three feature levels.
  on<{ Params: { id: string } }>(app, PROJECT_ROUTES.update, async (request) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    const name = params.string('name', { allowBlank: false });
    const path = params.string('path', { allowBlank: false });
    const visibility = params.string('visibility', { values: VISIBILITIES }) as Visibility | undefined;
    const levels = {
      repository: params.string('repository_access_level', { values: FEATURE_LEVELS }) as FeatureAccessLevel | undefined,
      mergeRequests: params.string('merge_requests_access_level', { values: FEATURE_LEVELS }) as FeatureAccessLevel | undefined,
      builds: params.string('builds_access_level', { values: FEATURE_LEVELS }) as FeatureAccessLevel | undefined,
    };
    const description = params.string('description');
    const avatar = uploadedAvatar(params);
    const names = ['name', 'path', 'description', 'visibility', 'repository_access_level', 'merge_requests_access_level', 'builds_access_level', 'avatar'];
    // at_least_one_of(*update_params_at_least_one_of): Grape's text lists every setting; this one the kept ones.
    if (!names.some((n) => params.has(n))) params.addError(`${names.join(', ')} are missing, at least one parameter must be provided`);
    params.done();
    const project = findProject(ctx, request, request.params.id);
    const level = store.accessLevel(project, user);
    if (level < ACCESS.MAINTAINER) throw forbidden();
    if ((name !== undefined || visibility !== undefined) && level < ACCESS.OWNER) throw forbidden();
    const errors: Record<string, string[]> = {};
    if (path !== undefined) {
      if (!PATH_PATTERN.test(path)) errors.path = ['can contain only letters, digits, \'_\', \'-\' and \'.\'.'];
      const taken = [...store.projects.values()].some(
        (p) => p.id !== project.id && p.namespace.kind === project.namespace.kind && p.namespace.id === project.namespace.id && p.path.toLowerCase() === path.toLowerCase(),
      );
      if (taken) errors.path = ['has already been taken'];
    }
    const group = store.projectGroup(project);
    if (visibility !== undefined && group && rank(visibility) > rank(group.visibility)) {
      errors.visibility_level = [`${visibility} is not allowed in a ${group.visibility} group.`];
    }
    // ProjectFeature#repository_children_level: merge requests and CI cannot be more open than the repository.
    const order = (l: FeatureAccessLevel | undefined) => FEATURE_LEVELS.indexOf(l ?? 'enabled');
    const repository = levels.repository ?? project.repositoryAccessLevel;
    for (const [field, value] of [['merge_requests_access_level', levels.mergeRequests ?? project.mergeRequestsAccessLevel], ['builds_access_level', levels.builds ?? project.buildsAccessLevel]] as const) {
      if (order(value) > order(repository)) errors[`project_feature.${field}`] = ['cannot have higher visibility level than repository access level'];
    }
    if (Object.keys(errors).length > 0) throw validationError(errors);
    if (name !== undefined) project.name = name;
    // A new path leaves the old full path as a redirect (Routable: RedirectRoute; lib/api/helpers.rb find_project!).
    if (path !== undefined) store.renameProject(project, path);
    if (description !== undefined) project.description = description;
    if (visibility !== undefined) project.visibility = visibility;
    if (levels.repository !== undefined) project.repositoryAccessLevel = levels.repository;
    if (levels.mergeRequests !== undefined) project.mergeRequestsAccessLevel = levels.mergeRequests;
    if (levels.builds !== undefined) project.buildsAccessLevel = levels.builds;
    if (avatar) project.avatar = avatar;
    return projectEntity(ctx, request, project);
  });
}
