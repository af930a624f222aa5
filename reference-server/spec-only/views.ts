// What the spec-only variations need to know about a request: the source its path names, the caller,
// the membership a member row shows, who may see a member's email and SAML identity by the spec's
// visibility rules, and error texts that are not GitLab's.
import type { FastifyRequest } from 'fastify';
import { actorOf, type Context } from '../http/context.js';
import type { FaultContext } from '../faults/types.js';
import { ACCESS, type Member, type Source, type User } from '../state/model.js';
import { allMemberRow, canAdminMembers, canManageOwners, rootGroupOf, sourceOf } from '../routes/members/rules.js';

export type Json = Record<string, unknown>;

/** The hooks' context: the fault helpers' (faults/dsl.ts) and the routes' (the store and options). */
export type SpecOnlyContext = FaultContext & Context;

/** The route pattern without /api/v4, as faults/dsl.ts `matches` reads it. */
export const routeOf = (request: FastifyRequest) => (request.routeOptions.url ?? '').replace(/^\/api\/v4/, '');

/** The spec's endpoints (the four areas); the set-up routes (users, groups, projects, settings) are left alone. */
export function inSpec(request: FastifyRequest): boolean {
  return /^\/(projects\/:id\/(repository\/files|remote_mirrors)|(groups|projects)\/:id\/(invitations|members)|groups\/:id\/(billable_members|pending_members))/.test(routeOf(request));
}

export const param = (request: FastifyRequest, name: string) => String((request.params as Json | undefined)?.[name] ?? '');

/** The group or project the path names, visible or not; undefined when there is none. */
export function pathSource(ctx: SpecOnlyContext, request: FastifyRequest): Source | undefined {
  const id = param(request, 'id');
  return routeOf(request).startsWith('/groups/') ? ctx.store.findGroup(id) : ctx.store.findProject(id);
}

/** The authenticated caller (the route has already authenticated it; a refused token gives none). */
export function callerOf(ctx: SpecOnlyContext, request: FastifyRequest): User | undefined {
  try {
    return actorOf(ctx, request).user;
  } catch {
    return undefined;
  }
}

/** Whether a token was presented at all (anonymous callers present none). */
export function presentsToken(request: FastifyRequest): boolean {
  const query = (request.query ?? {}) as Json;
  return Boolean(request.headers['private-token'] || request.headers.authorization || query.private_token);
}

/** The path's source exists and the caller sees it, but may not add, edit or remove its members. */
export function seenButNotAdmin(ctx: SpecOnlyContext, request: FastifyRequest, level?: number): boolean {
  const source = pathSource(ctx, request);
  const user = callerOf(ctx, request);
  if (!source || !user || !ctx.store.canSee(source, user)) return false;
  if (!canAdminMembers(ctx.store, source, user)) return true;
  return source.kind === 'project' && level === ACCESS.OWNER && !canManageOwners(ctx.store, source, user);
}

/** The membership a member row of this request shows (direct, or the /members/all row). */
export function membershipOf(ctx: SpecOnlyContext, request: FastifyRequest, userId: number): Member | undefined {
  const source = pathSource(ctx, request);
  const viewer = callerOf(ctx, request);
  if (!source || !viewer) return undefined;
  return routeOf(request).includes('/members/all') ? allMemberRow(ctx.store, source, viewer, userId)?.member : ctx.store.userMember(source, userId);
}

/** An Owner of the group by membership (the spec says "group owners"; an administrator's powers do not count). */
const ownsGroup = (ctx: SpecOnlyContext, groupId: number | undefined, viewer: User | undefined) => {
  const group = groupId === undefined ? undefined : ctx.store.groups.get(groupId);
  return group !== undefined && viewer !== undefined && ctx.store.groupAccess(group, viewer.id) >= ACCESS.OWNER;
};

/** Spec, Member: "email is visible only to group owners, for enterprise users of the group, when the request is sent to the group itself or to its subgroups or projects." */
export function emailVisible(ctx: SpecOnlyContext, request: FastifyRequest, userId: number): boolean {
  const user = ctx.store.users.get(userId);
  const source = pathSource(ctx, request);
  const enterprise = user?.enterpriseGroupId;
  return enterprise !== undefined && source !== undefined && rootGroupOf(ctx.store, source)?.id === enterprise && ownsGroup(ctx, enterprise, callerOf(ctx, request));
}

/** Spec, Member: "group_saml_identity is visible only to group owners, for groups with SSO enabled." */
export function samlIdentityVisible(ctx: SpecOnlyContext, request: FastifyRequest, userId: number): boolean {
  const member = membershipOf(ctx, request, userId);
  const group = member && sourceOf(ctx.store, member);
  return group?.kind === 'group' && ctx.store.rootOf(group).samlSsoEnabled && ownsGroup(ctx, group.id, callerOf(ctx, request));
}

// ---- error texts ----------------------------------------------------------------------------

const REASONS: Record<number, string> = { 400: 'the request is not valid', 401: 'authentication is required', 403: 'not allowed', 404: 'not found', 409: 'conflict', 413: 'the request is too large', 422: 'cannot be processed' };

/** Another text for an error string: never one of GitLab's. */
export const otherText = (status: number) => `Spec-only: ${REASONS[status] ?? 'the request failed'}`;

/** Another text for every text of a message value of any shape: string, {field: [texts]}, [texts]. */
export function otherTexts(value: unknown, text: string): unknown {
  if (typeof value === 'string') return text;
  if (Array.isArray(value)) return value.map((item) => otherTexts(item, text));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, otherTexts(item, text)]));
  return value;
}
