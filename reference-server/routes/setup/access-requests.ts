// Access requests to groups and projects (lib/api/access_requests.rb): a signed-in user who is not a
// member asks to join (POST), those who manage the members read the pending requests (GET), approve
// one (PUT …/approve) or deny it (DELETE), which the requester may also do to withdraw it. Set-up
// endpoints beyond the target contract: the members and invitations suites make access requesters
// with them, read the requests back and take them back after a test. A request is no membership (state/access-requests.ts); adding the
// user as a member turns it into one (Store.addMember).
import type { FastifyRequest } from 'fastify';
import { READ_API_SCOPES, WRITE_API_SCOPES } from '../../http/auth.js';
import { findSource, userBasic, type RouteModule } from '../../http/context.js';
import { forbidden, recordNotFound, validationError } from '../../http/errors.js';
import { paginate, readPage } from '../../http/pagination.js';
import { ACCESS, type Source, type User } from '../../state/model.js';
import { now, type Store } from '../../state/store.js';
import type { AccessRequest } from '../../state/access-requests.js';
import { caller, routeParams } from '../members/source-members.js';
import { memberEntity } from '../members/entities.js';
import { canAdminMembers, directRow } from '../members/rules.js';
import { on, routeTable } from '../../http/route-ids.js';

/** The routes of access-requests, by id. */
export const ACCESS_REQUEST_ROUTES = routeTable({
  list: { method: 'GET', path: '/:kind/:id/access_requests' },
  request: { method: 'POST', path: '/:kind/:id/access_requests' },
  approve: { method: 'PUT', path: '/:kind/:id/access_requests/:user_id/approve' },
  deny: { method: 'DELETE', path: '/:kind/:id/access_requests/:user_id' },
});

type SourceRoute = { Params: { id: string } };

/**
 * `can?(current_user, :request_access, source)` (Members::RequestAccessService), request_access_enabled
 * being GitLab's default (true):
 * - a group: only one visible to every signed-in user (view_globally: public or internal), and only
 *   to a user without access to it (app/policies/group_policy.rb: ~view_globally, has_access prevent);
 * - a project: public_user_access (public, or internal), not for a user with access to the project
 *   or a member of its group, nor one whose access request to the project's group is pending
 *   (app/policies/project_policy.rb: has_project_access_or_pending_request prevents it).
 * Administrators hold access everywhere (the store counts them as owners), so they may not either.
 */
function canRequestAccess(store: Store, source: Source, user: User): boolean {
  if (source.visibility === 'private') return false;
  if (store.accessLevel(source, user) > ACCESS.NO_ACCESS) return false;
  if (source.kind === 'group') return true;
  const group = store.projectGroup(source);
  if (!group) return true;
  return store.groupAccess(group, user.id) === ACCESS.NO_ACCESS && store.accessRequests.find(group, user.id) === undefined;
}

/** Entities::AccessRequester: the user (UserBasic, merged) and requested_at. */
function requesterEntity(store: Store, request: FastifyRequest, access: AccessRequest) {
  return { ...userBasic(request, store.users.get(access.userId)!), requested_at: access.requestedAt };
}

export const accessRequestsRoutes: RouteModule = (app, ctx) => {
  const { store } = ctx;

  for (const kind of ['group', 'project'] as const) {

    // AccessRequestsFinder#execute!: admin_member_access_request, which those who administer the
    // members hold (Owner of a group, Maintainer of a project), else AccessDeniedError (403).
    on<SourceRoute>(app, ACCESS_REQUEST_ROUTES.list, { kind }, async (request, reply) => {
      const viewer = caller(ctx, request, READ_API_SCOPES);
      const params = routeParams(request);
      readPage(params);
      params.done();
      const source = findSource(ctx, request, kind, request.params.id);
      if (!canAdminMembers(store, source, viewer)) throw forbidden();
      return paginate(request, reply, store.accessRequests.of(source), params).map((a) => requesterEntity(store, request, a));
    });

    on<SourceRoute>(app, ACCESS_REQUEST_ROUTES.request, { kind }, async (request, reply) => {
      const user = caller(ctx, request, WRITE_API_SCOPES);
      const params = routeParams(request);
      params.done();
      const source = findSource(ctx, request, kind, request.params.id);
      if (!canRequestAccess(store, source, user)) throw forbidden();
      // A second request fails the Member model's uniqueness of user_id in a source: render_validation_error!.
      if (store.accessRequests.find(source, user.id)) throw validationError({ user_id: ['already exists in source'] });
      const access = store.accessRequests.add({ source: store.sourceRef(source), userId: user.id, accessLevel: ACCESS.DEVELOPER, requestedAt: now() });
      reply.code(201);
      return requesterEntity(store, request, access);
    });

    // `source.requesters.find_by!(user_id:)`: an unknown request is ActiveRecord's 404 "404 Not found".
    const pending = (request: FastifyRequest<SourceRoute & { Params: { user_id: string } }>) => {
      const source = findSource(ctx, request, kind, request.params.id);
      const requested = store.accessRequests.find(source, Number(request.params.user_id));
      if (!/^\d+$/.test(request.params.user_id) || !requested) throw recordNotFound();
      return { source, requested };
    };

    // Members::ApproveAccessRequestService: those who administer the members approve, at access_level
    // (Developer unless given); the request becomes a membership (201, the Member entity).
    on<SourceRoute & { Params: { user_id: string } }>(app, ACCESS_REQUEST_ROUTES.approve, { kind }, async (request, reply) => {
      const user = caller(ctx, request, WRITE_API_SCOPES);
      const params = routeParams(request);
      const accessLevel = params.integer('access_level') ?? ACCESS.DEVELOPER;
      params.done();
      const { source, requested } = pending(request);
      if (!canAdminMembers(store, source, user)) throw forbidden();
      const member = store.addMember(store.sourceRef(source), { userId: requested.userId, accessLevel, createdById: user.id });
      reply.code(201);
      return memberEntity(ctx, request, directRow(member), { viewer: user, source });
    });

    // Members::DestroyService on the requester: those who administer the members, or the requester (204).
    on<SourceRoute & { Params: { user_id: string } }>(app, ACCESS_REQUEST_ROUTES.deny, { kind }, async (request, reply) => {
      const user = caller(ctx, request, WRITE_API_SCOPES);
      routeParams(request).done();
      const { source, requested } = pending(request);
      if (requested.userId !== user.id && !canAdminMembers(store, source, user)) throw forbidden();
      store.accessRequests.remove(source, requested.userId);
      reply.code(204);
    });
  }
};
