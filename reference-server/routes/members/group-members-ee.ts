// The group-only EE members endpoints (ee/lib/ee/api/members.rb; ee/lib/ee/api/helpers/members_helpers.rb):
// billable members with their memberships and removal, membership state, pending members and
// their approval, and the override of LDAP-synced levels. They work on top-level groups only and
// answer 400 "400 Bad request" to subgroups and to callers who may not administer members.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findGroup, type Context, type RouteModule } from '../../http/context.js';
import { READ_API_SCOPES, WRITE_API_SCOPES } from '../../http/auth.js';
import { apiError, badRequest, forbidden, notFound, recordNotFound } from '../../http/errors.js';
import { paginate, readPage } from '../../http/pagination.js';
import type { Group, Member, User } from '../../state/model.js';
import { billableMemberEntity, memberEntity, membershipEntity, pendingMemberEntity } from './entities.js';
import {
  billableUsers,
  canAdminMembers,
  directRow,
  directUserMember,
  hierarchyMembers,
  invitedGroupIds,
  MEMBER_STATES,
  type MembershipType,
} from './rules.js';
import { caller, routeParams } from './source-members.js';
import { on, routeTable } from '../../http/route-ids.js';

/** The routes of group-members-ee, by id. */
export const GROUP_MEMBER_EE_ROUTES = routeTable({
  billable: { method: 'GET', path: '/groups/:id/billable_members' },
  billableMemberships: { method: 'GET', path: '/groups/:id/billable_members/:user_id/memberships' },
  billableIndirect: { method: 'GET', path: '/groups/:id/billable_members/:user_id/indirect' },
  billableRemove: { method: 'DELETE', path: '/groups/:id/billable_members/:user_id' },
  state: { method: 'PUT', path: '/groups/:id/members/:user_id/state' },
  pending: { method: 'GET', path: '/groups/:id/pending_members' },
  approve: { method: 'PUT', path: '/groups/:id/members/:member_id/approve' },
  approveAll: { method: 'POST', path: '/groups/:id/members/approve_all' },
  overrideSet: { method: 'POST', path: '/groups/:id/members/:user_id/override' },
  overrideRemove: { method: 'DELETE', path: '/groups/:id/members/:user_id/override' },
});

type GroupRoute = { Params: { id: string } };
type UserRoute = { Params: { id: string; user_id: string } };
type MemberIdRoute = { Params: { id: string; member_id: string } };

const BILLABLE_SORTS = [
  'access_level_asc',
  'access_level_desc',
  'last_joined',
  'name_asc',
  'name_desc',
  'oldest_joined',
  'oldest_sign_in',
  'recent_sign_in',
  'last_activity_on_asc',
  'last_activity_on_desc',
] as const;

/** A top-level group whose members the caller administers; anything else is 400 "400 Bad request". */
function requireRootAdmin(ctx: Context, group: Group, user: User): Group {
  if (group.parentId !== null || !canAdminMembers(ctx.store, group, user)) throw badRequest();
  return group;
}

function rootGroupFor(ctx: Context, request: FastifyRequest<GroupRoute>, user: User): Group {
  return requireRootAdmin(ctx, findGroup(ctx, request, request.params.id), user);
}

/** `column <direction> NULLS LAST`, as User orders by sign-in time; ties keep the id order. */
function bySignIn(direction: 1 | -1) {
  return (a: User, b: User) => {
    const x = a.lastLoginAt;
    const y = b.lastLoginAt;
    if (x === y) return a.id - b.id;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * direction;
  };
}

/**
 * User.order_recent_last_activity (`last_activity_on DESC NULLS LAST, id ASC`) and
 * order_oldest_last_activity (`ASC NULLS FIRST, id DESC`): one order and its exact reverse, in
 * which a user without activity comes below every date.
 */
function byActivity(direction: 1 | -1) {
  return (a: User, b: User) => {
    const x = a.lastActivityOn ?? '';
    const y = b.lastActivityOn ?? '';
    if (x === y) return (b.id - a.id) * direction;
    return (x < y ? -1 : 1) * direction;
  };
}

/**
 * `User.sort_by_attribute`: names (case-insensitive), sign-in and activity dates. The member sort
 * names without a user column (access level, joined) fall back to the id order of pagination.
 */
function billableOrder(sort: string | undefined): (a: User, b: User) => number {
  switch (sort) {
    case 'name_asc':
    case 'name_desc': {
      const direction = sort === 'name_asc' ? 1 : -1;
      return (a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) * direction || a.id - b.id;
    }
    case 'recent_sign_in':
      return bySignIn(-1);
    case 'oldest_sign_in':
      return bySignIn(1);
    case 'last_activity_on_desc':
      return byActivity(-1);
    case 'last_activity_on_asc':
      return byActivity(1);
    default:
      return (a, b) => a.id - b.id;
  }
}

function matchesSearch(user: User, search: string): boolean {
  const q = search.toLowerCase();
  if (user.name.toLowerCase().includes(q) || user.username.toLowerCase().includes(q)) return true;
  return user.publicEmail !== '' && user.publicEmail.toLowerCase() === q;
}

export const groupMembersEeRoutes: RouteModule = (app, ctx) => {
  billableRoutes(app, ctx);
  stateAndPendingRoutes(app, ctx);
  approvalRoutes(app, ctx);
  overrideRoutes(app, ctx);
};

/** Billable members: the list, one user's memberships (direct and indirect), and removal. */
function billableRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  on<GroupRoute>(app, GROUP_MEMBER_EE_ROUTES.billable, async (request, reply) => {
    const viewer = caller(ctx, request, READ_API_SCOPES);
    const params = routeParams(request);
    const search = params.string('search');
    const sort = params.string('sort', { values: BILLABLE_SORTS });
    readPage(params);
    params.done();
    // read_billable_member is the Owner's; both failures are the same 400 (ee/lib/ee/api/members.rb: bad_request! for a subgroup or a caller without read_billable_member).
    const root = rootGroupFor(ctx, request, viewer);
    const billable = billableUsers(store, root);
    const users = [...billable.keys()]
      .map((id) => store.users.get(id)!)
      .filter((u) => !search || matchesSearch(u, search))
      .sort(billableOrder(sort));
    const view = { viewer, source: root };
    return paginate(request, reply, users, params).map((u) => billableMemberEntity(ctx, request, u, billable.get(u.id) as MembershipType, view));
  });

  /** The memberships of one billable user, after GitLab's checks (admin, top level, user, billable). */
  const billableMemberships = (request: FastifyRequest<UserRoute>, pick: (root: Group) => (m: Member) => boolean) => {
    const viewer = caller(ctx, request, READ_API_SCOPES);
    const params = routeParams(request);
    const userId = params.integer('user_id', { required: true });
    readPage(params);
    params.done();
    const root = rootGroupFor(ctx, request, viewer);
    const user = store.users.get(userId!);
    if (!user) throw recordNotFound(); // User.find
    if (!billableUsers(store, root).has(user.id)) throw notFound('User');
    const wanted = pick(root);
    const members = store.members.ofUser(user.id).filter(wanted);
    return { params, members: members.sort((a, b) => a.id - b.id) };
  };

  on<UserRoute>(app, GROUP_MEMBER_EE_ROUTES.billableMemberships, async (request, reply) => {
    const { params, members } = billableMemberships(request, (root) => {
      const inside = new Set(hierarchyMembers(store, root));
      return (m) => inside.has(m);
    });
    return paginate(request, reply, members, params).map((m) => membershipEntity(ctx, request, m));
  });

  on<UserRoute>(app, GROUP_MEMBER_EE_ROUTES.billableIndirect, async (request, reply) => {
    const { params, members } = billableMemberships(request, (root) => {
      const invited = invitedGroupIds(store, root);
      return (m) => m.source.kind === 'group' && invited.has(m.source.id);
    });
    return paginate(request, reply, members, params).map((m) => membershipEntity(ctx, request, m));
  });

  on<UserRoute>(app, GROUP_MEMBER_EE_ROUTES.billableRemove, async (request, reply) => {
    const actor = caller(ctx, request, WRITE_API_SCOPES);
    const params = routeParams(request);
    const userId = params.integer('user_id', { required: true });
    params.done();
    const group = findGroup(ctx, request, request.params.id);
    // BillableMembers::DestroyService errors come back as "400 Bad request - <reason>".
    if (group.parentId !== null) throw badRequest('Invalid group provided, must be top-level');
    if (!canAdminMembers(store, group, actor)) throw badRequest('User unauthorized to remove member');
    const memberships = hierarchyMembers(store, group).filter((m) => m.userId === userId);
    if (memberships.length === 0) throw badRequest('No member found for the given user_id');
    for (const m of memberships) store.members.delete(m.id);
    reply.code(204);
  });
}

/** A member's state, and the pending members. */
function stateAndPendingRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  on<UserRoute>(app, GROUP_MEMBER_EE_ROUTES.state, async (request) => {
    const actor = caller(ctx, request, WRITE_API_SCOPES);
    const params = routeParams(request);
    const userId = params.integer('user_id', { required: true });
    const state = params.string('state', { required: true, values: MEMBER_STATES }) as Member['state'] | undefined;
    params.done();
    const user = store.users.get(userId!);
    if (!user) throw notFound('User');
    const root = rootGroupFor(ctx, request, actor);
    // The state applies to the user's memberships in the whole hierarchy.
    const memberships = hierarchyMembers(store, root).filter((m) => m.userId === user.id);
    if (memberships.length === 0) throw apiError(422, 'No memberships found');
    for (const m of memberships) m.state = state!;
    return { success: true };
  });

  on<GroupRoute>(app, GROUP_MEMBER_EE_ROUTES.pending, async (request, reply) => {
    const viewer = caller(ctx, request, READ_API_SCOPES);
    const params = routeParams(request);
    readPage(params);
    params.done();
    const root = rootGroupFor(ctx, request, viewer);
    // Awaiting users and invited people, once each across the hierarchy.
    const seen = new Set<string>();
    const pending = hierarchyMembers(store, root).filter((m) => {
      if (m.inviteToken === null && m.state !== 'awaiting') return false;
      const key = m.userId !== null ? `user:${m.userId}` : `email:${m.inviteEmail?.toLowerCase()}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return paginate(request, reply, pending, params).map((m) => pendingMemberEntity(ctx, request, m));
  });
}

/** Approving awaiting memberships: one member's, or all of them. */
function approvalRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  /** `Members::ActivateService`: awaiting memberships of the hierarchy become active; 204 through `no_content!`. */
  const activate = (root: Group, which: (m: Member) => boolean): number => {
    const mine = hierarchyMembers(store, root).filter(which);
    const awaiting = mine.filter((m) => m.state === 'awaiting');
    for (const m of awaiting) m.state = 'active';
    return awaiting.length;
  };

  on<MemberIdRoute>(app, GROUP_MEMBER_EE_ROUTES.approve, async (request, reply) => {
    const actor = caller(ctx, request, WRITE_API_SCOPES);
    const params = routeParams(request);
    const memberId = params.integer('member_id', { required: true });
    params.done();
    const group = findGroup(ctx, request, request.params.id);
    const member = store.members.get(memberId!);
    if (!member) throw notFound();
    const root = requireRootAdmin(ctx, group, actor);
    const sameInvitation = (m: Member) => m.inviteToken !== null && m.inviteEmail === member.inviteEmail;
    const approved =
      member.userId !== null
        ? activate(root, (m) => m.userId === member.userId)
        : activate(root, sameInvitation);
    if (approved === 0) throw badRequest('No memberships found');
    reply.code(204);
  });

  on<GroupRoute>(app, GROUP_MEMBER_EE_ROUTES.approveAll, async (request, reply) => {
    const actor = caller(ctx, request, WRITE_API_SCOPES);
    const root = rootGroupFor(ctx, request, actor);
    activate(root, () => true);
    reply.code(204);
  });
}

/** The override of an LDAP-synced member's level: set and removed. */
function overrideRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  for (const [route, override] of [[GROUP_MEMBER_EE_ROUTES.overrideSet, true], [GROUP_MEMBER_EE_ROUTES.overrideRemove, false]] as const) {
    on<UserRoute>(app, route, async (request, reply) => {
      const actor = caller(ctx, request, WRITE_API_SCOPES);
      const params = routeParams(request);
      const userId = params.integer('user_id', { required: true });
      params.done();
      const group = findGroup(ctx, request, request.params.id);
      // GitLab authorizes the override on the group before it looks the member up, and only a group
      // synced from LDAP grants it (ee/lib/ee/api/helpers/members_helpers.rb; ee/app/policies/ee/group_policy.rb):
      // any other group answers 403, member or not.
      const synced = store.directMembers(group).some((m) => m.ldap);
      if (!synced || !canAdminMembers(store, group, actor)) throw forbidden();
      const member = directUserMember(store, group, userId!);
      if (!member) throw recordNotFound();
      // override_group_member: the member's own level is synced from LDAP.
      if (!member.ldap) throw forbidden();
      member.override = override;
      // Grape's defaults: 201 for POST, 200 for DELETE with a body.
      reply.code(route.method === 'POST' ? 201 : 200);
      return memberEntity(ctx, request, directRow(member), { viewer: actor, source: group });
    });
  }
}
