// The catalogue of seeded faults: wrong statuses, missing or mistyped fields, ignored parameters,
// wrong defaults, broken rules and data leaks, over the four areas and the cross-cutting behaviour.
// Each fault names the clauses (suites/<area>/clauses.ts) its wrong behaviour breaks, by meaning, and
// `level: 'parity'` when it breaks only GitLab-parity behaviour. `npm run faults` switches each on in
// turn, runs the suite files of its area, and checks that a test naming one of those clauses fails at
// the fault's level (and that nothing fails with no fault on).
import { createHash } from 'node:crypto';
import { answer, bothKinds, changeParams, dropHeaders, dropParams, mapBody, mapRows, matches, status, type When } from './dsl.js';
import type { SeededFault } from './types.js';
import { authenticate } from '../http/auth.js';
import { apiError } from '../http/errors.js';
import { unchangedUpdate } from '../spec-only/unchanged-update.js';
import { ACCESS, ROLE_NAMES } from '../state/model.js';
import { isLastOwner, QUEUED } from '../routes/members/rules.js';
import type { Member, Project, Source, User } from '../state/model.js';

const FILE = '/projects/:id/repository/files/:file_path';
const file = (method: string | string[], suffix = ''): When => ({ method, route: `${FILE}${suffix}` });
const MIRRORS = '/projects/:id/remote_mirrors';
const MIRROR = '/projects/:id/remote_mirrors/:mirror_id';
const invitations = (method: string, suffix = '') => ({ method, route: bothKinds(`/:kind/:id/invitations${suffix}`) });
const members = (method: string | string[], suffix = '') => ({ method, route: bothKinds(`/:kind/:id/members${suffix}`) });
const group = (method: string, suffix: string) => ({ method, route: `/groups/:id${suffix}` });
/** The routes that add (POST …/members) and edit (PUT …/members/:user_id) members. */
const MEMBER_WRITES = [...bothKinds('/:kind/:id/members'), ...bothKinds('/:kind/:id/members/:user_id')];

type Json = Record<string, unknown>;

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
const withHeaders = (names: string[], when: When): Pick<SeededFault, 'onSend'> => dropHeaders(when, ...names);

const files: Omit<SeededFault, 'area'>[] = [
  { name: 'files.blob-id-wrong', clauses: ['files.file.blob-id'], description: 'blob_id is not the git blob id (SHA-1 of the content, not of the blob object)', ...mapBody(file('GET'), (b) => ({ ...b, blob_id: createHash('sha1').update(Buffer.from(String(b.content), 'base64')).digest('hex') })) },
  { name: 'files.sha256-of-base64', clauses: ['files.file.content-sha256'], description: 'content_sha256 hashes the Base64 text instead of the bytes', ...mapBody(file('GET'), (b) => ({ ...b, content_sha256: createHash('sha256').update(String(b.content)).digest('hex') })) },
  { name: 'files.size-off-by-one', clauses: ['files.file.content-base64'], description: 'size counts one byte too many', ...mapBody(file('GET'), (b) => ({ ...b, size: Number(b.size) + 1 })) },
  { name: 'files.commit-id-is-last-commit', clauses: ['files.file.commit-id'], description: 'commit_id is the last commit of the file instead of the commit ref resolves to', ...mapBody(file('GET'), (b) => ({ ...b, commit_id: b.last_commit_id })) },
  { name: 'files.execute-filemode-string', clauses: ['files.file.shape', 'files.file.execute-filemode'], description: 'execute_filemode is the string "false"/"true" instead of a boolean', ...mapBody(file('GET'), (b) => ({ ...b, execute_filemode: String(b.execute_filemode) })) },
  { name: 'files.ref-not-echoed', clauses: ['files.file.ref'], description: 'ref answers the resolved commit id instead of the requested ref', ...mapBody(file('GET'), (b) => ({ ...b, ref: b.commit_id })) },
  { name: 'files.header-last-commit-missing', clauses: ['files.file.headers'], description: 'GET and HEAD of a file lack the Last-Commit-Id metadata header', ...withHeaders(['x-gitlab-last-commit-id'], file(['GET', 'HEAD'])) },
  { name: 'files.traversal-normalised', clauses: ['files.write.traversal'], description: 'a file_path with ".." is normalised and served instead of being refused', ...changeParams(file(['GET', 'POST', 'PUT', 'DELETE']), (_p, request) => {
    const params = request.params as Json;
    const path = String(params.file_path ?? '');
    if (path.split('/').includes('..')) params.file_path = path.split('/').filter((s) => s !== '..' && s !== '').join('/') || 'README.md';
  }) },
  { name: 'files.raw-ignores-ref', clauses: ['files.raw.default-ref', 'files.raw.content'], description: 'raw always reads the default branch, whatever ref says', ...dropParams(file('GET', '/raw'), 'ref') },
  { name: 'files.blame-range-ignored', clauses: ['files.blame.range', 'files.blame.range-validation'], description: 'blame ignores range[start] and range[end]', ...dropParams(file('GET', '/blame'), 'range[start]', 'range[end]', 'range') },
  { name: 'files.blame-not-grouped', clauses: ['files.blame.shape'], description: 'blame answers one range per line instead of grouping lines of one commit', ...mapBody(file('GET', '/blame'), (b) => (Array.isArray(b) ? b.flatMap((r) => (r.lines as string[]).map((line) => ({ ...r, lines: [line] }))) : undefined)) },
  { name: 'files.create-200', clauses: ['files.create.commit'], description: 'create answers 200 instead of 201', ...status(file('POST'), 201, 200) },
  { name: 'files.delete-keeps-file', clauses: ['files.delete.commit', 'files.delete.missing'], description: 'delete answers 204 without deleting the file', ...answer(file('DELETE'), 204) },
  { name: 'files.update-ignores-last-commit-id', clauses: ['files.update.last-commit-id'], description: 'update ignores last_commit_id, so a stale editor overwrites newer content', ...dropParams(file('PUT'), 'last_commit_id') },
  { name: 'files.encoding-ignored', clauses: ['files.create.encoding'], description: 'encoding=base64 is ignored: the Base64 text is stored as it is', ...dropParams(file(['POST', 'PUT']), 'encoding') },
  { name: 'files.ref-defaults-to-head', clauses: ['files.get.ref-required'], description: 'a missing ref is taken as HEAD instead of refused', ...changeParams(file(['GET', 'HEAD']), (p, request) => {
    if ((request.query as Json).ref === undefined && p.ref === undefined) p.ref = 'HEAD';
  }) },
  { name: 'files.errors-as-text', clauses: ['files.errors.shape'], description: '404 answers are plain text instead of GitLab\'s JSON error body', onSend(request, reply, payload) {
    if (!matches(request, file('GET')) || reply.statusCode !== 404) return payload;
    reply.header('content-type', 'text/plain; charset=utf-8');
    return 'Not Found';
  } },
  { name: 'files.guest-reads-private', clauses: ['files.read.role'], description: 'a Guest of a private project reads files (403 turned into the file)', onSend(request, reply, payload, ctx) {
    if (!matches(request, file('GET', '/raw')) || reply.statusCode !== 403) return payload;
    const project = ctx.store.findProject(String((request.params as Json).id));
    const head = project?.repository.branchHead(project.repository.defaultBranch);
    const found = head && project!.repository.readFile(head, String((request.params as Json).file_path));
    if (!found) return payload;
    reply.code(200).header('content-type', 'text/plain; charset=utf-8');
    return found.content.toString('utf8');
  } },
  { name: 'files.disabled-repository-readable', clauses: ['files.repository.disabled'], description: 'raw of a project whose repository feature is disabled serves the file (403 turned into the file)', onSend(request, reply, payload, ctx) {
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (!matches(request, file('GET', '/raw')) || reply.statusCode !== 403 || project?.repositoryAccessLevel !== 'disabled') return payload;
    return rawFileOf(project, request, reply) ?? payload;
  } },
  { name: 'files.disabled-repository-writable', clauses: ['files.repository.disabled'], description: 'a create in a project whose repository feature is disabled answers 201 (as if written) instead of 403', onRequest(request, reply, ctx) {
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (!matches(request, file('POST')) || project?.repositoryAccessLevel !== 'disabled') return false;
    void reply.code(201).send({ file_path: (request.params as Json).file_path, branch: 'main' });
    return true;
  } },
  { name: 'files.private-repository-open', clauses: ['files.repository.private'], description: 'a public project whose repository is private to members serves raw files to non-members (403 turned into the file)', onSend(request, reply, payload, ctx) {
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (!matches(request, file('GET', '/raw')) || reply.statusCode !== 403 || project?.repositoryAccessLevel !== 'private') return payload;
    return rawFileOf(project, request, reply) ?? payload;
  } },
  { name: 'files.private-repository-guest-refused', clauses: ['files.repository.private'], description: 'a Guest of a public project whose repository is private to members is refused (403), as on a private project', onSend(request, reply, payload, ctx) {
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (!matches(request, file(['GET', 'HEAD'])) || reply.statusCode !== 200 || project?.repositoryAccessLevel !== 'private') return payload;
    let level: number;
    try {
      level = ctx.store.accessLevel(project, authenticate(ctx.store, request).user);
    } catch {
      return payload;
    }
    if (level >= ACCESS.REPORTER) return payload;
    reply.code(403).header('content-type', 'application/json');
    return JSON.stringify({ message: '403 Forbidden' });
  } },
  { name: 'files.anonymous-write-401', level: 'parity', clauses: ['files.write.anonymous'], description: 'a write without a token on a public project is 401 instead of GitLab\'s 403 (authorize! :push_code, no authenticate!)', onSend(request, reply, payload) {
    const query = (request.query ?? {}) as Json;
    const token = request.headers['private-token'] || request.headers.authorization || query.private_token;
    if (!matches(request, file(['POST', 'PUT', 'DELETE'])) || reply.statusCode !== 403 || token) return payload;
    reply.code(401).header('content-type', 'application/json');
    return JSON.stringify({ message: '401 Unauthorized' });
  } },
  { name: 'files.raw-blank-ref-default-branch', level: 'parity', clauses: ['files.raw.ref-not-blank'], description: 'raw with a blank ref reads the default branch instead of refusing it (400 "ref is empty")', preHandler(request) {
    if (!matches(request, file(['GET', 'HEAD'], '/raw'))) return;
    const query = request.query as Json | undefined;
    if (query && typeof query.ref === 'string' && query.ref.trim() === '') delete query.ref;
  } },
  { name: 'files.raw-leading-slash-read', level: 'parity', clauses: ['files.raw.leading-slash'], description: 'raw reads an encoded absolute file_path as the path without its leading "/" instead of refusing it (400)', preHandler(request) {
    if (!matches(request, file(['GET', 'HEAD'], '/raw'))) return;
    const params = request.params as Json;
    params.file_path = String(params.file_path ?? '').replace(/^\/+/, '');
  } },
  { name: 'files.empty-update-refused', level: 'parity', clauses: ['files.update.empty-commit'], description: 'PUT with the current content is refused with 400 (the spec\'s empty commit) instead of GitLab\'s 200 and an empty commit', preHandler(request, ctx) {
    if (matches(request, file('PUT')) && unchangedUpdate(ctx.store, request)) throw apiError(400, 'You are attempting to make an empty commit');
  } },
  { name: 'files.blame-blank-range-ignored', clauses: ['files.blame.range-validation'], description: 'blank range bounds (range[start]=&range[end]=) are ignored and the whole file is blamed instead of a 400', preHandler(request) {
    if (!matches(request, file(['GET', 'HEAD'], '/blame'))) return;
    // The query as Rack reads it: range[start]=&range[end]= is the hash range: { start: '', end: '' }.
    const query = request.query as Json | undefined;
    const range = query?.range;
    if (range && typeof range === 'object' && Object.values(range).every((bound) => bound === '')) delete query.range;
  } },
  { name: 'files.null-content-refused', level: 'parity', clauses: ['files.update.null-content'], description: 'PUT with content null is refused as a missing content instead of writing an empty file', ...changeParams(file('PUT'), (p) => {
    if (p.content === null) delete p.content;
  }) },
  { name: 'files.execute-filemode-word-ignored', clauses: ['files.create.execute-filemode-type'], description: 'an execute_filemode that is no boolean is ignored and the file written, instead of a 400', ...changeParams(file('POST'), (p, request) => {
    if (p.execute_filemode === undefined || typeof p.execute_filemode === 'boolean' || ['true', 'false', '1', '0'].includes(String(p.execute_filemode))) return;
    delete p.execute_filemode;
    delete (request.query as Json).execute_filemode;
  }) },
  { name: 'files.invalid-json-created', clauses: ['files.create.invalid-json'], description: 'a create whose JSON body does not parse answers 201 as if written', onSend(request, reply, payload) {
    if (!matches(request, file('POST')) || reply.statusCode !== 400 || !payload.includes('message body does not match declared format')) return payload;
    reply.code(201);
    return JSON.stringify({ file_path: decodeURIComponent(String((request.params as Json).file_path)), branch: 'main' });
  } },
  // ---- issue #26: depth of GitLab's files request specs -----------------------------------------
  { name: 'files.moved-project-not-found', level: 'parity', clauses: ['files.get.moved-project'], description: 'the old path of a renamed project is not followed: 404 "404 Project Not Found" instead of the 301 to the project by id', onSend(_request, reply, payload) {
    if (reply.statusCode !== 301) return payload;
    reply.removeHeader('location');
    reply.code(404);
    reply.header('content-type', 'application/json');
    return JSON.stringify({ message: '404 Project Not Found' });
  } },
  { name: 'files.sha-ref-last-commit-is-ref', clauses: ['files.file.last-commit-id'], description: 'a file read at a commit id names that commit as its last_commit_id, whichever commit last touched the file', ...mapBody(file('GET'), (b) => (/^[0-9a-f]{40}$/.test(String(b.ref)) ? { ...b, last_commit_id: b.ref } : undefined)) },
  { name: 'files.anonymous-sha256-of-base64', clauses: ['files.get.public-without-auth'], description: 'a file read without a token carries the SHA-256 of its Base64 text instead of its bytes', ...mapBody(file('GET'), (b, ctx, request) => (callerOf(request, ctx) ? undefined : { ...b, content_sha256: createHash('sha256').update(String(b.content)).digest('hex') })) },
  { name: 'files.binary-content-as-text', clauses: ['files.file.content-base64'], description: 'GET file reads the content as UTF-8 text before Base64: bytes that are no UTF-8 come back as replacement characters', ...mapBody(file('GET'), (b) => ({ ...b, content: Buffer.from(Buffer.from(String(b.content), 'base64').toString('utf8')).toString('base64') })) },
  { name: 'files.default-author-administrator', clauses: ['files.create.default-author'], description: 'a create or update without author_name and author_email is authored by the administrator instead of the user of the token', ...changeParams(file(['POST', 'PUT']), (p, request) => {
    const query = request.query as Json;
    if ([p.author_name, p.author_email, query.author_name, query.author_email].every((v) => v === undefined)) Object.assign(p, { author_name: 'Administrator', author_email: 'admin@example.com' });
  }) },
  { name: 'files.blame-unknown-sha-reads-default', clauses: ['files.get.not-found'], description: 'blame at a commit id the repository does not hold reads the default branch instead of answering 404', preHandler(request, ctx) {
    if (!matches(request, file('GET', '/blame'))) return;
    const query = request.query as Json;
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (project && /^[0-9a-f]{40}$/.test(String(query.ref)) && !project.repository.resolve(String(query.ref))) query.ref = project.repository.defaultBranch;
  } },
  { name: 'files.raw-head-commit-and-ref-missing', clauses: ['files.file.headers'], description: 'HEAD raw lacks the Commit-Id and Ref metadata headers', ...rewriteHeaders(file('HEAD', '/raw'), (name, value) => (['x-gitlab-commit-id', 'x-gitlab-ref'].includes(name) ? undefined : value)) },
  { name: 'files.raw-expires-missing', level: 'parity', clauses: ['files.raw.no-cache'], description: 'GET raw lacks Expires: Fri, 01 Jan 1990 00:00:00 GMT', ...rewriteHeaders(file('GET', '/raw'), (name, value) => (name === 'expires' ? undefined : value)) },
  { name: 'files.raw-cache-control-short', level: 'parity', clauses: ['files.raw.no-cache'], description: 'GET raw sends Cache-Control: no-cache only, not GitLab\'s "max-age=0, private, must-revalidate, no-store, no-cache"', ...rewriteHeaders(file('GET', '/raw'), (name, value) => (name === 'cache-control' ? 'no-cache' : value)) },
  { name: 'files.raw-disposition-without-extended', level: 'parity', clauses: ['files.raw.headers'], description: 'GET raw\'s Content-Disposition lacks filename*=UTF-8\'\'…', ...rewriteHeaders(file('GET', '/raw'), (name, value) => (name === 'content-disposition' ? String(value).replace(/; filename\*=[^;]*/, '') : value)) },
  { name: 'files.direct-guest-reads', clauses: ['files.read.role'], description: 'a direct Guest of a private project reads its files (the 403 of GET file, raw and blame turned into 200)', onSend(request, reply, payload, ctx) {
    if (reply.statusCode !== 403 || ![file('GET'), file('GET', '/raw'), file('GET', '/blame')].some((when) => matches(request, when))) return payload;
    const project = ctx.store.findProject(String((request.params as Json).id));
    const user = callerOf(request, ctx);
    if (!project || !user || ctx.store.directMembership(project, user.id)?.accessLevel !== ACCESS.GUEST) return payload;
    reply.code(200);
    return '{}';
  } },
  { name: 'files.blame-range-order-text', level: 'parity', clauses: ['files.blame.range-validation'], description: 'blame with range[start] after range[end] says "range[start] must not be greater than range[end]" instead of GitLab\'s text', onSend(request, reply, payload) {
    if (!matches(request, file('GET', '/blame')) || reply.statusCode !== 400) return payload;
    return payload.replace('range[start] must be less than or equal to range[end]', 'range[start] must not be greater than range[end]');
  } },
];

/** The file a raw request names, at its ref or the default branch, answered as text (for faults that leak it). */
function rawFileOf(project: Project, request: Parameters<NonNullable<SeededFault['onSend']>>[0], reply: Parameters<NonNullable<SeededFault['onSend']>>[1]): string | undefined {
  const ref = (request.query as Json | undefined)?.ref;
  const commit = typeof ref === 'string' && ref !== '' ? project.repository.resolve(ref) : project.repository.branchHead(project.repository.defaultBranch);
  const found = commit && project.repository.readFile(commit, String((request.params as Json).file_path));
  if (!found) return undefined;
  reply.code(200).header('content-type', 'text/plain; charset=utf-8');
  return found.content.toString('utf8');
}

const mirrors: Omit<SeededFault, 'area'>[] = [
  { name: 'mirrors.url-unmasked', clauses: ['mirrors.url.masked'], description: 'credentials in the mirror URL (user and password) are shown instead of *****', ...mapBody({ method: ['GET', 'POST', 'PUT'], route: [MIRRORS, MIRROR] }, (b, ctx) => {
    const unmask = (m: Json) => {
      for (const project of ctx.store.projects.values()) {
        const mirror = project.remoteMirrors.find((r) => r.id === m.id);
        const { user, password } = mirror?.credentials ?? {};
        if (user !== undefined || password !== undefined) return { ...m, url: String(m.url).replace(/^([^:]+:\/\/)[^@/]*@/, `$1${user ?? ''}${password === undefined ? '' : `:${password}`}@`) };
      }
      return m;
    };
    return Array.isArray(b) ? b.map(unmask) : unmask(b);
  }) },
  { name: 'mirrors.git-user-masked', level: 'parity', clauses: ['mirrors.url.git-user-kept'], description: 'the ssh user git is masked too', ...mapBody({ method: ['GET', 'POST', 'PUT'], route: [MIRRORS, MIRROR] }, (b) => {
    const mask = (m: Json) => ({ ...m, url: String(m.url).replace('://git@', '://*****@') });
    return Array.isArray(b) ? b.map(mask) : mask(b);
  }) },
  { name: 'mirrors.enabled-by-default', clauses: ['mirrors.create.defaults'], description: 'a new mirror is enabled unless told otherwise', ...changeParams({ method: 'POST', route: MIRRORS }, (p) => {
    p.enabled ??= true;
  }) },
  { name: 'mirrors.new-status-started', clauses: ['mirrors.create.defaults'], description: 'a new mirror reads update_status "started" instead of "none"', ...mapBody({ method: 'POST', route: MIRRORS }, (b) => ({ ...b, update_status: 'started' })) },
  { name: 'mirrors.timestamps-on-create', clauses: ['mirrors.create.defaults'], description: 'a new mirror carries last_update_at instead of null', ...mapBody({ method: 'POST', route: MIRRORS }, (b) => ({ ...b, last_update_at: new Date().toISOString() })) },
  { name: 'mirrors.403-for-401', clauses: ['mirrors.auth.below-maintainer', 'mirrors.auth.anonymous'], description: 'callers below Maintainer get 403 instead of GitLab\'s 401', ...status({ method: ['GET', 'POST', 'PUT', 'DELETE'], route: [MIRRORS, MIRROR, `${MIRROR}/sync`] }, 401, 403, { message: '403 Forbidden' }) },
  { name: 'mirrors.sync-200-body', clauses: ['mirrors.sync.no-content'], description: 'sync answers 200 with a body instead of 204', ...status({ method: 'POST', route: `${MIRROR}/sync` }, 204, 200, { status: 'scheduled' }) },
  { name: 'mirrors.regex-and-protected', clauses: ['mirrors.regex.exclusive'], description: 'mirror_branch_regex together with only_protected_branches is accepted', ...changeParams({ method: ['POST', 'PUT'], route: [MIRRORS, MIRROR] }, (p, request) => {
    const query = request.query as Json;
    if ((p.mirror_branch_regex ?? query.mirror_branch_regex) !== undefined) {
      delete p.only_protected_branches;
      delete query.only_protected_branches;
    }
  }) },
  { name: 'mirrors.delete-keeps', clauses: ['mirrors.delete.removes'], description: 'delete answers 204 and keeps the mirror', ...answer({ method: 'DELETE', route: MIRROR }, 204) },
  { name: 'mirrors.list-unpaginated', level: 'parity', clauses: ['mirrors.list.paginated'], description: 'the mirror list ignores page and per_page', ...dropParams({ method: 'GET', route: MIRRORS }, 'page', 'per_page') },
  { name: 'mirrors.unknown-id-403', clauses: ['mirrors.id.not-found'], description: 'an unknown mirror id answers 403 instead of 404', ...status({ method: ['GET', 'PUT', 'DELETE', 'POST'], route: [MIRROR, `${MIRROR}/sync`] }, 404, 403, { message: '403 Forbidden' }) },
  { name: 'mirrors.disabled-sync-accepted', clauses: ['mirrors.sync.disabled'], description: 'a disabled mirror accepts a sync request (204)', ...status({ method: 'POST', route: `${MIRROR}/sync` }, 400, 204) },
  { name: 'mirrors.keep-divergent-ignored', clauses: ['mirrors.create.options'], description: 'keep_divergent_refs is ignored on create', ...dropParams({ method: 'POST', route: MIRRORS }, 'keep_divergent_refs') },
  { name: 'mirrors.host-keys-ignored', level: 'parity', clauses: ['mirrors.host-keys.stored'], description: 'host_keys are ignored on create and update (host_keys reads [])', ...dropParams({ method: ['POST', 'PUT'], route: [MIRRORS, MIRROR] }, 'host_keys', 'host_keys[]') },
  { name: 'mirrors.host-keys-fingerprint-padded', level: 'parity', clauses: ['mirrors.host-keys.stored'], description: 'host key fingerprints keep the Base64 padding ("SHA256:…=")', ...mapBody({ method: ['GET', 'POST', 'PUT'], route: [MIRRORS, MIRROR] }, (b) => {
    const pad = (m: Json) => (Array.isArray(m.host_keys) ? { ...m, host_keys: (m.host_keys as Json[]).map((k) => ({ ...k, fingerprint_sha256: `${String(k.fingerprint_sha256)}=` })) } : m);
    return Array.isArray(b) ? b.map(pad) : pad(b);
  }) },
  { name: 'mirrors.host-keys-invalid-dropped', level: 'parity', clauses: ['mirrors.host-keys.invalid'], description: 'a host key that is not a key is dropped instead of refused (400 "Invalid SSH host key(s): …")', ...changeParams({ method: ['POST', 'PUT'], route: [MIRRORS, MIRROR] }, (p) => {
    const looksLikeKey = (k: unknown) => typeof k === 'string' && (k.trim() === '' || /^(\S+\s+)?(ssh-|ecdsa-|sk-)\S+\s+[A-Za-z0-9+/]+={0,2}(\s|$)/.test(k.trim()));
    if (Array.isArray(p.host_keys)) p.host_keys = p.host_keys.filter(looksLikeKey);
  }) },
  { name: 'mirrors.host-keys-limit-ignored', level: 'parity', clauses: ['mirrors.host-keys.invalid'], description: 'more than 10 host keys are accepted (the first 10 kept) instead of refused', ...changeParams({ method: ['POST', 'PUT'], route: [MIRRORS, MIRROR] }, (p) => {
    if (Array.isArray(p.host_keys)) p.host_keys = p.host_keys.slice(0, 10);
  }) },
  { name: 'mirrors.host-keys-cleared-when-omitted', level: 'parity', clauses: ['mirrors.host-keys.kept-or-cleared'], description: 'an update without host_keys clears the stored keys', ...changeParams({ method: 'PUT', route: MIRROR }, (p, request) => {
    if (p.host_keys === undefined && p['host_keys[]'] === undefined && (request.query as Json).host_keys === undefined) p.host_keys = [];
  }) },
  { name: 'mirrors.host-keys-empty-kept', level: 'parity', clauses: ['mirrors.host-keys.kept-or-cleared'], description: 'host_keys [] or null on update keep the stored keys instead of clearing them', ...changeParams({ method: 'PUT', route: MIRROR }, (p) => {
    if (p.host_keys === null || (Array.isArray(p.host_keys) && p.host_keys.length === 0)) delete p.host_keys;
  }) },
  { name: 'mirrors.boolean-strings-truthy', clauses: ['mirrors.params.boolean-strings'], description: 'enabled, only_protected_branches and keep_divergent_refs sent as text are true whatever the text ("false" too)', ...changeParams({ method: ['POST', 'PUT'], route: [MIRRORS, MIRROR] }, (p, request) => {
    for (const bag of [p, request.query as Json]) {
      for (const name of ['enabled', 'only_protected_branches', 'keep_divergent_refs']) if (typeof bag[name] === 'string' && bag[name] !== '') bag[name] = true;
    }
  }) },
  { name: 'mirrors.boolean-digits-refused', level: 'parity', clauses: ['mirrors.params.boolean-strings'], description: '"1" and "0" for enabled, only_protected_branches and keep_divergent_refs are refused as invalid instead of read as true and false', ...changeParams({ method: ['POST', 'PUT'], route: [MIRRORS, MIRROR] }, (p, request) => {
    for (const bag of [p, request.query as Json]) {
      for (const name of ['enabled', 'only_protected_branches', 'keep_divergent_refs']) if (bag[name] === '1' || bag[name] === '0') bag[name] = 'not-a-boolean';
    }
  }) },
  { name: 'mirrors.protected-null-accepted', level: 'parity', clauses: ['mirrors.params.protected-null'], description: 'only_protected_branches null (or empty) is taken as not given instead of refused with "can\'t be blank"', ...changeParams({ method: ['POST', 'PUT'], route: [MIRRORS, MIRROR] }, (p, request) => {
    for (const bag of [p, request.query as Json]) if (bag.only_protected_branches === null || bag.only_protected_branches === '') delete bag.only_protected_branches;
  }) },
  { name: 'mirrors.public-key-missing', level: 'parity', clauses: ['mirrors.public-key.ssh'], description: 'GET …/public_key of an SSH mirror answers 404 as if it had no key (as before GitLab 17.9)', ...status({ method: 'GET', route: `${MIRROR}/public_key` }, 200, 404, { message: '404 Not Found' }) },
  { name: 'mirrors.public-key-any-url', level: 'parity', clauses: ['mirrors.public-key.not-ssh'], description: 'GET …/public_key answers a key for every mirror with auth_method ssh_public_key, whatever its url (GitLab: only ssh:// urls)', onSend(request, reply, payload, ctx) {
    if (!matches(request, { method: 'GET', route: `${MIRROR}/public_key` }) || reply.statusCode !== 404) return payload;
    const params = request.params as Json;
    const mirror = ctx.store.findProject(String(params.id))?.remoteMirrors.find((m) => String(m.id) === String(params.mirror_id));
    if (mirror?.authMethod !== 'ssh_public_key') return payload;
    reply.code(200).header('content-type', 'application/json');
    return JSON.stringify({ public_key: `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC${'A'.repeat(340)} git@${request.hostname}` });
  } },
  { name: 'mirrors.public-key-unstable', level: 'parity', clauses: ['mirrors.public-key.ssh'], description: 'every read of …/public_key shows another key', ...(() => {
    let reads = 0;
    return mapBody({ method: 'GET', route: `${MIRROR}/public_key` }, (b) => {
      const key = String(b.public_key);
      const at = 'ssh-rsa '.length + 60;
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      return { ...b, public_key: `${key.slice(0, at)}${alphabet[reads++ % 64]}${key.slice(at + 1)}` };
    });
  })() },
  // ---- issue #26 ----------------------------------------------------------------------------------
  { name: 'mirrors.auth-method-default-absent', clauses: ['mirrors.auth-method.values'], description: 'a mirror whose auth_method was not given shows none instead of "password"', ...mapBody({ method: ['GET', 'POST'], route: [MIRRORS, MIRROR] }, (b) => {
    const strip = ({ auth_method: method, ...rest }: Json) => (method === 'password' ? rest : { ...rest, auth_method: method });
    return Array.isArray(b) ? b.map(strip) : strip(b);
  }) },
  { name: 'mirrors.scheme-text-order', level: 'parity', clauses: ['mirrors.create.schemes'], description: 'a refused scheme lists the allowed ones in another order than GitLab\'s "http, https, ssh, git"', onSend(request, reply, payload) {
    if (!matches(request, { method: 'POST', route: MIRRORS }) || reply.statusCode !== 400) return payload;
    return payload.replace('Only allowed schemes are http, https, ssh, git', 'Only allowed schemes are ssh, git, http, https');
  } },
];

const invitation: Omit<SeededFault, 'area'>[] = [
  { name: 'invitations.invite-200', clauses: ['invitations.create.by-email'], description: 'invite answers 200 instead of 201', ...status(invitations('POST'), 201, 200) },
  { name: 'invitations.error-as-400', clauses: ['invitations.create.result-error'], description: 'per-address failures answer HTTP 400 instead of 201 with status "error"', onSend(request, reply, payload) {
    if (!matches(request, invitations('POST')) || reply.statusCode !== 201 || !payload.includes('"status":"error"')) return payload;
    reply.code(400);
    return payload;
  } },
  { name: 'invitations.list-shows-members', clauses: ['invitations.list.pending-only'], description: 'the invitation list also shows accepted members', ...mapBody(invitations('GET'), (b, ctx, request) => {
    if (!Array.isArray(b)) return undefined;
    const id = String((request.params as Json).id);
    const source = request.routeOptions.url!.includes('/groups/') ? ctx.store.findGroup(id) : ctx.store.findProject(id);
    if (!source) return undefined;
    const accepted = ctx.store.directMembers(source).filter((m) => m.userId !== null).map((m) => ({ access_level: m.accessLevel, created_at: m.createdAt, expires_at: m.expiresAt, invite_email: ctx.store.users.get(m.userId!)?.email, created_by_name: 'someone' }));
    return [...b, ...accepted];
  }) },
  { name: 'invitations.query-partial', clauses: ['invitations.list.query'], description: 'query matches part of the address, ignoring case', ...changeParams(invitations('GET'), (p, request) => {
    const query = request.query as Json;
    if (typeof query.query === 'string' && query.query.length > 3) {
      delete query.query;
      p.query = undefined;
    }
  }) },
  { name: 'invitations.update-no-params-200', clauses: ['invitations.update.no-params'], description: 'an update without parameters answers 200 instead of 400', ...status(invitations('PUT', '/:email'), 400, 200, {}) },
  { name: 'invitations.delete-200-body', clauses: ['invitations.delete.success'], description: 'delete answers 200 with a body instead of 204', ...status(invitations('DELETE', '/:email'), 204, 200, { status: 'deleted' }) },
  { name: 'invitations.expires-at-created', clauses: ['invitations.list.values'], description: 'expires_at of a listed invitation shows its creation time', ...mapRows(invitations('GET'), (row) => ({ ...row, expires_at: row.created_at })) },
  { name: 'invitations.list-open-to-all', clauses: ['invitations.auth.admin-members'], description: 'members who may not administer members can list invitations', ...status(invitations('GET'), 403, 200, []) },
  { name: 'invitations.admin-level-accepted', clauses: ['invitations.create.access-level'], description: 'access level 60 (Admin) is accepted as Owner for invitations', ...changeParams(invitations('POST'), (p, request) => {
    const query = request.query as Json;
    if (String(p.access_level ?? query.access_level) === '60') {
      p.access_level = 50;
      delete query.access_level;
    }
  }) },
  { name: 'invitations.limit-ignored', clauses: ['invitations.create.limit'], description: 'more than 100 addresses at once are accepted (the list is cut to 100)', ...changeParams(invitations('POST'), (p) => {
    if (typeof p.email === 'string' && p.email.split(',').length > 100) p.email = p.email.split(',').slice(0, 100).join(',');
  }) },
  { name: 'invitations.unknown-email-deleted', clauses: ['invitations.delete.not-found'], description: 'deleting an address with no invitation answers 204 instead of 404', ...status(invitations('DELETE', '/:email'), 404, 204) },
  { name: 'invitations.anonymous-403', clauses: ['invitations.auth.anonymous'], description: 'no token answers 403 instead of 401', ...status({ method: ['GET', 'POST', 'PUT', 'DELETE'], route: [...bothKinds('/:kind/:id/invitations'), ...bothKinds('/:kind/:id/invitations/:email')] }, 401, 403, { message: '403 Forbidden' }) },
  { name: 'invitations.expires-at-ignored', clauses: ['invitations.create.expires-at'], description: 'expires_at is ignored on invite', ...dropParams(invitations('POST'), 'expires_at') },
  { name: 'invitations.access-level-zero-per-recipient', level: 'parity', clauses: ['invitations.create.access-level-role'], description: 'access_level 0 on invite is reported per recipient (201, status "error", nothing invited) instead of refused with 400', onSend(request, reply, payload, ctx) {
    const params = { ...(request.query as Json), ...((request.body ?? {}) as Json) };
    if (!matches(request, invitations('POST')) || reply.statusCode !== 400 || String(params.access_level) !== '0') return payload;
    const parts = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).split(',').map((s) => s.trim()).filter((s) => s !== '') : []);
    const keys = [...parts(params.email), ...parts(params.user_id).map((id) => ctx.store.users.get(Number(id))?.username ?? id)];
    if (keys.length === 0) return payload;
    reply.code(201);
    return JSON.stringify({ status: 'error', message: Object.fromEntries(keys.map((key) => [key, 'Access level is not included in the list'])) });
  } },
  ((): Omit<SeededFault, 'area'> => {
    // Recipients the route never saw, with the failure to report for each.
    const held = new WeakMap<object, Record<string, string>>();
    return { name: 'invitations.member-reinvite-refused', level: 'parity', clauses: ['invitations.create.already-member'], description: 'inviting a direct member again is reported per recipient ("User already exists in source") and the membership is left as it was, instead of updated', ...changeParams(invitations('POST'), (p, request, ctx) => {
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
    return { name: 'invitations.invalid-email-per-recipient', level: 'parity', clauses: ['invitations.create.invalid-email'], description: 'a malformed address in the email list is reported per recipient ("Invite email is invalid") and the other addresses are invited, instead of the whole request refused with 400', ...changeParams(invitations('POST'), (p, request) => {
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
    if (!matches(request, invitations('POST')) || reply.statusCode !== 201) return payload;
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
    if (!matches(request, { method: 'DELETE', route: '/projects/:id/invitations/:email' }) || reply.statusCode !== 403) return payload;
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
    if (!matches(request, { method: 'PUT', route: '/application/settings' }) || reply.statusCode !== 400 || 'enable_member_promotion_management' in params) return payload;
    reply.code(200);
    return JSON.stringify({ enable_member_promotion_management: ctx.store.settings.enableMemberPromotionManagement });
  } },
  // A target without GET /application/settings is no fault: the tests that read the setting declare
  // the set-up endpoint (application-settings-read) and are unsupported, with the reason, on such a
  // target (cli/without-run.spec.ts checks it with the server's --without).
  // ---- public sources and access requesters (requests: lib/api/access_requests.rb) ----------
  { name: 'invitations.requester-stays-pending', clauses: ['invitations.create.requester'], description: 'inviting the address of a user whose access request is pending makes them a member but leaves the request pending', ...keepAccessRequests({ method: 'POST', route: bothKinds('/:kind/:id/invitations') }, (p, ctx) => String(p.email ?? '').split(',').map((e) => ctx.store.userByEmail(e.trim())?.id)) },
  { name: 'invitations.public-non-member-404', clauses: ['invitations.auth.public-non-member'], description: 'the invitation endpoints answer a non-member of a public group or project 404 (as for a private one) instead of 403', ...nonMemberRefusalAs404({ method: ['GET', 'POST', 'PUT', 'DELETE'], route: [...bothKinds('/:kind/:id/invitations'), ...bothKinds('/:kind/:id/invitations/:email')] }) },
  // ---- confirmed addresses, inherited levels, lists, Minimal access, promotions (issue #17) ----
  { name: 'invitations.unconfirmed-address-adds-user', clauses: ['invitations.create.confirmed-email'], description: 'an address its user has not confirmed (primary or secondary) makes that user a member instead of a pending invitation', ...changeParams(invitations('POST'), (p, request, ctx) => {
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
    return { name: 'invitations.secondary-email-invited', clauses: ['invitations.create.confirmed-email'], description: 'a confirmed secondary address is invited as a pending invitation instead of adding its user', ...changeParams(invitations('POST'), (p, request, ctx) => {
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
  { name: 'invitations.emails-dropped-with-user-ids', clauses: ['invitations.create.several'], description: 'with user_id in the request the addresses in email are ignored', ...changeParams(invitations('POST'), (p, request) => {
    if (p.user_id === undefined || p.email === undefined) return;
    delete p.email;
    delete (request.query as Json).email;
  }) },
  { name: 'invitations.inherited-level-capped', clauses: ['invitations.create.above-inherited'], description: 'a user invited above the level they hold in an ancestor group is added at the inherited level, not the requested one', onSend(request, reply, payload, ctx) {
    if (!matches(request, invitations('POST')) || reply.statusCode !== 201) return payload;
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
  { name: 'invitations.email-array-unchecked', clauses: ['invitations.create.invalid-email'], description: 'email sent as a JSON array skips the address check: malformed addresses are dropped silently and the others invited', ...changeParams(invitations('POST'), (p) => {
    if (Array.isArray(p.email)) p.email = p.email.filter((e) => /^[^@\s]+@[^@\s]+$/.test(String(e)));
  }) },
  { name: 'invitations.group-maintainer-deletes-owner-invite', clauses: ['invitations.delete.owner-level', 'invitations.auth.admin-members'], description: 'a group Maintainer deletes an invitation at the Owner level (204) instead of being refused with 403', onSend(request, reply, payload, ctx) {
    if (!matches(request, { method: 'DELETE', route: '/groups/:id/invitations/:email' }) || reply.statusCode !== 403) return payload;
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
    if (!matches(request, { method: 'POST', route: '/groups/:id/invitations' }) || reply.statusCode !== 201 || String(params.access_level) !== '5' || typeof params.email !== 'string') return payload;
    const group = ctx.store.findGroup(String((request.params as Json).id));
    if (!group || group.parentId !== null) return payload;
    const emails = params.email.split(',').map((s) => s.trim().toLowerCase());
    for (const m of ctx.store.directMembers(group)) if (m.inviteToken !== null && emails.includes(m.inviteEmail!)) ctx.store.members.delete(m.id);
    return JSON.stringify({ status: 'error', message: Object.fromEntries(emails.map((e) => [e, 'Access level is not included in the list'])) });
  } },
  ((): Omit<SeededFault, 'area'> => {
    const paused = new WeakSet<object>();
    return { name: 'invitations.promotion-guest-member-updated', clauses: ['invitations.create.queued-members'], description: 'with promotion approval on, an existing Guest member re-invited above Guest is updated instead of queued', ...changeParams(invitations('POST'), (p, request, ctx) => {
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
    return { name: 'invitations.promotion-billable-queued', clauses: ['invitations.create.queued-members'], description: 'with promotion approval on, a billable member re-invited at another level is queued and keeps their level instead of being updated', ...changeParams(invitations('POST'), (p, request, ctx) => {
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
  { name: 'invitations.user-id-number-accepted', level: 'parity', clauses: ['invitations.create.user-id-number'], description: 'user_id sent as a JSON number is taken as the id it names instead of no list (400)', ...changeParams(invitations('POST'), (params) => {
    if (typeof params.user_id === 'number') params.user_id = String(params.user_id);
  }) },
  // ---- issue #26 ----------------------------------------------------------------------------------
  { name: 'invitations.project-bot-invited', clauses: ['invitations.create.project-bot'], description: 'the bot user of another project\'s access token is invited like anyone and made a member', ...botsAsPeople(invitations('POST')) },
  { name: 'invitations.project-bot-by-email-invited', clauses: ['invitations.create.project-bot'], description: 'the bot user of another project\'s access token, invited by its address, is made a member like anyone', ...botsAsPeople(invitations('POST'), true) },
  { name: 'invitations.requester-owner-by-maintainer', clauses: ['invitations.create.project-owner'], description: 'a Maintainer\'s invitation of an access requester at Owner is let through: the requester becomes an Owner', ...maintainerAsOwner(invitations('POST'), (params, source, ctx) => Number(params.access_level) === ACCESS.OWNER && String(params.user_id ?? '').split(',').some((id) => ctx.store.accessRequests.find(source, Number(id)) !== undefined)) },
  { name: 'invitations.group-maintainer-owner', clauses: ['invitations.auth.admin-members'], description: 'a group Maintainer passes the Owner-level checks of invitations: inviting at Owner, raising an invitation to Owner or changing one at Owner', ...maintainerAsOwner({ method: ['POST', 'PUT'], route: ['/groups/:id/invitations', '/groups/:id/invitations/:email'] }, (params, source, ctx) => {
    const invitation = ctx.store.directMembers(source).find((m) => m.inviteEmail !== null && m.inviteEmail === params.email);
    return Number(params.access_level) === ACCESS.OWNER || invitation?.accessLevel === ACCESS.OWNER;
  }) },
  { name: 'invitations.reinvite-taken', level: 'parity', clauses: ['invitations.create.reinvite'], description: 're-inviting a pending address reports "Invite email has already been taken" and keeps the invitation (older GitLab) instead of updating it', ...keptReinvite() },
  { name: 'invitations.invitee-deletes-own', clauses: ['invitations.delete.own-address'], description: 'a user deletes an invitation addressed to one of their own addresses, without the right to manage invitations', onRequest(request, reply, ctx) {
    const source = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    const email = String((request.params as Json).email ?? '').toLowerCase();
    if (!matches(request, invitations('DELETE', '/:email')) || !source || !user || ![user.email, ...user.emails.map((e) => e.email)].some((e) => e.toLowerCase() === email)) return false;
    const invitation = ctx.store.directMembers(source).find((m) => m.inviteToken !== null && m.inviteEmail?.toLowerCase() === email);
    if (!invitation) return false;
    ctx.store.members.delete(invitation.id);
    void reply.code(204).send();
    return true;
  } },
];

const member: Omit<SeededFault, 'area'>[] = [
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
];

const crossCutting: Omit<SeededFault, 'area'>[] = [
  { name: 'auth.unknown-token-anonymous', clauses: ['files.auth.private-token'], description: 'an unknown token is treated as no token instead of refused with 401', onRequest(request, _reply, ctx) {
    const token = request.headers['private-token'];
    if (typeof token === 'string' && !ctx.store.tokens.has(token)) delete request.headers['private-token'];
    return false;
  } },
  { name: 'auth.read-api-writes', clauses: ['files.auth.scopes', 'members.auth.read-api-scope', 'invitations.auth.scopes', 'mirrors.auth.scopes'], description: 'read_api and read_repository tokens may write', onRequest(request, _reply, ctx) {
    const token = ctx.store.tokens.get(String(request.headers['private-token'] ?? ''));
    if (!token || request.method === 'GET' || request.method === 'HEAD' || token.scopes.includes('api')) return false;
    const writer = [...ctx.store.tokens.values()].find((t) => t.userId === token.userId && t.scopes.includes('api'));
    if (writer) request.headers['private-token'] = writer.token;
    return false;
  } },
  { name: 'errors.message-renamed', clauses: ['files.errors.shape', 'members.errors.shape'], description: 'error bodies carry "msg" instead of "message"/"error"', onSend(request, reply, payload) {
    if (reply.statusCode < 400 || request.method === 'HEAD') return payload;
    try {
      const body = JSON.parse(payload) as Json;
      return JSON.stringify({ msg: body.message ?? body.error });
    } catch {
      return payload;
    }
  } },
  { name: 'auth.403-as-404', clauses: ['files.read.role', 'invitations.auth.admin-members', 'members.manage.role'], description: 'refusals (403) answer 404', onSend(_request, reply, payload) {
    if (reply.statusCode !== 403) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not Found' });
  } },
  { name: 'ids.encoded-path-refused', clauses: ['files.id.path-or-number', 'mirrors.id.path-or-number', 'invitations.path.id', 'members.id.path-or-number'], description: 'a URL-encoded full path as :id answers 404', onRequest(request, reply) {
    const id = (request.params as Json | undefined)?.id;
    if (typeof id !== 'string' || !id.includes('/')) return false;
    void reply.code(404).send({ message: request.url.includes('/groups/') ? '404 Group Not Found' : '404 Project Not Found' });
    return true;
  } },
  { name: 'pagination.total-off-by-one', level: 'parity', clauses: ['members.pagination', 'mirrors.list.paginated', 'invitations.list.pagination'], description: 'X-Total counts one row too many', onSend(_request, reply, payload) {
    const total = reply.getHeader('x-total');
    if (total !== undefined) reply.header('x-total', String(Number(total) + 1));
    return payload;
  } },
  { name: 'pagination.past-end-404', clauses: ['members.pagination', 'mirrors.list.paginated', 'invitations.list.pagination'], description: 'a page past the end answers 404 instead of an empty list', onSend(request, reply, payload) {
    if (request.method !== 'GET' || payload !== '[]' || Number((request.query as Json).page ?? 1) <= 1) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not Found' });
  } },
  { name: 'pagination.per-page-not-clamped', clauses: ['invitations.list.pagination-params'], description: 'per_page above 100 is refused with 400 instead of clamped', onRequest(request, reply) {
    const perPage = (request.query as Json).per_page;
    if (request.method !== 'GET' || perPage === undefined || Number(perPage) <= 100) return false;
    void reply.code(400).send({ error: 'per_page does not have a valid value' });
    return true;
  } },
  { name: 'http.json-charset', level: 'parity', clauses: ['files.http.json-media-type', 'mirrors.http.json-media-type', 'invitations.http.json-media-type', 'members.http.json-media-type'], description: 'JSON answers carry Content-Type "application/json; charset=utf-8" instead of exactly "application/json"', onSend(_request, reply, payload) {
    if (reply.getHeader('content-type') === 'application/json') reply.header('content-type', 'application/json; charset=utf-8');
    return payload;
  } },
  { name: 'params.bracket-arrays-ignored', clauses: ['members.http.array-forms', 'invitations.http.array-forms'], description: 'a parameter sent in Rack\'s bracket form (user_ids[]=1&user_ids[]=2) is not read: the route sees only the bare key', preHandler(request) {
    for (const name of bracketNames(request.url)) delete (request.query as Json)[name];
  } },
  { name: 'params.repeated-key-all-values', level: 'parity', clauses: ['members.http.repeated-key'], description: 'a plain key given twice (user_ids=1&user_ids=2) keeps every value instead of its last (Rack)', preHandler(request) {
    const search = new URLSearchParams(request.url.split('?')[1] ?? '');
    for (const key of new Set(search.keys())) if (!key.includes('[') && search.getAll(key).length > 1) (request.query as Json)[key] = search.getAll(key);
  } },
  { name: 'auth.sudo-ignored', clauses: ['files.http.sudo', 'mirrors.http.sudo', 'invitations.http.sudo', 'members.http.sudo'], description: 'sudo (query or body parameter, Sudo header) is ignored: the administrator acts as themself', preHandler(request) {
    delete request.headers.sudo;
    for (const bag of [request.query, request.body]) if (bag && typeof bag === 'object') delete (bag as Json).sudo;
  } },
  { name: 'users.username-filter-ignored', level: 'parity', clauses: ['members.http.user-lookup'], description: 'GET /users ignores username and answers every user', ...dropParams({ method: 'GET', route: '/users' }, 'username') },
  { name: 'http.rejects-empty-json-body', clauses: ['files.http.empty-json-body', 'mirrors.http.empty-json-body', 'invitations.http.empty-json-body', 'members.http.empty-json-body'], description: 'a request declaring Content-Type application/json with an empty body is refused with 400', onRequest(request, reply) {
    const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const length = request.headers['content-length'];
    const empty = length === '0' || (length === undefined && request.headers['transfer-encoding'] === undefined);
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method) || type !== 'application/json' || !empty) return false;
    void reply.code(400).send({ error: 'message body does not match declared format' });
    return true;
  } },
];

export const CATALOGUE: SeededFault[] = [
  ...files.map((f) => ({ ...f, area: 'repository-files' as const })),
  ...mirrors.map((f) => ({ ...f, area: 'remote-mirrors' as const })),
  ...invitation.map((f) => ({ ...f, area: 'invitations' as const })),
  ...member.map((f) => ({ ...f, area: 'members' as const })),
  ...crossCutting.map((f) => ({ ...f, area: 'cross-cutting' as const })),
];

/** The parameter names a request's query string sends in Rack's bracket form (`name[]=`). */
function bracketNames(url: string): Set<string> {
  const search = new URLSearchParams(url.split('?')[1] ?? '');
  return new Set([...search.keys()].filter((key) => key.endsWith('[]')).map((key) => key.slice(0, -2)));
}

// ---- helpers of the access-request and public-source faults ----------------------------------

type FaultRequest = Parameters<NonNullable<SeededFault['onSend']>>[0];
type FaultCtx = Parameters<NonNullable<SeededFault['onSend']>>[3];

/** The group or project a `/:kind/:id/…` request names, if any. */
function faultSource(request: FaultRequest, ctx: FaultCtx) {
  const id = String((request.params as Json | undefined)?.id ?? '');
  return (request.routeOptions.url ?? '').includes('/groups/') ? ctx.store.findGroup(id) : ctx.store.findProject(id);
}

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

function callerOf(request: FaultRequest, ctx: FaultCtx) {
  try {
    return authenticate(ctx.store, request).user;
  } catch {
    return undefined;
  }
}

/** Access requests the route would turn into memberships, put back after a success (the users named by `userIds`). */
function keepAccessRequests(when: When, userIds: (params: Json, ctx: FaultCtx) => unknown[]): Pick<SeededFault, 'preHandler' | 'onSend'> {
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
function nonMemberRefusalAs404(when: When): Pick<SeededFault, 'onSend'> {
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

// ---- helpers of the issue #26 faults ----------------------------------------------------------

/** The groups above a source (for a group its ancestors, for a project its group and theirs). */
function ancestorsOf(ctx: FaultCtx, source: Source) {
  if (source.kind === 'group') return ctx.store.groupChain(source).slice(1);
  const group = ctx.store.projectGroup(source);
  return group ? ctx.store.groupChain(group) : [];
}

/** The request's parameters as the route sees them: query, body and path. */
const requestParams = (request: FaultRequest): Json => ({ ...((request.query ?? {}) as Json), ...((request.body ?? {}) as Json), ...((request.params ?? {}) as Json) });

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

/**
 * Project bots among the users a request names (user_id, one or several; with `byEmail`, the
 * addresses of email instead) are people for its duration: their user_type is taken away before
 * the route and put back when it answered.
 */
function botsAsPeople(when: When, byEmail = false): Pick<SeededFault, 'preHandler' | 'onSend'> {
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
function maintainerAsOwner(when: When, concernsOwner: (params: Json, source: Source, ctx: FaultCtx) => boolean): Pick<SeededFault, 'preHandler' | 'onSend'> {
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
      if (!matches(request, invitations('POST')) || !source || email === '' || email.includes(',')) return;
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

/**
 * Rewrites the headers a matching route sets (undefined leaves one out), as it sets them: a raw file's
 * answer is a Buffer, which onSend hooks leave alone, so the change cannot wait for the answer.
 */
function rewriteHeaders(when: When, rewrite: (name: string, value: unknown) => unknown): Pick<SeededFault, 'onRequest'> {
  return {
    onRequest(request, reply) {
      if (!matches(request, when)) return false;
      const set = reply.header.bind(reply);
      reply.header = ((name: string, value: unknown) => {
        const next = rewrite(name.toLowerCase(), value);
        return next === undefined ? reply : set(name, next);
      }) as typeof reply.header;
      return false;
    },
  };
}
