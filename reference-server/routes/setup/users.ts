// Users (lib/api/users.rb): the current user, creating, listing, reading, changing and deleting users,
// their memberships and their email addresses. users.public_email has no default since GitLab's
// RemoveNotNullConstraintAndDefaultForPublicEmail migration: a user who set none reads `null` (the store keeps '').
import type { FastifyInstance } from 'fastify';
import type { EmailRow, Source, User } from '../../state/model.js';
import { requireAdmin, requireScope, requireUser, READ_API_SCOPES, WRITE_API_SCOPES } from '../../http/auth.js';
import { actorOf, userBasic, type Context, type RouteModule } from '../../http/context.js';
import { apiError, conflict, forbidden, notFound, paramError, validationError } from '../../http/errors.js';
import { mergedParams, Params } from '../../http/params.js';
import { paginate } from '../../http/pagination.js';
import { contains, listOrder, PATH_PATTERN, sortBy, uploadedAvatar } from './common.js';
import { on, routeTable } from '../../http/route-ids.js';

/** The routes of users, by id. */
export const USER_ROUTES = routeTable({
  current: { method: 'GET', path: '/user' },
  create: { method: 'POST', path: '/users' },
  list: { method: 'GET', path: '/users' },
  memberships: { method: 'GET', path: '/users/:id/memberships' },
  get: { method: 'GET', path: '/users/:id' },
  remove: { method: 'DELETE', path: '/users/:id' },
  update: { method: 'PUT', path: '/users/:id' },
  addEmail: { method: 'POST', path: '/users/:id/emails' },
  emails: { method: 'GET', path: '/users/:id/emails' },
  removeEmail: { method: 'DELETE', path: '/users/:id/emails/:email_id' },
});

/** The routes of users. */
export const usersRoutes: RouteModule = (app, ctx) => {
  createUserRoutes(app, ctx);
  listUsersRoute(app, ctx);
  membershipsRoute(app, ctx);
  userRoutes(app, ctx);
  emailRoutes(app, ctx);
};

/** GET /user and POST /users. */
function createUserRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  on(app, USER_ROUTES.current, async (request) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, [...READ_API_SCOPES, 'read_user']);
    return { ...userBasic(request, user), email: user.email, public_email: user.publicEmail || null, is_admin: user.isAdmin, created_at: user.createdAt };
  });

  on(app, USER_ROUTES.create, async (request, reply) => {
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
}

function listUsersRoute(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  on(app, USER_ROUTES.list, async (request, reply) => {
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
}

function membershipsRoute(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  // lib/api/users.rb `get ":user_id/memberships"` (administrators): the user's direct memberships of
  // groups ("Namespace") and projects, `type` narrowing them; Entities::Membership.
  on<{ Params: { id: string } }>(app, USER_ROUTES.memberships, async (request, reply) => {
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
}

/** One user: read, changed, deleted. */
function userRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  // lib/api/users.rb `get ":id"`: administrators see UserDetailsWithAdmin, which carries the address
  // and confirmed_at (a user confirmed by skip_confirmation is confirmed when made); others the public entity.
  on<{ Params: { id: string } }>(app, USER_ROUTES.get, async (request) => {
    const actor = actorOf(ctx, request);
    requireScope(actor, READ_API_SCOPES);
    const user = store.userByIdText(request.params.id);
    if (!user) throw notFound('User');
    const basic = { ...userBasic(request, user), created_at: user.createdAt };
    if (!actor.user?.isAdmin) return basic;
    return { ...basic, email: user.email, public_email: user.publicEmail || null, is_admin: user.isAdmin, confirmed_at: user.confirmed ? user.createdAt : null };
  });

  on<{ Params: { id: string } }>(app, USER_ROUTES.remove, async (request, reply) => {
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
  on<{ Params: { id: string } }>(app, USER_ROUTES.update, async (request) => {
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
}

/** A user's email addresses. */
function emailRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  // lib/api/users.rb `post ":id/emails"` (administrators): a secondary address, confirmed at once only with
  // skip_confirmation (app/services/emails/create_service.rb); 201 with the Email entity.
  on<{ Params: { id: string } }>(app, USER_ROUTES.addEmail, async (request, reply) => {
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
  on<{ Params: { id: string } }>(app, USER_ROUTES.emails, async (request, reply) => {
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
  on<{ Params: { id: string; email_id: string } }>(app, USER_ROUTES.removeEmail, async (request, reply) => {
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
