// The members endpoints that exist for both groups and projects (lib/api/members.rb,
// lib/api/helpers/members_helpers.rb; app/services/members/create_service.rb): list, list all, read one,
// add (one or several users), edit and remove.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf, findSource, type Context, type RouteModule } from '../../http/context.js';
import { requireScope, requireUser, READ_API_SCOPES, WRITE_API_SCOPES } from '../../http/auth.js';
import { apiError, conflict, forbidden, notFound, recordNotFound, validationError } from '../../http/errors.js';
import { paginate, readPage } from '../../http/pagination.js';
import { mergedParams, Params } from '../../http/params.js';
import { ACCESS, type Member, type Source, type User } from '../../state/model.js';
import type { Store } from '../../state/store.js';
import { memberEntity } from './entities.js';
import { authorizeReadMembers } from './read-access.js';
import {
  allMemberRow,
  allMemberRows,
  canAdminMembers,
  canManageOwners,
  directRow,
  directUserMember,
  fullMessages,
  hierarchy,
  isLastOwner,
  MEMBER_STATES,
  membershipErrors,
  promotionQueued,
  QUEUED,
  toSentence,
  userMembers,
  type MemberRow,
} from './rules.js';
import { on, routeTable, type SourceKind } from '../../http/route-ids.js';

/** The routes of source-members, by id. */
export const MEMBER_ROUTES = routeTable({
  list: { method: 'GET', path: '/:kind/:id/members' },
  listAll: { method: 'GET', path: '/:kind/:id/members/all' },
  getAll: { method: 'GET', path: '/:kind/:id/members/all/:user_id' },
  get: { method: 'GET', path: '/:kind/:id/members/:user_id' },
  add: { method: 'POST', path: '/:kind/:id/members' },
  edit: { method: 'PUT', path: '/:kind/:id/members/:user_id' },
  remove: { method: 'DELETE', path: '/:kind/:id/members/:user_id' },
});

type SourceRoute = { Params: { id: string } };
type MemberRoute = { Params: { id: string; user_id: string } };

/** `authenticate!` comes first on every members endpoint (401), then the token's scope. */
export function caller(ctx: Context, request: FastifyRequest, scopes: readonly string[]): User {
  const actor = actorOf(ctx, request);
  const user = requireUser(actor);
  requireScope(actor, scopes);
  return user;
}

/** Query, body and path parameters together, as Grape sees them. */
export function routeParams(request: FastifyRequest): Params {
  return new Params({ ...mergedParams(request), ...(request.params as Record<string, unknown>) });
}

/** `User.search`: part of the name or username, or a whole email address. */
function matchesQuery(user: User, query: string): boolean {
  const q = query.toLowerCase();
  if (user.name.toLowerCase().includes(q) || user.username.toLowerCase().includes(q)) return true;
  return [user.email, user.publicEmail].some((e) => e.toLowerCase() === q);
}

interface ListFilters {
  query?: string;
  userIds?: number[];
  skipUsers?: number[];
  state?: string;
  showSeatInfo: boolean;
}

function readFilters(params: Params, withState: boolean): ListFilters {
  const filters: ListFilters = {
    query: params.string('query'),
    userIds: params.integerList('user_ids'),
    skipUsers: params.integerList('skip_users'),
    showSeatInfo: params.boolean('show_seat_info') ?? false,
    state: withState ? params.string('state', { values: MEMBER_STATES }) : undefined,
  };
  // Pagination parameters are checked with the others, before any lookup (Grape validates first).
  readPage(params);
  params.done();
  return filters;
}

function kept(store: Store, m: Member, filters: ListFilters): boolean {
  const user = store.users.get(m.userId!)!;
  if (filters.query && !matchesQuery(user, filters.query)) return false;
  if (filters.userIds && !filters.userIds.includes(user.id)) return false;
  if (filters.skipUsers?.includes(user.id)) return false;
  return !filters.state || m.state === filters.state;
}

/** Whether any filter can leave a member out (else the indexed list is paginated as it is). */
function filtering(filters: ListFilters): boolean {
  return Boolean(filters.query) || filters.userIds !== undefined || Boolean(filters.skipUsers?.length) || Boolean(filters.state);
}

function applyFilters<T>(store: Store, items: readonly T[], memberOf: (item: T) => Member, filters: ListFilters): readonly T[] {
  return filtering(filters) ? items.filter((item) => kept(store, memberOf(item), filters)) : items;
}

export const sourceMembersRoutes: RouteModule = (app, ctx) => {
  const removalLimiter = new RemovalLimiter();

  for (const kind of ['group', 'project'] as const) {
    memberReadRoutes(app, ctx, kind);
    memberWriteRoutes(app, ctx, kind);
    memberRemoveRoute(app, ctx, kind, removalLimiter);
  }
};

/** The member reads of one source kind: the lists, members/all and one member. */
function memberReadRoutes(app: FastifyInstance, ctx: Context, kind: SourceKind): void {
  const { store } = ctx;
  on<SourceRoute>(app, MEMBER_ROUTES.list, { kind }, async (request, reply) => {
    const viewer = caller(ctx, request, READ_API_SCOPES);
    const params = routeParams(request);
    const filters = readFilters(params, false);
    const source = findSource(ctx, request, kind, request.params.id);
    authorizeReadMembers(store, source, viewer);
    const members = applyFilters(store, userMembers(store, source), (m) => m, filters);
    const view = { viewer, source, showSeatInfo: filters.showSeatInfo };
    return paginate(request, reply, members, params).map((m) => memberEntity(ctx, request, directRow(m), view));
  });

  on<SourceRoute>(app, MEMBER_ROUTES.listAll, { kind }, async (request, reply) => {
    const viewer = caller(ctx, request, READ_API_SCOPES);
    const params = routeParams(request);
    const filters = readFilters(params, true);
    const source = findSource(ctx, request, kind, request.params.id);
    authorizeReadMembers(store, source, viewer);
    const rows = applyFilters(store, allMemberRows(store, source, viewer), (r) => r.member, filters);
    const view = { viewer, source, showSeatInfo: filters.showSeatInfo };
    return paginate(request, reply, rows, params).map((r) => memberEntity(ctx, request, r, view));
  });

  on<MemberRoute>(app, MEMBER_ROUTES.getAll, { kind }, async (request) => {
    const viewer = caller(ctx, request, READ_API_SCOPES);
    const params = routeParams(request);
    const userId = params.integer('user_id', { required: true });
    params.done();
    const source = findSource(ctx, request, kind, request.params.id);
    authorizeReadMembers(store, source, viewer);
    const row: MemberRow | undefined = allMemberRow(store, source, viewer, userId!);
    if (!row) throw recordNotFound();
    return memberEntity(ctx, request, row, { viewer, source });
  });

  on<MemberRoute>(app, MEMBER_ROUTES.get, { kind }, async (request) => {
    const viewer = caller(ctx, request, READ_API_SCOPES);
    const params = routeParams(request);
    const userId = params.integer('user_id', { required: true });
    params.done();
    const source = findSource(ctx, request, kind, request.params.id);
    authorizeReadMembers(store, source, viewer);
    const member = directUserMember(store, source, userId!);
    if (!member) throw recordNotFound();
    return memberEntity(ctx, request, directRow(member), { viewer, source });
  });
}

/** Adding and editing members of one source kind. */
function memberWriteRoutes(app: FastifyInstance, ctx: Context, kind: SourceKind): void {
  const { store } = ctx;
  on<SourceRoute>(app, MEMBER_ROUTES.add, { kind }, async (request, reply) => {
    const actor = caller(ctx, request, WRITE_API_SCOPES);
    const params = routeParams(request);
    const accessLevel = params.integer('access_level', { required: true });
    const expiresAt = params.date('expires_at');
    const userIdParam = params.string('user_id');
    const username = params.string('username');
    params.string('invite_source');
    params.integer('member_role_id');
    if (userIdParam !== undefined && username !== undefined) params.addError('user_id, username are mutually exclusive');
    if (userIdParam === undefined && username === undefined) params.addError('user_id, username are missing, at least one parameter must be provided');
    params.done();
    const source = findSource(ctx, request, kind, request.params.id);
    const fields = { accessLevel: accessLevel!, expiresAt: expiresAt ?? null };
    reply.code(201);
    const names = (userIdParam ?? username!).split(',');
    if (names.length > 1) return addSeveral(store, actor, source, names, userIdParam !== undefined, fields);

    const target = userIdParam !== undefined ? store.userByIdText(userIdParam.trim()) : store.userByUsername(username!);
    if (!target) throw notFound('User');
    // "Already a member" is answered before the permission check (lib/api/helpers/members_helpers.rb check_existing_membership).
    if (directUserMember(store, source, target.id)) throw conflict('Member already exists');
    checkCanAdd(store, actor, source, fields.accessLevel);
    const errors = membershipErrors(store, source, target.id, fields.accessLevel, fields.expiresAt);
    if (Object.keys(errors).length > 0) throw validationError(errors);
    // A queued promotion is 202 Accepted (ee/lib/ee/api/helpers/members_helpers.rb; ee/spec/requests/api/members_spec.rb "single member api response").
    if (promotionQueued(store, actor, target, fields.accessLevel)) {
      reply.code(202);
      return { message: { [target.username]: QUEUED } };
    }
    const member = store.addMember(store.sourceRef(source), { userId: target.id, ...fields, createdById: actor.id });
    return memberEntity(ctx, request, directRow(member), { viewer: actor, source });
  });

  on<MemberRoute>(app, MEMBER_ROUTES.edit, { kind }, async (request, reply) => {
    const actor = caller(ctx, request, WRITE_API_SCOPES);
    const params = routeParams(request);
    const userId = params.integer('user_id', { required: true });
    const accessLevel = params.integer('access_level', { required: true });
    const expiresAt = params.date('expires_at');
    params.integer('member_role_id');
    params.done();
    const source = findSource(ctx, request, kind, request.params.id);
    // The member is looked up before the permission check: 404 first.
    const member = directUserMember(store, source, userId!);
    if (!member) throw recordNotFound();
    if (!canUpdate(store, actor, source, member, accessLevel!)) throw forbidden();
    const errors = membershipErrors(store, source, userId!, accessLevel!, expiresAt);
    if (Object.keys(errors).length > 0) throw validationError(errors);
    const target = store.users.get(userId!)!;
    // promotionQueued needs a user with no active Reporter+ membership, so a queued level is always above the
    // member's own, except for an awaiting member, whose queueing on GitLab is unconfirmed.
    const raises = accessLevel! > member.accessLevel;
    if (raises && promotionQueued(store, actor, target, accessLevel!)) {
      reply.code(202); // as a queued add (ee/spec/requests/api/members_spec.rb "update membership api response")
      return { message: { [target.username]: QUEUED } };
    }
    member.accessLevel = accessLevel!;
    if (expiresAt !== undefined) member.expiresAt = expiresAt;
    return memberEntity(ctx, request, directRow(member), { viewer: actor, source });
  });
}

/** Removing a member of one source kind, within the removal rate limit. */
function memberRemoveRoute(app: FastifyInstance, ctx: Context, kind: SourceKind, removalLimiter: RemovalLimiter): void {
  const { store } = ctx;
  on<MemberRoute>(app, MEMBER_ROUTES.remove, { kind }, async (request, reply) => {
    const actor = caller(ctx, request, WRITE_API_SCOPES);
    const params = routeParams(request);
    const userId = params.integer('user_id', { required: true });
    const skipSubresources = params.boolean('skip_subresources') ?? false;
    // No issues or merge requests exist here, so there is nothing to unassign.
    params.boolean('unassign_issuables');
    params.done();
    const source = findSource(ctx, request, kind, request.params.id);
    const member = directUserMember(store, source, userId!);
    if (!member) throw recordNotFound();
    // check_rate_limit!(:members_delete, scope: [source, current_user]) after the lookup, before anything else.
    if (removalLimiter.throttled(source, actor)) throw apiError(429, { error: 'This endpoint has been requested too many times. Try again later.' });
    // destroy_conditionally! checks If-Unmodified-Since before the destroy service's permission (lib/api/helpers.rb).
    if (modifiedSince(request, member.updatedAt ?? member.createdAt)) throw apiError(412, '412 Precondition Failed');
    if (!canDestroy(store, actor, source, member)) throw forbidden();
    store.members.delete(member.id);
    if (source.kind === 'group' && !skipSubresources) {
      const below = hierarchy(store, source);
      for (const sub of [...below.groups.slice(1), ...below.projects]) {
        const subMember = directUserMember(store, sub, member.userId!);
        if (subMember) store.members.delete(subMember.id);
      }
    }
    // Members::DestroyService (app/services/members/destroy_service.rb), unless skip_subresources: the
    // pending invitations the removed user created go with them: a group's (delete_invited_members),
    // in the group, its subgroups and their projects; a project's (delete_project_invitations_by), there.
    if (!skipSubresources) {
      const within = source.kind === 'group' ? hierarchy(store, source) : { groups: [], projects: [source] };
      for (const place of [...within.groups, ...within.projects]) {
        for (const invitation of [...store.directMembers(place)]) if (invitation.inviteToken !== null && invitation.createdById === member.userId) store.members.delete(invitation.id);
      }
    }
    reply.code(204);
  });
}

/** Members::CreateService::DEFAULT_INVITE_LIMIT: the users one request may add. */
const USER_LIMIT = 100;

/** GitLab's default `members_delete_limit` application setting: removals per source and user per minute. */
const MEMBERS_DELETE_LIMIT = 60;
const MEMBERS_DELETE_PERIOD_MS = 60_000;

/**
 * Gitlab::ApplicationRateLimiter for :members_delete (lib/gitlab/application_rate_limiter.rb): a count
 * per source and user in fixed periods of a minute; every request counts, and one past the limit is
 * throttled (lib/api/helpers/rate_limiter.rb: 429 {"message":{"error":"This endpoint has been requested
 * too many times. Try again later."}}). Counted by the records themselves, not their ids: the server's
 * reset hands the same ids out again to new groups, projects and users, which start with no count.
 */
class RemovalLimiter {
  private period = -1;
  private counts = new WeakMap<Source, WeakMap<User, number>>();

  throttled(source: Source, user: User): boolean {
    const period = Math.floor(Date.now() / MEMBERS_DELETE_PERIOD_MS);
    if (period !== this.period) {
      // Counts of earlier periods have expired: only the current one is kept.
      this.period = period;
      this.counts = new WeakMap();
    }
    let ofSource = this.counts.get(source);
    if (!ofSource) this.counts.set(source, (ofSource = new WeakMap()));
    const count = (ofSource.get(user) ?? 0) + 1;
    ofSource.set(user, count);
    return count > MEMBERS_DELETE_LIMIT;
  }
}

/** `check_unmodified_since!`: the record changed after the If-Unmodified-Since date; an unreadable date is ignored. */
function modifiedSince(request: FastifyRequest, lastUpdated: string): boolean {
  const header = request.headers['if-unmodified-since'];
  // Node keeps one If-Unmodified-Since; without it, Date.parse(String(undefined)) is NaN.
  const since = Date.parse(String(header));
  return !Number.isNaN(since) && Date.parse(lastUpdated) > since;
}

/** The member is the bot user of a project access token (user_type project_bot). */
function isProjectBot(store: Store, member: Member): boolean {
  return store.userOrNone(member.userId)?.userType === 'project_bot';
}

/** `create_{group,project}_member`, and `manage_owners` to give a project's Owner role (a group's member admins are Owners already). */
function checkCanAdd(store: Store, actor: User, source: Source, level: number): void {
  if (!canAdminMembers(store, source, actor)) throw forbidden();
  if (level === ACCESS.OWNER && !canManageOwners(store, source, actor)) throw forbidden();
}

/**
 * `update_*_member`: admins of members; project owners are handled by owners only; LDAP-synced
 * levels need an override first; a group's last owner may not be updated at all (GroupMemberPolicy).
 */
function canUpdate(store: Store, actor: User, source: Source, member: Member, level: number): boolean {
  if (isPersonalNamespaceHolder(source, member)) return false;
  if (!canAdminMembers(store, source, actor)) return false;
  // ProjectMemberPolicy enables update_project_member for ~project_bot targets only.
  if (isProjectBot(store, member)) return false;
  if (source.kind === 'project') return canManageOwners(store, source, actor) || (member.accessLevel < ACCESS.OWNER && level < ACCESS.OWNER);
  if (member.ldap && !member.override) return false;
  return !isLastOwner(store, source, member);
}

/**
 * ProjectMemberPolicy's `target_is_holder_of_the_personal_namespace` prevents update and destroy of
 * that membership, which wins over every enable: the caller's own, an Owner's, an administrator's.
 */
function isPersonalNamespaceHolder(source: Source, member: Member): boolean {
  return source.kind === 'project' && source.namespace.kind === 'user' && source.namespace.id === member.userId;
}

/** `destroy_*_member`: admins of members, or the member themselves; never a group's last owner. */
function canDestroy(store: Store, actor: User, source: Source, member: Member): boolean {
  if (source.kind === 'group' && isLastOwner(store, source, member)) return false;
  if (isPersonalNamespaceHolder(source, member)) return false;
  if (member.userId === actor.id) return true;
  // ProjectMemberPolicy enables destroy_project_member for ~project_bot targets only (a bot's membership
  // goes with its token, destroy_project_bot_member, which the API does not ask for): 403 to everyone.
  if (isProjectBot(store, member)) return false;
  if (!canAdminMembers(store, source, actor)) return false;
  // A project's Owners are removed by owners only; a group's member admins are Owners already.
  return member.accessLevel < ACCESS.OWNER || canManageOwners(store, source, actor);
}

/**
 * Several users in one request (comma-separated): `Members::CreateService` renders its status
 * hash with 201 whatever happened to each user (app/services/members/create_service.rb; lib/api/members.rb). Unknown users are dropped;
 * existing members are updated, as GitLab's member creators do.
 */
function addSeveral(
  store: Store,
  actor: User,
  source: Source,
  names: string[],
  byId: boolean,
  fields: { accessLevel: number; expiresAt: string | null },
): Record<string, unknown> {
  checkCanAdd(store, actor, source, fields.accessLevel);
  const targets = new Map<number, User>();
  for (const name of names.map((n) => n.trim())) {
    const user = byId ? store.userByIdText(name) : store.userByUsername(name);
    if (user) targets.set(user.id, user);
  }
  // validate_invitable! (app/services/members/create_service.rb: invites_from_params, DEFAULT_INVITE_LIMIT),
  // before anyone is added: ids count as sent (split, uniq; unknown ones too), usernames as the users they name.
  if ((byId ? new Set(names).size : targets.size) > USER_LIMIT) {
    return { message: `Too many users specified (limit is ${USER_LIMIT})`, status: 'error', reason: 'too_many_invites_error' };
  }
  if (targets.size === 0) return { message: 'No users specified.', status: 'error' };
  const failures: string[] = [];
  const queued: Record<string, string> = {};
  for (const target of targets.values()) {
    const errors = membershipErrors(store, source, target.id, fields.accessLevel, fields.expiresAt);
    if (Object.keys(errors).length > 0) {
      failures.push(`${target.username}: ${fullMessages(errors)}`);
      continue;
    }
    if (promotionQueued(store, actor, target, fields.accessLevel)) {
      queued[target.username] = QUEUED;
      continue;
    }
    const existing = directUserMember(store, source, target.id);
    if (existing) Object.assign(existing, fields);
    else store.addMember(store.sourceRef(source), { userId: target.id, ...fields, createdById: actor.id });
  }
  if (failures.length > 0) return { message: toSentence(failures), status: 'error' };
  return { ...(Object.keys(queued).length > 0 ? { queued_users: queued } : {}), status: 'success' };
}
