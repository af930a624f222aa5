// What the faults of more than one area use: the routes of the member and invitation families, the
// source and caller of a request, and the hooks that play a wrong rule of access requests, bots and
// Maintainers on members and invitations alike.
import { dropHeaders, matches, type When } from './dsl.js';
import type { SeededFault } from './types.js';
import { authenticate } from '../http/auth.js';
import { ACCESS } from '../state/model.js';
import type { Member, Source, User } from '../state/model.js';

export type Json = Record<string, unknown>;
export const withHeaders = (names: string[], when: When): Pick<SeededFault, 'onSend'> => dropHeaders(when, ...names);
export type FaultRequest = Parameters<NonNullable<SeededFault['onSend']>>[0];
export type FaultCtx = Parameters<NonNullable<SeededFault['onSend']>>[3];

/** The group or project a `/:kind/:id/…` request names, if any. */
export function faultSource(request: FaultRequest, ctx: FaultCtx) {
  const id = String((request.params as Json | undefined)?.id ?? '');
  return (request.routeOptions.url ?? '').includes('/groups/') ? ctx.store.findGroup(id) : ctx.store.findProject(id);
}

export function callerOf(request: FaultRequest, ctx: FaultCtx) {
  try {
    return authenticate(ctx.store, request).user;
  } catch {
    return undefined;
  }
}

/** The request's parameters as the route sees them: query, body and path. */
export const requestParams = (request: FaultRequest): Json => ({ ...((request.query ?? {}) as Json), ...((request.body ?? {}) as Json), ...((request.params ?? {}) as Json) });

/** Access requests the route would turn into memberships, put back after a success (the users named by `userIds`). */
export function keepAccessRequests(when: When, userIds: (params: Json, ctx: FaultCtx) => unknown[]): Pick<SeededFault, 'preHandler' | 'onSend'> {
  const kept = new WeakMap<FaultRequest, NonNullable<ReturnType<FaultCtx['store']['accessRequests']['find']>>[]>();
  return {
    preHandler(request, ctx) {
      const source = faultSource(request, ctx);
      if (!matches(request, when) || !source) return;
      const params = { ...((request.query ?? {}) as Json), ...((request.body ?? {}) as Json) };
      const found = userIds(params, ctx).flatMap((id) => ctx.store.accessRequests.find(source, Number(id)) ?? []);
      if (found.length > 0) kept.set(request, found);
    },
    onSend(request, reply, payload, ctx) {
      if (reply.statusCode < 300) for (const access of kept.get(request) ?? []) ctx.store.accessRequests.add(access);
      return payload;
    },
  };
}

/** A 403 "403 Forbidden" to a signed-in non-member of a public source becomes the 404 of a hidden one. */
export function nonMemberRefusalAs404(when: When): Pick<SeededFault, 'onSend'> {
  return {
    onSend(request, reply, payload, ctx) {
      const source = faultSource(request, ctx);
      if (!matches(request, when) || reply.statusCode !== 403 || !source || source.visibility !== 'public' || !payload.includes('403 Forbidden')) return payload;
      const user = callerOf(request, ctx);
      if (!user || ctx.store.accessLevel(source, user) > 0) return payload;
      reply.code(404);
      return JSON.stringify({ message: source.kind === 'group' ? '404 Group Not Found' : '404 Project Not Found' });
    },
  };
}

/**
 * Project bots among the users a request names (user_id, one or several; with `byEmail`, the
 * addresses of email instead) are people for its duration: their user_type is taken away before
 * the route and put back when it answered.
 */
export function botsAsPeople(when: When, byEmail = false): Pick<SeededFault, 'preHandler' | 'onSend'> {
  const people = new WeakMap<FaultRequest, User[]>();
  return {
    preHandler(request, ctx) {
      if (!matches(request, when)) return;
      const named = String(requestParams(request)[byEmail ? 'email' : 'user_id'] ?? '').split(',');
      const bots = named.flatMap((name) => {
        const user = byEmail ? ctx.store.userByEmail(name.trim()) : ctx.store.userByIdText(name.trim());
        return user?.userType === 'project_bot' ? [user] : [];
      });
      for (const bot of bots) delete bot.userType;
      if (bots.length > 0) people.set(request, bots);
    },
    onSend(request, _reply, payload) {
      for (const bot of people.get(request) ?? []) bot.userType = 'project_bot';
      people.delete(request);
      return payload;
    },
  };
}

/**
 * A direct Maintainer of the source is its Owner for a request that `concernsOwner` (its level made
 * Owner before the route and put back when it answered): the Owner-level checks let them through.
 */
export function maintainerAsOwner(when: When, concernsOwner: (params: Json, source: Source, ctx: FaultCtx) => boolean): Pick<SeededFault, 'preHandler' | 'onSend'> {
  const raised = new WeakMap<FaultRequest, Member>();
  return {
    preHandler(request, ctx) {
      const source = faultSource(request, ctx);
      const user = callerOf(request, ctx);
      if (!matches(request, when) || !source || !user) return;
      const own = ctx.store.directMembership(source, user.id);
      if (own?.accessLevel !== ACCESS.MAINTAINER || !concernsOwner(requestParams(request), source, ctx)) return;
      own.accessLevel = ACCESS.OWNER;
      raised.set(request, own);
    },
    onSend(request, _reply, payload) {
      const own = raised.get(request);
      if (own) own.accessLevel = ACCESS.MAINTAINER;
      raised.delete(request);
      return payload;
    },
  };
}

/** A form body (application/x-www-form-urlencoded) is not read: the route sees none of its fields, as if only JSON bodies were parsed. */
export function formBodyIgnored(when: When): Pick<SeededFault, 'preHandler'> {
  return {
    preHandler(request) {
      const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (matches(request, when) && type === 'application/x-www-form-urlencoded') request.body = {};
    },
  };
}

/** The private_token query parameter is not read: the request is anonymous unless a header names a token. */
export function privateTokenQueryIgnored(when: When): Pick<SeededFault, 'onRequest'> {
  return {
    onRequest(request) {
      if (matches(request, when)) delete (request.query as Json | undefined)?.private_token;
      return false;
    },
  };
}

/**
 * A caller at level `from` in the source (directly or through a group above it) acts at level `to`
 * for a request that `applies`: the membership giving the level is raised before the route and put
 * back when it answered.
 */
export function actAtLevel(when: When, from: number, to: number, applies: (params: Json, source: Source, ctx: FaultCtx) => boolean): Pick<SeededFault, 'preHandler' | 'onSend'> {
  const raised = new WeakMap<FaultRequest, Member>();
  return {
    preHandler(request, ctx) {
      const source = faultSource(request, ctx);
      const user = callerOf(request, ctx);
      if (!matches(request, when) || !source || !user || ctx.store.accessLevel(source, user) !== from || !applies(requestParams(request), source, ctx)) return;
      const group = source.kind === 'project' ? ctx.store.projectGroup(source) : source;
      const chain = [...(source.kind === 'project' ? [source] : []), ...(group ? ctx.store.groupChain(group) : [])];
      const own = chain.map((s) => ctx.store.directMembership(s, user.id)).find((m) => m?.accessLevel === from);
      if (!own) return;
      own.accessLevel = to;
      raised.set(request, own);
    },
    onSend(request, _reply, payload) {
      const own = raised.get(request);
      if (own) own.accessLevel = from;
      raised.delete(request);
      return payload;
    },
  };
}
