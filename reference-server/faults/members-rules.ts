// The members area's seeded faults for the rules of GitLab's services, models and policies (issue #51 and after):
// limits, no-ops and levels, what a removal takes with it, owners, and the clauses that had no fault.
import { answerWhen, changeParams, dropParams, mapBody, mapRows, matches, status, type When } from './dsl.js';
import type { AreaFault } from './types.js';
import { ACCESS } from '../state/model.js';
import { QUEUED } from '../routes/members/rules.js';
import type { Member, Source } from '../state/model.js';
import { callerOf, faultSource, formBodyIgnored, maintainerAsOwner, privateTokenQueryIgnored, requestParams, withHeaders, type FaultRequest, type Json } from './shared.js';
import { MEMBER_ROUTES } from '../routes/members/source-members.js';
import { GROUP_MEMBER_EE_ROUTES } from '../routes/members/group-members-ee.js';
import { PROJECT_ROUTES } from '../routes/setup/projects.js';
import { FILE_ROUTES } from '../routes/repository-files.js';
import { apiError } from '../http/errors.js';
import { MEMBER_READS, eachMember } from './members-shared.js';

export const memberRuleFaults: AreaFault[] = [
  // ---- limits, no-ops, levels (Members::CreateService, Members::UpdateService, the Member model) ----
  { name: 'members.user-limit-after-lookup', clauses: ['members.add.limit'], description: 'the 100-user limit counts only the ids of users that exist, so 101 ids of which one is known add that user', ...changeParams({ route: MEMBER_ROUTES.add }, (p, request, ctx) => {
    const ids = String(requestParams(request).user_id ?? '').split(',');
    if (ids.length <= 100) return;
    const known = ids.filter((id) => ctx.store.users.has(Number(id)));
    p.user_id = known.length === 1 ? `${known[0]},${known[0]}` : known.join(',');
    delete (request.query as Json).user_id;
  }) },
  { name: 'members.limit-text', level: 'parity', clauses: ['members.add.limit'], description: 'more than 100 users are refused with "Too many users" instead of GitLab\'s "Too many users specified (limit is 100)"', onSend(request, _reply, payload) {
    if (!matches(request, { route: MEMBER_ROUTES.add })) return payload;
    return payload.replace('Too many users specified (limit is 100)', 'Too many users');
  } },
  { name: 'members.expires-today-past', clauses: ['members.add.expires-today'], description: 'an expires_at of today is taken as a date in the past and refused', ...changeParams({ route: [MEMBER_ROUTES.add, MEMBER_ROUTES.edit] }, (p, request) => {
    const today = new Date().toISOString().slice(0, 10);
    if (requestParams(request).expires_at !== today) return;
    p.expires_at = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    delete (request.query as Json).expires_at;
  }) },
  (() => {
    // A PUT to the level the member has, with nothing else to change, is refused as a change of nothing.
    const unchanged = new WeakSet<object>();
    const when: When = { route: MEMBER_ROUTES.edit };
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
    const when: When = { route: MEMBER_ROUTES.remove };
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
        if (!matches(request, { route: MEMBER_ROUTES.remove, kind: 'project' })) return;
        const source = faultSource(request, ctx);
        if (source) removed.add(`${source.id}:${Number(requestParams(request).user_id)}`);
      },
      onSend(request, reply, payload, ctx) {
        if (!matches(request, { route: MEMBER_ROUTES.list, kind: 'project' }) || reply.statusCode !== 404) return payload;
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
    if (!matches(request, { route: MEMBER_ROUTES.edit, kind: 'project' })) return;
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    const params = requestParams(request);
    if (!source || !user || Number(params.user_id) !== user.id || Number(params.access_level) !== ACCESS.OWNER) return;
    // Made Owner before the route, whose Owner check then passes and whose update keeps it.
    const own = ctx.store.directMembership(source, user.id);
    if (own?.accessLevel === ACCESS.MAINTAINER) own.accessLevel = ACCESS.OWNER;
  } },
  { name: 'members.own-membership-editable', clauses: ['members.edit.own-membership'], description: 'any member may change their own membership: a Guest raises themselves', preHandler(request, ctx) {
    if (!matches(request, { route: MEMBER_ROUTES.edit })) return;
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    if (!source || !user || Number(requestParams(request).user_id) !== user.id) return;
    // Made a manager before the route, whose permission check then passes and whose update sets the level asked for.
    const own = ctx.store.directMembership(source, user.id);
    if (own && own.accessLevel < ACCESS.MAINTAINER) own.accessLevel = ACCESS.OWNER;
  } },
  { name: 'members.internal-anonymous-404', clauses: ['members.auth.anonymous'], description: 'a member write without a token on an internal group answers 404 (the group hidden) instead of 401', onRequest(request, reply, ctx) {
    if (!matches(request, { route: [MEMBER_ROUTES.edit, MEMBER_ROUTES.remove], kind: 'group' })) return false;
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
        if (!matches(request, { route: MEMBER_ROUTES.edit, kind: 'project' }) || Number(requestParams(request).access_level) !== ACCESS.OWNER || !callerOf(request, ctx)?.isAdmin) return;
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
        if (!matches(request, { route: [MEMBER_ROUTES.add, MEMBER_ROUTES.edit], kind: 'project' })) return;
        const source = faultSource(request, ctx);
        for (const id of String(requestParams(request).user_id ?? '').split(',')) if (source && id !== '') late.add(key(source.id, Number(id)));
      },
      onRequest(request, reply, ctx) {
        const reading = matches(request, { route: PROJECT_ROUTES.get });
        if (!reading && !matches(request, { route: FILE_ROUTES.create })) return false;
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
        if (!matches(request, { route: MEMBER_ROUTES.add })) return;
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
    if (!matches(request, { route: MEMBER_ROUTES.remove, kind: 'project' })) return false;
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
    if (!matches(request, { route: [MEMBER_ROUTES.edit, MEMBER_ROUTES.remove], kind: 'group' })) return false;
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    const target = source && ctx.store.directMembership(source, Number((request.params as Json).user_id));
    if (!user || target?.accessLevel !== ACCESS.OWNER || target.userId === user.id) return false;
    void reply.code(403).send({ message: '403 Forbidden' });
    return true;
  } },
  { name: 'members.owner-may-not-step-down', clauses: ['members.owners.peers'], description: 'a group Owner may neither lower their own membership nor leave (403), though another Owner is left', onRequest(request, reply, ctx) {
    if (!matches(request, { route: [MEMBER_ROUTES.edit, MEMBER_ROUTES.remove], kind: 'group' })) return false;
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    const own = source && user && ctx.store.directMembership(source, user.id);
    if (!user || own?.accessLevel !== ACCESS.OWNER || Number((request.params as Json).user_id) !== user.id) return false;
    void reply.code(403).send({ message: '403 Forbidden' });
    return true;
  } },
  // ---- clauses that had no fault -------------------------------------------------------------------
  { name: 'members.membership-state-missing', level: 'parity', clauses: ['members.entity.membership-state'], description: 'members lack membership_state', ...mapBody({ route: MEMBER_READS }, (b) => eachMember(b, ({ membership_state: _state, ...rest }) => rest)) },
  { name: 'members.seat-info-ignored', clauses: ['members.entity.seat-info'], description: 'show_seat_info is ignored: no seat information is added', ...dropParams({ route: MEMBER_READS }, 'show_seat_info') },
  { name: 'members.seat-never-used', level: 'parity', clauses: ['members.entity.seat-active'], description: 'is_using_seat is false for every member', ...mapBody({ route: MEMBER_READS }, (b) => eachMember(b, (m) => ('is_using_seat' in m ? { ...m, is_using_seat: false } : m))) },
  { name: 'members.admin-sees-public-email', clauses: ['members.entity.email-admin'], description: 'an administrator is shown the member\'s address in another form (the noreply address) instead of their own', ...mapBody({ route: MEMBER_READS }, (b, ctx, request) => (callerOf(request, ctx)?.isAdmin ? eachMember(b, (m) => (typeof m.email === 'string' ? { ...m, email: `${String(m.id)}-${String(m.username)}@users.noreply.example.com` } : m)) : undefined)) },
  { name: 'members.owner-sees-every-email', clauses: ['members.entity.email-enterprise'], description: 'owners of a group see the email of every member, not only of its enterprise users', ...mapBody({ route: MEMBER_READS }, (b, ctx, request) => {
    const source = faultSource(request, ctx);
    const caller = callerOf(request, ctx);
    if (!source || !caller || ctx.store.accessLevel(source, caller) !== ACCESS.OWNER || caller.isAdmin) return undefined;
    return eachMember(b, (m) => (m.email === undefined ? { ...m, email: ctx.store.userByIdText(String(m.id))?.email } : m));
  }) },
  { name: 'members.override-flag-missing', clauses: ['members.entity.override-ldap'], description: 'the override operations answer without the override flag', ...mapBody({ route: [GROUP_MEMBER_EE_ROUTES.overrideSet, GROUP_MEMBER_EE_ROUTES.overrideRemove] }, ({ override: _override, ...rest }) => rest) },
  { name: 'members.hidden-source-403', clauses: ['members.read.visibility'], description: 'a group or project the caller cannot see answers 403 instead of 404', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: MEMBER_READS }) || reply.statusCode !== 404 || !/404 (Group|Project) Not Found/.test(payload) || !faultSource(request, ctx)) return payload;
    reply.code(403);
    return JSON.stringify({ message: '403 Forbidden' });
  } },
  { name: 'members.skip-users-ignored', clauses: ['members.list.skip-users'], description: 'skip_users is ignored', ...dropParams({ route: [MEMBER_ROUTES.list, MEMBER_ROUTES.listAll] }, 'skip_users', 'skip_users[]') },
  { name: 'members.all-direct-only', clauses: ['members.all.inherited'], description: '…/members/all answers the direct members only', rewriteUrl(method, url) {
    return method === 'GET' ? url.replace(/^(\/api\/v4\/(?:groups|projects)\/[^/]+\/members)\/all(?=\?|$)/, '$1') : undefined;
  } },
  { name: 'members.all-state-ignored', clauses: ['members.all.state-filter'], description: 'state is ignored by …/members/all', ...dropParams({ route: MEMBER_ROUTES.listAll }, 'state') },
  { name: 'members.get-reads-inherited', clauses: ['members.get.direct'], description: 'GET …/members/:user_id also finds inherited members (it reads …/members/all/:user_id)', rewriteUrl(method, url) {
    return method === 'GET' ? url.replace(/^(\/api\/v4\/(?:groups|projects)\/[^/]+\/members)\/(\d+)(?=\?|$)/, '$1/all/$2') : undefined;
  } },
  { name: 'members.get-text-id-404', clauses: ['members.get.user-id-integer'], description: 'a user_id that is no integer answers 404 instead of 400', onSend(request, reply, payload) {
    if (!matches(request, { route: [MEMBER_ROUTES.get, MEMBER_ROUTES.getAll] }) || reply.statusCode !== 400 || !payload.includes('user_id is invalid')) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not found' });
  } },
  { name: 'members.get-all-direct-only', clauses: ['members.get-all.member'], description: 'GET …/members/all/:user_id finds direct members only (404 for an inherited one)', onSend(request, reply, payload, ctx) {
    const source = faultSource(request, ctx);
    if (!matches(request, { route: MEMBER_ROUTES.getAll }) || reply.statusCode !== 200 || !source || ctx.store.directMembership(source, Number((request.params as Json).user_id))) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not found' });
  } },
  { name: 'members.add-200', clauses: ['members.add.single'], description: 'adding a member answers 200 instead of 201', ...status({ route: MEMBER_ROUTES.add }, 201, 200) },
  { name: 'members.username-ignored', clauses: ['members.add.by-username'], description: 'username is not read on add: only user_id names the user', ...dropParams({ route: MEMBER_ROUTES.add }, 'username') },
  { name: 'members.several-first-only', clauses: ['members.add.several'], description: 'of several comma-separated user ids only the first is added', ...changeParams({ route: MEMBER_ROUTES.add }, (p, request) => {
    for (const bag of [p, request.query as Json]) if (typeof bag.user_id === 'string' && bag.user_id.includes(',')) bag.user_id = bag.user_id.split(',')[0];
  }) },
  { name: 'members.several-errors-hidden', clauses: ['members.add.several-errors'], description: 'when adding several users fails for them, the answer says {"status":"success"}', ...mapBody({ route: MEMBER_ROUTES.add }, (b) => (b.status === 'error' ? { status: 'success' } : undefined)) },
  { name: 'members.invalid-level-rounded', clauses: ['members.add.invalid-level'], description: 'an access_level that is no level is rounded down to the level below it (35 is Developer)', ...changeParams({ route: MEMBER_ROUTES.add }, (p, request) => {
    for (const bag of [p, request.query as Json]) {
      const level = Number(bag.access_level);
      if (bag.access_level !== undefined && Number.isInteger(level) && level > ACCESS.GUEST && !(Object.values(ACCESS) as number[]).includes(level)) bag.access_level = Math.max(...Object.values(ACCESS).filter((l) => l < level));
    }
  }) },
  { name: 'members.unknown-user-400', clauses: ['members.add.unknown-user'], description: 'an unknown user id or username answers 400 instead of 404', onSend(request, reply, payload) {
    if (!matches(request, { route: MEMBER_ROUTES.add }) || reply.statusCode !== 404 || !payload.includes('User Not Found')) return payload;
    reply.code(400);
    return JSON.stringify({ message: '400 Bad request' });
  } },
  { name: 'members.inherited-level-403', clauses: ['members.add.inherited-level', 'members.edit.inherited-level'], description: 'a level below an inherited membership is refused with 403 instead of a 400 validation error', onSend(request, reply, payload) {
    if (!matches(request, { route: [MEMBER_ROUTES.add, MEMBER_ROUTES.edit] }) || reply.statusCode !== 400 || !payload.includes('inherited membership')) return payload;
    reply.code(403);
    return JSON.stringify({ message: '403 Forbidden' });
  } },
  { name: 'members.project-minimal-access-as-guest', clauses: ['members.minimal-access.project'], description: 'Minimal access on a project adds the user as Guest', ...changeParams({ route: MEMBER_ROUTES.add, kind: 'project' }, (p, request) => {
    for (const bag of [p, request.query as Json]) if (String(bag.access_level) === '5') bag.access_level = ACCESS.GUEST;
  }) },
  { name: 'members.edit-not-member-403', clauses: ['members.edit.not-member'], description: 'editing a user who is no direct member answers 403 instead of 404', ...status({ route: MEMBER_ROUTES.edit }, 404, 403, { message: '403 Forbidden' }) },
  { name: 'members.edit-level-optional', clauses: ['members.edit.params'], description: 'access_level is optional on edit: without it the level stays', ...changeParams({ route: MEMBER_ROUTES.edit }, (p, request, ctx) => {
    const source = faultSource(request, ctx);
    const member = source && ctx.store.directMembership(source, Number((request.params as Json).user_id));
    if (member && p.access_level === undefined && (request.query as Json).access_level === undefined) p.access_level = member.accessLevel;
  }) },
  { name: 'members.edit-member-role-id-unchecked', clauses: ['members.edit.member-role-id'], description: 'a member_role_id that is no integer is ignored on edit instead of refused with 400', ...changeParams({ route: MEMBER_ROUTES.edit }, (p, request) => {
    for (const bag of [p, request.query as Json]) if (bag.member_role_id !== undefined && !/^-?\d+$/.test(String(bag.member_role_id))) delete bag.member_role_id;
  }) },
  { name: 'members.add-member-role-id-500', clauses: ['members.add.member-role-id'], description: 'a member_role_id that is no integer is a server error (500) on add', preHandler(request) {
    const id = requestParams(request).member_role_id;
    if (matches(request, { route: MEMBER_ROUTES.add }) && id !== undefined && !/^-?\d+$/.test(String(id))) throw apiError(500, '500 Internal Server Error');
  } },
  { name: 'members.project-maintainer-edits-owner', clauses: ['members.edit.project-owner'], description: 'a project Maintainer may make a member Owner or change an Owner', ...maintainerAsOwner({ route: MEMBER_ROUTES.edit, kind: 'project' }, (p, source, ctx) => Number(p.access_level) === ACCESS.OWNER || ctx.store.directMembership(source, Number(p.user_id))?.accessLevel === ACCESS.OWNER) },
  { name: 'members.project-maintainer-removes-owner', clauses: ['members.remove.project-owner'], description: 'a project Maintainer may remove an Owner of the project', ...maintainerAsOwner({ route: MEMBER_ROUTES.remove, kind: 'project' }, (p, source, ctx) => ctx.store.directMembership(source, Number(p.user_id))?.accessLevel === ACCESS.OWNER) },
  { name: 'members.remove-not-direct-204', clauses: ['members.remove.not-direct'], description: 'removing a user who is no direct member answers 204 (nothing removed) instead of 404', ...status({ route: MEMBER_ROUTES.remove }, 404, 204) },
  { name: 'members.self-removal-refused', clauses: ['members.remove.self'], description: 'a member who may not manage members cannot remove themselves (403)', ...answerWhen({ route: MEMBER_ROUTES.remove }, (request, ctx) => {
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    return !!source && !!user && String(user.id) === String((request.params as Json).user_id) && ctx.store.accessLevel(source, user) < ACCESS.MAINTAINER;
  }, 403, { message: '403 Forbidden' }) },
  { name: 'members.remove-flags-unchecked', clauses: ['members.remove.params'], description: 'skip_subresources and unassign_issuables that are no booleans are ignored instead of refused with 400', ...changeParams({ route: MEMBER_ROUTES.remove }, (p, request) => {
    for (const bag of [p, request.query as Json]) for (const name of ['skip_subresources', 'unassign_issuables']) if (bag[name] !== undefined && !['true', 'false', '1', '0', true, false].includes(bag[name] as string)) delete bag[name];
  }) },
  { name: 'members.state-defaults-active', clauses: ['members.state.params'], description: 'PUT …/state without state sets the member active instead of a 400', ...changeParams({ route: GROUP_MEMBER_EE_ROUTES.state }, (p, request) => {
    if (p.state === undefined && (request.query as Json).state === undefined) p.state = 'active';
  }) },
  { name: 'members.approve-unknown-204', clauses: ['members.approve.errors'], description: 'approving an unknown member id answers 204 instead of 404', ...status({ route: GROUP_MEMBER_EE_ROUTES.approve }, 404, 204) },
  { name: 'members.approve-all-200', clauses: ['members.approve-all'], description: 'approve_all answers 200 with a body instead of 204', ...status({ route: GROUP_MEMBER_EE_ROUTES.approveAll }, 204, 200, { status: 'success' }) },
  { name: 'members.override-clear-kept', clauses: ['members.override.clear'], description: 'clearing the override answers the member with override still true', ...mapBody({ route: GROUP_MEMBER_EE_ROUTES.overrideRemove }, (b) => ({ ...b, override: true })) },
  { name: 'members.override-refusal-404', clauses: ['members.override.refused'], description: 'an override that is not allowed answers 404 instead of 403', ...status({ route: [GROUP_MEMBER_EE_ROUTES.overrideSet, GROUP_MEMBER_EE_ROUTES.overrideRemove] }, 403, 404, { message: '404 Not found' }) },
  { name: 'members.billable-search-ignored', clauses: ['members.billable.search'], description: 'search is ignored by the billable member list', ...dropParams({ route: GROUP_MEMBER_EE_ROUTES.billable }, 'search') },
  { name: 'members.billable-newest-first', clauses: ['members.billable.default-order'], description: 'without sort, billable members come newest first', ...mapBody({ route: GROUP_MEMBER_EE_ROUTES.billable }, (b, _ctx, request) => (Array.isArray(b) && (request.query as Json).sort === undefined ? [...b].reverse() : undefined)) },
  { name: 'members.billable-activity-timestamp', clauses: ['members.billable.activity'], description: 'last_activity_on is a timestamp instead of a date', ...mapRows({ route: GROUP_MEMBER_EE_ROUTES.billable }, (row) => (typeof row.last_activity_on === 'string' ? { ...row, last_activity_on: `${row.last_activity_on}T00:00:00.000Z` } : row)) },
  { name: 'members.billable-private-email-shown', clauses: ['members.billable.email'], description: 'billable members show their private address where they have no public one', ...mapRows({ route: GROUP_MEMBER_EE_ROUTES.billable }, (row, ctx) => (row.email === null || row.email === undefined ? { ...row, email: ctx.store.userByIdText(String(row.id))?.email } : row)) },
  { name: 'members.billable-never-last-owner', level: 'parity', clauses: ['members.billable.last-owner'], description: 'is_last_owner is false for every billable member', ...mapRows({ route: GROUP_MEMBER_EE_ROUTES.billable }, (row) => ({ ...row, is_last_owner: false })) },
  { name: 'members.ee-refusal-403', clauses: ['members.ee.admin-only'], description: 'a caller who may not administer the group\'s members is refused with 403 instead of 400', onSend(request, reply, payload) {
    if (!matches(request, { route: Object.values(GROUP_MEMBER_EE_ROUTES) }) || reply.statusCode !== 400 || payload !== JSON.stringify({ message: '400 Bad request' })) return payload;
    reply.code(403);
    return JSON.stringify({ message: '403 Forbidden' });
  } },
  { name: 'members.billable-memberships-level-integer', clauses: ['members.billable-memberships.direct'], description: 'access_level of a billable membership is the bare integer instead of {string_value, integer_value}', ...mapRows({ route: GROUP_MEMBER_EE_ROUTES.billableMemberships }, (row) => ({ ...row, access_level: (row.access_level as Json | undefined)?.integer_value })) },
  { name: 'members.billable-memberships-unknown-empty', clauses: ['members.billable-memberships.user'], description: 'the memberships of an unknown user or of a non-billable one answer 200 [] instead of 404', ...status({ route: GROUP_MEMBER_EE_ROUTES.billableMemberships }, 404, 200, []) },
  { name: 'members.billable-indirect-empty', clauses: ['members.billable-indirect.list'], description: 'the indirect memberships list is always empty', ...mapBody({ route: GROUP_MEMBER_EE_ROUTES.billableIndirect }, (b) => (Array.isArray(b) ? [] : undefined)) },
  { name: 'members.billable-remove-202', clauses: ['members.billable-remove'], description: 'removing a billable member answers 202 instead of 204', ...status({ route: GROUP_MEMBER_EE_ROUTES.billableRemove }, 204, 202, {}) },
  { name: 'members.billable-remove-errors-204', clauses: ['members.billable-remove.errors'], description: 'a billable removal that fails answers 204 (nothing removed) instead of 400', ...status({ route: GROUP_MEMBER_EE_ROUTES.billableRemove }, 400, 204) },
  { name: 'members.queued-add-message-hidden', clauses: ['members.promotion.add-single', 'members.promotion.add-several'], description: 'an add queued for administrator approval answers {"status":"success"} without naming the queued users', ...mapBody({ route: MEMBER_ROUTES.add }, (b) => (JSON.stringify(b).includes(QUEUED) ? { status: 'success' } : undefined)) },
  { name: 'members.queued-edit-message-hidden', clauses: ['members.promotion.edit'], description: 'a promotion queued for administrator approval answers {} without naming the queued user', ...mapBody({ route: MEMBER_ROUTES.edit }, (b) => (JSON.stringify(b).includes(QUEUED) ? {} : undefined)) },
  { name: 'members.form-body-ignored', clauses: ['members.http.form-body'], description: 'a write sent as form fields is read as if it had no parameters', ...formBodyIgnored({ route: [MEMBER_ROUTES.add, MEMBER_ROUTES.edit, MEMBER_ROUTES.remove] }) },
  { name: 'members.private-token-query-ignored', level: 'parity', clauses: ['members.http.private-token-query'], description: 'a token in the private_token query parameter is not read: the request is anonymous', ...privateTokenQueryIgnored({ route: [...Object.values(MEMBER_ROUTES), ...Object.values(GROUP_MEMBER_EE_ROUTES)] }) },
  { name: 'members.link-header-missing', level: 'parity', clauses: ['members.http.link-pagination'], description: 'member lists have no Link header', ...withHeaders(['link'], { route: [MEMBER_ROUTES.list, MEMBER_ROUTES.listAll, GROUP_MEMBER_EE_ROUTES.billable] }) },
  { name: 'members.sudo-open-to-all', clauses: ['members.http.sudo-refusals'], description: 'sudo from a token that is not an administrator\'s is ignored (the caller acts as themself) instead of refused with 403', preHandler(request, ctx) {
    if (!matches(request, { route: [...Object.values(MEMBER_ROUTES), ...Object.values(GROUP_MEMBER_EE_ROUTES)] }) || callerOf(request, ctx)?.isAdmin) return;
    delete request.headers.sudo;
    for (const bag of [request.query, request.body]) if (bag && typeof bag === 'object') delete (bag as Json).sudo;
  } },
  { name: 'members.list-shows-invitations', clauses: ['members.list.no-invitations'], description: 'the member lists also show pending invitations (as members without an account, named by their address)', ...mapBody({ route: [MEMBER_ROUTES.list, MEMBER_ROUTES.listAll] }, (b, ctx, request) => {
    const source = faultSource(request, ctx);
    if (!Array.isArray(b) || !source) return undefined;
    const invited = ctx.store.directMembers(source).filter((m) => m.inviteToken !== null).map((m) => ({ id: m.id, username: m.inviteEmail, name: m.inviteEmail, state: 'active', access_level: m.accessLevel, created_at: m.createdAt, expires_at: m.expiresAt, membership_state: m.state }));
    return [...b, ...invited];
  }) },
  { name: 'members.only-direct-owner-kept', clauses: ['members.remove.inherited-owner', 'members.remove.project-sole-owner', 'members.edit.inherited-owner'], description: 'the only direct Owner of a subgroup or project is refused as its last owner (403), although a group above it has an Owner', ...answerWhen({ route: [MEMBER_ROUTES.remove, MEMBER_ROUTES.edit] }, (request, ctx) => {
    const source = faultSource(request, ctx);
    if (!source || (source.kind === 'group' && source.parentId === null)) return false;
    const owners = ctx.store.directMembers(source).filter((m) => m.inviteToken === null && m.accessLevel === ACCESS.OWNER);
    return owners.length === 1 && String(owners[0].userId) === String((request.params as Json).user_id);
  }, 403, { message: '403 Forbidden' }) },
  (() => {
    // The user's awaiting memberships before a change of state, put back after it.
    const held = new WeakMap<object, Member[]>();
    return {
      name: 'members.state-not-saved',
      clauses: ['members.state.access'],
      description: 'setting an awaiting member active answers {"success":true} but the member stays awaiting (no access)',
      preHandler(request, ctx) {
        if (!matches(request, { route: GROUP_MEMBER_EE_ROUTES.state })) return;
        const userId = Number((request.params as Json).user_id);
        held.set(request, [...ctx.store.members.values()].filter((m) => m.userId === userId && m.state === 'awaiting'));
      },
      onSend(request, reply, payload) {
        const awaiting = held.get(request);
        held.delete(request);
        if (reply.statusCode === 200) for (const m of awaiting ?? []) m.state = 'awaiting';
        return payload;
      },
    } satisfies AreaFault;
  })(),
  { name: 'members.billable-lists-awaiting', clauses: ['members.billable.awaiting'], description: 'awaiting members of the group are listed among the billable members', ...mapBody({ route: GROUP_MEMBER_EE_ROUTES.billable }, (b, ctx, request) => {
    const source = faultSource(request, ctx);
    if (!Array.isArray(b) || !source) return undefined;
    const awaiting = ctx.store.directMembers(source).filter((m) => m.state === 'awaiting' && m.userId !== null && !b.some((row) => row.id === m.userId)).flatMap((m) => {
      const user = ctx.store.userOrNone(m.userId);
      return user ? [{ id: user.id, username: user.username, name: user.name, state: user.state, last_activity_on: null, membership_type: 'group_member', removable: true, created_at: m.createdAt, last_login_at: null, is_last_owner: false }] : [];
    });
    return [...b, ...awaiting];
  }) },
  { name: 'members.all-without-invited-groups', clauses: ['members.all.invited-visible', 'members.all.invited-private-to-source-members'], description: '…/members/all leaves out the members of groups the source is shared with (only direct and inherited members)', ...mapBody({ route: MEMBER_ROUTES.listAll }, (b, ctx, request) => {
    const source = faultSource(request, ctx);
    if (!Array.isArray(b) || !source) return undefined;
    const group = source.kind === 'project' ? ctx.store.projectGroup(source) : source;
    const chain = [...(source.kind === 'project' ? [source] : []), ...(group ? ctx.store.groupChain(group) : [])];
    return b.filter((row) => chain.some((s) => ctx.store.directMembership(s, Number(row.id))));
  }) },
  { name: 'members.saml-identity-hidden', clauses: ['members.entity.saml-identity'], description: 'group_saml_identity is never shown, also not to owners of a group with SSO', ...mapBody({ route: MEMBER_READS }, (b) => eachMember(b, ({ group_saml_identity: _identity, ...rest }) => rest)) },
];
