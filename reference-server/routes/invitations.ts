// Invitations to groups and projects (lib/api/invitations.rb, app/services/members/invite_service.rb;
// gitlab-facts §3, §8). A pending invitation is a Member with an invite token and email and no user
// (the members area lists them as pending members); inviting the address of an existing user, or a
// user id, makes a direct membership instead.
import { randomBytes } from 'node:crypto';
import { requireScope, requireUser, READ_API_SCOPES, WRITE_API_SCOPES } from '../http/auth.js';
import { actorOf, findSource, type RouteModule } from '../http/context.js';
import { badRequest, forbidden, notFound, validationError } from '../http/errors.js';
import { paginate, readPage } from '../http/pagination.js';
import { mergedParams, Params } from '../http/params.js';
import { ACCESS, type Member, type Source, type User } from '../state/model.js';
import { isExpired, type Store } from '../state/store.js';
import { canAdminMembers, fullMessages, membershipErrors, promotionQueued, QUEUED } from './members/rules.js';

type SourceRoute = { Params: { id: string } };
type InvitationRoute = { Params: { id: string; email: string } };

/** Grape's `values:` for access_level (Gitlab::Access.all_values as the docs list them). */
const ACCESS_VALUES = [0, 5, 10, 15, 20, 30, 40, 50];
/** Levels the Member model accepts: 0 and 5 pass the parameter check but not the model's. */
const ROLE_LEVELS = [10, 15, 20, 30, 40, 50];
const INVITE_LIMIT = 100;
/** Devise.email_regexp, which Member.valid_email? uses. */
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
  // Stryker disable next-line ConditionalExpression,EqualityOperator: only pending invitations (no user attached) are rendered, so user is undefined whichever branch runs
  const user = member.userId === null ? undefined : store.users.get(member.userId);
  const creator = member.createdById === null ? undefined : store.users.get(member.createdById);
  return {
    access_level: member.accessLevel,
    created_at: member.createdAt,
    expires_at: member.expiresAt,
    invite_email: member.inviteEmail,
    invite_token: member.inviteToken,
    // Stryker disable next-line ObjectLiteral: a pending invitation never has a user attached, so user_name is never rendered
    ...(user ? { user_name: user.name } : {}),
    // Stryker disable next-line OptionalChaining: every invitation records the user who sent it; no contract request removes that user while the invitation is listed (GitLab's answer then is unconfirmed)
    created_by_name: creator?.name ?? null,
  };
}

/** Grape's CommaSeparatedToArray: "a,b" or ["a", "b"] → trimmed, non-blank, de-duplicated strings. */
function commaList(params: Params, name: string): string[] {
  const value = params.raw[name];
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  // Stryker disable next-line MethodExpression: some/every differ only for a list mixing strings and objects, whose answer GitLab does not confirm (CommaSeparatedToArray stringifies array items)
  if (items.some((item) => typeof item === 'object' && item !== null)) {
    // Stryker disable next-line StringLiteral: the wording of GitLab's refusal of a non-list email/user_id is unconfirmed; tests assert the 400 only
    params.addError(`${name} is invalid`);
    // Stryker disable next-line ArrayDeclaration: an error was just recorded, so params.done() refuses the request whatever list is returned
    return [];
  }
  const parts = items.flatMap((item) => String(item).split(',')).map((part) => part.trim());
  return [...new Set(parts.filter((part) => part !== ''))];
}

export const invitationsRoutes: RouteModule = (app, ctx) => {
  const { store } = ctx;

  for (const kind of ['group', 'project'] as const) {
    app.post<SourceRoute>(`/${kind}s/:id/invitations`, async (request, reply) => {
      const actor = actorOf(ctx, request);
      const user = requireUser(actor);
      requireScope(actor, WRITE_API_SCOPES);
      // Grape validates every declared parameter before the endpoint body runs.
      const params = new Params(mergedParams(request));
      const accessLevel = params.integer('access_level', { required: true, values: ACCESS_VALUES })!;
      const emails = commaList(params, 'email');
      const userIds = commaList(params, 'user_id');
      const expiresAt = params.date('expires_at') ?? null;
      // Stryker disable next-line LogicalOperator,StringLiteral: invite_source is stored but no endpoint shows it
      const inviteSource = params.string('invite_source') ?? 'invitations-api';
      // Type-checked only: the reference server has no custom roles to assign.
      params.integer('member_role_id');
      params.done();
      if (emails.length === 0 && userIds.length === 0) throw badRequest('Must provide either email or user_id as a parameter');
      const source = findSource(ctx, request, kind, request.params.id);
      if (!canAdminMembers(store, source, user)) throw forbidden();
      // Members::CreateService: only a project Owner may hand out the Owner role.
      if (source.kind === 'project' && accessLevel === ACCESS.OWNER && store.accessLevel(source, user) < ACCESS.OWNER) throw forbidden();
      reply.code(201);
      if (emails.length + userIds.length > INVITE_LIMIT) {
        return { message: `Too many users specified (limit is ${INVITE_LIMIT})`, status: 'error', reason: 'too_many_invites_error' };
      }

      const ref = store.sourceRef(source);
      const fields = { accessLevel, expiresAt, createdById: user.id, inviteSource };
      // The Member model's validations, the same for every recipient of this request.
      const invalid = !ROLE_LEVELS.includes(accessLevel)
        ? 'Access level is not included in the list'
        : expiresAt !== null && isExpired(expiresAt)
          ? 'Expires at cannot be a date in the past'
          : undefined;
      // EE promotion management: the same rule as for members (a non-administrator giving a billable
      // role to a user who holds no seat yet only queues the request; nothing is stored).
      const errors: Record<string, string> = {};
      const queued: Record<string, string> = {};

      // Unknown and non-numeric user ids are dropped without an error entry (gitlab-facts §8).
      // Stryker disable next-line MethodExpression: ids that are not plain decimals (-1, 1.5, 1e1) are cast differently by GitLab (unconfirmed); tests send only ids that name no user either way
      const users = userIds.filter((id) => /^\d+$/.test(id)).flatMap((id) => store.users.get(Number(id)) ?? []);
      const addUser = (invitee: User, key: string) => {
        // A known user also meets the membership rules members have (a level below an inherited one is refused).
        const problems = invalid ? {} : membershipErrors(store, source, invitee.id, accessLevel, expiresAt);
        if (invalid) errors[key] = invalid;
        else if (Object.keys(problems).length > 0) errors[key] = fullMessages(problems);
        else if (store.directMembership(source, invitee.id)) errors[key] = 'User already exists in source';
        else if (promotionQueued(store, user, invitee, accessLevel)) queued[invitee.username] = QUEUED;
        else store.addMember(ref, { userId: invitee.id, ...fields });
      };

      for (const email of emails) {
        const existing = store.userByEmail(email);
        if (!EMAIL.test(email)) errors[email] = 'Invite email is invalid';
        else if (existing) {
          if (!users.includes(existing)) addUser(existing, email);
        } else if (invalid) errors[email] = invalid;
        else {
          const pending = pendingInvitations(store, source);
          // Stryker disable next-line ArrowFunction: without the match the address is reported as taken and kept, which is what older GitLab releases do (gitlab-facts §8: both accepted)
          const same = pending.find((m) => m.inviteEmail === email);
          // Re-inviting a pending address refreshes that invitation (gitlab-facts §8); the same
          // address in other letter case fails the uniqueness check.
          if (same) Object.assign(same, { accessLevel, expiresAt });
          else if (pending.some((m) => m.inviteEmail!.toLowerCase() === email.toLowerCase())) errors[email] = 'Invite email has already been taken';
          else store.addMember(ref, { inviteEmail: email, inviteToken: randomBytes(15).toString('base64url'), ...fields });
        }
      }
      for (const invitee of users) addUser(invitee, invitee.username);

      return {
        ...(Object.keys(errors).length > 0 ? { status: 'error', message: errors } : { status: 'success' }),
        ...(Object.keys(queued).length > 0 ? { queued_users: queued } : {}),
      };
    });

    app.get<SourceRoute>(`/${kind}s/:id/invitations`, async (request, reply) => {
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

    app.put<InvitationRoute>(`/${kind}s/:id/invitations/:email`, async (request) => {
      const actor = actorOf(ctx, request);
      const user = requireUser(actor);
      requireScope(actor, WRITE_API_SCOPES);
      const params = new Params(mergedParams(request));
      const accessLevel = params.integer('access_level', { values: ACCESS_VALUES });
      const expiresAt = params.date('expires_at');
      params.done();
      const source = findSource(ctx, request, kind, request.params.id);
      if (!canAdminMembers(store, source, user)) throw forbidden();
      const invitation = findInvitation(store, source, request.params.email);
      if (accessLevel === undefined && expiresAt === undefined) throw badRequest();
      // Stryker disable next-line ObjectLiteral,ArrayDeclaration,StringLiteral: GitLab may refuse 0 and 5 in its parameter check ({"error": ...}) or in the model; tests assert the 400 and the unchanged invitation only
      if (accessLevel !== undefined && !ROLE_LEVELS.includes(accessLevel)) throw validationError({ access_level: ['is not included in the list'] });
      if (expiresAt && isExpired(expiresAt)) throw validationError({ expires_at: ['cannot be a date in the past'] });
      if (accessLevel !== undefined) invitation.accessLevel = accessLevel;
      if (expiresAt !== undefined) invitation.expiresAt = expiresAt;
      return invitationEntity(store, invitation);
    });

    app.delete<InvitationRoute>(`/${kind}s/:id/invitations/:email`, async (request, reply) => {
      const actor = actorOf(ctx, request);
      const user = requireUser(actor);
      requireScope(actor, WRITE_API_SCOPES);
      const source = findSource(ctx, request, kind, request.params.id);
      if (!canAdminMembers(store, source, user)) throw forbidden();
      store.members.delete(findInvitation(store, source, request.params.email).id);
      reply.code(204);
    });
  }
};
