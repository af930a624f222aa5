// Groups (lib/api/groups.rb) and namespaces (lib/api/namespaces.rb): listed, read and created.
import type { FastifyInstance } from 'fastify';
import type { FastifyRequest } from 'fastify';
import { ACCESS, type Group, type Visibility } from '../../state/model.js';
import { requireScope, requireUser, READ_API_SCOPES, WRITE_API_SCOPES } from '../../http/auth.js';
import { actorOf, avatarUrl, findGroup, sourceAvatarUrl, webBase, type Context, type RouteModule } from '../../http/context.js';
import { forbidden, notFound, validationError } from '../../http/errors.js';
import { mergedParams, Params } from '../../http/params.js';
import { paginate } from '../../http/pagination.js';
import { ALL_ACCESS_VALUES, contains, listOrder, PATH_PATTERN, rank, sortBy, uploadedAvatar, VISIBILITIES } from './common.js';
import { groupDetail, groupEntity } from './entities.js';
import { on, routeTable } from '../../http/route-ids.js';

/** The routes of groups and namespaces, by id. */
export const GROUP_ROUTES = routeTable({
  list: { method: 'GET', path: '/groups' },
  subgroups: { method: 'GET', path: '/groups/:id/subgroups' },
  descendantGroups: { method: 'GET', path: '/groups/:id/descendant_groups' },
  get: { method: 'GET', path: '/groups/:id' },
  create: { method: 'POST', path: '/groups' },
  namespace: { method: 'GET', path: '/namespaces/:id' },
});

/** The routes of groups and namespaces. */
export const groupsRoutes: RouteModule = (app, ctx) => {
  groupListRoutes(app, ctx);
  groupRoutes(app, ctx);
  namespaceRoute(app, ctx);
};

function groupListRoutes(app: FastifyInstance, ctx: Context): void {
  on(app, GROUP_ROUTES.list, async (request, reply) => {
    requireScope(actorOf(ctx, request), READ_API_SCOPES);
    const params = new Params(mergedParams(request));
    return paginate(request, reply, listGroups(ctx, request, params), params);
  });

  // lib/api/groups.rb `get ":id/subgroups"` and `get ":id/descendant_groups"`: find_groups with the
  // group as parent (include_parent_descendants for the second), the same filters and order as GET /groups.
  for (const [route, descendants] of [[GROUP_ROUTES.subgroups, false], [GROUP_ROUTES.descendantGroups, true]] as const) {
    on<{ Params: { id: string } }>(app, route, async (request, reply) => {
      requireScope(actorOf(ctx, request), READ_API_SCOPES);
      const params = new Params(mergedParams(request));
      const group = findGroup(ctx, request, request.params.id);
      return paginate(request, reply, listGroups(ctx, request, params, { group, descendants }), params);
    });
  }
}

/** One group: read and created. */
function groupRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  on<{ Params: { id: string } }>(app, GROUP_ROUTES.get, async (request) => {
    const actor = actorOf(ctx, request);
    requireScope(actor, READ_API_SCOPES);
    return groupDetail(ctx, request, findGroup(ctx, request, request.params.id));
  });

  on(app, GROUP_ROUTES.create, async (request, reply) => {
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
}

function namespaceRoute(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  // lib/api/namespaces.rb `get ':id'`: a group the caller can see, or a user's own namespace (the
  // caller's, or any for an administrator), by id or full path; Entities::Namespace.
  on<{ Params: { id: string } }>(app, GROUP_ROUTES.namespace, async (request) => {
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
}

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
function listGroups(ctx: Context, request: FastifyRequest, params: Params, parent?: { group: Group; descendants: boolean }) {
  const { store } = ctx;
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
}
