// The catalogue of seeded faults: wrong statuses, missing or mistyped fields, ignored parameters,
// wrong defaults, broken rules and data leaks, over the four areas and the cross-cutting behaviour.
// `npm run faults` switches each on in turn, runs the suite, and checks that the tests named in
// `caughtBy` fail (and that nothing fails with no fault on). Pinned ids: reference-server/faults/caught-by.json.
import { createHash } from 'node:crypto';
import { answer, bothKinds, changeParams, dropHeaders, dropParams, mapBody, mapRows, matches, status, type When } from './dsl.js';
import type { Fault } from './types.js';

const FILE = '/projects/:id/repository/files/:file_path';
const file = (method: string | string[], suffix = ''): When => ({ method, route: `${FILE}${suffix}` });
const MIRRORS = '/projects/:id/remote_mirrors';
const MIRROR = '/projects/:id/remote_mirrors/:mirror_id';
const invitations = (method: string, suffix = '') => ({ method, route: bothKinds(`/:kind/:id/invitations${suffix}`) });
const members = (method: string | string[], suffix = '') => ({ method, route: bothKinds(`/:kind/:id/members${suffix}`) });
const group = (method: string, suffix: string) => ({ method, route: `/groups/:id${suffix}` });

type Json = Record<string, unknown>;
const withHeaders = (names: string[], when: When): Pick<Fault, 'onSend'> => dropHeaders(when, ...names);

const files: Omit<Fault, 'area'>[] = [
  { name: 'files.blob-id-wrong', description: 'blob_id is not the git blob id (SHA-1 of the content, not of the blob object)', ...mapBody(file('GET'), (b) => ({ ...b, blob_id: createHash('sha1').update(Buffer.from(String(b.content), 'base64')).digest('hex') })) },
  { name: 'files.sha256-of-base64', description: 'content_sha256 hashes the Base64 text instead of the bytes', ...mapBody(file('GET'), (b) => ({ ...b, content_sha256: createHash('sha256').update(String(b.content)).digest('hex') })) },
  { name: 'files.size-off-by-one', description: 'size counts one byte too many', ...mapBody(file('GET'), (b) => ({ ...b, size: Number(b.size) + 1 })) },
  { name: 'files.commit-id-is-last-commit', description: 'commit_id is the last commit of the file instead of the commit ref resolves to', ...mapBody(file('GET'), (b) => ({ ...b, commit_id: b.last_commit_id })) },
  { name: 'files.execute-filemode-string', description: 'execute_filemode is the string "false"/"true" instead of a boolean', ...mapBody(file('GET'), (b) => ({ ...b, execute_filemode: String(b.execute_filemode) })) },
  { name: 'files.ref-not-echoed', description: 'ref answers the resolved commit id instead of the requested ref', ...mapBody(file('GET'), (b) => ({ ...b, ref: b.commit_id })) },
  { name: 'files.header-last-commit-missing', description: 'GET and HEAD of a file lack the Last-Commit-Id metadata header', ...withHeaders(['x-gitlab-last-commit-id'], file(['GET', 'HEAD'])) },
  { name: 'files.traversal-normalised', description: 'a file_path with ".." is normalised and served instead of being refused', ...changeParams(file(['GET', 'POST', 'PUT', 'DELETE']), (_p, request) => {
    const params = request.params as Json;
    const path = String(params.file_path ?? '');
    if (path.split('/').includes('..')) params.file_path = path.split('/').filter((s) => s !== '..' && s !== '').join('/') || 'README.md';
  }) },
  { name: 'files.raw-ignores-ref', description: 'raw always reads the default branch, whatever ref says', ...dropParams(file('GET', '/raw'), 'ref') },
  { name: 'files.blame-range-ignored', description: 'blame ignores range[start] and range[end]', ...dropParams(file('GET', '/blame'), 'range[start]', 'range[end]', 'range') },
  { name: 'files.blame-not-grouped', description: 'blame answers one range per line instead of grouping lines of one commit', ...mapBody(file('GET', '/blame'), (b) => (Array.isArray(b) ? b.flatMap((r) => (r.lines as string[]).map((line) => ({ ...r, lines: [line] }))) : undefined)) },
  { name: 'files.create-200', description: 'create answers 200 instead of 201', ...status(file('POST'), 201, 200) },
  { name: 'files.delete-keeps-file', description: 'delete answers 204 without deleting the file', ...answer(file('DELETE'), 204) },
  { name: 'files.update-ignores-last-commit-id', description: 'update ignores last_commit_id, so a stale editor overwrites newer content', ...dropParams(file('PUT'), 'last_commit_id') },
  { name: 'files.encoding-ignored', description: 'encoding=base64 is ignored: the Base64 text is stored as it is', ...dropParams(file(['POST', 'PUT']), 'encoding') },
  { name: 'files.ref-defaults-to-head', description: 'a missing ref is taken as HEAD instead of refused', ...changeParams(file(['GET', 'HEAD']), (p, request) => {
    if ((request.query as Json).ref === undefined && p.ref === undefined) p.ref = 'HEAD';
  }) },
  { name: 'files.errors-as-text', description: '404 answers are plain text instead of GitLab\'s JSON error body', onSend(request, reply, payload) {
    if (!matches(request, file('GET')) || reply.statusCode !== 404) return payload;
    reply.header('content-type', 'text/plain; charset=utf-8');
    return 'Not Found';
  } },
  { name: 'files.guest-reads-private', description: 'a Guest of a private project reads files (403 turned into the file)', onSend(request, reply, payload, ctx) {
    if (!matches(request, file('GET', '/raw')) || reply.statusCode !== 403) return payload;
    const project = ctx.store.findProject(String((request.params as Json).id));
    const head = project?.repository.branchHead(project.repository.defaultBranch);
    const found = head && project!.repository.readFile(head, String((request.params as Json).file_path));
    if (!found) return payload;
    reply.code(200).header('content-type', 'text/plain; charset=utf-8');
    return found.content.toString('utf8');
  } },
];

const mirrors: Omit<Fault, 'area'>[] = [
  { name: 'mirrors.url-unmasked', description: 'credentials in the mirror URL are shown instead of *****', ...mapBody({ method: ['GET', 'POST', 'PUT'], route: [MIRRORS, MIRROR] }, (b, ctx) => {
    const unmask = (m: Json) => {
      for (const project of ctx.store.projects.values()) {
        const mirror = project.remoteMirrors.find((r) => r.id === m.id);
        if (mirror && mirror.credentials.user !== undefined) return { ...m, url: String(m.url).replace(/\*\*\*\*\*/, mirror.credentials.user) };
      }
      return m;
    };
    return Array.isArray(b) ? b.map(unmask) : unmask(b);
  }) },
  { name: 'mirrors.git-user-masked', description: 'the ssh user git is masked too', ...mapBody({ method: ['GET', 'POST', 'PUT'], route: [MIRRORS, MIRROR] }, (b) => {
    const mask = (m: Json) => ({ ...m, url: String(m.url).replace('://git@', '://*****@') });
    return Array.isArray(b) ? b.map(mask) : mask(b);
  }) },
  { name: 'mirrors.enabled-by-default', description: 'a new mirror is enabled unless told otherwise', ...changeParams({ method: 'POST', route: MIRRORS }, (p) => {
    p.enabled ??= true;
  }) },
  { name: 'mirrors.new-status-started', description: 'a new mirror reads update_status "started" instead of "none"', ...mapBody({ method: 'POST', route: MIRRORS }, (b) => ({ ...b, update_status: 'started' })) },
  { name: 'mirrors.timestamps-on-create', description: 'a new mirror carries last_update_at instead of null', ...mapBody({ method: 'POST', route: MIRRORS }, (b) => ({ ...b, last_update_at: new Date().toISOString() })) },
  { name: 'mirrors.403-for-401', description: 'callers below Maintainer get 403 instead of GitLab\'s 401', ...status({ method: ['GET', 'POST', 'PUT', 'DELETE'], route: [MIRRORS, MIRROR, `${MIRROR}/sync`] }, 401, 403, { message: '403 Forbidden' }) },
  { name: 'mirrors.sync-200-body', description: 'sync answers 200 with a body instead of 204', ...status({ method: 'POST', route: `${MIRROR}/sync` }, 204, 200, { status: 'scheduled' }) },
  { name: 'mirrors.regex-and-protected', description: 'mirror_branch_regex together with only_protected_branches is accepted', ...changeParams({ method: ['POST', 'PUT'], route: [MIRRORS, MIRROR] }, (p, request) => {
    const query = request.query as Json;
    if ((p.mirror_branch_regex ?? query.mirror_branch_regex) !== undefined) {
      delete p.only_protected_branches;
      delete query.only_protected_branches;
    }
  }) },
  { name: 'mirrors.delete-keeps', description: 'delete answers 204 and keeps the mirror', ...answer({ method: 'DELETE', route: MIRROR }, 204) },
  { name: 'mirrors.list-unpaginated', description: 'the mirror list ignores page and per_page', ...dropParams({ method: 'GET', route: MIRRORS }, 'page', 'per_page') },
  { name: 'mirrors.unknown-id-403', description: 'an unknown mirror id answers 403 instead of 404', ...status({ method: ['GET', 'PUT', 'DELETE', 'POST'], route: [MIRROR, `${MIRROR}/sync`] }, 404, 403, { message: '403 Forbidden' }) },
  { name: 'mirrors.disabled-sync-accepted', description: 'a disabled mirror accepts a sync request (204)', ...status({ method: 'POST', route: `${MIRROR}/sync` }, 400, 204) },
  { name: 'mirrors.keep-divergent-ignored', description: 'keep_divergent_refs is ignored on create', ...dropParams({ method: 'POST', route: MIRRORS }, 'keep_divergent_refs') },
];

const invitation: Omit<Fault, 'area'>[] = [
  { name: 'invitations.invite-200', description: 'invite answers 200 instead of 201', ...status(invitations('POST'), 201, 200) },
  { name: 'invitations.error-as-400', description: 'per-address failures answer HTTP 400 instead of 201 with status "error"', onSend(request, reply, payload) {
    if (!matches(request, invitations('POST')) || reply.statusCode !== 201 || !payload.includes('"status":"error"')) return payload;
    reply.code(400);
    return payload;
  } },
  { name: 'invitations.list-shows-members', description: 'the invitation list also shows accepted members', ...mapBody(invitations('GET'), (b, ctx, request) => {
    if (!Array.isArray(b)) return undefined;
    const id = String((request.params as Json).id);
    const source = request.routeOptions.url!.includes('/groups/') ? ctx.store.findGroup(id) : ctx.store.findProject(id);
    if (!source) return undefined;
    const accepted = ctx.store.directMembers(source).filter((m) => m.userId !== null).map((m) => ({ access_level: m.accessLevel, created_at: m.createdAt, expires_at: m.expiresAt, invite_email: ctx.store.users.get(m.userId!)?.email, created_by_name: 'someone' }));
    return [...b, ...accepted];
  }) },
  { name: 'invitations.query-partial', description: 'query matches part of the address, ignoring case', ...changeParams(invitations('GET'), (p, request) => {
    const query = request.query as Json;
    if (typeof query.query === 'string' && query.query.length > 3) {
      delete query.query;
      p.query = undefined;
    }
  }) },
  { name: 'invitations.update-no-params-200', description: 'an update without parameters answers 200 instead of 400', ...status(invitations('PUT', '/:email'), 400, 200, {}) },
  { name: 'invitations.delete-200-body', description: 'delete answers 200 with a body instead of 204', ...status(invitations('DELETE', '/:email'), 204, 200, { status: 'deleted' }) },
  { name: 'invitations.expires-at-created', description: 'expires_at of a listed invitation shows its creation time', ...mapRows(invitations('GET'), (row) => ({ ...row, expires_at: row.created_at })) },
  { name: 'invitations.list-open-to-all', description: 'members who may not administer members can list invitations', ...status(invitations('GET'), 403, 200, []) },
  { name: 'invitations.admin-level-accepted', description: 'access level 60 (Admin) is accepted as Owner for invitations', ...changeParams(invitations('POST'), (p, request) => {
    const query = request.query as Json;
    if (String(p.access_level ?? query.access_level) === '60') {
      p.access_level = 50;
      delete query.access_level;
    }
  }) },
  { name: 'invitations.limit-ignored', description: 'more than 100 addresses at once are accepted (the list is cut to 100)', ...changeParams(invitations('POST'), (p) => {
    if (typeof p.email === 'string' && p.email.split(',').length > 100) p.email = p.email.split(',').slice(0, 100).join(',');
  }) },
  { name: 'invitations.unknown-email-deleted', description: 'deleting an address with no invitation answers 204 instead of 404', ...status(invitations('DELETE', '/:email'), 404, 204) },
  { name: 'invitations.anonymous-403', description: 'no token answers 403 instead of 401', ...status({ method: ['GET', 'POST', 'PUT', 'DELETE'], route: [...bothKinds('/:kind/:id/invitations'), ...bothKinds('/:kind/:id/invitations/:email')] }, 401, 403, { message: '403 Forbidden' }) },
  { name: 'invitations.expires-at-ignored', description: 'expires_at is ignored on invite', ...dropParams(invitations('POST'), 'expires_at') },
];

const member: Omit<Fault, 'area'>[] = [
  { name: 'members.all-duplicates', description: 'members/all lists a user once per membership instead of once at the highest level', ...mapBody(members('GET', '/all'), (b) => (Array.isArray(b) ? [...b, ...b.map((row) => ({ ...row, access_level: 10 }))] : undefined)) },
  { name: 'members.email-leak', description: 'every member row shows the user\'s email', ...mapBody({ method: 'GET', route: [...bothKinds('/:kind/:id/members'), ...bothKinds('/:kind/:id/members/all')] }, (b, ctx) => (Array.isArray(b) ? b.map((row) => ({ ...row, email: ctx.store.users.get(Number(row.id))?.email })) : undefined)) },
  { name: 'members.billable-on-subgroup', description: 'billable members of a subgroup answer 200 instead of 400', ...status(group('GET', '/billable_members'), 400, 200, []) },
  { name: 'members.duplicate-add-201', description: 'adding an existing member answers 201 instead of 409', ...status(members('POST'), 409, 201, {}) },
  { name: 'members.pagination-headers-missing', description: 'member lists lack X-Total and X-Next-Page', ...withHeaders(['x-total', 'x-next-page', 'x-total-pages'], members('GET')) },
  { name: 'members.per-page-ignored', description: 'member lists ignore per_page', ...dropParams(members('GET'), 'per_page') },
  { name: 'members.expires-at-dropped', description: 'expires_at is ignored when adding or editing a member', ...dropParams(members(['POST', 'PUT'], ''), 'expires_at') },
  { name: 'members.direct-includes-inherited', description: 'the direct member list includes inherited members', rewriteUrl(method, url) {
    return method === 'GET' ? url.replace(/^(\/api\/v4\/(groups|projects)\/[^/]+\/members)(\?|$)/, '$1/all$3') : undefined;
  } },
  { name: 'members.anonymous-403', description: 'no token answers 403 instead of 401', ...status({ method: ['GET', 'POST', 'PUT', 'DELETE'], route: [...bothKinds('/:kind/:id/members'), ...bothKinds('/:kind/:id/members/:user_id'), ...bothKinds('/:kind/:id/members/all')] }, 401, 403, { message: '403 Forbidden' }) },
  { name: 'members.state-not-applied', description: 'the state change answers success but changes nothing', ...answer(group('PUT', '/members/:user_id/state'), 200, { success: true }) },
  { name: 'members.approve-200-body', description: 'approve answers 200 with a body instead of 204', ...status(group('PUT', '/members/:member_id/approve'), 204, 200, { approved: true }) },
  { name: 'members.override-not-set', description: 'setting the override answers override: false', ...mapBody(group('POST', '/members/:user_id/override'), (b) => ({ ...b, override: false })) },
  { name: 'members.access-level-string', description: 'access_level is a string', ...mapBody({ method: ['GET', 'POST', 'PUT'], route: [...bothKinds('/:kind/:id/members/:user_id'), ...bothKinds('/:kind/:id/members')] }, (b) => (Array.isArray(b) ? (b as Json[]).map((row) => ({ ...row, access_level: String(row.access_level) })) : { ...(b as Json), access_level: String((b as Json).access_level) })) },
  { name: 'members.created-by-missing', description: 'created_by is left out of member answers', ...mapBody({ method: ['GET', 'POST', 'PUT'], route: [...bothKinds('/:kind/:id/members/:user_id'), ...bothKinds('/:kind/:id/members')] }, (b) => {
    const strip = ({ created_by: _created, ...rest }: Json) => rest;
    return Array.isArray(b) ? b.map(strip) : strip(b);
  }) },
  { name: 'members.remove-keeps', description: 'removing a member answers 204 and keeps the member', ...answer(members('DELETE', '/:user_id'), 204) },
  { name: 'members.skip-subresources-ignored', description: 'skip_subresources is ignored on removal', ...dropParams(members('DELETE', '/:user_id'), 'skip_subresources') },
  { name: 'members.user-ids-ignored', description: 'the user_ids filter is ignored', ...dropParams(members('GET', '/all'), 'user_ids') },
  { name: 'members.pending-shows-active', description: 'pending members also lists active members of the group', ...mapBody(group('GET', '/pending_members'), (b, ctx, request) => {
    const source = ctx.store.findGroup(String((request.params as Json).id));
    if (!Array.isArray(b) || !source) return undefined;
    const active = ctx.store.directMembers(source).filter((m) => m.userId !== null && m.state === 'active').map((m) => ({ id: m.id, username: ctx.store.users.get(m.userId!)?.username, approved: true, invited: false, avatar_url: null }));
    return [...b, ...active];
  }) },
  { name: 'members.billable-type-wrong', description: 'every billable member reads membership_type "group_member"', ...mapRows(group('GET', '/billable_members'), (row) => ({ ...row, membership_type: 'group_member' })) },
  { name: 'members.billable-sort-ignored', description: 'billable members ignore sort', ...dropParams(group('GET', '/billable_members'), 'sort') },
  { name: 'members.pending-one-invitation', description: 'pending members list only the first person invited by email', ...mapBody(group('GET', '/pending_members'), (b) => {
    if (!Array.isArray(b)) return undefined;
    const first = b.findIndex((row) => row.invited === true);
    return b.filter((row, i) => row.invited !== true || i === first);
  }) },
  { name: 'members.query-case-sensitive', description: 'the query filter of member lists matches case-sensitively', ...mapBody(members('GET'), (b, _ctx, request) => {
    const query = (request.query as Json).query;
    if (!Array.isArray(b) || typeof query !== 'string' || query === '') return undefined;
    return b.filter((row) => String(row.name).includes(query) || String(row.username).includes(query));
  }) },
  { name: 'members.all-no-share-cap', description: 'members/all gives each user their highest level anywhere, ignoring the level a group was invited with', ...mapRows(members('GET', '/all'), (row, ctx) => {
    const levels = [...ctx.store.members.values()].filter((m) => m.userId === row.id).map((m) => m.accessLevel);
    return { ...row, access_level: Math.max(Number(row.access_level), ...levels) };
  }) },
];

const crossCutting: Omit<Fault, 'area'>[] = [
  { name: 'auth.unknown-token-anonymous', description: 'an unknown token is treated as no token instead of refused with 401', onRequest(request, _reply, ctx) {
    const token = request.headers['private-token'];
    if (typeof token === 'string' && !ctx.store.tokens.has(token)) delete request.headers['private-token'];
    return false;
  } },
  { name: 'auth.read-api-writes', description: 'read_api and read_repository tokens may write', onRequest(request, _reply, ctx) {
    const token = ctx.store.tokens.get(String(request.headers['private-token'] ?? ''));
    if (!token || request.method === 'GET' || request.method === 'HEAD' || token.scopes.includes('api')) return false;
    const writer = [...ctx.store.tokens.values()].find((t) => t.userId === token.userId && t.scopes.includes('api'));
    if (writer) request.headers['private-token'] = writer.token;
    return false;
  } },
  { name: 'errors.message-renamed', description: 'error bodies carry "msg" instead of "message"/"error"', onSend(request, reply, payload) {
    if (reply.statusCode < 400 || request.method === 'HEAD') return payload;
    try {
      const body = JSON.parse(payload) as Json;
      return JSON.stringify({ msg: body.message ?? body.error });
    } catch {
      return payload;
    }
  } },
  { name: 'auth.403-as-404', description: 'refusals (403) answer 404', onSend(_request, reply, payload) {
    if (reply.statusCode !== 403) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not Found' });
  } },
  { name: 'ids.encoded-path-refused', description: 'a URL-encoded full path as :id answers 404', onRequest(request, reply) {
    const id = (request.params as Json | undefined)?.id;
    if (typeof id !== 'string' || !id.includes('/')) return false;
    void reply.code(404).send({ message: request.url.includes('/groups/') ? '404 Group Not Found' : '404 Project Not Found' });
    return true;
  } },
  { name: 'pagination.total-off-by-one', description: 'X-Total counts one row too many', onSend(_request, reply, payload) {
    const total = reply.getHeader('x-total');
    if (total !== undefined) reply.header('x-total', String(Number(total) + 1));
    return payload;
  } },
  { name: 'pagination.past-end-404', description: 'a page past the end answers 404 instead of an empty list', onSend(request, reply, payload) {
    if (request.method !== 'GET' || payload !== '[]' || Number((request.query as Json).page ?? 1) <= 1) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not Found' });
  } },
  { name: 'pagination.per-page-not-clamped', description: 'per_page above 100 is refused with 400 instead of clamped', onRequest(request, reply) {
    const perPage = (request.query as Json).per_page;
    if (request.method !== 'GET' || perPage === undefined || Number(perPage) <= 100) return false;
    void reply.code(400).send({ error: 'per_page does not have a valid value' });
    return true;
  } },
];

export const CATALOGUE: Fault[] = [
  ...files.map((f) => ({ ...f, area: 'repository-files' as const })),
  ...mirrors.map((f) => ({ ...f, area: 'remote-mirrors' as const })),
  ...invitation.map((f) => ({ ...f, area: 'invitations' as const })),
  ...member.map((f) => ({ ...f, area: 'members' as const })),
  ...crossCutting.map((f) => ({ ...f, area: 'cross-cutting' as const })),
];
