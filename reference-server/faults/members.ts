// The seeded faults of the members area (reference-server/areas.ts registers them with its routes).
import { answer, changeParams, dropParams, mapBody, mapRows, matches, status } from './dsl.js';
import type { AreaFault } from './types.js';
import { ACCESS, ROLE_NAMES } from '../state/model.js';

import { botsAsPeople, callerOf, faultSource, keepAccessRequests, maintainerAsOwner, nonMemberRefusalAs404, requestParams, withHeaders, type Json } from './shared.js';
import { MEMBER_ROUTES } from '../routes/members/source-members.js';
import { GROUP_MEMBER_EE_ROUTES } from '../routes/members/group-members-ee.js';

import { MEMBER_WRITES, ancestorsOf, lastOwnerLetGo, queuedInstead } from './members-shared.js';
import { memberRuleFaults } from './members-rules.js';

export const membersFaults: AreaFault[] = [
  { name: 'members.all-duplicates', clauses: ['members.all.highest-level'], description: 'members/all lists a user once per membership instead of once at the highest level', ...mapBody({ route: MEMBER_ROUTES.listAll }, (b) => (Array.isArray(b) ? [...b, ...b.map((row) => ({ ...row, access_level: 10 }))] : undefined)) },
  { name: 'members.email-leak', clauses: ['members.entity.email-hidden'], description: 'every member row shows the user\'s email', ...mapBody({ route: [MEMBER_ROUTES.list, MEMBER_ROUTES.listAll] }, (b, ctx) => (Array.isArray(b) ? b.map((row) => ({ ...row, email: ctx.store.users.get(Number(row.id))?.email })) : undefined)) },
  { name: 'members.billable-on-subgroup', clauses: ['members.ee.top-level-only'], description: 'billable members of a subgroup answer 200 instead of 400', ...status({ route: GROUP_MEMBER_EE_ROUTES.billable }, 400, 200, []) },
  { name: 'members.duplicate-add-201', clauses: ['members.add.conflict'], description: 'adding an existing member answers 201 instead of 409', ...status({ route: MEMBER_ROUTES.add }, 409, 201, {}) },
  { name: 'members.pagination-headers-missing', level: 'parity', clauses: ['members.pagination'], description: 'member lists lack X-Total and X-Next-Page', ...withHeaders(['x-total', 'x-next-page', 'x-total-pages'], { route: MEMBER_ROUTES.list }) },
  { name: 'members.per-page-ignored', clauses: ['members.pagination'], description: 'member lists ignore per_page', ...dropParams({ route: MEMBER_ROUTES.list }, 'per_page') },
  { name: 'members.expires-at-dropped', clauses: ['members.add.expires-at', 'members.edit.level'], description: 'expires_at is ignored when adding or editing a member', ...dropParams({ route: MEMBER_ROUTES.add }, 'expires_at') },
  { name: 'members.direct-includes-inherited', clauses: ['members.list.direct-only'], description: 'the direct member list includes inherited members', rewriteUrl(method, url) {
    return method === 'GET' ? url.replace(/^(\/api\/v4\/(groups|projects)\/[^/]+\/members)(\?|$)/, '$1/all$3') : undefined;
  } },
  { name: 'members.anonymous-403', clauses: ['members.auth.anonymous'], description: 'no token answers 403 instead of 401', ...status({ route: [MEMBER_ROUTES.list, MEMBER_ROUTES.get, MEMBER_ROUTES.listAll, MEMBER_ROUTES.add, MEMBER_ROUTES.edit, MEMBER_ROUTES.remove] }, 401, 403, { message: '403 Forbidden' }) },
  { name: 'members.state-not-applied', clauses: ['members.state.set'], description: 'the state change answers success but changes nothing', ...answer({ route: GROUP_MEMBER_EE_ROUTES.state }, 200, { success: true }) },
  { name: 'members.approve-200-body', clauses: ['members.approve.one'], description: 'approve answers 200 with a body instead of 204', ...status({ route: GROUP_MEMBER_EE_ROUTES.approve }, 204, 200, { approved: true }) },
  { name: 'members.override-not-set', clauses: ['members.override.set'], description: 'setting the override answers override: false', ...mapBody({ route: GROUP_MEMBER_EE_ROUTES.overrideSet }, (b) => ({ ...b, override: false })) },
  { name: 'members.access-level-string', clauses: ['members.entity.shape'], description: 'access_level is a string', ...mapBody({ route: [MEMBER_ROUTES.get, MEMBER_ROUTES.list, MEMBER_ROUTES.add, MEMBER_ROUTES.edit] }, (b) => (Array.isArray(b) ? (b as Json[]).map((row) => ({ ...row, access_level: String(row.access_level) })) : { ...(b as Json), access_level: String((b as Json).access_level) })) },
  { name: 'members.created-by-missing', clauses: ['members.entity.created-by'], description: 'created_by is left out of member answers', ...mapBody({ route: [MEMBER_ROUTES.get, MEMBER_ROUTES.list, MEMBER_ROUTES.add, MEMBER_ROUTES.edit] }, (b) => {
    const strip = ({ created_by: _created, ...rest }: Json) => rest;
    return Array.isArray(b) ? b.map(strip) : strip(b);
  }) },
  { name: 'members.remove-keeps', clauses: ['members.remove.direct'], description: 'removing a member answers 204 and keeps the member', ...answer({ route: MEMBER_ROUTES.remove }, 204) },
  { name: 'members.skip-subresources-ignored', clauses: ['members.remove.subresources'], description: 'skip_subresources is ignored on removal', ...dropParams({ route: MEMBER_ROUTES.remove }, 'skip_subresources') },
  { name: 'members.user-ids-ignored', clauses: ['members.list.user-ids'], description: 'the user_ids filter is ignored', ...dropParams({ route: MEMBER_ROUTES.listAll }, 'user_ids') },
  { name: 'members.pending-shows-active', clauses: ['members.pending.list'], description: 'pending members also lists active members of the group', ...mapBody({ route: GROUP_MEMBER_EE_ROUTES.pending }, (b, ctx, request) => {
    const source = ctx.store.findGroup(String((request.params as Json).id));
    if (!Array.isArray(b) || !source) return undefined;
    const active = ctx.store.directMembers(source).filter((m) => m.userId !== null && m.state === 'active').map((m) => ({ id: m.id, username: ctx.store.users.get(m.userId!)?.username, approved: true, invited: false, avatar_url: null }));
    return [...b, ...active];
  }) },
  { name: 'members.billable-type-wrong', clauses: ['members.billable.list', 'members.billable.type-order'], description: 'every billable member reads membership_type "group_member"', ...mapRows({ route: GROUP_MEMBER_EE_ROUTES.billable }, (row) => ({ ...row, membership_type: 'group_member' })) },
  { name: 'members.billable-sort-ignored', clauses: ['members.billable.sort', 'members.billable.sort-activity'], description: 'billable members ignore sort', ...dropParams({ route: GROUP_MEMBER_EE_ROUTES.billable }, 'sort') },
  { name: 'members.pending-one-invitation', clauses: ['members.pending.list'], description: 'pending members list only the first person invited by email', ...mapBody({ route: GROUP_MEMBER_EE_ROUTES.pending }, (b) => {
    if (!Array.isArray(b)) return undefined;
    const first = b.findIndex((row) => row.invited === true);
    return b.filter((row, i) => row.invited !== true || i === first);
  }) },
  { name: 'members.query-case-sensitive', clauses: ['members.list.query'], description: 'the query filter of member lists matches case-sensitively', ...mapBody({ route: MEMBER_ROUTES.list }, (b, _ctx, request) => {
    const query = (request.query as Json).query;
    if (!Array.isArray(b) || typeof query !== 'string' || query === '') return undefined;
    return b.filter((row) => String(row.name).includes(query) || String(row.username).includes(query));
  }) },
  { name: 'members.all-no-share-cap', clauses: ['members.all.invited-level'], description: 'members/all gives each user their highest level anywhere, ignoring the level a group was invited with', ...mapRows({ route: MEMBER_ROUTES.listAll }, (row, ctx) => {
    const levels = [...ctx.store.members.values()].filter((m) => m.userId === row.id).map((m) => m.accessLevel);
    return { ...row, access_level: Math.max(Number(row.access_level), ...levels) };
  }) },
  { name: 'members.all-share-no-ancestors', level: 'parity', clauses: ['members.all.invited-ancestors'], description: 'all members of a project shared with a subgroup leave out the members of that subgroup\'s ancestors', ...mapBody({ route: MEMBER_ROUTES.listAll, kind: 'project' }, (b, ctx, request) => {
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
  { name: 'members.requester-stays-pending', clauses: ['members.requester.becomes-member'], description: 'adding a user whose access request is pending (POST …/members) makes them a member but leaves the request pending', ...keepAccessRequests({ route: MEMBER_ROUTES.add }, (p) => [p.user_id]) },
  { name: 'members.requester-delete-withdraws', clauses: ['members.requester.not-member'], description: 'DELETE …/members/:user_id of an access requester withdraws the request and answers 204 instead of 404', onRequest(request, reply, ctx) {
    const source = faultSource(request, ctx);
    const userId = Number((request.params as Json).user_id);
    if (!matches(request, { route: MEMBER_ROUTES.remove }) || !source || !ctx.store.accessRequests.find(source, userId)) return false;
    ctx.store.accessRequests.remove(source, userId);
    void reply.code(204).send();
    return true;
  } },
  { name: 'members.requester-listed', clauses: ['members.requester.not-member'], description: 'the member lists (…/members, …/members/all) list the access requesters as Developers', ...mapBody({ route: [MEMBER_ROUTES.list, MEMBER_ROUTES.listAll] }, (b, ctx, request) => {
    const source = faultSource(request, ctx);
    if (!Array.isArray(b) || !source) return undefined;
    const rows = ctx.store.accessRequests.of(source).map((a) => {
      const user = ctx.store.users.get(a.userId)!;
      return { id: user.id, username: user.username, name: user.name, state: user.state, avatar_url: null, web_url: `http://localhost/${user.username}`, access_level: a.accessLevel, created_at: a.requestedAt, expires_at: null };
    });
    return [...b, ...rows];
  }) },
  { name: 'members.public-non-member-404', clauses: ['members.public.writes-refused'], description: 'member writes by a non-member of a public group or project answer 404 (as for a private one) instead of 403', ...nonMemberRefusalAs404({ route: [MEMBER_ROUTES.add, MEMBER_ROUTES.edit, MEMBER_ROUTES.remove] }) },
  { name: 'members.public-single-member-hidden', clauses: ['members.public.read'], description: 'a non-member of a public group or project reading one member (…/members/:user_id, …/members/all/:user_id) gets 404 instead of the member', onSend(request, reply, payload, ctx) {
    const source = faultSource(request, ctx);
    if (!matches(request, { route: [MEMBER_ROUTES.get, MEMBER_ROUTES.getAll] }) || reply.statusCode !== 200 || !source || source.visibility !== 'public') return payload;
    const user = callerOf(request, ctx);
    if (!user || user.isAdmin || ctx.store.accessLevel(source, user) > 0) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not found' });
  } },
  { name: 'members.private-parent-readable', clauses: ['members.read.private-parent'], description: 'a member of a subgroup only reads the members of the private parent group (403 turned into 200, an empty list)', onSend(request, reply, payload) {
    if (!matches(request, { route: [MEMBER_ROUTES.listAll, MEMBER_ROUTES.getAll, MEMBER_ROUTES.list], kind: 'group' }) || reply.statusCode !== 403 || !payload.includes('403 Forbidden')) return payload;
    reply.code(200);
    return '[]';
  } },
  // ---- issue #17: GitLab's members request specs ---------------------------------------------
  { name: 'members.empty-query-matches-nothing', clauses: ['members.list.query-empty'], description: 'an empty query (query=) is taken as a search that nobody matches: the member lists answer []', ...mapBody({ route: [MEMBER_ROUTES.list, MEMBER_ROUTES.listAll] }, (b, _ctx, request) => ((request.query as Json).query === '' && Array.isArray(b) ? [] : undefined)) },
  { name: 'members.remove-ignores-if-unmodified-since', clauses: ['members.remove.if-unmodified-since'], description: 'DELETE …/members/:user_id ignores If-Unmodified-Since and removes a member changed after that date', onRequest(request) {
    if (matches(request, { route: MEMBER_ROUTES.remove })) delete request.headers['if-unmodified-since'];
    return false;
  } },
  { name: 'members.edit-past-expiry-ignored', clauses: ['members.edit.expires-at-past'], description: 'an expires_at in the past on PUT …/members/:user_id is dropped and the rest of the edit applied (200) instead of refused', ...changeParams({ route: MEMBER_ROUTES.edit }, (p) => {
    if (typeof p.expires_at === 'string' && p.expires_at < new Date().toISOString().slice(0, 10)) delete p.expires_at;
  }) },
  { name: 'members.approve-active-204', clauses: ['members.approve.not-pending'], description: 'approving a member who is already active answers 204 instead of 400', onSend(request, reply, payload) {
    if (!matches(request, { route: GROUP_MEMBER_EE_ROUTES.approve }) || reply.statusCode !== 400 || !payload.includes('No memberships found')) return payload;
    reply.code(204);
    return '';
  } },
  { name: 'members.ee-unknown-group-400', clauses: ['members.ee.unknown-group'], description: 'billable members, billable and indirect memberships and approval answer a group id that does not exist with 400 instead of 404', onSend(request, reply, payload) {
    const { billable, billableMemberships, billableIndirect, approve } = GROUP_MEMBER_EE_ROUTES;
    if (!matches(request, { route: [billable, billableMemberships, billableIndirect, approve] }) || reply.statusCode !== 404 || !payload.includes('404 Group Not Found')) return payload;
    reply.code(400);
    return JSON.stringify({ message: '400 Bad request' });
  } },
  { name: 'members.billable-admin-email-hidden', level: 'parity', clauses: ['members.billable.admin-email'], description: 'an administrator sees no email ("email": null) among the billable members', ...mapBody({ route: GROUP_MEMBER_EE_ROUTES.billable }, (b, ctx, request) => (Array.isArray(b) && callerOf(request, ctx)?.isAdmin ? b.map((row) => ({ ...row, email: null })) : undefined)) },
  { name: 'members.indirect-outside-hierarchy', clauses: ['members.billable-indirect.hierarchy'], description: 'the indirect memberships also list the user\'s memberships in groups not invited into the hierarchy', ...mapBody({ route: GROUP_MEMBER_EE_ROUTES.billableIndirect }, (b, ctx, request) => {
    if (!Array.isArray(b)) return undefined;
    const listed = new Set(b.map((row) => row.id));
    const extra = ctx.store.members.ofUser(Number((request.params as Json).user_id)).filter((m) => m.source.kind === 'group' && !listed.has(m.id)).map((m) => {
      const source = ctx.store.groups.get(m.source.id)!;
      return { id: m.id, source_id: source.id, source_full_name: ctx.store.groupFullName(source), source_members_url: `http://localhost/groups/${source.path}/-/group_members`, created_at: m.createdAt, expires_at: m.expiresAt, access_level: { string_value: ROLE_NAMES[m.accessLevel], integer_value: m.accessLevel } };
    });
    return [...b, ...extra];
  }) },
  { name: 'members.indirect-no-project-invites', clauses: ['members.billable-indirect.hierarchy'], description: 'the indirect memberships leave out groups invited into a project of the hierarchy', ...mapBody({ route: GROUP_MEMBER_EE_ROUTES.billableIndirect }, (b, ctx) => {
    if (!Array.isArray(b)) return undefined;
    const intoProjects = new Set([...ctx.store.projects.values()].flatMap((p) => p.sharedWith.map((link) => link.groupId)));
    return b.filter((row) => !intoProjects.has(Number(row.source_id)));
  }) },
  { name: 'members.seat-info-false-shown', clauses: ['members.entity.seat-hidden'], description: 'show_seat_info=false is taken as true: the members carry is_using_seat', preHandler(request) {
    const query = request.query as Json;
    if (matches(request, { route: MEMBER_ROUTES.list }) && query.show_seat_info !== undefined) query.show_seat_info = 'true';
  } },
  { name: 'members.minimal-access-refused', clauses: ['members.minimal-access'], description: 'Minimal access (5) is refused as an invalid level when adding or editing, in a top-level group too', ...changeParams({ route: [MEMBER_ROUTES.add, MEMBER_ROUTES.edit] }, (p) => {
    if (String(p.access_level) === String(ACCESS.MINIMAL_ACCESS)) p.access_level = 1;
  }) },
  { name: 'members.minimal-access-subgroup-as-guest', clauses: ['members.minimal-access.subgroup'], description: 'Minimal access (5) in a subgroup is turned into Guest and added instead of refused', ...changeParams({ route: MEMBER_ROUTES.add, kind: 'group' }, (p, request, ctx) => {
    const source = ctx.store.findGroup(String((request.params as Json).id));
    if (source?.parentId != null && String(p.access_level) === String(ACCESS.MINIMAL_ACCESS)) p.access_level = ACCESS.GUEST;
  }) },
  { name: 'members.minimal-access-unlisted', clauses: ['members.minimal-access'], description: 'Minimal access members are left out of …/members and read as no member (404)', onSend(request, reply, payload) {
    if (reply.statusCode !== 200 || !matches(request, { route: [MEMBER_ROUTES.list, MEMBER_ROUTES.get], kind: 'group' })) return payload;
    const body = JSON.parse(payload) as Json | Json[];
    if (Array.isArray(body)) return JSON.stringify(body.filter((row) => row.access_level !== ACCESS.MINIMAL_ACCESS));
    if (body.access_level !== ACCESS.MINIMAL_ACCESS) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not found' });
  } },
  { name: 'members.promotion-queues-seated', clauses: ['members.promotion.not-queued'], description: 'with promotion management on, a billable role for users who already hold a seat is queued too', ...queuedInstead(MEMBER_WRITES, (ctx, request, level) => ctx.store.settings.enableMemberPromotionManagement && !callerOf(request, ctx)?.isAdmin && level >= ACCESS.REPORTER) },
  { name: 'members.promotion-edit-ignores-setting', clauses: ['members.promotion.not-queued'], description: 'with promotion management off, raising a member without a seat into a billable role is queued anyway', ...queuedInstead(MEMBER_ROUTES.edit, (ctx, request, level, userIds) => {
    const seated = (id: number) => ctx.store.members.ofUser(id).some((m) => m.state === 'active' && m.accessLevel >= ACCESS.REPORTER);
    return !ctx.store.settings.enableMemberPromotionManagement && !callerOf(request, ctx)?.isAdmin && level >= ACCESS.REPORTER && !userIds.some(seated);
  }) },
  // ---- issue #26: depth of GitLab's members request specs ---------------------------------------
  { name: 'members.project-bot-added', clauses: ['members.add.project-bot'], description: 'the bot user of another project\'s access token is added like anyone', ...botsAsPeople({ route: MEMBER_ROUTES.add }) },
  { name: 'members.project-bot-managed', clauses: ['members.project-bot.kept'], description: 'a project\'s bot member is edited and removed like any other member', ...botsAsPeople({ route: [MEMBER_ROUTES.edit, MEMBER_ROUTES.remove], kind: 'project' }) },
  { name: 'members.group-maintainer-owner', clauses: ['members.manage.group-owner-level'], description: 'a group Maintainer passes the Owner-level checks: adding or raising to Owner, changing or removing an Owner', ...maintainerAsOwner({ route: [MEMBER_ROUTES.add, MEMBER_ROUTES.edit, MEMBER_ROUTES.remove], kind: 'group' }, (params, source, ctx) => Number(params.access_level) === ACCESS.OWNER || ctx.store.userMember(source, Number(params.user_id))?.accessLevel === ACCESS.OWNER) },
  { name: 'members.above-inherited-refused', clauses: ['members.add.above-inherited'], description: 'adding a user above the level they hold in an ancestor group is refused (a 400 on access_level) as if it were below it', ...changeParams({ route: MEMBER_ROUTES.add }, (p, request, ctx) => {
    const source = faultSource(request, ctx);
    const params = requestParams(request);
    const inherited = source ? ancestorsOf(ctx, source).flatMap((g) => ctx.store.userMember(g, Number(params.user_id)) ?? []) : [];
    const highest = Math.max(0, ...inherited.map((m) => m.accessLevel));
    // A level no membership takes: the route refuses it with a validation error on access_level.
    if (highest > 0 && Number(params.access_level) > highest) p.access_level = highest + 1;
  }) },
  { name: 'members.add-exclusive-text', level: 'parity', clauses: ['members.add.params'], description: 'user_id with username, or neither, is refused with other texts than Grape\'s', onSend(request, reply, payload) {
    if (!matches(request, { route: MEMBER_ROUTES.add }) || reply.statusCode !== 400) return payload;
    return payload.replace('user_id, username are mutually exclusive', 'username is not allowed with user_id').replace('user_id, username are missing, at least one parameter must be provided', 'user_id is missing');
  } },
  { name: 'members.add-past-expiry-text', level: 'parity', clauses: ['members.add.expires-at'], description: 'a past expires_at on POST …/members is refused with another text than "cannot be a date in the past"', onSend(request, reply, payload) {
    if (!matches(request, { route: MEMBER_ROUTES.add }) || reply.statusCode !== 400) return payload;
    return payload.replace('cannot be a date in the past', 'must be in the future');
  } },
  { name: 'members.skip-subresources-false-as-true', clauses: ['members.remove.subresources'], description: 'skip_subresources=false, sent, is taken as true: the subgroup and project memberships stay', preHandler(request) {
    const query = request.query as Json;
    if (matches(request, { route: MEMBER_ROUTES.remove }) && String(query.skip_subresources) === 'false') query.skip_subresources = 'true';
  } },
  { name: 'members.removal-limit-403', clauses: ['members.remove.rate-limit'], description: 'a removal past the rate limit answers 403 instead of 429', ...status({ route: MEMBER_ROUTES.remove }, 429, 403, { message: '403 Forbidden' }) },
  { name: 'members.created-by-self', clauses: ['members.entity.created-by-absent'], description: 'a member nobody added is shown as created by themselves', ...mapBody({ route: MEMBER_ROUTES.get }, (b) => (b.created_by === undefined ? { ...b, created_by: { id: b.id, username: b.username, name: b.name, state: b.state, avatar_url: b.avatar_url, web_url: b.web_url } } : undefined)) },
  { name: 'members.all-one-created-by-shown', level: 'parity', clauses: ['members.entity.created-by'], description: '…/members/all/:user_id shows created_by of a member of an invited private group to a viewer who cannot see that group', ...mapBody({ route: MEMBER_ROUTES.getAll }, (b, ctx) => {
    if (b.created_by !== undefined) return undefined;
    const creator = ctx.store.userOrNone(ctx.store.members.ofUser(Number(b.id)).find((m) => m.createdById !== null)?.createdById ?? null);
    return creator ? { ...b, created_by: { id: creator.id, username: creator.username, name: creator.name, state: creator.state, avatar_url: null, web_url: `http://localhost/${creator.username}` } } : undefined;
  }) },
  { name: 'members.non-member-default-avatar', clauses: ['members.public.read'], description: 'a non-member reading one member of a public group or project gets the default avatar instead of the user\'s', ...mapBody({ route: [MEMBER_ROUTES.get, MEMBER_ROUTES.getAll] }, (b, ctx, request) => {
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    if (!source || !user || user.isAdmin || ctx.store.accessLevel(source, user) > 0) return undefined;
    return { ...b, avatar_url: 'https://www.gravatar.com/avatar/00000000000000000000000000000000?s=80&d=identicon' };
  }) },
  { name: 'members.user-ids-all-or-nothing', clauses: ['members.list.user-ids'], description: 'user_ids naming a user who is no member empties …/members/all', ...mapBody({ route: MEMBER_ROUTES.listAll }, (b, _ctx, request) => {
    const ids = String((request.query as Json).user_ids ?? '').split(',').filter((id) => id !== '').map(Number);
    return Array.isArray(b) && ids.some((id) => !b.some((row) => row.id === id)) ? [] : undefined;
  }) },
  // ---- issue #35: the last owner of a top-level group; created_by in the lists ------------------
  { name: 'members.lists-created-by-self', clauses: ['members.entity.created-by-absent'], description: 'the member lists (…/members, …/members/all) show a member nobody added as created by themselves', ...mapBody({ route: [MEMBER_ROUTES.list, MEMBER_ROUTES.listAll] }, (b) =>
    Array.isArray(b) ? b.map((row) => (row.created_by === undefined ? { ...row, created_by: { id: row.id, username: row.username, name: row.name, state: row.state, avatar_url: row.avatar_url, web_url: row.web_url } } : row)) : undefined) },
  { name: 'members.requester-owner-by-project-maintainer', clauses: ['members.add.project-owner'], description: 'a project Maintainer\'s POST …/members of an access requester at Owner is let through: the requester becomes an Owner', ...maintainerAsOwner({ route: MEMBER_ROUTES.add, kind: 'project' }, (params, source, ctx) => Number(params.access_level) === ACCESS.OWNER && String(params.user_id ?? '').split(',').some((id) => ctx.store.accessRequests.find(source, Number(id)) !== undefined)) },
  { name: 'members.top-level-last-owner-let-go', clauses: ['members.edit.last-owner', 'members.remove.last-owner'], description: 'the last owner of a top-level group (its only direct Owner) is edited and removed like any member, by an administrator too', ...lastOwnerLetGo() },
  ...memberRuleFaults,
];
