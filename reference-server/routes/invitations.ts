// Invitations to groups and projects (lib/api/invitations.rb, app/services/members/invite_service.rb;
// app/services/members/invite_service.rb). A pending invitation is a Member with an invite token and email and no user
// (the members area lists them as pending members); inviting the address of an existing user, or a
// user id, makes a direct membership instead, or updates the one the user already has.
import { randomBytes } from 'node:crypto';
import { requireScope, requireUser, READ_API_SCOPES, WRITE_API_SCOPES } from '../http/auth.js';
import { actorOf, findSource, type Context, type RouteModule } from '../http/context.js';
import { badRequest, forbidden, notFound, validationError } from '../http/errors.js';
import { paginate, readPage } from '../http/pagination.js';
import { mergedParams, Params } from '../http/params.js';
import { ACCESS, type Member, type Source, type User } from '../state/model.js';
import { isExpired, type Store } from '../state/store.js';
import { canAdminMembers, canManageOwners, fullMessages, membershipErrors, promotionQueued, QUEUED, toSentence } from './members/rules.js';
import type { FastifyInstance } from 'fastify';
import { on, routeTable, type SourceKind } from '../http/route-ids.js';

/** The routes of invitations, by id. */
export const INVITATION_ROUTES = routeTable({
  create: { method: 'POST', path: '/:kind/:id/invitations' },
  list: { method: 'GET', path: '/:kind/:id/invitations' },
  update: { method: 'PUT', path: '/:kind/:id/invitations/:email' },
  remove: { method: 'DELETE', path: '/:kind/:id/invitations/:email' },
});

type SourceRoute = { Params: { id: string } };
type InvitationRoute = { Params: { id: string; email: string } };

/** PUT's `values:` for access_level: Gitlab::Access.all_values (lib/api/invitations.rb; lib/gitlab/access.rb), without 0 and 5. */
const ALL_VALUES: readonly number[] = [ACCESS.GUEST, ACCESS.PLANNER, ACCESS.REPORTER, ACCESS.DEVELOPER, ACCESS.MAINTAINER, ACCESS.OWNER];
/**
 * POST's `values:`: MembersHelpers.member_access_levels, which is all_values (lib/api/helpers/members_helpers.rb)
 * plus Minimal Access in EE (ee/lib/ee/api/helpers/members_helpers.rb). 0 is refused with 400.
 */
const MEMBER_ACCESS_LEVELS: readonly number[] = [ACCESS.MINIMAL_ACCESS, ...ALL_VALUES];
const INVITE_LIMIT = 100;
/**
 * A well-formed address: Devise.email_regexp (Member.valid_email?), which the reference server also
 * takes for ValidateEmail.valid?, the check of lib/api/validations/validators/email_or_email_list.rb.
 */
const EMAIL = /^[^@\s]+@[^@\s]+$/;

function pendingInvitations(store: Store, source: Source): Member[] {
  return store.directMembers(source).filter((m) => m.inviteToken !== null);
}

/** The lookup is exact and case-sensitive (`where(invite_email: email)`). */
function findInvitation(store: Store, source: Source, email: string): Member {
  const invitation = pendingInvitations(store, source).find((m) => m.inviteEmail === email);
  if (!invitation) throw notFound();
  return invitation;
}

/** GitLab's Invitation entity: no `id`; `user_name` only when a user is attached. */
function invitationEntity(store: Store, member: Member) {
  const user = store.userOrNone(member.userId);
  const creator = store.userOrNone(member.createdById);
  return {
    access_level: member.accessLevel,
    created_at: member.createdAt,
    expires_at: member.expiresAt,
    invite_email: member.inviteEmail,
    invite_token: member.inviteToken,
    ...(user ? { user_name: user.name } : {}),
    created_by_name: creator?.name ?? null,
  };
}

/** Ruby's String#split(','): trailing empty parts are dropped. */
function rubySplit(text: string): string[] {
  const parts = text.split(',');
  while (parts.at(-1) === '') parts.pop();
  return parts;
}

/**
 * Grape's CommaSeparatedToArray (lib/api/validations/types/comma_separated_to_array.rb): "a,b" or
 * ["a", "b"] (Rack's `email[]=a&email[]=b`, a JSON array) → the parts, each stripped (blank ones
 * kept); any other value (a JSON number, a hash) → none at all.
 */
function commaParts(params: Params, name: string): string[] {
  const value = params.raw[name];
  if (typeof value !== 'string' && !Array.isArray(value)) return [];
  const items: unknown[] = Array.isArray(value) ? value : [value];
  if (items.some((item) => typeof item === 'object' && item !== null)) {
    params.addError(`${name} is invalid`);
    return [];
  }
  return items.flatMap((item) => rubySplit(item === null ? '' : String(item)).map((part) => part.trim()));
}

/** user_id: the ids, without blanks and repeats (creator_service.rb parse_users_list ignores blanks). */
function userIdList(params: Params): string[] {
  return [...new Set(commaParts(params, 'user_id').filter((part) => part !== ''))];
}

/**
 * email: one malformed address in the list, a blank part included, refuses the whole request with
 * 400 before anything is invited (lib/api/validations/validators/email_or_email_list.rb; request spec
 * "returns 400 when the comma-separated email list is not a valid format").
 */
function emailList(params: Params): string[] {
  const parts = commaParts(params, 'email');
  if (!parts.every((part) => EMAIL.test(part))) {
    params.addError('email contains an invalid email address');
    return [];
  }
  return [...new Set(parts)];
}

/**
 * Member#access_level_inclusion for the one level the parameter check lets through that a source may
 * not take: Minimal Access is a level of a licensed top-level group only (EE GroupMember:
 * source.access_level_values, with Minimal Access when minimal_access_role_allowed?, ee/app/models/ee/group.rb;
 * the reference server is licensed); ProjectMember takes Gitlab::Access.all_values (app/models/project_member.rb).
 */
function levelErrors(source: Source, level: number): string[] {
  if (level !== ACCESS.MINIMAL_ACCESS) return [];
  if (source.kind === 'project') return ['Access level is not included in the list'];
  return source.parentId === null ? [] : ['Access level is not included in the list', 'Access level supported on top level groups only'];
}

export const invitationsRoutes: RouteModule = (app, ctx) => {
  for (const kind of ['group', 'project'] as const) {
    invitationCreateRoute(app, ctx, kind);
    invitationRoutes(app, ctx, kind);
  }
};

/** Inviting by email or user id, for one source kind. */
function invitationCreateRoute(app: FastifyInstance, ctx: Context, kind: SourceKind): void {
  const { store } = ctx;
  on<SourceRoute>(app, INVITATION_ROUTES.create, { kind }, async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    // Grape validates every declared parameter before the endpoint body runs.
    const params = new Params(mergedParams(request));
    const accessLevel = params.integer('access_level', { required: true, values: MEMBER_ACCESS_LEVELS })!;
    const emails = emailList(params);
    const userIds = userIdList(params);
    const expiresAt = params.date('expires_at') ?? null;
    const inviteSource = params.string('invite_source') ?? 'invitations-api';
    // Type-checked only: the reference server has no custom roles to assign.
    params.integer('member_role_id');
    params.done();
    if (emails.length === 0 && userIds.length === 0) throw badRequest('Must provide either email or user_id as a parameter');
    const source = findSource(ctx, request, kind, request.params.id);
    if (!canAdminMembers(store, source, user)) throw forbidden();
    // Members::CreateService: only an Owner may hand out the Owner role (in a group, canAdminMembers already asks for one).
    if (accessLevel === ACCESS.OWNER && !canManageOwners(store, source, user)) throw forbidden();
    reply.code(201);
    if (emails.length + userIds.length > INVITE_LIMIT) {
      return { message: `Too many users specified (limit is ${INVITE_LIMIT})`, status: 'error', reason: 'too_many_invites_error' };
    }

    const ref = store.sourceRef(source);
    const fields = { accessLevel, expiresAt, createdById: user.id, inviteSource };
    // The Member model's validations that are the same for every recipient of this request.
    const past = isExpired(expiresAt) ? ['Expires at cannot be a date in the past'] : [];
    const modelErrors = [...past, ...levelErrors(source, accessLevel)];
    // An empty sentence when the model finds nothing.
    const invalid = toSentence(modelErrors);
    // EE promotion management: the same rule as for members (a non-administrator giving a billable
    // role to a user who holds no seat yet only queues the request; nothing is stored).
    const errors: Record<string, string> = {};
    const queued: Record<string, string> = {};

    // Unknown and non-numeric user ids are dropped without an error entry (lib/api/validations/types/comma_separated_to_integer_array.rb).
    const users = userIds.flatMap((id) => store.userByIdText(id) ?? []);
    const addUser = (invitee: User, key: string) => {
      // A known user also meets the membership rules members have (a level below an inherited one is refused).
      const problems = invalid ? {} : membershipErrors(store, source, invitee.id, accessLevel, expiresAt);
      if (invalid) errors[key] = invalid;
      else if (Object.keys(problems).length > 0) errors[key] = fullMessages(problems);
      else if (promotionQueued(store, user, invitee, accessLevel)) queued[invitee.username] = QUEUED;
      else {
        // A direct member already is found and updated, not refused (app/services/members/creator_service.rb:
        // parse_users_list finds existing_members, member_attributes sets access_level and
        // expires_at: args[:expires_at], so a re-invite without one clears the expiry).
        const member = store.directMembership(source, invitee.id);
        if (member) Object.assign(member, { accessLevel, expiresAt });
        else store.addMember(ref, { userId: invitee.id, ...fields });
      }
    };

    for (const email of emails) {
      // Only a confirmed address, primary or secondary, names a user; any other is invited.
      const existing = store.userByConfirmedEmail(email);
      if (existing) {
        if (!users.includes(existing)) addUser(existing, email);
      } else if (invalid) errors[email] = invalid;
      else {
        const pending = pendingInvitations(store, source);
        const same = pending.find((m) => m.inviteEmail === email);
        // app/services/members/invite_member_builder.rb: the invitation is looked up by the address
        // as sent (find_or_initialize_by invite_email) and, found, refreshed; a new one is stored in
        // lower case (record.invite_email = invitee.downcase if record.new_record?), so the address
        // of a pending invitation in other letter case fails the uniqueness check.
        if (same) Object.assign(same, { accessLevel, expiresAt });
        else if (pending.some((m) => m.inviteEmail!.toLowerCase() === email.toLowerCase())) errors[email] = 'Invite email has already been taken';
        else store.addMember(ref, { inviteEmail: email.toLowerCase(), inviteToken: randomBytes(15).toString('base64url'), ...fields });
      }
    }
    for (const invitee of users) addUser(invitee, invitee.username);

    return {
      ...(Object.keys(errors).length > 0 ? { status: 'error', message: errors } : { status: 'success' }),
      ...(Object.keys(queued).length > 0 ? { queued_users: queued } : {}),
    };
  });
}

/** The invitations of one source kind: listed, changed, deleted. */
function invitationRoutes(app: FastifyInstance, ctx: Context, kind: SourceKind): void {
  const { store } = ctx;
  on<SourceRoute>(app, INVITATION_ROUTES.list, { kind }, async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, READ_API_SCOPES);
    const params = new Params(mergedParams(request));
    const query = params.string('query');
    readPage(params);
    params.done();
    const source = findSource(ctx, request, kind, request.params.id);
    if (!canAdminMembers(store, source, user)) throw forbidden();
    const invitations = pendingInvitations(store, source).filter((m) => !query || m.inviteEmail === query);
    return paginate(request, reply, invitations, params).map((m) => invitationEntity(store, m));
  });

  on<InvitationRoute>(app, INVITATION_ROUTES.update, { kind }, async (request) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    // Grape's `values: Gitlab::Access.all_values` refuses 0 and 5 with 400 {"error": …} (lib/api/invitations.rb).
    const accessLevel = params.integer('access_level', { values: ALL_VALUES });
    const expiresAt = params.date('expires_at');
    params.done();
    const source = findSource(ctx, request, kind, request.params.id);
    if (!canAdminMembers(store, source, user)) throw forbidden();
    const invitation = findInvitation(store, source, request.params.email);
    if (accessLevel === undefined && expiresAt === undefined) throw badRequest();
    // Members::UpdateService#has_update_permissions? (app/services/members/update_service.rb): in a
    // project, a caller who may not manage owners neither raises an invitation to Owner
    // (prevent_upgrade_to_owner?) nor changes one at Owner (prevent_downgrade_from_owner?;
    // app/services/members/base_service.rb): Gitlab::Access::AccessDeniedError, 403 (lib/api/api.rb).
    // In a group, canAdminMembers has already asked for an Owner.
    const owner = accessLevel === ACCESS.OWNER || invitation.accessLevel === ACCESS.OWNER;
    if (owner && !canManageOwners(store, source, user)) throw forbidden();
    if (expiresAt && isExpired(expiresAt)) throw validationError({ expires_at: ['cannot be a date in the past'] });
    if (accessLevel !== undefined) invitation.accessLevel = accessLevel;
    if (expiresAt !== undefined) invitation.expiresAt = expiresAt;
    return invitationEntity(store, invitation);
  });

  on<InvitationRoute>(app, INVITATION_ROUTES.remove, { kind }, async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const source = findSource(ctx, request, kind, request.params.id);
    if (!canAdminMembers(store, source, user)) throw forbidden();
    const invitation = findInvitation(store, source, request.params.email);
    // Members::DestroyService#execute: destroying_member_with_owner_access_level? &&
    // cannot_revoke_owner_responsibilities_from_member_in_project? raises Gitlab::Access::AccessDeniedError,
    // 403 (app/services/members/destroy_service.rb; request spec "when MAINTAINER tries to remove invitation of an OWNER").
    // In a group, canAdminMembers has already asked for an Owner.
    if (invitation.accessLevel === ACCESS.OWNER && !canManageOwners(store, source, user)) throw forbidden();
    store.members.delete(invitation.id);
    reply.code(204);
  });
}
