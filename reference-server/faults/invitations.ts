// The seeded faults of the invitations area (reference-server/areas.ts registers them with its routes).
import { changeParams, dropParams, mapBody, mapRows, matches, status } from './dsl.js';
import type { AreaFault, SeededFault } from './types.js';
import { ACCESS } from '../state/model.js';
import type { Member } from '../state/model.js';
import { actAtLevel, botsAsPeople, callerOf, faultSource, formBodyIgnored, keepAccessRequests, maintainerAsOwner, nonMemberRefusalAs404, privateTokenQueryIgnored, requestParams, withHeaders, type FaultRequest, type Json } from './shared.js';
import { apiError, paramError } from '../http/errors.js';
import { SETTINGS_ROUTES } from '../routes/setup/settings.js';
import { INVITATION_ROUTES } from '../routes/invitations.js';

/**
 * The onSend of a fault that took some recipients out of an invitation: answers them as failures
 * of a 201 (status "error"), as the spec's per-recipient form does. With every recipient taken out
 * the route asked for email or user_id: nothing else happened, so that 400 becomes the 201.
 */
function withHeldFailures(held: WeakMap<object, Record<string, string>>): NonNullable<SeededFault['onSend']> {
  return (request, reply, payload) => {
    const failures = held.get(request);
    if (!failures) return payload;
    held.delete(request);
    const body = JSON.parse(payload) as Json;
    if (reply.statusCode === 400 && typeof body.message === 'string' && body.message.includes('Must provide')) reply.code(201);
    else if (reply.statusCode !== 201) return payload;
    const message = typeof body.message === 'object' && body.message !== null ? (body.message as Json) : {};
    return JSON.stringify({ ...body, status: 'error', message: { ...message, ...failures } });
  };
}

/**
 * Re-inviting an address whose invitation is pending, one address a request: the route's refresh
 * of the invitation is undone and the answer is the per-recipient failure of older GitLab.
 */
function keptReinvite(): Pick<SeededFault, 'preHandler' | 'onSend'> {
  const kept = new WeakMap<FaultRequest, { invitation: Member; accessLevel: number; expiresAt: string | null; email: string }>();
  return {
    preHandler(request, ctx) {
      const source = faultSource(request, ctx);
      const email = String(requestParams(request).email ?? '');
      if (!matches(request, { route: INVITATION_ROUTES.create }) || !source || email === '' || email.includes(',')) return;
      const invitation = ctx.store.directMembers(source).find((m) => m.inviteToken !== null && m.inviteEmail === email);
      if (invitation) kept.set(request, { invitation, accessLevel: invitation.accessLevel, expiresAt: invitation.expiresAt, email });
    },
    onSend(request, reply, payload) {
      const before = kept.get(request);
      kept.delete(request);
      if (!before || reply.statusCode !== 201) return payload;
      Object.assign(before.invitation, { accessLevel: before.accessLevel, expiresAt: before.expiresAt });
      return JSON.stringify({ status: 'error', message: { [before.email]: 'Invite email has already been taken' } });
    },
  };
}

export const invitationsFaults: AreaFault[] = [
  { name: 'invitations.invite-200', clauses: ['invitations.create.by-email'], description: 'invite answers 200 instead of 201', ...status({ route: INVITATION_ROUTES.create }, 201, 200) },
  { name: 'invitations.error-as-400', clauses: ['invitations.create.result-error'], description: 'per-address failures answer HTTP 400 instead of 201 with status "error"', onSend(request, reply, payload) {
    if (!matches(request, { route: INVITATION_ROUTES.create }) || reply.statusCode !== 201 || !payload.includes('"status":"error"')) return payload;
    reply.code(400);
    return payload;
  } },
  { name: 'invitations.list-shows-members', clauses: ['invitations.list.pending-only'], description: 'the invitation list also shows accepted members', ...mapBody({ route: INVITATION_ROUTES.list }, (b, ctx, request) => {
    if (!Array.isArray(b)) return undefined;
    const id = String((request.params as Json).id);
    const source = request.routeOptions.url!.includes('/groups/') ? ctx.store.findGroup(id) : ctx.store.findProject(id);
    if (!source) return undefined;
    const accepted = ctx.store.directMembers(source).filter((m) => m.userId !== null).map((m) => ({ access_level: m.accessLevel, created_at: m.createdAt, expires_at: m.expiresAt, invite_email: ctx.store.users.get(m.userId!)?.email, created_by_name: 'someone' }));
    return [...b, ...accepted];
  }) },
  { name: 'invitations.query-partial', clauses: ['invitations.list.query'], description: 'query matches part of the address, ignoring case', ...changeParams({ route: INVITATION_ROUTES.list }, (p, request) => {
    const query = request.query as Json;
    if (typeof query.query === 'string' && query.query.length > 3) {
      delete query.query;
      p.query = undefined;
    }
  }) },
  { name: 'invitations.update-no-params-200', clauses: ['invitations.update.no-params'], description: 'an update without parameters answers 200 instead of 400', ...status({ route: INVITATION_ROUTES.update }, 400, 200, {}) },
  { name: 'invitations.delete-200-body', clauses: ['invitations.delete.success'], description: 'delete answers 200 with a body instead of 204', ...status({ route: INVITATION_ROUTES.remove }, 204, 200, { status: 'deleted' }) },
  { name: 'invitations.expires-at-created', clauses: ['invitations.list.values'], description: 'expires_at of a listed invitation shows its creation time', ...mapRows({ route: INVITATION_ROUTES.list }, (row) => ({ ...row, expires_at: row.created_at })) },
  { name: 'invitations.list-open-to-all', clauses: ['invitations.auth.admin-members'], description: 'members who may not administer members can list invitations', ...status({ route: INVITATION_ROUTES.list }, 403, 200, []) },
  { name: 'invitations.admin-level-accepted', clauses: ['invitations.create.access-level'], description: 'access level 60 (Admin) is accepted as Owner for invitations', ...changeParams({ route: INVITATION_ROUTES.create }, (p, request) => {
    const query = request.query as Json;
    if (String(p.access_level ?? query.access_level) === '60') {
      p.access_level = 50;
      delete query.access_level;
    }
  }) },
  { name: 'invitations.limit-ignored', clauses: ['invitations.create.limit'], description: 'more than 100 addresses at once are accepted (the list is cut to 100)', ...changeParams({ route: INVITATION_ROUTES.create }, (p) => {
    if (typeof p.email === 'string' && p.email.split(',').length > 100) p.email = p.email.split(',').slice(0, 100).join(',');
  }) },
  { name: 'invitations.unknown-email-deleted', clauses: ['invitations.delete.not-found'], description: 'deleting an address with no invitation answers 204 instead of 404', ...status({ route: INVITATION_ROUTES.remove }, 404, 204) },
  { name: 'invitations.anonymous-403', clauses: ['invitations.auth.anonymous'], description: 'no token answers 403 instead of 401', ...status({ route: [INVITATION_ROUTES.list, INVITATION_ROUTES.create, INVITATION_ROUTES.update, INVITATION_ROUTES.remove] }, 401, 403, { message: '403 Forbidden' }) },
  { name: 'invitations.expires-at-ignored', clauses: ['invitations.create.expires-at'], description: 'expires_at is ignored on invite', ...dropParams({ route: INVITATION_ROUTES.create }, 'expires_at') },
  { name: 'invitations.access-level-zero-per-recipient', level: 'parity', clauses: ['invitations.create.access-level-role'], description: 'access_level 0 on invite is reported per recipient (201, status "error", nothing invited) instead of refused with 400', onSend(request, reply, payload, ctx) {
    const params = { ...(request.query as Json), ...((request.body ?? {}) as Json) };
    if (!matches(request, { route: INVITATION_ROUTES.create }) || reply.statusCode !== 400 || String(params.access_level) !== '0') return payload;
    const parts = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).split(',').map((s) => s.trim()).filter((s) => s !== '') : []);
    const keys = [...parts(params.email), ...parts(params.user_id).map((id) => ctx.store.users.get(Number(id))?.username ?? id)];
    if (keys.length === 0) return payload;
    reply.code(201);
    return JSON.stringify({ status: 'error', message: Object.fromEntries(keys.map((key) => [key, 'Access level is not included in the list'])) });
  } },
  ((): Omit<SeededFault, 'area'> => {
    // Recipients the route never saw, with the failure to report for each.
    const held = new WeakMap<object, Record<string, string>>();
    return { name: 'invitations.member-reinvite-refused', level: 'parity', clauses: ['invitations.create.already-member'], description: 'inviting a direct member again is reported per recipient ("User already exists in source") and the membership is left as it was, instead of updated', ...changeParams({ route: INVITATION_ROUTES.create }, (p, request, ctx) => {
      const id = String((request.params as Json).id);
      const source = request.routeOptions.url!.includes('/groups/') ? ctx.store.findGroup(id) : ctx.store.findProject(id);
      if (!source) return;
      const query = request.query as Json;
      const failures: Record<string, string> = {};
      const keep = (name: string, key: (part: string) => string | undefined) => {
        const value = p[name] ?? query[name];
        if (typeof value !== 'string' && typeof value !== 'number') return;
        const parts = String(value).split(',').map((s) => s.trim());
        const kept = parts.filter((part) => {
          const failed = key(part);
          if (failed !== undefined) failures[failed] = 'User already exists in source';
          return failed === undefined;
        });
        p[name] = kept.join(',');
        delete query[name];
      };
      const member = (user: { id: number } | undefined) => user !== undefined && ctx.store.directMembership(source, user.id) !== undefined;
      keep('email', (part) => (member(ctx.store.userByEmail(part)) ? part : undefined));
      keep('user_id', (part) => {
        const user = /^\d+$/.test(part) ? ctx.store.users.get(Number(part)) : undefined;
        return member(user) ? user!.username : undefined;
      });
      if (Object.keys(failures).length > 0) held.set(request, failures);
    }), onSend: withHeldFailures(held) };
  })(),
  ((): Omit<SeededFault, 'area'> => {
    const held = new WeakMap<object, Record<string, string>>();
    return { name: 'invitations.invalid-email-per-recipient', level: 'parity', clauses: ['invitations.create.invalid-email'], description: 'a malformed address in the email list is reported per recipient ("Invite email is invalid") and the other addresses are invited, instead of the whole request refused with 400', ...changeParams({ route: INVITATION_ROUTES.create }, (p, request) => {
      const query = request.query as Json;
      const value = p.email ?? query.email;
      if (typeof value !== 'string') return;
      const parts = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
      const bad = parts.filter((part) => !/^[^@\s]+@[^@\s]+$/.test(part));
      if (bad.length === 0) return;
      p.email = parts.filter((part) => !bad.includes(part)).join(',');
      delete query.email;
      held.set(request, Object.fromEntries(bad.map((part) => [part, 'Invite email is invalid'])));
    }), onSend: withHeldFailures(held) };
  })(),
  { name: 'invitations.email-case-kept', level: 'parity', clauses: ['invitations.create.lower-case'], description: 'a new invitation keeps the address in the letter case it was sent in instead of lower case', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: INVITATION_ROUTES.create }) || reply.statusCode !== 201) return payload;
    const params = { ...(request.query as Json), ...((request.body ?? {}) as Json) };
    const id = String((request.params as Json).id);
    const source = request.routeOptions.url!.includes('/groups/') ? ctx.store.findGroup(id) : ctx.store.findProject(id);
    if (!source || typeof params.email !== 'string') return payload;
    const body = JSON.parse(payload) as Json;
    const failed = typeof body.message === 'object' && body.message !== null ? (body.message as Json) : {};
    for (const sent of params.email.split(',').map((s) => s.trim())) {
      if (sent === sent.toLowerCase() || sent in failed) continue;
      const invitation = ctx.store.directMembers(source).find((m) => m.inviteToken !== null && m.inviteEmail === sent.toLowerCase());
      if (!invitation) continue;
      invitation.inviteEmail = sent;
      // The answer stays as it was, so the hook does not count this: count it here.
      ctx.fired.set('invitations.email-case-kept', (ctx.fired.get('invitations.email-case-kept') ?? 0) + 1);
    }
    return payload;
  } },
  { name: 'invitations.maintainer-deletes-owner-invite', clauses: ['invitations.delete.owner-level'], description: 'a project Maintainer deletes an invitation at the Owner level (204) instead of being refused with 403', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: INVITATION_ROUTES.remove, kind: 'project' }) || reply.statusCode !== 403) return payload;
    const token = ctx.store.tokens.get(String(request.headers['private-token'] ?? ''));
    const user = token && ctx.store.users.get(token.userId);
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (!user || !project || ctx.store.accessLevel(project, user) < 40) return payload;
    const invitation = ctx.store.directMembers(project).find((m) => m.inviteToken !== null && m.inviteEmail === (request.params as Json).email);
    if (!invitation || invitation.accessLevel !== 50) return payload;
    ctx.store.members.delete(invitation.id);
    reply.code(204);
    return '';
  } },
  { name: 'invitations.settings-bare-put-accepted', level: 'parity', clauses: ['invitations.create.promotion-setting'], description: 'PUT /application/settings without any setting answers 200 with the settings instead of 400', onSend(request, reply, payload, ctx) {
    const params = { ...(request.query as Json), ...((request.body ?? {}) as Json) };
    if (!matches(request, { route: SETTINGS_ROUTES.update }) || reply.statusCode !== 400 || 'enable_member_promotion_management' in params) return payload;
    reply.code(200);
    return JSON.stringify({ enable_member_promotion_management: ctx.store.settings.enableMemberPromotionManagement });
  } },
  // A target without GET /application/settings is no fault: the tests that read the setting declare
  // the set-up endpoint (application-settings-read) and are unsupported, with the reason, on such a
  // target (cli/without-run.spec.ts checks it with the server's --without).
  // ---- public sources and access requesters (requests: lib/api/access_requests.rb) ----------
  { name: 'invitations.requester-stays-pending', clauses: ['invitations.create.requester'], description: 'inviting the address of a user whose access request is pending makes them a member but leaves the request pending', ...keepAccessRequests({ route: INVITATION_ROUTES.create }, (p, ctx) => String(p.email ?? '').split(',').map((e) => ctx.store.userByEmail(e.trim())?.id)) },
  { name: 'invitations.public-non-member-404', clauses: ['invitations.auth.public-non-member'], description: 'the invitation endpoints answer a non-member of a public group or project 404 (as for a private one) instead of 403', ...nonMemberRefusalAs404({ route: [INVITATION_ROUTES.list, INVITATION_ROUTES.create, INVITATION_ROUTES.update, INVITATION_ROUTES.remove] }) },
  // ---- confirmed addresses, inherited levels, lists, Minimal access, promotions (issue #17) ----
  { name: 'invitations.unconfirmed-address-adds-user', clauses: ['invitations.create.confirmed-email'], description: 'an address its user has not confirmed (primary or secondary) makes that user a member instead of a pending invitation', ...changeParams({ route: INVITATION_ROUTES.create }, (p, request, ctx) => {
    const value = p.email ?? (request.query as Json).email;
    if (typeof value !== 'string') return;
    const holder = (email: string) => [...ctx.store.users.values()].find((u) => (!u.confirmed && u.email === email) || u.emails.some((e) => !e.confirmed && e.email === email));
    const parts = value.split(',').map((s) => s.trim());
    const moved = parts.flatMap((part) => holder(part)?.id ?? []);
    if (moved.length === 0) return;
    p.email = parts.filter((part) => !holder(part)).join(',');
    p.user_id = [...(p.user_id === undefined ? [] : [String(p.user_id)]), ...moved].join(',');
    delete (request.query as Json).email;
  }) },
  ((): Omit<SeededFault, 'area'> => {
    const hidden = new WeakMap<object, { confirmed: boolean }[]>();
    return { name: 'invitations.secondary-email-invited', clauses: ['invitations.create.confirmed-email'], description: 'a confirmed secondary address is invited as a pending invitation instead of adding its user', ...changeParams({ route: INVITATION_ROUTES.create }, (p, request, ctx) => {
      const parts = typeof p.email === 'string' ? p.email.split(',').map((s) => s.trim()) : [];
      const rows = [...ctx.store.users.values()].flatMap((u) => u.emails.filter((e) => e.confirmed && parts.includes(e.email)));
      for (const row of rows) row.confirmed = false;
      if (rows.length > 0) hidden.set(request, rows);
    }), onSend(request, _reply, payload, ctx) {
      const rows = hidden.get(request);
      if (!rows) return payload;
      hidden.delete(request);
      for (const row of rows) row.confirmed = true;
      ctx.fired.set('invitations.secondary-email-invited', (ctx.fired.get('invitations.secondary-email-invited') ?? 0) + 1);
      return payload;
    } };
  })(),
  { name: 'invitations.emails-dropped-with-user-ids', clauses: ['invitations.create.several'], description: 'with user_id in the request the addresses in email are ignored', ...changeParams({ route: INVITATION_ROUTES.create }, (p, request) => {
    if (p.user_id === undefined || p.email === undefined) return;
    delete p.email;
    delete (request.query as Json).email;
  }) },
  { name: 'invitations.inherited-level-capped', clauses: ['invitations.create.above-inherited'], description: 'a user invited above the level they hold in an ancestor group is added at the inherited level, not the requested one', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: INVITATION_ROUTES.create }) || reply.statusCode !== 201) return payload;
    const params = { ...(request.query as Json), ...((request.body ?? {}) as Json) };
    const id = String((request.params as Json).id);
    const source = request.routeOptions.url!.includes('/groups/') ? ctx.store.findGroup(id) : ctx.store.findProject(id);
    const parent = !source ? undefined : source.kind === 'group' ? (source.parentId === null ? undefined : ctx.store.groups.get(source.parentId)) : ctx.store.projectGroup(source);
    if (!source || !parent || typeof params.email !== 'string') return payload;
    for (const email of params.email.split(',').map((s) => s.trim())) {
      const user = ctx.store.userByEmail(email);
      const member = user && ctx.store.directMembership(source, user.id);
      const inherited = user ? ctx.store.accessLevel(parent, user) : 0;
      if (!member || inherited === 0 || member.accessLevel <= inherited) continue;
      member.accessLevel = inherited;
      ctx.fired.set('invitations.inherited-level-capped', (ctx.fired.get('invitations.inherited-level-capped') ?? 0) + 1);
    }
    return payload;
  } },
  { name: 'invitations.email-array-unchecked', clauses: ['invitations.create.invalid-email'], description: 'email sent as a JSON array skips the address check: malformed addresses are dropped silently and the others invited', ...changeParams({ route: INVITATION_ROUTES.create }, (p) => {
    if (Array.isArray(p.email)) p.email = p.email.filter((e) => /^[^@\s]+@[^@\s]+$/.test(String(e)));
  }) },
  { name: 'invitations.group-maintainer-deletes-owner-invite', clauses: ['invitations.delete.owner-level', 'invitations.auth.admin-members'], description: 'a group Maintainer deletes an invitation at the Owner level (204) instead of being refused with 403', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: INVITATION_ROUTES.remove, kind: 'group' }) || reply.statusCode !== 403) return payload;
    const token = ctx.store.tokens.get(String(request.headers['private-token'] ?? ''));
    const user = token && ctx.store.users.get(token.userId);
    const group = ctx.store.findGroup(String((request.params as Json).id));
    if (!user || !group || ctx.store.accessLevel(group, user) < ACCESS.MAINTAINER) return payload;
    const invitation = ctx.store.directMembers(group).find((m) => m.inviteToken !== null && m.inviteEmail === (request.params as Json).email);
    if (!invitation || invitation.accessLevel !== ACCESS.OWNER) return payload;
    ctx.store.members.delete(invitation.id);
    reply.code(204);
    return '';
  } },
  { name: 'invitations.minimal-access-top-level-refused', clauses: ['invitations.create.minimal-access-licensed'], description: 'access_level 5 on a licensed top-level group is reported per recipient and nothing invited, as in a subgroup', onSend(request, reply, payload, ctx) {
    const params = { ...(request.query as Json), ...((request.body ?? {}) as Json) };
    if (!matches(request, { route: INVITATION_ROUTES.create, kind: 'group' }) || reply.statusCode !== 201 || String(params.access_level) !== '5' || typeof params.email !== 'string') return payload;
    const group = ctx.store.findGroup(String((request.params as Json).id));
    if (!group || group.parentId !== null) return payload;
    const emails = params.email.split(',').map((s) => s.trim().toLowerCase());
    for (const m of ctx.store.directMembers(group)) if (m.inviteToken !== null && emails.includes(m.inviteEmail!)) ctx.store.members.delete(m.id);
    return JSON.stringify({ status: 'error', message: Object.fromEntries(emails.map((e) => [e, 'Access level is not included in the list'])) });
  } },
  ((): Omit<SeededFault, 'area'> => {
    const paused = new WeakSet<object>();
    return { name: 'invitations.promotion-guest-member-updated', clauses: ['invitations.create.queued-members'], description: 'with promotion approval on, an existing Guest member re-invited above Guest is updated instead of queued', ...changeParams({ route: INVITATION_ROUTES.create }, (p, request, ctx) => {
      const id = String((request.params as Json).id);
      const source = request.routeOptions.url!.includes('/groups/') ? ctx.store.findGroup(id) : ctx.store.findProject(id);
      if (!source || !ctx.store.settings.enableMemberPromotionManagement || Number(p.access_level) < ACCESS.REPORTER) return;
      const ids = String(p.user_id ?? '').split(',').map(Number);
      if (!ids.some((userId) => ctx.store.directMembership(source, userId)?.accessLevel === ACCESS.GUEST)) return;
      ctx.store.settings.enableMemberPromotionManagement = false;
      paused.add(request);
    }), onSend(request, _reply, payload, ctx) {
      if (!paused.has(request)) return payload;
      paused.delete(request);
      ctx.store.settings.enableMemberPromotionManagement = true;
      ctx.fired.set('invitations.promotion-guest-member-updated', (ctx.fired.get('invitations.promotion-guest-member-updated') ?? 0) + 1);
      return payload;
    } };
  })(),
  ((): Omit<SeededFault, 'area'> => {
    const held = new WeakMap<object, { member: { accessLevel: number }; level: number; username: string }[]>();
    return { name: 'invitations.promotion-billable-queued', clauses: ['invitations.create.queued-members'], description: 'with promotion approval on, a billable member re-invited at another level is queued and keeps their level instead of being updated', ...changeParams({ route: INVITATION_ROUTES.create }, (p, request, ctx) => {
      const id = String((request.params as Json).id);
      const source = request.routeOptions.url!.includes('/groups/') ? ctx.store.findGroup(id) : ctx.store.findProject(id);
      if (!source || !ctx.store.settings.enableMemberPromotionManagement) return;
      const rows = String(p.user_id ?? '').split(',').flatMap((userId) => {
        const member = ctx.store.directMembership(source, Number(userId));
        return member && member.accessLevel >= ACCESS.REPORTER ? [{ member, level: member.accessLevel, username: ctx.store.users.get(Number(userId))!.username }] : [];
      });
      if (rows.length > 0) held.set(request, rows);
    }), onSend(request, reply, payload) {
      const rows = held.get(request);
      if (!rows || reply.statusCode !== 201) return payload;
      held.delete(request);
      for (const row of rows) row.member.accessLevel = row.level;
      return JSON.stringify({ status: 'success', queued_users: Object.fromEntries(rows.map((r) => [r.username, 'Request queued for administrator approval.'])) });
    } };
  })(),
  { name: 'invitations.user-id-number-accepted', level: 'parity', clauses: ['invitations.create.user-id-number'], description: 'user_id sent as a JSON number is taken as the id it names instead of no list (400)', ...changeParams({ route: INVITATION_ROUTES.create }, (params) => {
    if (typeof params.user_id === 'number') params.user_id = String(params.user_id);
  }) },
  // ---- issue #26 ----------------------------------------------------------------------------------
  { name: 'invitations.project-bot-invited', clauses: ['invitations.create.project-bot'], description: 'the bot user of another project\'s access token is invited like anyone and made a member', ...botsAsPeople({ route: INVITATION_ROUTES.create }) },
  { name: 'invitations.project-bot-by-email-invited', clauses: ['invitations.create.project-bot'], description: 'the bot user of another project\'s access token, invited by its address, is made a member like anyone', ...botsAsPeople({ route: INVITATION_ROUTES.create }, true) },
  { name: 'invitations.requester-owner-by-maintainer', clauses: ['invitations.create.project-owner'], description: 'a Maintainer\'s invitation of an access requester at Owner is let through: the requester becomes an Owner', ...maintainerAsOwner({ route: INVITATION_ROUTES.create }, (params, source, ctx) => Number(params.access_level) === ACCESS.OWNER && String(params.user_id ?? '').split(',').some((id) => ctx.store.accessRequests.find(source, Number(id)) !== undefined)) },
  { name: 'invitations.group-maintainer-owner', clauses: ['invitations.auth.admin-members'], description: 'a group Maintainer passes the Owner-level checks of invitations: inviting at Owner, raising an invitation to Owner or changing one at Owner', ...maintainerAsOwner({ route: [INVITATION_ROUTES.create, INVITATION_ROUTES.update], kind: 'group' }, (params, source, ctx) => {
    const invitation = ctx.store.directMembers(source).find((m) => m.inviteEmail !== null && m.inviteEmail === params.email);
    return Number(params.access_level) === ACCESS.OWNER || invitation?.accessLevel === ACCESS.OWNER;
  }) },
  { name: 'invitations.reinvite-taken', level: 'parity', clauses: ['invitations.create.reinvite'], description: 're-inviting a pending address reports "Invite email has already been taken" and keeps the invitation (older GitLab) instead of updating it', ...keptReinvite() },
  { name: 'invitations.invitee-deletes-own', clauses: ['invitations.delete.own-address'], description: 'a user deletes an invitation addressed to one of their own addresses, without the right to manage invitations', onRequest(request, reply, ctx) {
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    const email = String((request.params as Json).email ?? '').toLowerCase();
    if (!matches(request, { route: INVITATION_ROUTES.remove }) || !source || !user || ![user.email, ...user.emails.map((e) => e.email)].some((e) => e.toLowerCase() === email)) return false;
    const invitation = ctx.store.directMembers(source).find((m) => m.inviteToken !== null && m.inviteEmail?.toLowerCase() === email);
    if (!invitation) return false;
    ctx.store.members.delete(invitation.id);
    void reply.code(204).send();
    return true;
  } },
  // ---- clauses that had no fault -------------------------------------------------------------------
  { name: 'invitations.duplicate-address-error', clauses: ['invitations.create.duplicates'], description: 'an address given twice in one request is reported as already taken for its second occurrence (status "error")', onSend(request, reply, payload) {
    if (!matches(request, { route: INVITATION_ROUTES.create }) || reply.statusCode !== 201) return payload;
    const emails = String(requestParams(request).email ?? '').split(',').map((e) => e.trim()).filter((e) => e !== '');
    const twice = emails.find((e, i) => emails.indexOf(e) !== i);
    if (twice === undefined) return payload;
    const body = JSON.parse(payload) as Json;
    const message = typeof body.message === 'object' && body.message !== null ? (body.message as Json) : {};
    return JSON.stringify({ ...body, status: 'error', message: { ...message, [twice]: 'Invite email has already been taken' } });
  } },
  { name: 'invitations.unknown-user-id-reported', clauses: ['invitations.create.user-id'], description: 'an unknown user_id gets an error entry ("User not found") instead of being dropped', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: INVITATION_ROUTES.create }) || reply.statusCode !== 201) return payload;
    const unknown = String(requestParams(request).user_id ?? '').split(',').map((id) => id.trim()).filter((id) => /^\d+$/.test(id) && !ctx.store.userByIdText(id));
    if (unknown.length === 0) return payload;
    const body = JSON.parse(payload) as Json;
    const message = typeof body.message === 'object' && body.message !== null ? (body.message as Json) : {};
    return JSON.stringify({ ...body, status: 'error', message: { ...message, ...Object.fromEntries(unknown.map((id) => [id, 'User not found'])) } });
  } },
  { name: 'invitations.no-recipient-success', clauses: ['invitations.create.email-or-user-id'], description: 'a request with neither email nor user_id answers 201 {"status":"success"} instead of 400', onSend(request, reply, payload) {
    if (!matches(request, { route: INVITATION_ROUTES.create }) || reply.statusCode !== 400 || !payload.includes('Must provide either email or user_id')) return payload;
    reply.code(201);
    return JSON.stringify({ status: 'success' });
  } },
  { name: 'invitations.failures-unreported', clauses: ['invitations.create.partial', 'invitations.create.taken', 'invitations.create.inherited-level'], description: 'recipients that failed are not reported: the answer is {"status":"success"} whenever some were invited', ...mapBody({ route: INVITATION_ROUTES.create }, (b) => (b.status === 'error' && typeof b.message === 'object' && b.reason === undefined ? { status: 'success' } : undefined)) },
  { name: 'invitations.object-email-500', clauses: ['invitations.create.email-type', 'invitations.errors.no-5xx'], description: 'email or user_id sent as a JSON object is a server error (500) instead of a 400', preHandler(request) {
    if (!matches(request, { route: INVITATION_ROUTES.create })) return;
    const { email, user_id: userId } = requestParams(request);
    if ([email, userId].some((v) => typeof v === 'object' && v !== null && !Array.isArray(v))) throw apiError(500, '500 Internal Server Error');
  } },
  { name: 'invitations.invite-source-refused', clauses: ['invitations.create.invite-source'], description: 'invite_source is not a known parameter: a request giving it is refused with 400', preHandler(request) {
    if (matches(request, { route: INVITATION_ROUTES.create }) && requestParams(request).invite_source !== undefined) throw paramError('invite_source does not have a valid value');
  } },
  { name: 'invitations.queued-users-hidden', clauses: ['invitations.create.queued'], description: 'an invitation queued for administrator approval answers {"status":"success"} without queued_users', ...mapBody({ route: INVITATION_ROUTES.create }, (b) => {
    if (b.queued_users === undefined) return undefined;
    const { queued_users: _queued, ...rest } = b;
    return rest;
  }) },
  { name: 'invitations.member-role-id-unchecked', clauses: ['invitations.create.member-role-id'], description: 'a member_role_id that is no integer is ignored instead of refused with 400', ...changeParams({ route: INVITATION_ROUTES.create }, (p, request) => {
    for (const bag of [p, request.query as Json]) if (bag.member_role_id !== undefined && !/^-?\d+$/.test(String(bag.member_role_id))) delete bag.member_role_id;
  }) },
  { name: 'invitations.created-by-missing', clauses: ['invitations.list.shape'], description: 'listed invitations lack created_by_name', ...mapRows({ route: INVITATION_ROUTES.list }, ({ created_by_name: _name, ...row }) => row) },
  { name: 'invitations.expires-at-ruby-time', clauses: ['invitations.list.expires-at-date'], description: 'expires_at is listed as Ruby\'s Time#to_s ("2030-01-01 00:00:00 UTC"), neither a date nor an ISO timestamp', ...mapRows({ route: INVITATION_ROUTES.list }, (row) => (typeof row.expires_at === 'string' ? { ...row, expires_at: `${row.expires_at.slice(0, 10)} 00:00:00 UTC` } : row)) },
  { name: 'invitations.update-answer-without-level', clauses: ['invitations.update.fields'], description: 'PUT answers 200 without access_level', ...mapBody({ route: INVITATION_ROUTES.update }, ({ access_level: _level, ...rest }) => rest) },
  { name: 'invitations.update-timestamp-refused', clauses: ['invitations.update.timestamp'], description: 'PUT takes expires_at as a date only: a timestamp is refused with 400 "expires_at is invalid"', preHandler(request) {
    if (matches(request, { route: INVITATION_ROUTES.update }) && /^\d{4}-\d{2}-\d{2}T/.test(String(requestParams(request).expires_at ?? ''))) throw paramError('expires_at is invalid');
  } },
  { name: 'invitations.update-clears-expiry', clauses: ['invitations.update.partial'], description: 'a PUT with only access_level clears the invitation\'s expiry', onSend(request, reply, payload, ctx) {
    const params = requestParams(request);
    const source = faultSource(request, ctx);
    if (!matches(request, { route: INVITATION_ROUTES.update }) || reply.statusCode !== 200 || !source || params.expires_at !== undefined) return payload;
    const email = String(params.email).toLowerCase();
    const invitation = ctx.store.directMembers(source).find((m) => m.inviteToken !== null && m.inviteEmail?.toLowerCase() === email);
    if (!invitation) return payload;
    invitation.expiresAt = null;
    return JSON.stringify({ ...(JSON.parse(payload) as Json), expires_at: null });
  } },
  { name: 'invitations.update-case-insensitive', clauses: ['invitations.update.not-found'], description: 'PUT finds the invitation of an address sent in other letter case', preHandler(request, ctx) {
    const source = faultSource(request, ctx);
    const params = request.params as Json;
    if (!matches(request, { route: INVITATION_ROUTES.update }) || !source) return;
    const email = String(params.email).toLowerCase();
    const invitation = ctx.store.directMembers(source).find((m) => m.inviteToken !== null && m.inviteEmail?.toLowerCase() === email);
    if (invitation?.inviteEmail) params.email = invitation.inviteEmail;
  } },
  { name: 'invitations.past-expiry-ignored', clauses: ['invitations.update.validation'], description: 'a past expires_at on PUT answers 200 (nothing changed) instead of 400', onSend(request, reply, payload) {
    if (!matches(request, { route: INVITATION_ROUTES.update }) || reply.statusCode !== 400 || !payload.includes('cannot be a date in the past')) return payload;
    reply.code(200);
    return '{}';
  } },
  { name: 'invitations.update-minimal-access-as-guest', clauses: ['invitations.update.role-level'], description: 'PUT with access_level 5 (Minimal access) sets the invitation to Guest instead of refusing it', ...changeParams({ route: INVITATION_ROUTES.update }, (p, request) => {
    for (const bag of [p, request.query as Json]) if (String(bag.access_level) === '5') bag.access_level = ACCESS.GUEST;
  }) },
  { name: 'invitations.project-maintainer-raises-to-owner', clauses: ['invitations.update.owner-level'], description: 'a project Maintainer raises an invitation to Owner', ...actAtLevel({ route: INVITATION_ROUTES.update, kind: 'project' }, ACCESS.MAINTAINER, ACCESS.OWNER, (p, source, ctx) => {
    const invitation = ctx.store.directMembers(source).find((m) => m.inviteToken !== null && m.inviteEmail === p.email);
    return Number(p.access_level) === ACCESS.OWNER || invitation?.accessLevel === ACCESS.OWNER;
  }) },
  (() => {
    // The invitations this fault has seen deleted, by source and address.
    const deleted = new Set<string>();
    return {
      name: 'invitations.second-delete-500',
      clauses: ['invitations.delete.once'],
      description: 'a DELETE of an invitation already deleted is a server error (500) instead of 404',
      onSend(request, reply, payload, ctx) {
        const source = faultSource(request, ctx);
        if (!matches(request, { route: INVITATION_ROUTES.remove }) || !source) return payload;
        const key = `${source.kind}:${source.id}:${String((request.params as Json).email).toLowerCase()}`;
        if (reply.statusCode === 204) deleted.add(key);
        if (reply.statusCode !== 404 || !deleted.has(key)) return payload;
        reply.code(500);
        return JSON.stringify({ message: '500 Internal Server Error' });
      },
    } satisfies AreaFault;
  })(),
  { name: 'invitations.literal-at-not-found', clauses: ['invitations.path.email'], description: 'an address sent with a literal @ in the path is not found (only %40 is read)', rewriteUrl(_method, url) {
    const match = /^(\/api\/v4\/(?:groups|projects)\/[^/]+\/invitations\/)([^/?]*@[^/?]*)(.*)$/.exec(url);
    return match ? `${match[1]}${match[2].replace('@', '%2540')}${match[3]}` : undefined;
  } },
  { name: 'invitations.hidden-source-403', clauses: ['invitations.auth.not-found'], description: 'a group or project the caller cannot see answers 403 instead of 404', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: Object.values(INVITATION_ROUTES) }) || reply.statusCode !== 404 || !/404 (Group|Project) Not Found/.test(payload) || !faultSource(request, ctx)) return payload;
    reply.code(403);
    return JSON.stringify({ message: '403 Forbidden' });
  } },
  { name: 'invitations.form-body-ignored', clauses: ['invitations.http.form-body'], description: 'a write sent as form fields is read as if it had no parameters', ...formBodyIgnored({ route: [INVITATION_ROUTES.create, INVITATION_ROUTES.update] }) },
  { name: 'invitations.private-token-query-ignored', level: 'parity', clauses: ['invitations.http.private-token-query'], description: 'a token in the private_token query parameter is not read: the request is anonymous', ...privateTokenQueryIgnored({ route: Object.values(INVITATION_ROUTES) }) },
  { name: 'invitations.link-header-missing', level: 'parity', clauses: ['invitations.http.link-pagination'], description: 'the invitation list has no Link header', ...withHeaders(['link'], { route: INVITATION_ROUTES.list }) },
  (() => {
    // The users an invitation's addresses name who were not members before it, by request.
    const newcomers = new WeakMap<object, { email: string; userId: number }[]>();
    return {
      name: 'invitations.existing-user-pending',
      clauses: ['invitations.create.existing-user-email'],
      description: 'the address of an existing user is kept as a pending invitation instead of making that user a member',
      preHandler(request, ctx) {
        const source = faultSource(request, ctx);
        if (!matches(request, { route: INVITATION_ROUTES.create }) || !source) return;
        const found = String(requestParams(request).email ?? '').split(',').flatMap((email) => {
          const user = ctx.store.userByEmail(email.trim());
          return user && !ctx.store.directMembership(source, user.id) ? [{ email: email.trim(), userId: user.id }] : [];
        });
        if (found.length > 0) newcomers.set(request, found);
      },
      onSend(request, reply, payload, ctx) {
        const source = faultSource(request, ctx);
        const found = newcomers.get(request);
        newcomers.delete(request);
        if (!found || !source || reply.statusCode !== 201) return payload;
        for (const { email, userId } of found) {
          const member = ctx.store.directMembership(source, userId);
          if (member) Object.assign(member, { userId: null, inviteEmail: email, inviteToken: `pending-${member.id}` });
        }
        return payload;
      },
    } satisfies AreaFault;
  })(),
  { name: 'invitations.list-inherits-parent', clauses: ['invitations.list.direct-only'], description: 'a subgroup or project also lists the pending invitations of the group above it', ...mapBody({ route: INVITATION_ROUTES.list }, (b, ctx, request) => {
    const source = faultSource(request, ctx);
    if (!Array.isArray(b) || !source) return undefined;
    const parent = source.kind === 'project' ? ctx.store.projectGroup(source) : source.parentId === null ? undefined : ctx.store.groups.get(source.parentId);
    if (!parent) return undefined;
    const inherited = ctx.store.directMembers(parent).filter((m) => m.inviteToken !== null).map((m) => ({ access_level: m.accessLevel, created_at: m.createdAt, expires_at: m.expiresAt, invite_email: m.inviteEmail, invite_token: m.inviteToken, created_by_name: ctx.store.userOrNone(m.createdById)?.name ?? null }));
    return [...b, ...inherited];
  }) },
  { name: 'invitations.minimal-access-as-guest', clauses: ['invitations.create.minimal-access'], description: 'access_level 5 (Minimal access) invites at Guest', ...changeParams({ route: INVITATION_ROUTES.create }, (p, request) => {
    for (const bag of [p, request.query as Json]) if (String(bag.access_level) === '5') bag.access_level = ACCESS.GUEST;
  }) },
];
