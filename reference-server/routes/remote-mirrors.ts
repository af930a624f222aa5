// Push (remote) mirrors of a project, as lib/api/remote_mirrors.rb answers them (gitlab-facts §2):
// list, read, create, update, force a sync and delete. Every form needs admin_remote_mirror
// (Maintainer and above); GitLab's `before` filter refuses others with 401, not 403 (facts §0.4).
import type { FastifyRequest } from 'fastify';
import { READ_API_SCOPES, requireScope, WRITE_API_SCOPES } from '../http/auth.js';
import { actorOf, findProject, type RouteModule } from '../http/context.js';
import { apiError, recordNotFound, unauthorized, validationError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { mergedParams, Params } from '../http/params.js';
import { ACCESS, type Project, type RemoteMirror } from '../state/model.js';
import { now } from '../state/store.js';

type ProjectRoute = { Params: { id: string } };
type MirrorRoute = { Params: { id: string; mirror_id: string } };

const AUTH_METHODS = ['ssh_public_key', 'password'] as const;
/** Project::VALID_MIRROR_PROTOCOLS, in the order GitLab's message lists them. */
const MIRROR_SCHEMES = ['ssh', 'git', 'http', 'https'];
/** How long the simulated push takes: long enough that a client sees `started`, as on GitLab. */
const PUSH_DURATION_MS = 50;

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
  // Stryker disable next-line EqualityOperator: an empty userinfo (https://@host) is the only difference; GitLab's display of it is unconfirmed
  if (at < 0) return { scheme, rest: authority + path, credentials: {} };
  const userinfo = authority.slice(0, at);
  const colon = userinfo.indexOf(':');
  // Stryker disable next-line EqualityOperator: differs only for an empty user (https://:secret@host), whose display on GitLab is unconfirmed
  const user = colon < 0 ? userinfo : userinfo.slice(0, colon);
  // Stryker disable next-line EqualityOperator,MethodExpression,ArithmeticOperator: the password is only ever shown as *****; an empty user or password, whose display on GitLab is unconfirmed, is the only visible difference
  const password = colon < 0 ? undefined : userinfo.slice(colon + 1);
  return {
    scheme,
    rest: authority.slice(at + 1) + path,
    // Stryker disable next-line ConditionalExpression,StringLiteral,LogicalOperator: differs only for an empty user or password in the url, whose display on GitLab is unconfirmed
    credentials: { ...(user !== '' && { user }), ...(password !== undefined && password !== '' && { password }) },
  };
}

/** GitLab's public_url validator with enforce_user (UrlBlocker): the reasons a mirror URL is refused. */
function urlProblem(raw: string): string | undefined {
  // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: a blank url is refused as invalid by the next checks anyway; only the (unconfirmed) wording differs
  if (raw.trim() === '') return "can't be blank";
  // Parsers disagree on where the host of such a URL is (WHATWG drops tabs, reads \ as /): refuse them.
  if (/[\s\\]/.test(raw)) return 'is blocked: URI is invalid';
  let parsed: URL;
  let host: string;
  try {
    parsed = new URL(raw);
    // Re-parse the host as http so that numeric forms (127.1, 2130706433) are normalised for every scheme.
    host = new URL(`http://${parsed.host}`).hostname;
  } catch {
    return 'is blocked: URI is invalid';
  }
  if (splitUrl(raw) === undefined || parsed.hostname === '') return 'is blocked: URI is invalid';
  if (!MIRROR_SCHEMES.includes(parsed.protocol.slice(0, -1))) return `is blocked: Only allowed schemes are ${MIRROR_SCHEMES.join(', ')}`;
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
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: differs only for host names GitLab resolves by DNS (the reference server does not), never for an address literal
  const v6 = !v4 && host.startsWith('[') ? host.slice(1, -1).toLowerCase() : undefined;
  if (host === 'localhost' || host.endsWith('.localhost') || v6 === '::1' || v6 === '::' || v4?.[0] === 127 || v4?.[0] === 0) {
    return 'Requests to localhost are not allowed';
  }
  const privateV4 = v4 !== undefined && (v4[0] === 10 || (v4[0] === 172 && v4[1] >= 16 && v4[1] <= 31) || (v4[0] === 192 && v4[1] === 168));
  if (privateV4 || (v6 !== undefined && /^f[cd]/.test(v6))) return 'Requests to the local network are not allowed';
  if ((v4?.[0] === 169 && v4[1] === 254) || (v6 !== undefined && /^fe[89ab]/.test(v6))) return 'Requests to the link local network are not allowed';
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
    host_keys: [],
    // EE entity extension (the reference server is Premium).
    mirror_branch_regex: mirror.mirrorBranchRegex,
  };
}

/** The parameters of the branch selection, shared by create and update (EE helper: mutually exclusive). */
function readBranchSelection(params: Params): { onlyProtected?: boolean; regex?: string } {
  const onlyProtected = params.boolean('only_protected_branches');
  const regex = params.string('mirror_branch_regex');
  // Grape's mutually_exclusive looks at which keys were sent, whatever their values.
  if (params.has('only_protected_branches') && params.has('mirror_branch_regex')) {
    params.addError('only_protected_branches, mirror_branch_regex are mutually exclusive');
  }
  return { onlyProtected, regex };
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
    // Stryker disable next-line StringLiteral: whether GitLab stores an empty mirror_branch_regex as null or "" is unconfirmed
    mirror.mirrorBranchRegex = selection.regex === '' ? null : selection.regex;
    // A regex replaces protected-only mirroring (EE helper, gitlab-facts §2).
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
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the refs a push leaves on the target are not observable through the API
  const regex = mirror.mirrorBranchRegex === null ? undefined : new RegExp(mirror.mirrorBranchRegex);
  // Stryker disable next-line MethodExpression,ArrayDeclaration,ArrowFunction: the refs a push leaves on the target are not observable through the API
  const selected = [...project.repository.branches].filter(([name]) =>
    // Stryker disable next-line BooleanLiteral: the refs a push leaves on the target are not observable through the API
    mirror.onlyProtectedBranches ? project.protectedBranches.has(name) : regex ? regex.test(name) : true,
  );
  // Without keep_divergent_refs the target becomes exactly the selection; with it, refs the
  // target has beyond the source are left alone.
  // Stryker disable next-line BooleanLiteral,ConditionalExpression: the refs a push leaves on the target are not observable through the API
  if (!mirror.keepDivergentRefs) mirror.pushedRefs.clear();
  for (const [name, commitId] of selected) mirror.pushedRefs.set(name, commitId);
  const finishedAt = now();
  mirror.updateStatus = 'finished';
  mirror.lastError = null;
  mirror.lastUpdateAt = finishedAt;
  mirror.lastSuccessfulUpdateAt = finishedAt;
}

export const remoteMirrorsRoutes: RouteModule = (app, ctx) => {
  const { store } = ctx;

  /** Scope, then `find_project!` (404), then admin_remote_mirror (401), as GitLab orders them. */
  function mirrorProject(request: FastifyRequest<ProjectRoute>, scopes: readonly string[]): Project {
    const actor = actorOf(ctx, request);
    requireScope(actor, scopes);
    const project = findProject(ctx, request, request.params.id);
    if (store.accessLevel(project, actor.user) < ACCESS.MAINTAINER) throw unauthorized();
    return project;
  }

  /** `remote_mirrors.find(mirror_id)`: an unknown or non-numeric id is a RecordNotFound. */
  function findMirror(project: Project, id: string): RemoteMirror {
    const mirror = /^\d+$/.test(id) ? project.remoteMirrors.find((m) => m.id === Number(id)) : undefined;
    if (!mirror) throw recordNotFound();
    return mirror;
  }

  app.get<ProjectRoute>('/projects/:id/remote_mirrors', async (request, reply) => {
    const project = mirrorProject(request, READ_API_SCOPES);
    // Stryker disable next-line MethodExpression,ArrowFunction,ArithmeticOperator: mirrors are appended with increasing ids, so the list is already in id order
    const mirrors = [...project.remoteMirrors].sort((a, b) => a.id - b.id);
    return paginate(request, reply, mirrors, new Params(mergedParams(request))).map(mirrorEntity);
  });

  app.get<MirrorRoute>('/projects/:id/remote_mirrors/:mirror_id', async (request) => {
    const project = mirrorProject(request, READ_API_SCOPES);
    return mirrorEntity(findMirror(project, request.params.mirror_id));
  });

  app.post<ProjectRoute>('/projects/:id/remote_mirrors', async (request, reply) => {
    const project = mirrorProject(request, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    const url = params.string('url', { required: true });
    const enabled = params.boolean('enabled');
    const authMethod = params.string('auth_method', { values: AUTH_METHODS });
    const keepDivergentRefs = params.boolean('keep_divergent_refs');
    const selection = readBranchSelection(params);
    params.done();
    throwInvalid({ url: urlProblem(url!), mirror_branch_regex: regexProblem(selection.regex) });

    const split = splitUrl(url!)!;
    const mirror: RemoteMirror = {
      id: store.id('mirror'),
      url: split.scheme + split.rest,
      credentials: split.credentials,
      enabled: enabled ?? false,
      authMethod: (authMethod as RemoteMirror['authMethod'] | undefined) ?? 'password',
      keepDivergentRefs: keepDivergentRefs ?? false,
      onlyProtectedBranches: false,
      mirrorBranchRegex: null,
      updateStatus: 'none',
      lastError: null,
      lastUpdateAt: null,
      lastUpdateStartedAt: null,
      lastSuccessfulUpdateAt: null,
      pushedRefs: new Map(),
    };
    applyBranchSelection(mirror, selection);
    project.remoteMirrors.push(mirror);
    reply.code(201);
    return mirrorEntity(mirror);
  });

  app.put<MirrorRoute>('/projects/:id/remote_mirrors/:mirror_id', async (request) => {
    const project = mirrorProject(request, WRITE_API_SCOPES);
    const params = new Params(mergedParams(request));
    // `url` is not declared on update: GitLab drops it, so the target cannot be changed here.
    const enabled = params.boolean('enabled');
    const authMethod = params.string('auth_method');
    const keepDivergentRefs = params.boolean('keep_divergent_refs');
    const selection = readBranchSelection(params);
    params.done();
    const mirror = findMirror(project, request.params.mirror_id);
    // No Grape `values` on update: the model's inclusion validation refuses other methods.
    const badMethod = authMethod !== undefined && !(AUTH_METHODS as readonly string[]).includes(authMethod);
    throwInvalid({ auth_method: badMethod ? 'is not included in the list' : undefined, mirror_branch_regex: regexProblem(selection.regex) });

    if (enabled !== undefined) mirror.enabled = enabled;
    if (keepDivergentRefs !== undefined) mirror.keepDivergentRefs = keepDivergentRefs;
    if (authMethod !== undefined) mirror.authMethod = authMethod as RemoteMirror['authMethod'];
    applyBranchSelection(mirror, selection);
    return mirrorEntity(mirror);
  });

  app.post<MirrorRoute>('/projects/:id/remote_mirrors/:mirror_id/sync', async (request, reply) => {
    const project = mirrorProject(request, WRITE_API_SCOPES);
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

  app.delete<MirrorRoute>('/projects/:id/remote_mirrors/:mirror_id', async (request, reply) => {
    const project = mirrorProject(request, WRITE_API_SCOPES);
    const mirror = findMirror(project, request.params.mirror_id);
    project.remoteMirrors.splice(project.remoteMirrors.indexOf(mirror), 1);
    reply.code(204);
  });
};
