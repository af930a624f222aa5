// The seeded faults of the remote-mirrors area (reference-server/areas.ts registers them with its routes).
import { answer, answerWhen, changeParams, dropParams, mapBody, matches, status } from './dsl.js';
import type { AreaFault } from './types.js';
import { callerOf, faultSource, formBodyIgnored, privateTokenQueryIgnored, requestParams, type Json } from './shared.js';
import { ACCESS } from '../state/model.js';
import { apiError, validationError } from '../http/errors.js';
import { MIRROR_ROUTES, newMirror } from '../routes/remote-mirrors.js';

export const remoteMirrorsFaults: AreaFault[] = [
  { name: 'mirrors.url-unmasked', clauses: ['mirrors.url.masked'], description: 'credentials in the mirror URL (user and password) are shown instead of *****', ...mapBody({ route: [MIRROR_ROUTES.list, MIRROR_ROUTES.get, MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (b, ctx) => {
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
  { name: 'mirrors.git-user-masked', level: 'parity', clauses: ['mirrors.url.git-user-kept'], description: 'the ssh user git is masked too', ...mapBody({ route: [MIRROR_ROUTES.list, MIRROR_ROUTES.get, MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (b) => {
    const mask = (m: Json) => ({ ...m, url: String(m.url).replace('://git@', '://*****@') });
    return Array.isArray(b) ? b.map(mask) : mask(b);
  }) },
  { name: 'mirrors.enabled-by-default', clauses: ['mirrors.create.defaults'], description: 'a new mirror is enabled unless told otherwise', ...changeParams({ route: MIRROR_ROUTES.create }, (p) => {
    p.enabled ??= true;
  }) },
  { name: 'mirrors.new-status-started', clauses: ['mirrors.create.defaults'], description: 'a new mirror reads update_status "started" instead of "none"', ...mapBody({ route: MIRROR_ROUTES.create }, (b) => ({ ...b, update_status: 'started' })) },
  { name: 'mirrors.timestamps-on-create', clauses: ['mirrors.create.defaults'], description: 'a new mirror carries last_update_at instead of null', ...mapBody({ route: MIRROR_ROUTES.create }, (b) => ({ ...b, last_update_at: new Date().toISOString() })) },
  { name: 'mirrors.403-for-401', clauses: ['mirrors.auth.below-maintainer', 'mirrors.auth.anonymous'], description: 'callers below Maintainer get 403 instead of GitLab\'s 401', ...status({ route: [MIRROR_ROUTES.list, MIRROR_ROUTES.get, MIRROR_ROUTES.create, MIRROR_ROUTES.sync, MIRROR_ROUTES.update, MIRROR_ROUTES.remove] }, 401, 403, { message: '403 Forbidden' }) },
  { name: 'mirrors.sync-200-body', clauses: ['mirrors.sync.no-content'], description: 'sync answers 200 with a body instead of 204', ...status({ route: MIRROR_ROUTES.sync }, 204, 200, { status: 'scheduled' }) },
  { name: 'mirrors.regex-and-protected', clauses: ['mirrors.regex.exclusive'], description: 'mirror_branch_regex together with only_protected_branches is accepted', ...changeParams({ route: [MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (p, request) => {
    const query = request.query as Json;
    if ((p.mirror_branch_regex ?? query.mirror_branch_regex) !== undefined) {
      delete p.only_protected_branches;
      delete query.only_protected_branches;
    }
  }) },
  { name: 'mirrors.delete-keeps', clauses: ['mirrors.delete.removes'], description: 'delete answers 204 and keeps the mirror', ...answer({ route: MIRROR_ROUTES.remove }, 204) },
  { name: 'mirrors.list-unpaginated', level: 'parity', clauses: ['mirrors.list.paginated'], description: 'the mirror list ignores page and per_page', ...dropParams({ route: MIRROR_ROUTES.list }, 'page', 'per_page') },
  { name: 'mirrors.unknown-id-403', clauses: ['mirrors.id.not-found'], description: 'an unknown mirror id answers 403 instead of 404', ...status({ route: [MIRROR_ROUTES.get, MIRROR_ROUTES.update, MIRROR_ROUTES.remove, MIRROR_ROUTES.sync] }, 404, 403, { message: '403 Forbidden' }) },
  { name: 'mirrors.disabled-sync-accepted', clauses: ['mirrors.sync.disabled'], description: 'a disabled mirror accepts a sync request (204)', ...status({ route: MIRROR_ROUTES.sync }, 400, 204) },
  { name: 'mirrors.keep-divergent-ignored', clauses: ['mirrors.create.options'], description: 'keep_divergent_refs is ignored on create', ...dropParams({ route: MIRROR_ROUTES.create }, 'keep_divergent_refs') },
  { name: 'mirrors.host-keys-ignored', level: 'parity', clauses: ['mirrors.host-keys.stored'], description: 'host_keys are ignored on create and update (host_keys reads [])', ...dropParams({ route: [MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, 'host_keys', 'host_keys[]') },
  { name: 'mirrors.host-keys-fingerprint-padded', level: 'parity', clauses: ['mirrors.host-keys.stored'], description: 'host key fingerprints keep the Base64 padding ("SHA256:…=")', ...mapBody({ route: [MIRROR_ROUTES.list, MIRROR_ROUTES.get, MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (b) => {
    const pad = (m: Json) => (Array.isArray(m.host_keys) ? { ...m, host_keys: (m.host_keys as Json[]).map((k) => ({ ...k, fingerprint_sha256: `${String(k.fingerprint_sha256)}=` })) } : m);
    return Array.isArray(b) ? b.map(pad) : pad(b);
  }) },
  { name: 'mirrors.host-keys-invalid-dropped', level: 'parity', clauses: ['mirrors.host-keys.invalid'], description: 'a host key that is not a key is dropped instead of refused (400 "Invalid SSH host key(s): …")', ...changeParams({ route: [MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (p) => {
    const looksLikeKey = (k: unknown) => typeof k === 'string' && (k.trim() === '' || /^(\S+\s+)?(ssh-|ecdsa-|sk-)\S+\s+[A-Za-z0-9+/]+={0,2}(\s|$)/.test(k.trim()));
    if (Array.isArray(p.host_keys)) p.host_keys = p.host_keys.filter(looksLikeKey);
  }) },
  { name: 'mirrors.host-keys-limit-ignored', level: 'parity', clauses: ['mirrors.host-keys.invalid'], description: 'more than 10 host keys are accepted (the first 10 kept) instead of refused', ...changeParams({ route: [MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (p) => {
    if (Array.isArray(p.host_keys)) p.host_keys = p.host_keys.slice(0, 10);
  }) },
  { name: 'mirrors.host-keys-cleared-when-omitted', level: 'parity', clauses: ['mirrors.host-keys.kept-or-cleared'], description: 'an update without host_keys clears the stored keys', ...changeParams({ route: MIRROR_ROUTES.update }, (p, request) => {
    if (p.host_keys === undefined && p['host_keys[]'] === undefined && (request.query as Json).host_keys === undefined) p.host_keys = [];
  }) },
  { name: 'mirrors.host-keys-empty-kept', level: 'parity', clauses: ['mirrors.host-keys.kept-or-cleared'], description: 'host_keys [] or null on update keep the stored keys instead of clearing them', ...changeParams({ route: MIRROR_ROUTES.update }, (p) => {
    if (p.host_keys === null || (Array.isArray(p.host_keys) && p.host_keys.length === 0)) delete p.host_keys;
  }) },
  { name: 'mirrors.boolean-strings-truthy', clauses: ['mirrors.params.boolean-strings'], description: 'enabled, only_protected_branches and keep_divergent_refs sent as text are true whatever the text ("false" too)', ...changeParams({ route: [MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (p, request) => {
    for (const bag of [p, request.query as Json]) {
      for (const name of ['enabled', 'only_protected_branches', 'keep_divergent_refs']) if (typeof bag[name] === 'string' && bag[name] !== '') bag[name] = true;
    }
  }) },
  { name: 'mirrors.boolean-digits-refused', level: 'parity', clauses: ['mirrors.params.boolean-strings'], description: '"1" and "0" for enabled, only_protected_branches and keep_divergent_refs are refused as invalid instead of read as true and false', ...changeParams({ route: [MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (p, request) => {
    for (const bag of [p, request.query as Json]) {
      for (const name of ['enabled', 'only_protected_branches', 'keep_divergent_refs']) if (bag[name] === '1' || bag[name] === '0') bag[name] = 'not-a-boolean';
    }
  }) },
  { name: 'mirrors.protected-null-accepted', level: 'parity', clauses: ['mirrors.params.protected-null'], description: 'only_protected_branches null (or empty) is taken as not given instead of refused with "can\'t be blank"', ...changeParams({ route: [MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (p, request) => {
    for (const bag of [p, request.query as Json]) if (bag.only_protected_branches === null || bag.only_protected_branches === '') delete bag.only_protected_branches;
  }) },
  { name: 'mirrors.public-key-missing', level: 'parity', clauses: ['mirrors.public-key.ssh'], description: 'GET …/public_key of an SSH mirror answers 404 as if it had no key (as before GitLab 17.9)', ...status({ route: MIRROR_ROUTES.publicKey }, 200, 404, { message: '404 Not Found' }) },
  { name: 'mirrors.public-key-any-url', level: 'parity', clauses: ['mirrors.public-key.not-ssh'], description: 'GET …/public_key answers a key for every mirror with auth_method ssh_public_key, whatever its url (GitLab: only ssh:// urls)', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: MIRROR_ROUTES.publicKey }) || reply.statusCode !== 404) return payload;
    const params = request.params as Json;
    const mirror = ctx.store.findProject(String(params.id))?.remoteMirrors.find((m) => String(m.id) === String(params.mirror_id));
    if (mirror?.authMethod !== 'ssh_public_key') return payload;
    reply.code(200).header('content-type', 'application/json');
    return JSON.stringify({ public_key: `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC${'A'.repeat(340)} git@${request.hostname}` });
  } },
  { name: 'mirrors.public-key-unstable', level: 'parity', clauses: ['mirrors.public-key.ssh'], description: 'every read of …/public_key shows another key', ...(() => {
    let reads = 0;
    return mapBody({ route: MIRROR_ROUTES.publicKey }, (b) => {
      const key = String(b.public_key);
      const at = 'ssh-rsa '.length + 60;
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      return { ...b, public_key: `${key.slice(0, at)}${alphabet[reads++ % 64]}${key.slice(at + 1)}` };
    });
  })() },
  // ---- issue #26 ----------------------------------------------------------------------------------
  { name: 'mirrors.auth-method-default-absent', clauses: ['mirrors.auth-method.values'], description: 'a mirror whose auth_method was not given shows none instead of "password"', ...mapBody({ route: [MIRROR_ROUTES.list, MIRROR_ROUTES.get, MIRROR_ROUTES.create] }, (b) => {
    const strip = ({ auth_method: method, ...rest }: Json) => (method === 'password' ? rest : { ...rest, auth_method: method });
    return Array.isArray(b) ? b.map(strip) : strip(b);
  }) },
  { name: 'mirrors.scheme-text-order', level: 'parity', clauses: ['mirrors.create.schemes'], description: 'a refused scheme lists the allowed ones in another order than GitLab\'s "http, https, ssh, git"', onSend(request, reply, payload) {
    if (!matches(request, { route: MIRROR_ROUTES.create }) || reply.statusCode !== 400) return payload;
    return payload.replace('Only allowed schemes are http, https, ssh, git', 'Only allowed schemes are ssh, git, http, https');
  } },
  // ---- clauses that had no fault -------------------------------------------------------------------
  { name: 'mirrors.keep-divergent-as-text', clauses: ['mirrors.entity.shape'], description: 'keep_divergent_refs is shown as the text "true"/"false" instead of a boolean', ...mapBody({ route: [MIRROR_ROUTES.list, MIRROR_ROUTES.get, MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (b) => {
    const text = (m: Json) => ({ ...m, keep_divergent_refs: String(m.keep_divergent_refs) });
    return Array.isArray(b) ? b.map(text) : text(b);
  }) },
  { name: 'mirrors.list-newest-first', clauses: ['mirrors.list.all'], description: 'the mirror list is ordered by id descending (newest first) instead of ascending', ...mapBody({ route: MIRROR_ROUTES.list }, (b) => (Array.isArray(b) ? [...b].reverse() : undefined)) },
  { name: 'mirrors.get-reads-newest', clauses: ['mirrors.get.one'], description: 'GET of a mirror answers the project\'s newest mirror, whichever of its mirrors was asked for', preHandler(request, ctx) {
    if (!matches(request, { route: MIRROR_ROUTES.get })) return;
    const params = request.params as Json;
    const mirrors = ctx.store.findProject(String(params.id))?.remoteMirrors ?? [];
    if (mirrors.some((m) => String(m.id) === String(params.mirror_id))) params.mirror_id = String(mirrors[mirrors.length - 1].id);
  } },
  { name: 'mirrors.create-200', clauses: ['mirrors.create.returns'], description: 'create answers 200 instead of 201', ...status({ route: MIRROR_ROUTES.create }, 201, 200) },
  { name: 'mirrors.missing-url-422', clauses: ['mirrors.create.url-required'], description: 'a create without url answers 422 instead of 400', onSend(request, reply, payload) {
    if (!matches(request, { route: MIRROR_ROUTES.create }) || reply.statusCode !== 400 || !payload.includes('url is missing')) return payload;
    reply.code(422);
    return payload;
  } },
  { name: 'mirrors.private-network-accepted', clauses: ['mirrors.create.local-refused'], description: 'a target on a private (RFC 1918) or link-local address is accepted: only localhost and loopback are refused', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: MIRROR_ROUTES.create }) || reply.statusCode !== 400 || !/Requests to the (local|link local) network are not allowed/.test(payload)) return payload;
    // The refused target is created as it would be after the check: a disabled mirror shown back.
    const project = faultSource(request, ctx);
    if (!project || project.kind !== 'project') return payload;
    const url = String(requestParams(request).url);
    const mirror = newMirror(ctx.store, url, {});
    project.remoteMirrors.push(mirror);
    reply.code(201);
    return JSON.stringify({ id: mirror.id, enabled: false, url, update_status: 'none', last_update_at: null, last_update_started_at: null, last_successful_update_at: null, last_error: null, only_protected_branches: false, keep_divergent_refs: false, auth_method: 'password', host_keys: [], mirror_branch_regex: null });
  } },
  { name: 'mirrors.ipv6-literal-refused', clauses: ['mirrors.create.public-accepted'], description: 'a target on a public IPv6 literal is refused as a local address', preHandler(request) {
    if (matches(request, { route: MIRROR_ROUTES.create }) && /^[a-z]+:\/\/([^@/]*@)?\[/i.test(String(requestParams(request).url ?? ''))) throw validationError({ url: ['is blocked: Requests to the local network are not allowed'] });
  } },
  { name: 'mirrors.invalid-uri-500', clauses: ['mirrors.create.malformed-refused'], description: 'a url that does not parse is a server error (500) instead of a 400', onSend(request, reply, payload) {
    if (!matches(request, { route: MIRROR_ROUTES.create }) || reply.statusCode !== 400 || !payload.includes('URI is invalid')) return payload;
    reply.code(500);
    return JSON.stringify({ message: '500 Internal Server Error' });
  } },
  { name: 'mirrors.boolean-word-ignored', clauses: ['mirrors.params.types'], description: 'a boolean parameter that is no boolean ("maybe") is ignored instead of refused with 400', ...changeParams({ route: [MIRROR_ROUTES.create, MIRROR_ROUTES.update] }, (p, request) => {
    for (const bag of [p, request.query as Json]) {
      for (const name of ['enabled', 'only_protected_branches', 'keep_divergent_refs']) if (typeof bag[name] === 'string' && !['true', 'false', '1', '0', ''].includes(bag[name])) delete bag[name];
    }
  }) },
  { name: 'mirrors.regex-ignored-on-update', level: 'parity', clauses: ['mirrors.regex.accepted'], description: 'mirror_branch_regex is ignored on update (the regex shown stays the old one)', ...dropParams({ route: MIRROR_ROUTES.update }, 'mirror_branch_regex') },
  { name: 'mirrors.invalid-regex-500', clauses: ['mirrors.regex.invalid'], description: 'an invalid mirror_branch_regex is a server error (500) instead of a 400', onSend(request, reply, payload) {
    if (!matches(request, { route: [MIRROR_ROUTES.create, MIRROR_ROUTES.update] }) || reply.statusCode !== 400 || !payload.includes('mirror_branch_regex')) return payload;
    reply.code(500);
    return JSON.stringify({ message: '500 Internal Server Error' });
  } },
  { name: 'mirrors.update-enabled-ignored', clauses: ['mirrors.update.toggle'], description: 'enabled is ignored on update: a mirror cannot be turned on or off', ...dropParams({ route: MIRROR_ROUTES.update }, 'enabled') },
  { name: 'mirrors.update-resets-keep-divergent', clauses: ['mirrors.update.branches'], description: 'an update without keep_divergent_refs sets it to false instead of leaving it', ...changeParams({ route: MIRROR_ROUTES.update }, (p, request) => {
    if (p.keep_divergent_refs === undefined && (request.query as Json).keep_divergent_refs === undefined) p.keep_divergent_refs = false;
  }) },
  { name: 'mirrors.update-url-changed', clauses: ['mirrors.update.url-fixed'], description: 'PUT with url changes the mirror\'s target', onSend(request, reply, payload, ctx) {
    const url = requestParams(request).url;
    if (!matches(request, { route: MIRROR_ROUTES.update }) || reply.statusCode !== 200 || typeof url !== 'string' || url === '') return payload;
    const params = request.params as Json;
    const mirror = ctx.store.findProject(String(params.id))?.remoteMirrors.find((m) => m.id === Number(params.mirror_id));
    if (!mirror) return payload;
    mirror.url = url;
    mirror.credentials = {};
    return JSON.stringify({ ...(JSON.parse(payload) as Json), url });
  } },
  { name: 'mirrors.host-keys-null-500', clauses: ['mirrors.host-keys.types'], description: 'host_keys holding null is a server error (500) instead of a 400', preHandler(request) {
    const keys = requestParams(request).host_keys;
    if (matches(request, { route: [MIRROR_ROUTES.create, MIRROR_ROUTES.update] }) && Array.isArray(keys) && keys.includes(null)) throw apiError(500, '500 Internal Server Error');
  } },
  { name: 'mirrors.finished-without-success-time', clauses: ['mirrors.sync.status'], description: 'a finished push leaves last_successful_update_at null', ...mapBody({ route: [MIRROR_ROUTES.list, MIRROR_ROUTES.get] }, (b) => {
    const unset = (m: Json) => (m.update_status === 'finished' ? { ...m, last_successful_update_at: null } : m);
    return Array.isArray(b) ? b.map(unset) : unset(b);
  }) },
  // mirrors.sync.started-once has no fault (cli/clauses-without-fault.json): one that restarted a push
  // under way was caught only when the suite's read found the push still under way, which a loaded
  // machine's reads did not always (missed in one full fault check of three).
  { name: 'mirrors.empty-repository-sync-refused', clauses: ['mirrors.enabled.computed'], description: 'sync of a mirror shown enabled is refused as disabled when the project\'s repository is empty', ...answerWhen({ route: MIRROR_ROUTES.sync }, (request, ctx) => {
    const params = request.params as Json;
    const project = ctx.store.findProject(String(params.id));
    const mirror = project?.remoteMirrors.find((m) => m.id === Number(params.mirror_id));
    return project !== undefined && project.repository.isEmpty && mirror?.enabled === true;
  }, 400, { message: 'Cannot proceed with the push mirroring. Please verify your mirror configuration.' }) },
  { name: 'mirrors.maintainer-cannot-delete', clauses: ['mirrors.auth.maintainer'], description: 'deleting a mirror takes the Owner role: a Maintainer is refused with 403', ...answerWhen({ route: MIRROR_ROUTES.remove }, (request, ctx) => {
    const project = faultSource(request, ctx);
    const user = callerOf(request, ctx);
    return project !== undefined && user !== undefined && ctx.store.accessLevel(project, user) === ACCESS.MAINTAINER;
  }, 403, { message: '403 Forbidden' }) },
  { name: 'mirrors.hidden-project-403', clauses: ['mirrors.auth.invisible-project'], description: 'a project the caller cannot see answers 403 instead of 404 (the role is checked before visibility)', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: Object.values(MIRROR_ROUTES) }) || reply.statusCode !== 404 || !payload.includes('404 Project Not Found') || !faultSource(request, ctx)) return payload;
    reply.code(403);
    return JSON.stringify({ message: '403 Forbidden' });
  } },
  { name: 'mirrors.form-body-ignored', clauses: ['mirrors.http.form-body'], description: 'a write sent as form fields is read as if it had no parameters', ...formBodyIgnored({ route: [MIRROR_ROUTES.create, MIRROR_ROUTES.update] }) },
  { name: 'mirrors.private-token-query-ignored', level: 'parity', clauses: ['mirrors.http.private-token-query'], description: 'a token in the private_token query parameter is not read: the request is anonymous', ...privateTokenQueryIgnored({ route: Object.values(MIRROR_ROUTES) }) },
];
