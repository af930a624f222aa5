// DELETE /groups/:id and DELETE /projects/:id. By default a group or project is gone at once. With
// delayed deletion on (the server option `delayedDeletion`, `--delayed-deletion`), they behave as in
// GitLab 17 and 18: the first DELETE marks the object for deletion and renames it
// (`<path>-deletion_scheduled-<id>`; as the release of a profile does: profile.ts), a second DELETE with `permanently_remove` and the object's
// full path as it is then removes it; a top-level group cannot be removed that way and stays pending
// (lib/api/groups.rb `delete_group`, `immediately_delete_subgroup_error`; lib/api/projects.rb;
// app/services/groups/mark_for_deletion_service.rb; app/services/projects/mark_for_deletion_service.rb).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS, type Group, type Project } from '../../state/model.js';
import { today, type Store } from '../../state/store.js';
import { requireScope, requireUser, WRITE_API_SCOPES } from '../../http/auth.js';
import { actorOf, findGroup, findProject, type Context, type RouteModule } from '../../http/context.js';
import { apiError, forbidden } from '../../http/errors.js';
import { mergedParams, Params } from '../../http/params.js';
import { on, routeTable } from '../../http/route-ids.js';

/** The routes of deletion, by id. */
export const DELETION_ROUTES = routeTable({
  group: { method: 'DELETE', path: '/groups/:id' },
  project: { method: 'DELETE', path: '/projects/:id' },
});

type Removal = { permanently: boolean; fullPath: string | undefined };

function removalParams(request: FastifyRequest): Removal {
  const params = new Params(mergedParams(request));
  const permanently = params.boolean('permanently_remove') ?? false;
  const fullPath = params.string('full_path');
  params.done();
  return { permanently, fullPath };
}

/** Marks the object, and renames it with the release's suffix when it has one (profile.ts). */
const scheduled = (object: Group | Project, suffix: string | null) => {
  object.markedForDeletionOn = today();
  if (suffix === null) return;
  object.name = `${object.name}-${suffix}-${object.id}`;
  object.path = `${object.path}-${suffix}-${object.id}`;
};

function ancestorMarked(store: Store, group: Group): boolean {
  for (let parent = group.parentId === null ? undefined : store.groups.get(group.parentId); parent; parent = parent.parentId === null ? undefined : store.groups.get(parent.parentId)) {
    if (parent.markedForDeletionOn) return true;
  }
  return false;
}

function deleteGroupLater(store: Store, group: Group, { permanently, fullPath }: Removal, suffix: string | null): void {
  if (permanently) {
    const error =
      group.parentId === null
        ? '`permanently_remove` option is only available for subgroups.'
        : !group.markedForDeletionOn
          ? 'Group must be marked for deletion first.'
          : store.groupFullPath(group) !== fullPath
            ? '`full_path` is incorrect. You must enter the complete path for the subgroup.'
            : undefined;
    if (error) throw apiError(400, error);
    store.deleteGroup(group.id);
    return;
  }
  if (ancestorMarked(store, group)) return;
  if (group.markedForDeletionOn) throw apiError(400, 'Group has been already marked for deletion');
  scheduled(group, suffix);
}

function deleteProjectLater(store: Store, project: Project, { permanently, fullPath }: Removal, suffix: string | null): void {
  if (permanently) {
    const error = !project.markedForDeletionOn
      ? 'Project must be marked for deletion first.'
      : store.projectFullPath(project) !== fullPath
        ? '`full_path` is incorrect. You must enter the complete path for the project.'
        : undefined;
    if (error) throw apiError(400, error);
    store.deleteProject(project.id);
    return;
  }
  if (project.markedForDeletionOn) throw apiError(400, 'Project has been already marked for deletion');
  scheduled(project, suffix);
}

export const deletionRoutes: RouteModule = (app, ctx: Context) => {
  const { store } = ctx;
  const accepted = (reply: FastifyReply) => {
    reply.code(202);
    return { message: '202 Accepted' };
  };

  on<{ Params: { id: string } }>(app, DELETION_ROUTES.group, async (request, reply) => {
    const actor = actorOf(ctx, request);
    requireScope(actor, WRITE_API_SCOPES);
    const group = findGroup(ctx, request, request.params.id);
    if (store.accessLevel(group, requireUser(actor)) < ACCESS.OWNER) throw forbidden();
    const removal = removalParams(request);
    if (ctx.options.deletion?.kind === 'marked') deleteGroupLater(store, group, removal, ctx.options.deletion.groupSuffix);
    else store.deleteGroup(group.id);
    return accepted(reply);
  });

  on<{ Params: { id: string } }>(app, DELETION_ROUTES.project, async (request, reply) => {
    const actor = actorOf(ctx, request);
    requireScope(actor, WRITE_API_SCOPES);
    const project = findProject(ctx, request, request.params.id);
    if (store.accessLevel(project, requireUser(actor)) < ACCESS.OWNER) throw forbidden();
    const removal = removalParams(request);
    if (ctx.options.deletion?.kind === 'marked') deleteProjectLater(store, project, removal, ctx.options.deletion.projectSuffix);
    else store.deleteProject(project.id);
    return accepted(reply);
  });
};
