// Push (remote) mirrors of a project, as lib/api/remote_mirrors.rb answers them:
// list, read, create, update, force a sync and delete, and the public key of an SSH mirror (GitLab
// 17.9, beyond the spec's forms). Every form needs admin_remote_mirror (Maintainer and above);
// GitLab's `before` filter refuses others with 401, not 403 (facts §0.4).
import { createHash, createPublicKey, type JsonWebKey } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { READ_API_SCOPES, requireScope, WRITE_API_SCOPES } from '../http/auth.js';
import { actorOf, findProject, type Context, type RouteModule } from '../http/context.js';
import { apiError, notFound, recordNotFound, unauthorized, validationError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { mergedParams, Params } from '../http/params.js';
import { ACCESS, type Project, type RemoteMirror } from '../state/model.js';
import { now, type Store } from '../state/store.js';
import { on, routeTable } from '../http/route-ids.js';
import { newSshPublicKey } from './mirror-ssh-key.js';

/** The routes of remote-mirrors, by id. */
export const MIRROR_ROUTES = routeTable({
  list: { method: 'GET', path: '/projects/:id/remote_mirrors' },
  get: { method: 'GET', path: '/projects/:id/remote_mirrors/:mirror_id' },
  create: { method: 'POST', path: '/projects/:id/remote_mirrors' },
  update: { method: 'PUT', path: '/projects/:id/remote_mirrors/:mirror_id' },
  sync: { method: 'POST', path: '/projects/:id/remote_mirrors/:mirror_id/sync' },
  publicKey: { method: 'GET', path: '/projects/:id/remote_mirrors/:mirror_id/public_key' },
  remove: { method: 'DELETE', path: '/projects/:id/remote_mirrors/:mirror_id' },
});

type ProjectRoute = { Params: { id: string } };
type MirrorRoute = { Params: { id: string; mirror_id: string } };

const AUTH_METHODS = ['ssh_public_key', 'password'] as const;
/** Project::VALID_MIRROR_PROTOCOLS, in the order GitLab's message lists them (spec/requests/api/remote_mirrors_spec.rb "returns error if url is invalid"). */
const MIRROR_SCHEMES = ['http', 'https', 'ssh', 'git'];
/**
 * How long the simulated push takes: long enough that a client sees `started`, as on GitLab, also on
 * a loaded machine (at 50 ms a read after the sync found the push ended under a load of 20, and the
 * suite's check of a sync while the push is under way had nothing to check).
 */
const PUSH_DURATION_MS = 500;

/** A URL split like GitLab stores it: the URL without userinfo, and the credentials apart. */
interface SplitUrl {
  scheme: string;
  rest: string;
  credentials: RemoteMirror['credentials'];
}

/** Splits `scheme://userinfo@host/...` by string, so the URL is shown back exactly as it was given. */
function splitUrl(raw: string): SplitUrl | undefined {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(raw);
  if (!match) return undefined;
  const [, scheme, authority, path] = match;
  const at = authority.lastIndexOf('@');
  if (at < 0) return { scheme, rest: authority + path, credentials: {} };
  const userinfo = authority.slice(0, at);
  const colon = userinfo.indexOf(':');
  const user = colon < 0 ? userinfo : userinfo.slice(0, colon);
  const password = colon < 0 ? undefined : userinfo.slice(colon + 1);
  return {
    scheme,
    rest: authority.slice(at + 1) + path,
    credentials: { ...(user !== '' && { user }), ...(password !== undefined && password !== '' && { password }) },
  };
}

/** A mirror record of an accepted URL, as `project.remote_mirrors.create` leaves it (also the seed's, seed.ts). */
export function newMirror(
  store: Store,
  url: string,
  fields: { enabled?: boolean; authMethod?: RemoteMirror['authMethod']; keepDivergentRefs?: boolean; sshKnownHosts?: string | null },
): RemoteMirror {
  const split = splitUrl(url)!;
  return {
    id: store.id('mirror'),
    url: split.scheme + split.rest,
    credentials: split.credentials,
    enabled: fields.enabled ?? false,
    authMethod: fields.authMethod ?? 'password',
    keepDivergentRefs: fields.keepDivergentRefs ?? false,
    onlyProtectedBranches: false,
    mirrorBranchRegex: null,
    updateStatus: 'none',
    lastError: null,
    lastUpdateAt: null,
    lastUpdateStartedAt: null,
    lastSuccessfulUpdateAt: null,
    sshKnownHosts: fields.sshKnownHosts ?? null,
    pushedRefs: new Map(),
  };
}

/** GitLab's public_url validator with enforce_user (UrlBlocker): the reasons a mirror URL is refused. */
export function urlProblem(raw: string): string | undefined {
  if (raw.trim() === '') return "can't be blank";
  // Parsers disagree on where the host of such a URL is (WHATWG drops tabs, reads \ as /): refuse them.
  if (/[\s\\]/.test(raw)) return 'is blocked: URI is invalid';
  let parsed: URL;
  let host: string;
  try {
    parsed = new URL(raw);
  } catch {
    return 'is blocked: URI is invalid';
  }
  // UrlBlocker's validate_uri checks the scheme before the host: a file:/// URL fails on its scheme.
  if (!MIRROR_SCHEMES.includes(parsed.protocol.slice(0, -1))) return `is blocked: Only allowed schemes are ${MIRROR_SCHEMES.join(', ')}`;
  try {
    // Re-parse the host as http so that numeric forms (127.1, 2130706433) are normalised for every scheme.
    host = new URL(`http://${parsed.host}`).hostname;
  } catch {
    return 'is blocked: URI is invalid';
  }
  if (splitUrl(raw) === undefined || parsed.hostname === '') return 'is blocked: URI is invalid';
  if (parsed.username !== '' && !/^[a-zA-Z0-9]/.test(parsed.username)) return 'is blocked: Username needs to start with an alphanumeric character';
  const local = localAddress(host);
  return local && `is blocked: ${local}`;
}

/** The four bytes of an IPv4 host, also when written as an IPv4-mapped IPv6 address ([::ffff:7f00:1]). */
function ipv4Bytes(host: string): number[] | undefined {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return host.split('.').map(Number);
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/i.exec(host);
  if (!mapped) return undefined;
  const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255];
}

/** Why a (normalised) host is not public: localhost, loopback, private and link-local ranges. */
function localAddress(host: string): string | undefined {
  const v4 = ipv4Bytes(host);
  const v6 = !v4 && host.startsWith('[') ? host.slice(1, -1).toLowerCase() : undefined;
  if (host === 'localhost' || host.endsWith('.localhost') || v6 === '::1' || v6 === '::' || v4?.[0] === 127 || v4?.[0] === 0) {
    return 'Requests to localhost are not allowed';
  }
  const privateV4 = v4 !== undefined && (v4[0] === 10 || (v4[0] === 172 && v4[1] >= 16 && v4[1] <= 31) || (v4[0] === 192 && v4[1] === 168));
  if (privateV4 || /^f[cd]/.test(v6 ?? '')) return 'Requests to the local network are not allowed';
  if ((v4?.[0] === 169 && v4[1] === 254) || /^fe[89ab]/.test(v6 ?? '')) return 'Requests to the link local network are not allowed';
  return undefined;
}

/** `safe_url(allowed_usernames: %w[git])`: user and password become `*****`, except the user `git`. */
function safeUrl(mirror: RemoteMirror): string {
  const { user, password } = mirror.credentials;
  if (user === undefined && password === undefined) return mirror.url;
  const split = splitUrl(mirror.url)!;
  const shownUser = user === undefined ? '' : user === 'git' ? 'git' : '*****';
  return `${split.scheme}${shownUser}${password === undefined ? '' : ':*****'}@${split.rest}`;
}

function mirrorEntity(mirror: RemoteMirror) {
  return {
    id: mirror.id,
    enabled: mirror.enabled,
    url: safeUrl(mirror),
    update_status: mirror.updateStatus,
    last_update_at: mirror.lastUpdateAt,
    last_update_started_at: mirror.lastUpdateStartedAt,
    last_successful_update_at: mirror.lastSuccessfulUpdateAt,
    last_error: mirror.lastError,
    only_protected_branches: mirror.onlyProtectedBranches,
    keep_divergent_refs: mirror.keepDivergentRefs,
    auth_method: mirror.authMethod,
    // expose :ssh_known_hosts_fingerprints, as: :host_keys, using: MirrorHostKey
    host_keys: fingerprintHostKeys(mirror.sshKnownHosts).map((fingerprint) => ({ fingerprint_sha256: fingerprint })),
    // EE entity extension (the reference server is Premium).
    mirror_branch_regex: mirror.mirrorBranchRegex,
  };
}

/** The parameters of the branch selection, shared by create and update (EE helper: mutually exclusive). */
function readBranchSelection(params: Params): { onlyProtected?: boolean; regex?: string; protectedBlank: boolean } {
  const onlyProtected = params.boolean('only_protected_branches');
  const regex = params.string('mirror_branch_regex');
  // Grape's mutually_exclusive looks at which keys were sent, whatever their values.
  if (params.has('only_protected_branches') && params.has('mirror_branch_regex')) {
    params.addError('only_protected_branches, mirror_branch_regex are mutually exclusive');
  }
  // null, or an empty form value (Grape coerces '' to nil for a Boolean), reaches the model as nil:
  // `validates :only_protected_branches, inclusion: { in: [true, false], message: :blank }`.
  const raw = params.raw.only_protected_branches;
  const last = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return { onlyProtected, regex, protectedBlank: last === null || last === '' };
}

/** The model's validation of only_protected_branches (app/models/remote_mirror.rb). */
const protectedProblem = (selection: { protectedBlank: boolean }) => (selection.protectedBlank ? "can't be blank" : undefined);

// ---- host keys ---------------------------------------------------------------------------------
// `host_keys` (Array[String], lib/api/helpers/remote_mirrors_helpers.rb) becomes the mirror's
// ssh_known_hosts (app/models/remote_mirrors/host_keys_converter.rb); the entity shows the SHA-256
// fingerprint of each valid line (app/models/ssh_host_key.rb fingerprint_host_keys,
// lib/api/entities/mirror_host_key.rb).

/** Gitlab::SSHPublicKey's algorithms (lib/gitlab/ssh_public_key.rb), in its order. */
const SSH_ALGORITHMS = ['ssh-rsa', 'ssh-dss', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'ssh-ed25519', 'sk-ecdsa-sha2-nistp256@openssh.com', 'sk-ssh-ed25519@openssh.com'];
const ALGORITHM_AT = new RegExp(`(?:^|\\s)(${SSH_ALGORITHMS.map((a) => a.replace(/[.]/g, '\\.')).join('|')})(?=\\s|$)`);
const MAX_HOST_KEYS = 10;
/** A line that starts with a host (or several) before the key type (HostKeysConverter::KEY_WITH_HOSTNAME_REGEX). */
const KEY_WITH_HOSTNAME = /^\S+\s+(ssh-|ecdsa-)/;
const EC_CURVES: Record<string, string> = { nistp256: 'P-256', nistp384: 'P-384', nistp521: 'P-521' };

/** Reads the RFC 4253 fields of a key blob; undefined when they run past its end. */
class BlobReader {
  private at = 0;
  constructor(private readonly blob: Buffer) {}
  bytes(): Buffer | undefined {
    if (this.at + 4 > this.blob.length) return undefined;
    const length = this.blob.readUInt32BE(this.at);
    if (this.at + 4 + length > this.blob.length) return undefined;
    const out = this.blob.subarray(this.at + 4, this.at + 4 + length);
    this.at += 4 + length;
    return out;
  }
  get done(): boolean {
    return this.at === this.blob.length;
  }
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');

function validJwk(jwk: JsonWebKey): boolean {
  try {
    createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    return false;
  }
  return true;
}

/** Whether a key blob is what SSHData::PublicKey.parse_rfc4253 accepts for `algorithm`. */
function validBlob(algorithm: string, blob: Buffer): boolean {
  const r = new BlobReader(blob);
  if (r.bytes()?.toString('latin1') !== algorithm) return false;
  const fields = (n: number) => Array.from({ length: n }, () => r.bytes());
  let ok: boolean;
  if (algorithm === 'ssh-rsa') {
    const [e, n] = fields(2);
    // Fields are read in order, so a read n means a read e. A JWK takes an mpint's leading zero byte as it is.
    ok = n !== undefined && validJwk({ kty: 'RSA', e: b64url(e!), n: b64url(n) });
  } else if (algorithm === 'ssh-dss') {
    ok = fields(4).every((f) => f !== undefined && f.length > 0);
  } else if (algorithm.includes('ecdsa-sha2-')) {
    const [curve, point] = fields(2);
    if (algorithm.startsWith('sk-') && r.bytes() === undefined) return false;
    const crv = curve && EC_CURVES[curve.toString('latin1')];
    const size = point ? (point.length - 1) / 2 : 0;
    ok = crv !== undefined && algorithm.includes(curve!.toString('latin1')) && point![0] === 4 && Number.isInteger(size) &&
      validJwk({ kty: 'EC', crv, x: b64url(point!.subarray(1, 1 + size)), y: b64url(point!.subarray(1 + size)) });
  } else {
    const [key] = fields(1);
    if (algorithm.startsWith('sk-') && r.bytes() === undefined) return false;
    ok = key?.length === 32;
  }
  return ok && r.done;
}

/** The key blob of a public key line, as Gitlab::SSHPublicKey reads it (options or hosts before the type allowed); undefined when invalid. */
function keyBlob(line: string): Buffer | undefined {
  const found = ALGORITHM_AT.exec(line);
  if (!found) return undefined;
  const [algorithm, data] = line.slice(found.index).trim().split(/\s+/);
  // Base64.strict_decode64: the canonical alphabet, padded to a multiple of four.
  if (data === undefined || !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(data)) return undefined;
  const blob = Buffer.from(data, 'base64');
  return validBlob(algorithm, blob) ? blob : undefined;
}

/** Exported for the seeded faults: a host key GitLab accepts (Gitlab::SSHPublicKey#valid?). */
export const validHostKey = (key: string): boolean => keyBlob(key) !== undefined;

/** `SshHostKey.fingerprint_host_keys`: "SHA256:<base64, unpadded>" of each valid line, in order. */
function fingerprintHostKeys(knownHosts: string | null): string[] {
  if (knownHosts === null) return [];
  return knownHosts.split('\n').flatMap((line) => {
    const blob = keyBlob(line);
    return blob ? [`SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`] : [];
  });
}

/**
 * HostKeysConverter#sanitize_key: the key without the padding around its parts, and a key whose
 * Base64 lost its "+" to a form decoder (spaces instead) restored.
 */
function sanitizeKey(key: string): string {
  const found = ALGORITHM_AT.exec(key);
  if (!found) return key;
  const prefix = key.slice(0, found.index).trim();
  const rest = key.slice(found.index).trim().slice(found[1].length).trim();
  // key_data.tr(' ', '+'), where that makes a valid key (a comment after the key keeps its space).
  const restored = rest.replace(/ /g, '+');
  const restoresKey = validHostKey(`${found[1]} ${restored}`);
  const data = restoresKey ? restored : rest;
  return [prefix, found[1], data].filter((part) => part !== '').join(' ');
}

/**
 * The host a bare key is listed under: the url's host, "[host]:port" for a port other than 22;
 * undefined for a url without a host or one that does not parse (a space in the host, as
 * Addressable refuses it: spec/models/remote_mirrors/host_keys_converter_spec.rb).
 */
function knownHostsHost(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.hostname === '') return undefined;
  return parsed.port === '' || parsed.port === '22' ? parsed.hostname : `[${parsed.hostname}]:${parsed.port}`;
}

const invalidHostKeys = (keys: string[]) => apiError(400, `Invalid SSH host key(s): ${keys.join(', ')}`);

/** HostKeysConverter#to_ssh_known_hosts!: the known_hosts text (null for none), or the 400 of an invalid key. */
function toKnownHosts(hostKeys: string[] | null, url: string): string | null {
  if (hostKeys === null) return null;
  if (hostKeys.length > MAX_HOST_KEYS) throw invalidHostKeys([`too many host keys (maximum is ${MAX_HOST_KEYS})`]);
  const keys = hostKeys.map((key) => sanitizeKey(key.trim()));
  const invalid = keys.filter((key) => key !== '' && !validHostKey(key));
  if (invalid.length > 0) throw invalidHostKeys(invalid);
  const lines = keys.filter((key) => key !== '').map((key) => {
    if (KEY_WITH_HOSTNAME.test(key)) return key;
    const host = knownHostsHost(url);
    if (host === undefined) throw invalidHostKeys(['cannot determine hostname from URL for bare key']);
    return `${host} ${key}`;
  });
  return lines.length > 0 ? lines.join('\n') : null;
}

/**
 * `optional :host_keys, type: Array[String]`: undefined when not sent, null (clears, as an empty
 * array) when sent as null. A form's or query's `host_keys[]` arrives as the array (rack-params.ts). Grape's coercion: an empty string
 * is an empty array (dry-types Params::Array), any other value that is not an array is refused, and
 * so is an array holding null (ArrayCoercer#reject?), an array or an object (PrimitiveCoercer#reject?);
 * numbers and booleans become their text (Coercible::String).
 */
function readHostKeys(params: Params): string[] | null | undefined {
  const raw = params.raw.host_keys;
  if (raw === undefined || raw === null) return raw;
  if (raw === '') return [];
  if (Array.isArray(raw) && raw.every((key) => ['string', 'number', 'boolean'].includes(typeof key))) return raw.map(String);
  params.addError('host_keys is invalid');
  return undefined;
}

/** The model's untrusted_regexp validation of mirror_branch_regex. */
function regexProblem(regex: string | undefined): string | undefined {
  if (regex === undefined) return undefined;
  try {
    new RegExp(regex);
    return undefined;
  } catch (error) {
    return `not valid RE2 syntax: ${(error as Error).message}`;
  }
}

function applyBranchSelection(mirror: RemoteMirror, selection: { onlyProtected?: boolean; regex?: string }): void {
  if (selection.onlyProtected !== undefined) mirror.onlyProtectedBranches = selection.onlyProtected;
  if (selection.regex !== undefined) {
    mirror.mirrorBranchRegex = selection.regex === '' ? null : selection.regex;
    // A regex replaces protected-only mirroring (ee/lib/ee/api/helpers/remote_mirrors_helpers.rb).
    if (mirror.mirrorBranchRegex !== null) mirror.onlyProtectedBranches = false;
  }
}

/** Throws the model's validation errors, `{"message": {"field": [...]}}`, when there are any. */
function throwInvalid(problems: Record<string, string | undefined>): void {
  const fields = Object.fromEntries(Object.entries(problems).filter(([, text]) => text !== undefined).map(([field, text]) => [field, [text!]]));
  if (Object.keys(fields).length > 0) throw validationError(fields);
}

/** The simulated push: the selected branches land on the target, then the mirror reads `finished`. */
function push(project: Project, mirror: RemoteMirror): void {
  const regex = mirror.mirrorBranchRegex === null ? undefined : new RegExp(mirror.mirrorBranchRegex);
  const selected = [...project.repository.branches].filter(([name]) =>
    mirror.onlyProtectedBranches ? project.protectedBranches.has(name) : regex ? regex.test(name) : true,
  );
  // Without keep_divergent_refs the target becomes exactly the selection; with it, refs the
  // target has beyond the source are left alone.
  if (!mirror.keepDivergentRefs) mirror.pushedRefs.clear();
  for (const [name, commitId] of selected) mirror.pushedRefs.set(name, commitId);
  const finishedAt = now();
  mirror.updateStatus = 'finished';
  mirror.lastError = null;
  mirror.lastUpdateAt = finishedAt;
  mirror.lastSuccessfulUpdateAt = finishedAt;
}

/** MirrorAuthentication#ssh_key_auth?: an ssh:// url and auth_method ssh_public_key. */
const sshKeyAuth = (mirror: RemoteMirror) => mirror.url.startsWith('ssh://') && mirror.authMethod === 'ssh_public_key';

/** Scope, then `find_project!` (404), then admin_remote_mirror (401), as GitLab orders them. */
function mirrorProject(ctx: Context, request: FastifyRequest<ProjectRoute>, scopes: readonly string[]): Project {
  const actor = actorOf(ctx, request);
  requireScope(actor, scopes);
  const project = findProject(ctx, request, request.params.id);
  if (ctx.store.accessLevel(project, actor.user) < ACCESS.MAINTAINER) throw unauthorized();
  return project;
}

/** `remote_mirrors.find(mirror_id)`: an unknown or non-numeric id is a RecordNotFound. */
function findMirror(project: Project, id: string): RemoteMirror {
  const mirror = /^\d+$/.test(id) ? project.remoteMirrors.find((m) => m.id === Number(id)) : undefined;
  if (!mirror) throw recordNotFound();
  return mirror;
}

export const remoteMirrorsRoutes: RouteModule = (app, ctx) => {
  const { store } = ctx;
  /** The SSH key of each mirror that has needed one; kept beside the store, never shown but by …/public_key. */
  const sshKeys = new WeakMap<RemoteMirror, Promise<string>>();

  on<ProjectRoute>(app, MIRROR_ROUTES.list, async (request, reply) => {
    const project = mirrorProject(ctx, request, READ_API_SCOPES);
    const mirrors = [...project.remoteMirrors].sort((a, b) => a.id - b.id);
    return paginate(request, reply, mirrors, new Params(mergedParams(request))).map(mirrorEntity);
  });

  on<MirrorRoute>(app, MIRROR_ROUTES.get, async (request) => {
    const project = mirrorProject(ctx, request, READ_API_SCOPES);
    return mirrorEntity(findMirror(project, request.params.mirror_id));
  });

  on<ProjectRoute>(app, MIRROR_ROUTES.create, async (request, reply) => {
    const project = mirrorProject(ctx, request, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    const url = params.string('url', { required: true });
    const enabled = params.boolean('enabled');
    const authMethod = params.string('auth_method', { values: AUTH_METHODS });
    const keepDivergentRefs = params.boolean('keep_divergent_refs');
    const selection = readBranchSelection(params);
    const hostKeys = readHostKeys(params);
    params.done();
    // build_mirror_params converts host_keys before the model validates anything (bare keys take the host of the url as given).
    const sshKnownHosts = hostKeys === undefined ? null : toKnownHosts(hostKeys, url!);
    throwInvalid({ url: urlProblem(url!), only_protected_branches: protectedProblem(selection), mirror_branch_regex: regexProblem(selection.regex) });

    const mirror = newMirror(store, url!, { enabled, authMethod: authMethod as RemoteMirror['authMethod'] | undefined, keepDivergentRefs, sshKnownHosts });
    applyBranchSelection(mirror, selection);
    project.remoteMirrors.push(mirror);
    reply.code(201);
    return mirrorEntity(mirror);
  });

  on<MirrorRoute>(app, MIRROR_ROUTES.update, async (request) => {
    const project = mirrorProject(ctx, request, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    // `url` is not declared on update: GitLab drops it, so the target cannot be changed here.
    const enabled = params.boolean('enabled');
    const authMethod = params.string('auth_method');
    const keepDivergentRefs = params.boolean('keep_divergent_refs');
    const selection = readBranchSelection(params);
    const hostKeys = readHostKeys(params);
    params.done();
    const mirror = findMirror(project, request.params.mirror_id);
    // Bare host keys take the host of the mirror's url. Left out, the stored keys stay; [] or null clears them.
    const sshKnownHosts = hostKeys === undefined ? mirror.sshKnownHosts : toKnownHosts(hostKeys, mirror.url);
    // No Grape `values` on update: the model's inclusion validation refuses other methods.
    const badMethod = authMethod !== undefined && !(AUTH_METHODS as readonly string[]).includes(authMethod);
    throwInvalid({ auth_method: badMethod ? 'is not included in the list' : undefined, only_protected_branches: protectedProblem(selection), mirror_branch_regex: regexProblem(selection.regex) });

    mirror.sshKnownHosts = sshKnownHosts;
    if (enabled !== undefined) mirror.enabled = enabled;
    if (keepDivergentRefs !== undefined) mirror.keepDivergentRefs = keepDivergentRefs;
    if (authMethod !== undefined) mirror.authMethod = authMethod as RemoteMirror['authMethod'];
    applyBranchSelection(mirror, selection);
    return mirrorEntity(mirror);
  });

  on<MirrorRoute>(app, MIRROR_ROUTES.sync, async (request, reply) => {
    const project = mirrorProject(ctx, request, WRITE_API_SCOPES);
    const mirror = findMirror(project, request.params.mirror_id);
    if (!mirror.enabled) throw apiError(400, 'Cannot proceed with the push mirroring. Please verify your mirror configuration.');
    // A push already under way is not scheduled again.
    if (mirror.updateStatus !== 'started') {
      mirror.updateStatus = 'started';
      mirror.lastUpdateStartedAt = now();
      setTimeout(() => push(project, mirror), PUSH_DURATION_MS).unref();
    }
    reply.code(204);
  });

  // Beyond the spec's forms (GitLab 17.9): `not_found! unless mirror.ssh_key_auth?`, then
  // `{ public_key: mirror.ssh_public_key }`, whose comment is git@<the instance's host>.
  on<MirrorRoute>(app, MIRROR_ROUTES.publicKey, async (request) => {
    const project = mirrorProject(ctx, request, READ_API_SCOPES);
    const mirror = findMirror(project, request.params.mirror_id);
    if (!sshKeyAuth(mirror)) throw notFound();
    let key = sshKeys.get(mirror);
    if (key === undefined) sshKeys.set(mirror, (key = newSshPublicKey()));
    return { public_key: `${await key} git@${request.hostname}` };
  });

  on<MirrorRoute>(app, MIRROR_ROUTES.remove, async (request, reply) => {
    const project = mirrorProject(ctx, request, WRITE_API_SCOPES);
    const mirror = findMirror(project, request.params.mirror_id);
    project.remoteMirrors.splice(project.remoteMirrors.indexOf(mirror), 1);
    reply.code(204);
  });
};
