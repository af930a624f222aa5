// The target contract's setup endpoints (TARGET-CONTRACT.md §2), as GitLab answers them:
// version, current user, users and their tokens, groups, projects, sharing, branches, settings.
import type { FastifyRequest } from 'fastify';
import { ACCESS, type Avatar, type FeatureAccessLevel, type Group, type Project, type EmailRow, type Source, type User, type Visibility } from '../state/model.js';
import { requireAdmin, requireScope, requireUser, READ_API_SCOPES, WRITE_API_SCOPES } from '../http/auth.js';
import { actorOf, avatarUrl, findGroup, findProject, sourceAvatarUrl, userBasic, webBase, type Context, type RouteModule } from '../http/context.js';
import { apiError, badRequest, conflict, forbidden, notFound, paramError, recordNotFound, unauthorized, validationError } from '../http/errors.js';
import { mergedParams, Params } from '../http/params.js';
import type { UploadedFile } from '../http/rack-params.js';
import { paginate } from '../http/pagination.js';
import { RepositoryError } from '../git/repository.js';
import { commitEntity } from './commit-entity.js';
import { validRefName } from '../git/ref-name.js';
import { ROLE_NAMES } from '../state/model.js';
import { accessRequestsRoutes } from './access-requests.js';
import { accessTokensRoutes } from './access-tokens.js';
import { deletionRoutes } from './deletion.js';

const VISIBILITIES = ['private', 'internal', 'public'] as const;
/** ProjectFeature's levels as the API names them (lib/api/helpers/projects_helpers.rb: values disabled, private, enabled). */
const FEATURE_LEVELS = ['disabled', 'private', 'enabled'] as const;
const TOKEN_SCOPES = ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'read_registry', 'write_registry', 'sudo', 'admin_mode', 'create_runner', 'manage_runner', 'ai_features', 'k8s_proxy', 'read_service_ping'];
const ALL_ACCESS_VALUES = Object.keys(ROLE_NAMES).map(Number);
const PATH_PATTERN = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;
// users.public_email has no default since GitLab's RemoveNotNullConstraintAndDefaultForPublicEmail
// migration: a user who set none reads `null` (the store keeps '').

export function groupEntity(ctx: Context, request: FastifyRequest, group: Group) {
  const fullPath = ctx.store.groupFullPath(group);
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    full_name: ctx.store.groupFullName(group),
    full_path: fullPath,
    parent_id: group.parentId,
    created_at: group.createdAt,
    avatar_url: sourceAvatarUrl(request, group),
    web_url: `${webBase(request)}/groups/${fullPath}`,
    // Only once marked: lib/api/entities/group.rb exposes marked_for_deletion_on (ee/lib/ee/api/entities/group.rb in 17.x).
    ...(group.markedForDeletionOn ? { marked_for_deletion_on: group.markedForDeletionOn } : {}),
  };
}

/**
 * The groups a group or project is shared with: lib/api/entities/shared_group_with_group.rb and
 * shared_group_with_project.rb (group_id, group_name, group_full_path, group_access_level, expires_at).
 */
function sharedWithGroups(ctx: Context, links: Group['sharedWith']) {
  return links.flatMap((link) => {
    const invited = ctx.store.groups.get(link.groupId);
    if (!invited) return [];
    return [{
      group_id: invited.id,
      group_name: invited.name,
      group_full_path: ctx.store.groupFullPath(invited),
      group_access_level: link.accessLevel,
      expires_at: link.expiresAt,
    }];
  });
}

/** GET /groups/:id presents GroupDetail: the Group entity with the groups it is shared with. */
export function groupDetail(ctx: Context, request: FastifyRequest, group: Group) {
  return { ...groupEntity(ctx, request, group), shared_with_groups: sharedWithGroups(ctx, group.sharedWith) };
}

/** lib/api/entities/namespace_basic.rb: a group's namespace, or the user's own. */
function namespaceBasic(ctx: Context, request: FastifyRequest, project: Project) {
  const group = ctx.store.projectGroup(project);
  if (group) {
    const fullPath = ctx.store.groupFullPath(group);
    return { id: group.id, name: group.name, path: group.path, kind: 'group', full_path: fullPath, parent_id: group.parentId, avatar_url: sourceAvatarUrl(request, group), web_url: `${webBase(request)}/groups/${fullPath}` };
  }
  const owner = ctx.store.users.get(project.namespace.id);
  const path = owner?.username ?? ctx.store.projectFullPath(project).split('/')[0];
  return { id: project.namespace.id, name: owner?.name ?? path, path, kind: 'user', full_path: path, parent_id: null, avatar_url: owner ? avatarUrl(request, owner) : null, web_url: `${webBase(request)}/${path}` };
}

export function projectEntity(ctx: Context, request: FastifyRequest, project: Project) {
  const fullPath = ctx.store.projectFullPath(project);
  return {
    id: project.id,
    name: project.name,
    path: project.path,
    description: project.description ?? '',
    name_with_namespace: ctx.store.projectFullName(project),
    path_with_namespace: fullPath,
    visibility: project.visibility,
    default_branch: project.repository.isEmpty ? null : project.repository.defaultBranch,
    empty_repo: project.repository.isEmpty,
    repository_access_level: project.repositoryAccessLevel ?? 'enabled',
    merge_requests_access_level: project.mergeRequestsAccessLevel ?? 'enabled',
    builds_access_level: project.buildsAccessLevel ?? 'enabled',
    created_at: project.createdAt,
    creator_id: project.creatorId,
    avatar_url: sourceAvatarUrl(request, project),
    namespace: namespaceBasic(ctx, request, project),
    shared_with_groups: sharedWithGroups(ctx, project.sharedWith),
    web_url: `${webBase(request)}/${fullPath}`,
    // What clients read beside (lib/api/entities/basic_project_details.rb, project.rb): nothing here
    // is archived, tagged, forked or starred, and nothing changes a project's activity time.
    ssh_url_to_repo: `git@${request.hostname}:${fullPath}.git`,
    http_url_to_repo: `${webBase(request)}/${fullPath}.git`,
    archived: false,
    tag_list: [],
    topics: [],
    forks_count: 0,
    star_count: 0,
    last_activity_at: project.createdAt,
    // Only once marked: lib/api/entities/project.rb exposes marked_for_deletion_at and marked_for_deletion_on (dates).
    ...(project.markedForDeletionOn ? { marked_for_deletion_at: project.markedForDeletionOn, marked_for_deletion_on: project.markedForDeletionOn } : {}),
  };
}

export const setupRoutes: RouteModule = (app, ctx) => {
  const { store } = ctx;
  // POST and GET …/access_requests (lib/api/access_requests.rb): the suites' access requesters.
  accessRequestsRoutes(app, ctx);
  // POST /projects/:id/access_tokens (lib/api/resource_access_tokens.rb): a project bot for the members and invitations suites.
  accessTokensRoutes(app, ctx);
  deletionRoutes(app, ctx);

  app.get('/version', async (request) => {
    requireUser(actorOf(ctx, request));
    return { version: ctx.options.version, revision: 'reference', enterprise: ctx.options.version.endsWith('-ee') };
  });

  app.get('/user', async (request) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, [...READ_API_SCOPES, 'read_user']);
    return { ...userBasic(request, user), email: user.email, public_email: user.publicEmail || null, is_admin: user.isAdmin, created_at: user.createdAt };
  });

  app.post('/users', async (request, reply) => {
    const actor = actorOf(ctx, request);
    requireAdmin(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    const email = params.string('email', { required: true });
    const username = params.string('username', { required: true });
    const name = params.string('name', { required: true });
    const password = params.string('password');
    const reset = params.boolean('reset_password');
    const random = params.boolean('force_random_password');
    const publicEmail = params.string('public_email');
    // app/services/users/build_service.rb: an administrator's user is confirmed only with skip_confirmation.
    const confirmed = params.boolean('skip_confirmation') === true;
    const avatar = uploadedAvatar(params);
    params.done();
    if (!password && !reset && !random) throw apiError(400, '400 Bad request - "password" not given');
    if (!/^[^@\s]+@[^@\s]+$/.test(email!)) throw validationError({ email: ['is invalid'] });
    if (!PATH_PATTERN.test(username!)) throw validationError({ username: ['can contain only letters, digits, \'_\', \'-\' and \'.\'.'] });
    if (store.emailTaken(email!)) throw conflict('Email has already been taken');
    if (store.userByUsername(username!)) throw conflict('Username has already been taken');
    const user = store.createUser({ username: username!, name: name!, email: email!, publicEmail, confirmed });
    if (avatar) user.avatar = avatar;
    reply.code(201);
    // lib/api/entities/user_public.rb exposes confirmed_at: null while the primary address is unconfirmed.
    return { ...userBasic(request, user), email: user.email, public_email: user.publicEmail || null, is_admin: false, created_at: user.createdAt, confirmed_at: user.confirmed ? user.createdAt : null };
  });

  // Listings with `search`, as GitLab's GET /users, /groups and /projects (used by `sweep`).
  const contains = (text: string, search: string | undefined) => search === undefined || text.toLowerCase().includes(search.toLowerCase());

  app.get('/users', async (request, reply) => {
    const actor = actorOf(ctx, request);
    requireUser(actor);
    requireScope(actor, READ_API_SCOPES);
    const isAdmin = actor.user!.isAdmin;
    const params = new Params(mergedParams(request));
    const search = params.string('search');
    // UsersFinder#by_username: an exact, case-insensitive match (lib/api/users.rb `optional :username`).
    const username = params.string('username');
    // UsersFinder (lib/api/users.rb passes these on): active and blocked by state, humans and
    // without_project_bots leave bots out, exclude_humans keeps them alone, admins only for an
    // administrator (by_admins). No user here is external, internal (ghost, support bot) or has
    // two-factor authentication: external=true and two_factor=enabled find nobody.
    const active = params.boolean('active') === true;
    const blocked = params.boolean('blocked') === true;
    const humans = params.boolean('humans') === true || params.boolean('without_project_bots') === true;
    const botsOnly = params.boolean('exclude_humans') === true;
    const notActive = params.boolean('exclude_active') === true;
    const external = params.boolean('external') === true;
    params.boolean('exclude_external');
    params.boolean('exclude_internal');
    const admins = params.boolean('admins') === true && isAdmin;
    // Administrators only (the API drops them for others): creation dates, two_factor, without_projects, the order.
    const createdAfter = params.dateTime('created_after');
    const createdBefore = params.dateTime('created_before');
    const twoFactor = params.string('two_factor');
    const withoutProjects = params.boolean('without_projects') === true;
    const order = listOrder(params, ['id', 'name', 'username', 'created_at', 'updated_at'], 'id', 'desc');
    params.done();
    const hasProject = (u: User) => [...store.projects.values()].some((p) => store.projectAccess(p, u.id) > 0);
    const users = [...store.users.values()].filter(
      (u) =>
        (username === undefined || u.username.toLowerCase() === username.toLowerCase()) &&
        (!active || u.state === 'active') &&
        (!blocked || u.state === 'blocked') &&
        (!notActive || u.state !== 'active') &&
        (!humans || u.userType === undefined) &&
        (!botsOnly || u.userType !== undefined) &&
        !external &&
        (!admins || u.isAdmin) &&
        (!isAdmin || ((createdAfter === undefined || Date.parse(u.createdAt) > createdAfter) && (createdBefore === undefined || Date.parse(u.createdAt) < createdBefore) && twoFactor !== 'enabled' && (!withoutProjects || !hasProject(u)))) &&
        (contains(u.username, search) || contains(u.name, search) || (isAdmin && contains(u.email, search))),
    );
    const keys: Record<string, (u: User) => string | number> = { id: (u) => u.id, name: (u) => u.name, username: (u) => u.username, created_at: (u) => u.createdAt, updated_at: (u) => u.createdAt };
    // UsersFinder orders by id, newest first; only an administrator chooses another order.
    sortBy(users, isAdmin ? order : { by: 'id', direction: 'desc' }, keys, (u) => u.id);
    // An administrator reads Entities::UserWithAdmin (the addresses, is_admin), others UserBasic.
    const entity = (u: (typeof users)[number]) => (isAdmin ? { ...userBasic(request, u), email: u.email, public_email: u.publicEmail || null, is_admin: u.isAdmin, created_at: u.createdAt } : userBasic(request, u));
    return paginate(request, reply, users.map(entity), params);
  });

  /**
   * lib/api/groups.rb find_groups: GroupsFinder with all_available defaulting to whether the caller
   * reads everything (an administrator). Without all_available a user lists only the groups they are
   * related to (GroupsFinder#all_groups: authorized groups and their ancestors, their groups'
   * descendants); with it, the public and internal ones too; no user, the public ones. owned and
   * min_access_level replace that set (owned_groups; the groups of a direct membership at that level
   * or above and their descendants), for administrators too. Then parent (top_level_only, or the
   * parent of GET :id/subgroups), search, visibility, skip_groups, and order_groups: order_by name,
   * path or id (similarity: by name here) and sort, ties by id ascending.
   */
  const listGroups = (request: FastifyRequest, params: Params, parent?: { group: Group; descendants: boolean }) => {
    const actor = actorOf(ctx, request);
    const user = actor.user;
    const search = params.string('search');
    // skip_groups: Array[Integer] with CommaSeparatedToIntegerArray (lib/api/groups.rb).
    const skip = params.integerList('skip_groups') ?? [];
    const allAvailable = params.boolean('all_available') ?? user?.isAdmin === true;
    const topLevelOnly = params.boolean('top_level_only') === true;
    const owned = params.boolean('owned') === true;
    const minAccess = params.integer('min_access_level', { values: ALL_ACCESS_VALUES });
    const visibility = params.string('visibility', { values: VISIBILITIES });
    params.boolean('statistics');
    const order = listOrder(params, ['name', 'path', 'id', 'similarity'], 'name', 'asc');
    params.done();
    const direct = (g: Group, level: number) => user !== undefined && (store.directMembership(g, user.id)?.accessLevel ?? 0) >= level;
    const related = (g: Group) =>
      user !== undefined &&
      (store.groupAccess(g, user.id) > 0 || store.descendantGroups(g).some((d) => store.groupAccess(d, user.id) > 0) || store.projectsInHierarchy(g).some((p) => store.projectAccess(p, user.id) > 0));
    const inScope = (g: Group) => {
      if (owned) return direct(g, ACCESS.OWNER);
      if (minAccess !== undefined) return user !== undefined && store.groupChain(g).some((a) => direct(a, minAccess));
      if (!user) return g.visibility === 'public';
      if (allAvailable) return store.canSee(g, user);
      return related(g);
    };
    const below = parent && (parent.descendants ? new Set(store.descendantGroups(parent.group).map((g) => g.id)) : undefined);
    const groups = [...store.groups.values()].filter(
      (g) =>
        inScope(g) &&
        !skip.includes(g.id) &&
        (!topLevelOnly || g.parentId === null) &&
        (!parent || (below ? below.has(g.id) : g.parentId === parent.group.id)) &&
        (visibility === undefined || g.visibility === visibility) &&
        (contains(g.name, search) || contains(g.path, search)),
    );
    const keys: Record<string, (g: Group) => string | number> = { name: (g) => g.name, similarity: (g) => g.name, path: (g) => g.path, id: (g) => g.id };
    sortBy(groups, order, keys, (g) => g.id, 'asc');
    return groups.map((g) => groupEntity(ctx, request, g));
  };

  app.get('/groups', async (request, reply) => {
    requireScope(actorOf(ctx, request), READ_API_SCOPES);
    const params = new Params(mergedParams(request));
    return paginate(request, reply, listGroups(request, params), params);
  });

  // lib/api/groups.rb `get ":id/subgroups"` and `get ":id/descendant_groups"`: find_groups with the
  // group as parent (include_parent_descendants for the second), the same filters and order as GET /groups.
  for (const [route, descendants] of [['subgroups', false], ['descendant_groups', true]] as const) {
    app.get<{ Params: { id: string } }>(`/groups/:id/${route}`, async (request, reply) => {
      requireScope(actorOf(ctx, request), READ_API_SCOPES);
      const params = new Params(mergedParams(request));
      const group = findGroup(ctx, request, request.params.id);
      return paginate(request, reply, listGroups(request, params, { group, descendants }), params);
    });
  }

  // lib/api/users.rb `get ":user_id/memberships"` (administrators): the user's direct memberships of
  // groups ("Namespace") and projects, `type` narrowing them; Entities::Membership.
  app.get<{ Params: { id: string } }>('/users/:id/memberships', async (request, reply) => {
    const actor = actorOf(ctx, request);
    requireAdmin(actor);
    requireScope(actor, READ_API_SCOPES);
    const params = new Params(mergedParams(request));
    const type = params.string('type', { values: ['Project', 'Namespace'] });
    params.done();
    const user = store.userByIdText(request.params.id);
    if (!user) throw notFound('User');
    const sources: Source[] = [...(type === 'Project' ? [] : store.groups.values()), ...(type === 'Namespace' ? [] : store.projects.values())];
    const rows = sources.flatMap((source) => {
      const member = store.directMembership(source, user.id);
      if (!member) return [];
      const name = source.kind === 'group' ? source.name : store.projectFullName(source);
      return [{ source_id: source.id, source_name: name, source_type: source.kind === 'group' ? 'Namespace' : 'Project', access_level: member.accessLevel }];
    });
    return paginate(request, reply, rows, params);
  });

  // lib/api/projects.rb `get` (ProjectsFinder): the projects the caller can see, narrowed by owned,
  // membership, min_access_level (inherited access counts), visibility, id_after/id_before, creation
  // dates (updated_after/before, last_activity_after/before: no project changes after its creation
  // here), search (with search_namespaces: the full path too); nothing here is archived, starred,
  // imported or topic-tagged, so asking for those finds nothing. Ordered by created_at, newest first,
  // unless order_by/sort say otherwise (ties by id in the same direction).
  app.get('/projects', async (request, reply) => {
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

  // lib/api/users.rb `get ":id"`: administrators see UserDetailsWithAdmin, which carries the address
  // and confirmed_at (a user confirmed by skip_confirmation is confirmed when made); others the public entity.
  app.get<{ Params: { id: string } }>('/users/:id', async (request) => {
    const actor = actorOf(ctx, request);
    requireScope(actor, READ_API_SCOPES);
    const user = store.userByIdText(request.params.id);
    if (!user) throw notFound('User');
    const basic = { ...userBasic(request, user), created_at: user.createdAt };
    if (!actor.user?.isAdmin) return basic;
    return { ...basic, email: user.email, public_email: user.publicEmail || null, is_admin: user.isAdmin, confirmed_at: user.confirmed ? user.createdAt : null };
  });

  app.delete<{ Params: { id: string } }>('/users/:id', async (request, reply) => {
    const actor = actorOf(ctx, request);
    requireAdmin(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const user = store.userByIdText(request.params.id);
    if (!user) throw notFound('User');
    if (user.id === actor.user!.id) throw forbidden();
    store.deleteUser(user.id);
    reply.code(204);
  });

  // lib/api/users.rb `put ":id"` (administrators), of its many attributes commit_email only: an address
  // the user verified (app/models/user.rb: "must be an email you have verified", a 400 of
  // render_validation_error!); the answer is UserDetailsWithAdmin, whose commit_email is
  // commit_email_or_default (lib/api/entities/user_public.rb).
  app.put<{ Params: { id: string } }>('/users/:id', async (request) => {
    const actor = actorOf(ctx, request);
    requireAdmin(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    const commitEmail = params.string('commit_email');
    params.done();
    const user = store.userByIdText(request.params.id);
    if (!user) throw notFound('User');
    if (commitEmail !== undefined) {
      const verified = (user.confirmed && commitEmail === user.email) || user.emails.some((row) => row.confirmed && row.email === commitEmail);
      if (!verified) throw validationError({ commit_email: ['must be an email you have verified'] });
      user.commitEmail = commitEmail;
    }
    const basic = { ...userBasic(request, user), created_at: user.createdAt };
    return { ...basic, email: user.email, commit_email: user.commitEmail ?? user.email, public_email: user.publicEmail || null, is_admin: user.isAdmin, confirmed_at: user.confirmed ? user.createdAt : null };
  });

  // lib/api/users.rb `post ":id/emails"` (administrators): a secondary address, confirmed at once only with
  // skip_confirmation (app/services/emails/create_service.rb); 201 with the Email entity.
  app.post<{ Params: { id: string } }>('/users/:id/emails', async (request, reply) => {
    const actor = actorOf(ctx, request);
    requireAdmin(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    const email = params.string('email', { required: true });
    const confirmed = params.boolean('skip_confirmation') === true;
    params.done();
    const user = store.userByIdText(request.params.id);
    if (!user) throw notFound('User');
    if (!/^[^@\s]+@[^@\s]+$/.test(email!)) throw validationError({ email: ['is invalid'] });
    if (store.emailTaken(email!)) throw validationError({ email: ['has already been taken'] });
    const row = { id: store.id('email'), email: email!, confirmed, createdAt: new Date().toISOString() };
    user.emails.push(row);
    reply.code(201);
    return emailEntity(row);
  });

  // lib/api/users.rb `get ':id/emails'` (administrators): paginate(user.emails) in id order (the default
  // order of lib/gitlab/pagination/offset_pagination.rb), the confirmed primary address's row first.
  app.get<{ Params: { id: string } }>('/users/:id/emails', async (request, reply) => {
    const actor = actorOf(ctx, request);
    requireAdmin(actor);
    requireScope(actor, READ_API_SCOPES);
    const params = new Params(mergedParams(request));
    const user = store.userByIdText(request.params.id);
    if (!user) throw notFound('User');
    return paginate(request, reply, emailRows(user).map(emailEntity), params);
  });

  // lib/api/users.rb `delete ':id/emails/:email_id'`: 404 "Email Not Found" for a row the user has not,
  // 204 once Emails::DestroyService removed it. That service raises 'Cannot delete primary email' for the
  // primary address's row (app/services/emails/destroy_service.rb), which lib/api/helpers.rb
  // handle_api_exception renders as GitLab's 500.
  app.delete<{ Params: { id: string; email_id: string } }>('/users/:id/emails/:email_id', async (request, reply) => {
    const actor = actorOf(ctx, request);
    requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    // Grape validates `requires :email_id, type: Integer` before the endpoint checks the administrator.
    if (!/^\d+$/.test(request.params.email_id)) throw paramError('email_id is invalid');
    requireAdmin(actor);
    const user = store.userByIdText(request.params.id);
    if (!user) throw notFound('User');
    const emailId = Number(request.params.email_id);
    if (emailId === user.primaryEmailId) throw apiError(500, '500 Internal Server Error');
    const index = user.emails.findIndex((row) => row.id === emailId);
    if (index < 0) throw notFound('Email');
    user.emails.splice(index, 1);
    reply.code(204);
  });

  app.post<{ Params: { id: string } }>('/users/:id/personal_access_tokens', async (request, reply) => {
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
  app.get('/personal_access_tokens/self', async (request) => {
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
  app.delete<{ Params: { id: string } }>('/personal_access_tokens/:id', async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const token = [...store.tokens.values()].find((t) => String(t.id) === request.params.id);
    if (!token) throw recordNotFound();
    if (!user.isAdmin && token.userId !== user.id) throw badRequest();
    token.revoked = true;
    reply.code(204);
  });

  app.get<{ Params: { id: string } }>('/groups/:id', async (request) => {
    const actor = actorOf(ctx, request);
    requireScope(actor, READ_API_SCOPES);
    return groupDetail(ctx, request, findGroup(ctx, request, request.params.id));
  });

  app.post('/groups', async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    const name = params.string('name', { required: true, allowBlank: false });
    const path = params.string('path', { required: true, allowBlank: false });
    const parentId = params.integer('parent_id');
    const visibility = params.string('visibility', { values: VISIBILITIES }) as Visibility | undefined;
    const description = params.string('description');
    const avatar = uploadedAvatar(params);
    params.done();
    let parent: Group | undefined;
    if (parentId !== undefined) {
      parent = store.groups.get(parentId);
      if (!parent || !store.canSee(parent, user)) throw notFound('Parent Group');
      if (store.accessLevel(parent, user) < ACCESS.MAINTAINER) throw forbidden();
    } else if (!user.isAdmin) {
      throw forbidden();
    }
    if (!PATH_PATTERN.test(path!)) throw validationError({ path: ['can contain only letters, digits, \'_\', \'-\' and \'.\'. Cannot start with \'-\' or end in \'.\', \'.git\' or \'.atom\'.'] });
    const siblingTaken = [...store.groups.values()].some((g) => g.parentId === (parentId ?? null) && g.path.toLowerCase() === path!.toLowerCase());
    if (siblingTaken) throw validationError({ path: ['has already been taken'] });
    const chosen = visibility ?? parent?.visibility ?? 'private';
    if (parent && rank(chosen) > rank(parent.visibility)) {
      throw validationError({ visibility_level: [`${chosen} is not allowed since the parent group has a ${parent.visibility} visibility.`] });
    }
    const group = store.createGroup({ name: name!, path: path!, parentId: parent?.id ?? null, visibility: chosen, description });
    if (avatar) group.avatar = avatar;
    // The creator becomes the group's first owner, as in GitLab, added by nobody: Groups::CreateService
    // calls group.add_owner(current_user) without a current_user (app/models/group.rb add_owner(user,
    // current_user = nil)), so the membership has no created_by.
    store.addMember({ kind: 'group', id: group.id }, { userId: user.id, accessLevel: ACCESS.OWNER, inviteSource: 'group-creation' });
    reply.code(201);
    // lib/api/groups.rb `post`: present group, with: Entities::GroupDetail.
    return groupDetail(ctx, request, group);
  });

  app.post<{ Params: { id: string } }>('/groups/:id/share', async (request, reply) => {
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
    app.delete<{ Params: { id: string; group_id: string } }>(`/${kind}s/:id/share/:group_id`, async (request, reply) => {
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

  // lib/api/namespaces.rb `get ':id'`: a group the caller can see, or a user's own namespace (the
  // caller's, or any for an administrator), by id or full path; Entities::Namespace.
  app.get<{ Params: { id: string } }>('/namespaces/:id', async (request) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, READ_API_SCOPES);
    const id = request.params.id;
    const group = store.findGroup(id);
    if (group && store.canSee(group, user)) {
      const fullPath = store.groupFullPath(group);
      return { id: group.id, name: group.name, path: group.path, kind: 'group', full_path: fullPath, parent_id: group.parentId, avatar_url: sourceAvatarUrl(request, group), web_url: `${webBase(request)}/groups/${fullPath}` };
    }
    const owner = /^\d+$/.test(id) ? store.users.get(Number(id)) : store.userByUsername(id);
    if (!owner || (owner.id !== user.id && !user.isAdmin)) throw notFound('Namespace');
    return { id: owner.id, name: owner.name, path: owner.username, kind: 'user', full_path: owner.username, parent_id: null, avatar_url: avatarUrl(request, owner), web_url: `${webBase(request)}/${owner.username}` };
  });

  app.get<{ Params: { id: string } }>('/projects/:id', async (request) => {
    requireScope(actorOf(ctx, request), READ_API_SCOPES);
    return projectEntity(ctx, request, findProject(ctx, request, request.params.id));
  });

  app.post('/projects', async (request, reply) => {
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

  // lib/api/projects.rb `put ':id'`: authorize_admin_project (Maintainer and above), renaming and a
  // visibility change need more (:rename_project, :change_visibility_level: Owner here), then
  // Projects::UpdateService; a failed validation is render_validation_error! (400 {"message":{…}}).
  // Of the many settings the reference server keeps name, path, description, visibility and three feature levels.
  app.put<{ Params: { id: string } }>('/projects/:id', async (request) => {
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

  app.post<{ Params: { id: string } }>('/projects/:id/share', async (request, reply) => {
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

  app.post<{ Params: { id: string } }>('/projects/:id/repository/branches', async (request, reply) => {
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
  app.post<{ Params: { id: string } }>('/projects/:id/protected_branches', async (request, reply) => {
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

  app.get<BranchRoute>('/projects/:id/repository/branches/:branch', { exposeHeadRoute: false }, async (request) => {
    const project = readableProject(request, request.params.id);
    const name = request.params.branch;
    // find_branch! (lib/api/helpers.rb): Gitlab::GitRefValidator first, then the lookup.
    if (!validRefName(name)) throw apiError(400, 'The branch refname is invalid');
    if (!project.repository.branches.has(name)) throw notFound('Branch');
    return branchEntity(ctx, request, project, name);
  });

  app.head<BranchRoute>('/projects/:id/repository/branches/:branch', async (request, reply) => {
    const project = readableProject(request, request.params.id);
    if (!project.repository.branches.has(request.params.branch)) throw notFound();
    reply.code(204);
  });

  // lib/api/settings.rb: `before { authenticated_as_admin! }`; the GET presents the settings (of the
  // many, the reference server keeps one, and shows the deletion delay at GitLab's default:
  // app/models/application_setting_implementation.rb `deletion_adjourned_period: 7`).
  const settingsEntity = () => ({ enable_member_promotion_management: store.settings.enableMemberPromotionManagement, deletion_adjourned_period: 7 });

  app.get('/application/settings', async (request) => {
    const actor = actorOf(ctx, request);
    requireAdmin(actor);
    requireScope(actor, READ_API_SCOPES);
    return settingsEntity();
  });

  app.put('/application/settings', async (request) => {
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
};

/**
 * `optional :avatar, type: ::API::Validations::Types::WorkhorseFile` (lib/api/users.rb optional_attributes;
 * the same for groups, lib/api/helpers/groups_helpers.rb, and projects, lib/api/helpers/projects_helpers.rb):
 * a multipart file part; anything else is Grape's "avatar is invalid". The name is kept as CarrierWave
 * sanitizes it (characters other than letters, digits, '.', '-' and '_' become '_').
 */
function uploadedAvatar(params: Params): Avatar | undefined {
  const value = params.raw.avatar;
  if (value === undefined) return undefined;
  const file = value as Partial<UploadedFile>;
  if (typeof file !== 'object' || file === null || typeof file.filename !== 'string' || !Buffer.isBuffer(file.content)) {
    params.addError('avatar is invalid');
    return undefined;
  }
  return { filename: file.filename.replace(/^.*[\\/]/, '').replace(/[^a-zA-Z0-9_.-]/g, '_') || 'avatar', type: file.type ?? 'application/octet-stream', content: file.content };
}

/** lib/api/entities/email.rb: id, email, confirmed_at. */
function emailEntity(row: EmailRow) {
  return { id: row.id, email: row.email, confirmed_at: row.confirmed ? row.createdAt : null };
}

/** A user's Email rows in id order: the confirmed primary address's (made with the user) and the secondary ones. */
function emailRows(user: User): EmailRow[] {
  const primary = user.primaryEmailId === undefined ? [] : [{ id: user.primaryEmailId, email: user.email, confirmed: true, createdAt: user.createdAt }];
  return [...primary, ...user.emails].sort((a, b) => a.id - b.id);
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

function rank(visibility: Visibility): number {
  return VISIBILITIES.indexOf(visibility);
}

interface ListOrder {
  by: string;
  direction: 'asc' | 'desc';
}

/** `order_by` (one of `fields`) and `sort` (asc or desc), with the endpoint's defaults, as Grape checks them. */
function listOrder(params: Params, fields: readonly string[], by: string, direction: ListOrder['direction']): ListOrder {
  return {
    by: params.string('order_by', { values: fields }) ?? by,
    direction: (params.string('sort', { values: ['asc', 'desc'] }) as ListOrder['direction'] | undefined) ?? direction,
  };
}

/** Sorts in place by the ordered field, ties by id (in `tieDirection`, else the same direction). */
function sortBy<T>(items: T[], order: ListOrder, keys: Record<string, (item: T) => string | number>, id: (item: T) => number, tieDirection?: ListOrder['direction']): void {
  const key = keys[order.by];
  const sign = order.direction === 'asc' ? 1 : -1;
  const tieSign = (tieDirection ?? order.direction) === 'asc' ? 1 : -1;
  items.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const byKey = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return byKey !== 0 ? sign * byKey : tieSign * (id(a) - id(b));
  });
}
