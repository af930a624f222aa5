// The entities of groups and projects (lib/api/entities/group.rb, group_detail.rb, project.rb), for the set-up routes.
import type { FastifyRequest } from 'fastify';
import type { Group, Project } from '../../state/model.js';
import { avatarUrl, sourceAvatarUrl, webBase, type Context } from '../../http/context.js';

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
