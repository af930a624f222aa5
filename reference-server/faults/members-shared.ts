// What the members area's seeded faults share: the routes they select and the faults' building blocks.
import type { RouteDecl } from '../http/route-ids.js';
import { matches, type When } from './dsl.js';
import type { SeededFault } from './types.js';
import { ACCESS } from '../state/model.js';
import { isLastOwner, QUEUED } from '../routes/members/rules.js';
import type { Member, Source } from '../state/model.js';
import { faultSource, type FaultCtx, type FaultRequest, type Json } from './shared.js';
import { MEMBER_ROUTES } from '../routes/members/source-members.js';

/** The routes that answer members: the lists and the single reads. */
export const MEMBER_READS = [MEMBER_ROUTES.list, MEMBER_ROUTES.listAll, MEMBER_ROUTES.get, MEMBER_ROUTES.getAll];
/** Applies `fn` to the member (a single read) or to each member (a list). */
export const eachMember = (b: Json | Json[], fn: (m: Json) => Json): Json | Json[] => (Array.isArray(b) ? b.map(fn) : fn(b));

/** The routes that add (POST …/members) and edit (PUT …/members/:user_id) members. */
export const MEMBER_WRITES = [MEMBER_ROUTES.add, MEMBER_ROUTES.edit];

/**
 * Promotion management's queued answer in place of a member add or edit that succeeded: the
 * memberships the request made or changed are put back, and its users reported queued.
 */
export function queuedInstead(route: RouteDecl | RouteDecl[], applies: (ctx: FaultCtx, request: FaultRequest, level: number, userIds: number[]) => boolean): Pick<SeededFault, 'preHandler' | 'onSend'> {
  const undo = new WeakMap<FaultRequest, () => Record<string, string>>();
  const when: When = { route };
  return {
    preHandler(request, ctx) {
      if (!matches(request, when)) return;
      const params = { ...(request.query as Json), ...((request.body ?? {}) as Json), ...(request.params as Json) };
      const source = faultSource(request, ctx);
      const userIds = String(params.user_id ?? '').split(',').map(Number);
      if (!source || !applies(ctx, request, Number(params.access_level), userIds)) return;
      const before = new Map(userIds.map((id) => [id, ctx.store.userMember(source, id)?.accessLevel]));
      undo.set(request, () => {
        const queued: Record<string, string> = {};
        for (const [id, level] of before) {
          const member = ctx.store.userMember(source, id);
          if (member && level === undefined) ctx.store.members.delete(member.id);
          else if (member) member.accessLevel = level!;
          queued[ctx.store.users.get(id)?.username ?? String(id)] = QUEUED;
        }
        return queued;
      });
    },
    onSend(request, reply, payload) {
      const restore = undo.get(request);
      if (!restore || reply.statusCode >= 300 || payload.includes(QUEUED)) return payload;
      const queued = restore();
      const several = request.method === 'POST' && Object.keys(queued).length > 1;
      reply.code(several ? 201 : 202);
      return JSON.stringify(several ? { queued_users: queued, status: 'success' } : { message: queued });
    },
  };
}

/** The groups above a source (for a group its ancestors, for a project its group and theirs). */
export function ancestorsOf(ctx: FaultCtx, source: Source) {
  if (source.kind === 'group') return ctx.store.groupChain(source).slice(1);
  const group = ctx.store.projectGroup(source);
  return group ? ctx.store.groupChain(group) : [];
}

/**
 * The last owner of a top-level group is no last owner for a PUT or DELETE of its membership: its
 * level is Maintainer while the route decides (the last-owner rule reads Owners), and Owner again
 * unless the route changed or removed the membership.
 */
export function lastOwnerLetGo(): Pick<SeededFault, 'preHandler' | 'onSend'> {
  const when: When = { route: [MEMBER_ROUTES.edit, MEMBER_ROUTES.remove], kind: 'group' };
  const lowered = new WeakMap<FaultRequest, Member>();
  return {
    preHandler(request, ctx) {
      const group = matches(request, when) ? ctx.store.findGroup(String((request.params as Json).id)) : undefined;
      if (!group || group.parentId !== null) return;
      const member = ctx.store.userMember(group, Number((request.params as Json).user_id));
      if (!member || !isLastOwner(ctx.store, group, member)) return;
      member.accessLevel = ACCESS.MAINTAINER;
      lowered.set(request, member);
    },
    onSend(request, reply, payload) {
      const member = lowered.get(request);
      lowered.delete(request);
      if (member && reply.statusCode >= 300) member.accessLevel = ACCESS.OWNER;
      return payload;
    },
  };
}
