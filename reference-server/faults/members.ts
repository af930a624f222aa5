// The seeded faults of the members area (reference-server/areas.ts registers them with its routes).
import { answer, bothKinds, changeParams, dropParams, mapBody, mapRows, matches, status, type When } from './dsl.js';
import type { AreaFault, SeededFault } from './types.js';
import { ACCESS, ROLE_NAMES } from '../state/model.js';
import { isLastOwner, QUEUED } from '../routes/members/rules.js';
import type { Member, Source } from '../state/model.js';
import { botsAsPeople, callerOf, faultSource, group, keepAccessRequests, maintainerAsOwner, members, nonMemberRefusalAs404, requestParams, withHeaders, type FaultCtx, type FaultRequest, type Json } from './shared.js';

/** The routes that add (POST …/members) and edit (PUT …/members/:user_id) members. */
const MEMBER_WRITES = [...bothKinds('/:kind/:id/members'), ...bothKinds('/:kind/:id/members/:user_id')];

/**
 * Promotion management's queued answer in place of a member add or edit that succeeded: the
 * memberships the request made or changed are put back, and its users reported queued.
 */
function queuedInstead(route: string | string[], applies: (ctx: FaultCtx, request: FaultRequest, level: number, userIds: number[]) => boolean): Pick<SeededFault, 'preHandler' | 'onSend'> {
  const undo = new WeakMap<FaultRequest, () => Record<string, string>>();
  const when: When = { method: ['POST', 'PUT'], route };
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
function ancestorsOf(ctx: FaultCtx, source: Source) {
  if (source.kind === 'group') return ctx.store.groupChain(source).slice(1);
  const group = ctx.store.projectGroup(source);
  return group ? ctx.store.groupChain(group) : [];
}

/**
 * The last owner of a top-level group is no last owner for a PUT or DELETE of its membership: its
 * level is Maintainer while the route decides (the last-owner rule reads Owners), and Owner again
 * unless the route changed or removed the membership.
 */
function lastOwnerLetGo(): Pick<SeededFault, 'preHandler' | 'onSend'> {
  const when: When = { method: ['PUT', 'DELETE'], route: '/groups/:id/members/:user_id' };
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

export const membersFaults: AreaFault[] = [
  { name: 'members.all-duplicates', clauses: ['members.all.highest-level'], description: 'members/all lists a user once per membership instead of once at the highest level', ...mapBody(members('GET', '/all'), (b) => (Array.isArray(b) ? [...b, ...b.map((row) => ({ ...row, access_level: 10 }))] : undefined)) },
  { name: 'members.email-leak', clauses: ['members.entity.email-hidden'], description: 'every member row shows the user\'s email', ...mapBody({ method: 'GET', route: [...bothKinds('/:kind/:id/members'), ...bothKinds('/:kind/:id/members/all')] }, (b, ctx) => (Array.isArray(b) ? b.map((row) => ({ ...row, email: ctx.store.users.get(Number(row.id))?.email })) : undefined)) },
  { name: 'members.billable-on-subgroup', clauses: ['members.ee.top-level-only'], description: 'billable members of a subgroup answer 200 instead of 400', ...status(group('GET', '/billable_members'), 400, 200, []) },
  { name: 'members.duplicate-add-201', clauses: ['members.add.conflict'], description: 'adding an existing member answers 201 instead of 409', ...status(members('POST'), 409, 201, {}) },
  { name: 'members.pagination-headers-missing', level: 'parity', clauses: ['members.pagination'], description: 'member lists lack X-Total and X-Next-Page', ...withHeaders(['x-total', 'x-next-page', 'x-total-pages'], members('GET')) },
  { name: 'members.per-page-ignored', clauses: ['members.pagination'], description: 'member lists ignore per_page', ...dropParams(members('GET'), 'per_page') },
  { name: 'members.expires-at-dropped', clauses: ['members.add.expires-at', 'members.edit.level'], description: 'expires_at is ignored when adding or editing a member', ...dropParams(members(['POST', 'PUT'], ''), 'expires_at') },
  { name: 'members.direct-includes-inherited', clauses: ['members.list.direct-only'], description: 'the direct member list includes inherited members', rewriteUrl(method, url) {
    return method === 'GET' ? url.replace(/^(\/api\/v4\/(groups|projects)\/[^/]+\/members)(\?|$)/, '$1/all$3') : undefined;
  } },
  { name: 'members.anonymous-403', clauses: ['members.auth.anonymous'], description: 'no token answers 403 instead of 401', ...status({ method: ['GET', 'POST', 'PUT', 'DELETE'], route: [...bothKinds('/:kind/:id/members'), ...bothKinds('/:kind/:id/members/:user_id'), ...bothKinds('/:kind/:id/members/all')] }, 401, 403, { message: '403 Forbidden' }) },
  { name: 'members.state-not-applied', clauses: ['members.state.set'], description: 'the state change answers success but changes nothing', ...answer(group('PUT', '/members/:user_id/state'), 200, { success: true }) },
  { name: 'members.approve-200-body', clauses: ['members.approve.one'], description: 'approve answers 200 with a body instead of 204', ...status(group('PUT', '/members/:member_id/approve'), 204, 200, { approved: true }) },
  { name: 'members.override-not-set', clauses: ['members.override.set'], description: 'setting the override answers override: false', ...mapBody(group('POST', '/members/:user_id/override'), (b) => ({ ...b, override: false })) },
  { name: 'members.access-level-string', clauses: ['members.entity.shape'], description: 'access_level is a string', ...mapBody({ method: ['GET', 'POST', 'PUT'], route: [...bothKinds('/:kind/:id/members/:user_id'), ...bothKinds('/:kind/:id/members')] }, (b) => (Array.isArray(b) ? (b as Json[]).map((row) => ({ ...row, access_level: String(row.access_level) })) : { ...(b as Json), access_level: String((b as Json).access_level) })) },
  { name: 'members.created-by-missing', clauses: ['members.entity.created-by'], description: 'created_by is left out of member answers', ...mapBody({ method: ['GET', 'POST', 'PUT'], route: [...bothKinds('/:kind/:id/members/:user_id'), ...bothKinds('/:kind/:id/members')] }, (b) => {
    const strip = ({ created_by: _created, ...rest }: Json) => rest;
    return Array.isArray(b) ? b.map(strip) : strip(b);
  }) },
  { name: 'members.remove-keeps', clauses: ['members.remove.direct'], description: 'removing a member answers 204 and keeps the member', ...answer(members('DELETE', '/:user_id'), 204) },
  { name: 'members.skip-subresources-ignored', clauses: ['members.remove.subresources'], description: 'skip_subresources is ignored on removal', ...dropParams(members('DELETE', '/:user_id'), 'skip_subresources') },
  { name: 'members.user-ids-ignored', clauses: ['members.list.user-ids'], description: 'the user_ids filter is ignored', ...dropParams(members('GET', '/all'), 'user_ids') },
  { name: 'members.pending-shows-active', clauses: ['members.pending.list'], description: 'pending members also lists active members of the group', ...mapBody(group('GET', '/pending_members'), (b, ctx, request) => {
    const source = ctx.store.findGroup(String((request.params as Json).id));
    if (!Array.isArray(b) || !source) return undefined;
    const active = ctx.store.directMembers(source).filter((m) => m.userId !== null && m.state === 'active').map((m) => ({ id: m.id, username: ctx.store.users.get(m.userId!)?.username, approved: true, invited: false, avatar_url: null }));
    return [...b, ...active];
  }) },
  { name: 'members.billable-type-wrong', clauses: ['members.billable.list', 'members.billable.type-order'], description: 'every billable member reads membership_type "group_member"', ...mapRows(group('GET', '/billable_members'), (row) => ({ ...row, membership_type: 'group_member' })) },
  { name: 'members.billable-sort-ignored', clauses: ['members.billable.sort', 'members.billable.sort-activity'], description: 'billable members ignore sort', ...dropParams(group('GET', '/billable_members'), 'sort') },
  { name: 'members.pending-one-invitation', clauses: ['members.pending.list'], description: 'pending members list only the first person invited by email', ...mapBody(group('GET', '/pending_members'), (b) => {
    if (!Array.isArray(b)) return undefined;
    const first = b.findIndex((row) => row.invited === true);
    return b.filter((row, i) => row.invited !== true || i === first);
  }) },
  { name: 'members.query-case-sensitive', clauses: ['members.list.query'], description: 'the query filter of member lists matches case-sensitively', ...mapBody(members('GET'), (b, _ctx, request) => {
    const query = (request.query as Json).query;
    if (!Array.isArray(b) || typeof query !== 'string' || query === '') return undefined;
    return b.filter((row) => String(row.name).includes(query) || String(row.username).includes(query));
  }) },
  { name: 'members.all-no-share-cap', clauses: ['members.all.invited-level'], description: 'members/all gives each user their highest level anywhere, ignoring the level a group was invited with', ...mapRows(members('GET', '/all'), (row, ctx) => {
    const levels = [...ctx.store.members.values()].filter((m) => m.userId === row.id).map((m) => m.accessLevel);
    return { ...row, access_level: Math.max(Number(row.access_level), ...levels) };
  }) },
  { name: 'members.all-share-no-ancestors', level: 'parity', clauses: ['members.all.invited-ancestors'], description: 'all members of a project shared with a subgroup leave out the members of that subgroup\'s ancestors', ...mapBody({ method: 'GET', route: '/projects/:id/members/all' }, (b, ctx, request) => {
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (!project || !Array.isArray(b)) return undefined;
    const invited = project.sharedWith.map((link) => ctx.store.groups.get(link.groupId)).filter((g) => g !== undefined);
    // A user listed only through an ancestor of an invited group: no direct member of the project, its groups or an invited group.
    const throughAncestorOnly = (userId: number) =>
      invited.some((g) => ctx.store.groupChain(g).slice(1).some((above) => ctx.store.directMembership(above, userId))) &&
      ![project, ...ancestorsOf(ctx, project), ...invited].some((source) => ctx.store.directMembership(source, userId));
    return b.filter((row) => !throughAncestorOnly(Number(row.id)));
  }) },
  // ---- public sources and access requesters (requests: lib/api/access_requests.rb) ----------
  { name: 'members.requester-stays-pending', clauses: ['members.requester.becomes-member'], description: 'adding a user whose access request is pending (POST …/members) makes them a member but leaves the request pending', ...keepAccessRequests({ method: 'POST', route: bothKinds('/:kind/:id/members') }, (p) => [p.user_id]) },
  { name: 'members.requester-delete-withdraws', clauses: ['members.requester.not-member'], description: 'DELETE …/members/:user_id of an access requester withdraws the request and answers 204 instead of 404', onRequest(request, reply, ctx) {
    const source = faultSource(request, ctx);
    const userId = Number((request.params as Json).user_id);
    if (!matches(request, members('DELETE', '/:user_id')) || !source || !ctx.store.accessRequests.find(source, userId)) return false;
    ctx.store.accessRequests.remove(source, userId);
    void reply.code(204).send();
    return true;
  } },
  { name: 'members.requester-listed', clauses: ['members.requester.not-member'], description: 'the member lists (…/members, …/members/all) list the access requesters as Developers', ...mapBody({ method: 'GET', route: [...bothKinds('/:kind/:id/members'), ...bothKinds('/:kind/:id/members/all')] }, (b, ctx, request) => {
    const source = faultSource(request, ctx);
    if (!Array.isArray(b) || !source) return undefined;
    const rows = ctx.store.accessRequests.of(source).map((a) => {
      const user = ctx.store.users.get(a.userId)!;
      return { id: user.id, username: user.username, name: user.name, state: user.state, avatar_url: null, web_url: `http://localhost/${user.username}`, access_level: a.accessLevel, created_at: a.requestedAt, expires_at: null };
    });
    return [...b, ...rows];
  }) },
  { name: 'members.public-non-member-404', clauses: ['members.public.writes-refused'], description: 'member writes by a non-member of a public group or project answer 404 (as for a private one) instead of 403', ...nonMemberRefusalAs404({ method: ['POST', 'PUT', 'DELETE'], route: [...bothKinds('/:kind/:id/members'), ...bothKinds('/:kind/:id/members/:user_id')] }) },
  { name: 'members.public-single-member-hidden', clauses: ['members.public.read'], description: 'a non-member of a public group or project reading one member (…/members/:user_id, …/members/all/:user_id) gets 404 instead of the member', onSend(request, reply, payload, ctx) {
    const source = faultSource(request, ctx);
    if (!matches(request, { method: 'GET', route: [...bothKinds('/:kind/:id/members/:user_id'), ...bothKinds('/:kind/:id/members/all/:user_id')] }) || reply.statusCode !== 200 || !source || source.visibility !== 'public') return payload;
    const user = callerOf(request, ctx);
    if (!user || user.isAdmin || ctx.store.accessLevel(source, user) > 0) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not found' });
  } },
  { name: 'members.private-parent-readable', clauses: ['members.read.private-parent'], description: 'a member of a subgroup only reads the members of the private parent group (403 turned into 200, an empty list)', onSend(request, reply, payload) {
    if (!matches(request, { method: 'GET', route: ['/groups/:id/members/all', '/groups/:id/members/all/:user_id', '/groups/:id/members'] }) || reply.statusCode !== 403 || !payload.includes('403 Forbidden')) return payload;
    reply.code(200);
    return '[]';
  } },
  // ---- issue #17: GitLab's members request specs ---------------------------------------------
  { name: 'members.empty-query-matches-nothing', clauses: ['members.list.query-empty'], description: 'an empty query (query=) is taken as a search that nobody matches: the member lists answer []', ...mapBody({ method: 'GET', route: [...bothKinds('/:kind/:id/members'), ...bothKinds('/:kind/:id/members/all')] }, (b, _ctx, request) => ((request.query as Json).query === '' && Array.isArray(b) ? [] : undefined)) },
  { name: 'members.remove-ignores-if-unmodified-since', clauses: ['members.remove.if-unmodified-since'], description: 'DELETE …/members/:user_id ignores If-Unmodified-Since and removes a member changed after that date', onRequest(request) {
    if (matches(request, members('DELETE', '/:user_id'))) delete request.headers['if-unmodified-since'];
    return false;
  } },
  { name: 'members.edit-past-expiry-ignored', clauses: ['members.edit.expires-at-past'], description: 'an expires_at in the past on PUT …/members/:user_id is dropped and the rest of the edit applied (200) instead of refused', ...changeParams(members('PUT', '/:user_id'), (p) => {
    if (typeof p.expires_at === 'string' && p.expires_at < new Date().toISOString().slice(0, 10)) delete p.expires_at;
  }) },
  { name: 'members.approve-active-204', clauses: ['members.approve.not-pending'], description: 'approving a member who is already active answers 204 instead of 400', onSend(request, reply, payload) {
    if (!matches(request, group('PUT', '/members/:member_id/approve')) || reply.statusCode !== 400 || !payload.includes('No memberships found')) return payload;
    reply.code(204);
    return '';
  } },
  { name: 'members.ee-unknown-group-400', clauses: ['members.ee.unknown-group'], description: 'billable members, billable and indirect memberships and approval answer a group id that does not exist with 400 instead of 404', onSend(request, reply, payload) {
    const routes = ['/billable_members', '/billable_members/:user_id/memberships', '/billable_members/:user_id/indirect'].map((suffix) => group('GET', suffix));
    if (![...routes, group('PUT', '/members/:member_id/approve')].some((when) => matches(request, when)) || reply.statusCode !== 404 || !payload.includes('404 Group Not Found')) return payload;
    reply.code(400);
    return JSON.stringify({ message: '400 Bad request' });
  } },
  { name: 'members.billable-admin-email-hidden', level: 'parity', clauses: ['members.billable.admin-email'], description: 'an administrator sees no email ("email": null) among the billable members', ...mapBody(group('GET', '/billable_members'), (b, ctx, request) => (Array.isArray(b) && callerOf(request, ctx)?.isAdmin ? b.map((row) => ({ ...row, email: null })) : undefined)) },
  { name: 'members.indirect-outside-hierarchy', clauses: ['members.billable-indirect.hierarchy'], description: 'the indirect memberships also list the user\'s memberships in groups not invited into the hierarchy', ...mapBody(group('GET', '/billable_members/:user_id/indirect'), (b, ctx, request) => {
    if (!Array.isArray(b)) return undefined;
    const listed = new Set(b.map((row) => row.id));
    const extra = ctx.store.members.ofUser(Number((request.params as Json).user_id)).filter((m) => m.source.kind === 'group' && !listed.has(m.id)).map((m) => {
      const source = ctx.store.groups.get(m.source.id)!;
      return { id: m.id, source_id: source.id, source_full_name: ctx.store.groupFullName(source), source_members_url: `http://localhost/groups/${source.path}/-/group_members`, created_at: m.createdAt, expires_at: m.expiresAt, access_level: { string_value: ROLE_NAMES[m.accessLevel], integer_value: m.accessLevel } };
    });
    return [...b, ...extra];
  }) },
  { name: 'members.indirect-no-project-invites', clauses: ['members.billable-indirect.hierarchy'], description: 'the indirect memberships leave out groups invited into a project of the hierarchy', ...mapBody(group('GET', '/billable_members/:user_id/indirect'), (b, ctx) => {
    if (!Array.isArray(b)) return undefined;
    const intoProjects = new Set([...ctx.store.projects.values()].flatMap((p) => p.sharedWith.map((link) => link.groupId)));
    return b.filter((row) => !intoProjects.has(Number(row.source_id)));
  }) },
  { name: 'members.seat-info-false-shown', clauses: ['members.entity.seat-hidden'], description: 'show_seat_info=false is taken as true: the members carry is_using_seat', preHandler(request) {
    const query = request.query as Json;
    if (matches(request, members('GET')) && query.show_seat_info !== undefined) query.show_seat_info = 'true';
  } },
  { name: 'members.minimal-access-refused', clauses: ['members.minimal-access'], description: 'Minimal access (5) is refused as an invalid level when adding or editing, in a top-level group too', ...changeParams({ method: ['POST', 'PUT'], route: MEMBER_WRITES }, (p) => {
    if (String(p.access_level) === String(ACCESS.MINIMAL_ACCESS)) p.access_level = 1;
  }) },
  { name: 'members.minimal-access-subgroup-as-guest', clauses: ['members.minimal-access.subgroup'], description: 'Minimal access (5) in a subgroup is turned into Guest and added instead of refused', ...changeParams({ method: 'POST', route: '/groups/:id/members' }, (p, request, ctx) => {
    const source = ctx.store.findGroup(String((request.params as Json).id));
    if (source?.parentId != null && String(p.access_level) === String(ACCESS.MINIMAL_ACCESS)) p.access_level = ACCESS.GUEST;
  }) },
  { name: 'members.minimal-access-unlisted', clauses: ['members.minimal-access'], description: 'Minimal access members are left out of …/members and read as no member (404)', onSend(request, reply, payload) {
    if (reply.statusCode !== 200 || !matches(request, { method: 'GET', route: ['/groups/:id/members', '/groups/:id/members/:user_id'] })) return payload;
    const body = JSON.parse(payload) as Json | Json[];
    if (Array.isArray(body)) return JSON.stringify(body.filter((row) => row.access_level !== ACCESS.MINIMAL_ACCESS));
    if (body.access_level !== ACCESS.MINIMAL_ACCESS) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not found' });
  } },
  { name: 'members.promotion-queues-seated', clauses: ['members.promotion.not-queued'], description: 'with promotion management on, a billable role for users who already hold a seat is queued too', ...queuedInstead(MEMBER_WRITES, (ctx, request, level) => ctx.store.settings.enableMemberPromotionManagement && !callerOf(request, ctx)?.isAdmin && level >= ACCESS.REPORTER) },
  { name: 'members.promotion-edit-ignores-setting', clauses: ['members.promotion.not-queued'], description: 'with promotion management off, raising a member without a seat into a billable role is queued anyway', ...queuedInstead(bothKinds('/:kind/:id/members/:user_id'), (ctx, request, level, userIds) => {
    const seated = (id: number) => ctx.store.members.ofUser(id).some((m) => m.state === 'active' && m.accessLevel >= ACCESS.REPORTER);
    return !ctx.store.settings.enableMemberPromotionManagement && !callerOf(request, ctx)?.isAdmin && level >= ACCESS.REPORTER && !userIds.some(seated);
  }) },
  // ---- issue #26: depth of GitLab's members request specs ---------------------------------------
  { name: 'members.project-bot-added', clauses: ['members.add.project-bot'], description: 'the bot user of another project\'s access token is added like anyone', ...botsAsPeople(members('POST')) },
  { name: 'members.project-bot-managed', clauses: ['members.project-bot.kept'], description: 'a project\'s bot member is edited and removed like any other member', ...botsAsPeople({ method: ['PUT', 'DELETE'], route: '/projects/:id/members/:user_id' }) },
  { name: 'members.group-maintainer-owner', clauses: ['members.manage.group-owner-level'], description: 'a group Maintainer passes the Owner-level checks: adding or raising to Owner, changing or removing an Owner', ...maintainerAsOwner({ method: ['POST', 'PUT', 'DELETE'], route: ['/groups/:id/members', '/groups/:id/members/:user_id'] }, (params, source, ctx) => Number(params.access_level) === ACCESS.OWNER || ctx.store.userMember(source, Number(params.user_id))?.accessLevel === ACCESS.OWNER) },
  { name: 'members.above-inherited-refused', clauses: ['members.add.above-inherited'], description: 'adding a user above the level they hold in an ancestor group is refused (a 400 on access_level) as if it were below it', ...changeParams(members('POST'), (p, request, ctx) => {
    const source = faultSource(request, ctx);
    const params = requestParams(request);
    const inherited = source ? ancestorsOf(ctx, source).flatMap((g) => ctx.store.userMember(g, Number(params.user_id)) ?? []) : [];
    const highest = Math.max(0, ...inherited.map((m) => m.accessLevel));
    // A level no membership takes: the route refuses it with a validation error on access_level.
    if (highest > 0 && Number(params.access_level) > highest) p.access_level = highest + 1;
  }) },
  { name: 'members.add-exclusive-text', level: 'parity', clauses: ['members.add.params'], description: 'user_id with username, or neither, is refused with other texts than Grape\'s', onSend(request, reply, payload) {
    if (!matches(request, members('POST')) || reply.statusCode !== 400) return payload;
    return payload.replace('user_id, username are mutually exclusive', 'username is not allowed with user_id').replace('user_id, username are missing, at least one parameter must be provided', 'user_id is missing');
  } },
  { name: 'members.add-past-expiry-text', level: 'parity', clauses: ['members.add.expires-at'], description: 'a past expires_at on POST …/members is refused with another text than "cannot be a date in the past"', onSend(request, reply, payload) {
    if (!matches(request, members('POST')) || reply.statusCode !== 400) return payload;
    return payload.replace('cannot be a date in the past', 'must be in the future');
  } },
  { name: 'members.skip-subresources-false-as-true', clauses: ['members.remove.subresources'], description: 'skip_subresources=false, sent, is taken as true: the subgroup and project memberships stay', preHandler(request) {
    const query = request.query as Json;
    if (matches(request, members('DELETE', '/:user_id')) && String(query.skip_subresources) === 'false') query.skip_subresources = 'true';
  } },
  { name: 'members.removal-limit-403', clauses: ['members.remove.rate-limit'], description: 'a removal past the rate limit answers 403 instead of 429', ...status(members('DELETE', '/:user_id'), 429, 403, { message: '403 Forbidden' }) },
  { name: 'members.created-by-self', clauses: ['members.entity.created-by-absent'], description: 'a member nobody added is shown as created by themselves', ...mapBody(members('GET', '/:user_id'), (b) => (b.created_by === undefined ? { ...b, created_by: { id: b.id, username: b.username, name: b.name, state: b.state, avatar_url: b.avatar_url, web_url: b.web_url } } : undefined)) },
  { name: 'members.all-one-created-by-shown', level: 'parity', clauses: ['members.entity.created-by'], description: '…/members/all/:user_id shows created_by of a member of an invited private group to a viewer who cannot see that group', ...mapBody(members('GET', '/all/:user_id'), (b, ctx) => {
    if (b.created_by !== undefined) return undefined;
    const creator = ctx.store.userOrNone(ctx.store.members.ofUser(Number(b.id)).find((m) => m.createdById !== null)?.createdById ?? null);
    return creator ? { ...b, created_by: { id: creator.id, username: creator.username, name: creator.name, state: creator.state, avatar_url: null, web_url: `http://localhost/${creator.username}` } } : undefined;
  }) },
  { name: 'members.non-member-default-avatar', clauses: ['members.public.read'], description: 'a non-member reading one member of a public group or project gets the default avatar instead of the user\'s', ...mapBody({ method: 'GET', route: [...bothKinds('/:kind/:id/members/:user_id'), ...bothKinds('/:kind/:id/members/all/:user_id')] }, (b, ctx, request) => {
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    if (!source || !user || user.isAdmin || ctx.store.accessLevel(source, user) > 0) return undefined;
    return { ...b, avatar_url: 'https://www.gravatar.com/avatar/00000000000000000000000000000000?s=80&d=identicon' };
  }) },
  { name: 'members.user-ids-all-or-nothing', clauses: ['members.list.user-ids'], description: 'user_ids naming a user who is no member empties …/members/all', ...mapBody(members('GET', '/all'), (b, _ctx, request) => {
    const ids = String((request.query as Json).user_ids ?? '').split(',').filter((id) => id !== '').map(Number);
    return Array.isArray(b) && ids.some((id) => !b.some((row) => row.id === id)) ? [] : undefined;
  }) },
  // ---- issue #35: the last owner of a top-level group; created_by in the lists ------------------
  { name: 'members.lists-created-by-self', clauses: ['members.entity.created-by-absent'], description: 'the member lists (…/members, …/members/all) show a member nobody added as created by themselves', ...mapBody({ method: 'GET', route: [...bothKinds('/:kind/:id/members'), ...bothKinds('/:kind/:id/members/all')] }, (b) =>
    Array.isArray(b) ? b.map((row) => (row.created_by === undefined ? { ...row, created_by: { id: row.id, username: row.username, name: row.name, state: row.state, avatar_url: row.avatar_url, web_url: row.web_url } } : row)) : undefined) },
  { name: 'members.requester-owner-by-project-maintainer', clauses: ['members.add.project-owner'], description: 'a project Maintainer\'s POST …/members of an access requester at Owner is let through: the requester becomes an Owner', ...maintainerAsOwner({ method: 'POST', route: '/projects/:id/members' }, (params, source, ctx) => Number(params.access_level) === ACCESS.OWNER && String(params.user_id ?? '').split(',').some((id) => ctx.store.accessRequests.find(source, Number(id)) !== undefined)) },
  { name: 'members.top-level-last-owner-let-go', clauses: ['members.edit.last-owner', 'members.remove.last-owner'], description: 'the last owner of a top-level group (its only direct Owner) is edited and removed like any member, by an administrator too', ...lastOwnerLetGo() },
  // ---- limits, no-ops, levels (Members::CreateService, Members::UpdateService, the Member model) ----
  { name: 'members.user-limit-after-lookup', clauses: ['members.add.limit'], description: 'the 100-user limit counts only the ids of users that exist, so 101 ids of which one is known add that user', ...changeParams({ method: 'POST', route: bothKinds('/:kind/:id/members') }, (p, request, ctx) => {
    const ids = String(requestParams(request).user_id ?? '').split(',');
    if (ids.length <= 100) return;
    const known = ids.filter((id) => ctx.store.users.has(Number(id)));
    p.user_id = known.length === 1 ? `${known[0]},${known[0]}` : known.join(',');
    delete (request.query as Json).user_id;
  }) },
  { name: 'members.limit-text', level: 'parity', clauses: ['members.add.limit'], description: 'more than 100 users are refused with "Too many users" instead of GitLab\'s "Too many users specified (limit is 100)"', onSend(request, _reply, payload) {
    if (!matches(request, { method: 'POST', route: bothKinds('/:kind/:id/members') })) return payload;
    return payload.replace('Too many users specified (limit is 100)', 'Too many users');
  } },
  { name: 'members.expires-today-past', clauses: ['members.add.expires-today'], description: 'an expires_at of today is taken as a date in the past and refused', ...changeParams({ method: ['POST', 'PUT'], route: MEMBER_WRITES }, (p, request) => {
    const today = new Date().toISOString().slice(0, 10);
    if (requestParams(request).expires_at !== today) return;
    p.expires_at = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    delete (request.query as Json).expires_at;
  }) },
  (() => {
    // A PUT to the level the member has, with nothing else to change, is refused as a change of nothing.
    const unchanged = new WeakSet<object>();
    const when: When = { method: 'PUT', route: bothKinds('/:kind/:id/members/:user_id') };
    return {
      name: 'members.same-level-refused',
      clauses: ['members.edit.same-level'],
      description: 'a PUT to the level the member already has (nothing else changed) is refused with 400 "Nothing to update"',
      preHandler(request, ctx) {
        if (!matches(request, when)) return;
        const params = requestParams(request);
        const source = faultSource(request, ctx);
        const member = source && ctx.store.userMember(source, Number(params.user_id));
        if (member && Number(params.access_level) === member.accessLevel && params.expires_at === undefined) unchanged.add(request);
      },
      onSend(request, reply, payload) {
        if (!unchanged.has(request) || reply.statusCode !== 200) return payload;
        reply.code(400);
        return JSON.stringify({ message: 'Nothing to update' });
      },
    } satisfies AreaFault;
  })(),
  // ---- what a removal takes with it (Members::DestroyService) ----
  (() => {
    // The invitations the removed user created, put back after the removal: a removal that leaves them.
    const kept = new WeakMap<object, Member[]>();
    const when: When = { method: 'DELETE', route: bothKinds('/:kind/:id/members/:user_id') };
    return {
      name: 'members.removal-keeps-their-invitations',
      clauses: ['members.remove.invitations-created'],
      description: 'removing a member leaves the pending invitations they created',
      preHandler(request, ctx) {
        if (!matches(request, when)) return;
        const userId = Number(requestParams(request).user_id);
        kept.set(request, [...ctx.store.members.values()].filter((m) => m.inviteToken !== null && m.createdById === userId));
      },
      onSend(request, reply, payload, ctx) {
        const invitations = kept.get(request);
        if (invitations && reply.statusCode < 300) for (const invitation of invitations) if (!ctx.store.members.has(invitation.id)) ctx.store.members.set(invitation.id, invitation);
        return payload;
      },
    } satisfies AreaFault;
  })(),
  (() => {
    // Who was removed from which project: their stale access lets them read its member list still.
    const removed = new Set<string>();
    return {
      name: 'members.removed-user-still-reads',
      clauses: ['members.remove.access-gone'],
      description: 'a user removed from a private project keeps reading its member list (an empty one) instead of getting 404',
      preHandler(request, ctx) {
        if (!matches(request, { method: 'DELETE', route: '/projects/:id/members/:user_id' })) return;
        const source = faultSource(request, ctx);
        if (source) removed.add(`${source.id}:${Number(requestParams(request).user_id)}`);
      },
      onSend(request, reply, payload, ctx) {
        if (!matches(request, { method: 'GET', route: '/projects/:id/members' }) || reply.statusCode !== 404) return payload;
        const source = ctx.store.findProject(String((request.params as Json).id));
        const user = callerOf(request, ctx);
        if (!source || !user || !removed.has(`${source.id}:${user.id}`)) return payload;
        reply.code(200);
        return '[]';
      },
    } satisfies AreaFault;
  })(),
  // ---- owners (group_member_policy, project_member_policy, Members::UpdateService) ----
  { name: 'members.maintainer-raises-self-to-owner', clauses: ['members.edit.project-owner-self'], description: 'a project Maintainer raises their own membership to Owner', preHandler(request, ctx) {
    if (!matches(request, { method: 'PUT', route: '/projects/:id/members/:user_id' })) return;
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    const params = requestParams(request);
    if (!source || !user || Number(params.user_id) !== user.id || Number(params.access_level) !== ACCESS.OWNER) return;
    // Made Owner before the route, whose Owner check then passes and whose update keeps it.
    const own = ctx.store.directMembership(source, user.id);
    if (own?.accessLevel === ACCESS.MAINTAINER) own.accessLevel = ACCESS.OWNER;
  } },
  { name: 'members.own-membership-editable', clauses: ['members.edit.own-membership'], description: 'any member may change their own membership: a Guest raises themselves', preHandler(request, ctx) {
    if (!matches(request, { method: 'PUT', route: bothKinds('/:kind/:id/members/:user_id') })) return;
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    if (!source || !user || Number(requestParams(request).user_id) !== user.id) return;
    // Made a manager before the route, whose permission check then passes and whose update sets the level asked for.
    const own = ctx.store.directMembership(source, user.id);
    if (own && own.accessLevel < ACCESS.MAINTAINER) own.accessLevel = ACCESS.OWNER;
  } },
  { name: 'members.internal-anonymous-404', clauses: ['members.auth.anonymous'], description: 'a member write without a token on an internal group answers 404 (the group hidden) instead of 401', onRequest(request, reply, ctx) {
    if (!matches(request, { method: ['PUT', 'DELETE'], route: '/groups/:id/members/:user_id' })) return false;
    const source = faultSource(request, ctx);
    if (source?.visibility !== 'internal' || callerOf(request, ctx)) return false;
    void reply.code(404).send({ message: '404 Group Not Found' });
    return true;
  } },
  ((): AreaFault => {
    // The membership an administrator's PUT to Owner changed, with its level before.
    const before = new WeakMap<FaultRequest, { member: Member; level: number }>();
    return {
      name: 'members.admin-owner-refused',
      level: 'parity',
      clauses: ['members.edit.admin-project-owner'],
      description: 'an administrator making a project member Owner is refused (403) as a Maintainer would be',
      preHandler(request, ctx) {
        if (!matches(request, { method: 'PUT', route: '/projects/:id/members/:user_id' }) || Number(requestParams(request).access_level) !== ACCESS.OWNER || !callerOf(request, ctx)?.isAdmin) return;
        const source = faultSource(request, ctx);
        const member = source && ctx.store.directMembership(source, Number(requestParams(request).user_id));
        if (member) before.set(request, { member, level: member.accessLevel });
      },
      onSend(request, reply, payload) {
        const was = before.get(request);
        if (!was || reply.statusCode !== 200) return payload;
        was.member.accessLevel = was.level;
        reply.code(403);
        return JSON.stringify({ message: '403 Forbidden' });
      },
    };
  })(),
  ((): AreaFault => {
    // The memberships made or raised by the members API, until the fault's next run: they take effect late.
    const late = new Set<string>();
    const key = (projectId: number, userId: number) => `${projectId}:${userId}`;
    return {
      name: 'members.access-refreshed-late',
      level: 'parity',
      clauses: ['members.access.at-once'],
      description: 'a project membership added or raised through the API gives its new rights late: the new Guest cannot read the project, the raised Developer cannot write',
      preHandler(request, ctx) {
        if (!matches(request, { method: ['POST', 'PUT'], route: ['/projects/:id/members', '/projects/:id/members/:user_id'] })) return;
        const source = faultSource(request, ctx);
        for (const id of String(requestParams(request).user_id ?? '').split(',')) if (source && id !== '') late.add(key(source.id, Number(id)));
      },
      onRequest(request, reply, ctx) {
        const reading = matches(request, { method: 'GET', route: '/projects/:id' });
        if (!reading && !matches(request, { method: 'POST', route: '/projects/:id/repository/files/:file_path' })) return false;
        const project = ctx.store.findProject(String((request.params as Json).id));
        const user = callerOf(request, ctx);
        if (!project || !user || !late.has(key(project.id, user.id))) return false;
        void (reading ? reply.code(404).send({ message: '404 Project Not Found' }) : reply.code(403).send({ message: '403 Forbidden' }));
        return true;
      },
    };
  })(),
  ((): AreaFault => {
    // The users of a several-user add who were no direct member before it.
    const newcomers = new WeakMap<FaultRequest, { source: Source; ids: number[] }>();
    return {
      name: 'members.several-all-or-nothing',
      level: 'parity',
      clauses: ['members.add.several-partial'],
      description: 'adding several users of whom one fails adds none of them (the others are taken out again)',
      preHandler(request, ctx) {
        if (!matches(request, { method: 'POST', route: bothKinds('/:kind/:id/members') })) return;
        const source = faultSource(request, ctx);
        const ids = String(requestParams(request).user_id ?? '').split(',').map(Number);
        if (source && ids.length > 1) newcomers.set(request, { source, ids: ids.filter((id) => !ctx.store.directMembership(source, id)) });
      },
      onSend(request, _reply, payload, ctx) {
        const added = newcomers.get(request);
        if (!added || !payload.includes('"status":"error"')) return payload;
        for (const id of added.ids) {
          const member = ctx.store.directMembership(added.source, id);
          if (member) ctx.store.members.delete(member.id);
        }
        return payload;
      },
    };
  })(),
  { name: 'members.personal-namespace-holder-removed', clauses: ['members.owners.personal-namespace-holder'], description: 'an Owner (or administrator) of a personal project removes the namespace holder\'s Owner membership like any Owner\'s', onRequest(request, reply, ctx) {
    if (!matches(request, { method: 'DELETE', route: '/projects/:id/members/:user_id' })) return false;
    const source = ctx.store.findProject(String((request.params as Json).id));
    const user = callerOf(request, ctx);
    const target = source && ctx.store.directMembership(source, Number((request.params as Json).user_id));
    if (!source || !user || !target || source.namespace.kind !== 'user' || source.namespace.id !== target.userId) return false;
    if (!user.isAdmin && ctx.store.accessLevel(source, user) < ACCESS.OWNER) return false;
    ctx.store.members.delete(target.id);
    void reply.code(204).send();
    return true;
  } },
  { name: 'members.owners-kept-from-owners', clauses: ['members.owners.peers'], description: 'an Owner of a group may neither remove nor change another Owner (403), as if every Owner were the last', onRequest(request, reply, ctx) {
    if (!matches(request, { method: ['PUT', 'DELETE'], route: '/groups/:id/members/:user_id' })) return false;
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    const target = source && ctx.store.directMembership(source, Number((request.params as Json).user_id));
    if (!user || target?.accessLevel !== ACCESS.OWNER || target.userId === user.id) return false;
    void reply.code(403).send({ message: '403 Forbidden' });
    return true;
  } },
  { name: 'members.owner-may-not-step-down', clauses: ['members.owners.peers'], description: 'a group Owner may neither lower their own membership nor leave (403), though another Owner is left', onRequest(request, reply, ctx) {
    if (!matches(request, { method: ['PUT', 'DELETE'], route: '/groups/:id/members/:user_id' })) return false;
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    const own = source && user && ctx.store.directMembership(source, user.id);
    if (!user || own?.accessLevel !== ACCESS.OWNER || Number((request.params as Json).user_id) !== user.id) return false;
    void reply.code(403).send({ message: '403 Forbidden' });
    return true;
  } },
];
