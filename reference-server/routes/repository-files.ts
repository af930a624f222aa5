// The nine repository-file endpoint forms, as lib/api/files.rb answers them:
// GET/HEAD file, GET/HEAD blame, GET/HEAD raw, POST, PUT, DELETE. HEAD forms are Fastify's
// automatic HEAD routes: the GET handler runs and only the status and headers are sent.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RepositoryError, type Commit, type FileAtRef, type WriteAction } from '../git/repository.js';
import { parseLfsPointer } from '../git/lfs.js';
import { requireScope, WRITE_API_SCOPES, type Actor } from '../http/auth.js';
import { actorOf, findProject, type Context, type RouteModule } from '../http/context.js';
import { apiError, forbidden, notFound, paramError } from '../http/errors.js';
import { mergedParams, Params } from '../http/params.js';
import { JSON_CONTENT_TYPE } from '../http/gitlab-http.js';
import { ACCESS, type Project, type User } from '../state/model.js';
import type { Store } from '../state/store.js';
import { on, routeTable } from '../http/route-ids.js';

/** The routes of repository-files, by id. */
export const FILE_ROUTES = routeTable({
  get: { method: 'GET', path: '/projects/:id/repository/files/:file_path' },
  blame: { method: 'GET', path: '/projects/:id/repository/files/:file_path/blame' },
  raw: { method: 'GET', path: '/projects/:id/repository/files/:file_path/raw' },
  create: { method: 'POST', path: '/projects/:id/repository/files/:file_path' },
  update: { method: 'PUT', path: '/projects/:id/repository/files/:file_path' },
  remove: { method: 'DELETE', path: '/projects/:id/repository/files/:file_path' },
});

/** Token scopes that may read repository files (lib/api/files.rb `allow_access_with_scope`). */
const READ_FILE_SCOPES = ['api', 'read_api', 'read_repository', 'ai_workflows'];

type FileRoute = { Params: { id: string; file_path: string } };

/** Gitlab::PathTraversal::PATH_TRAVERSAL_REGEX (lib/gitlab/path_traversal.rb). */
const PATH_TRAVERSAL = /(^\.{1,2}$|^\.\.[/\\]|[/\\]\.\.$|[/\\]\.\.[/\\]|\n)/;

/**
 * The `file_path: true` validator on every form, /raw included: no traversal, no absolute path
 * (lib/api/validations/validators/file_path.rb check_allowed_absolute_path!; spec/requests/api/files_spec.rb
 * "when path is absolute" on /raw too: 400). Traversal is Gitlab::PathTraversal's PATH_TRAVERSAL_REGEX
 * (lib/gitlab/path_traversal.rb): `.` or `..` alone, `..` as a segment between `/` or `\`, and a line
 * feed anywhere.
 */
function validFilePath(path: string): string {
  const decoded = cgiUnescape(path);
  // The checks read file_path decoded once more, and a value that a second decoding still changes is
  // refused (lib/gitlab/path_traversal.rb check_path_traversal!; lib/gitlab/utils.rb decode_path).
  if (path === '' || path.includes('\0') || decoded !== cgiUnescape(path, 2) || decoded.startsWith('/') || PATH_TRAVERSAL.test(decoded)) {
    throw paramError('file_path should be a valid file path');
  }
  return path;
}

/** Ruby's CGI.unescape, `times` over: `+` a space, each %XX its byte (on a latin1 string, a character a byte). */
function cgiUnescape(text: string, times = 1): string {
  let bytes = Buffer.from(text, 'utf8').toString('latin1');
  for (let i = 0; i < times; i++) bytes = bytes.replace(/\+/g, ' ').replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return bytes;
}

/**
 * A header value as GitLab's answer carries it: the text's UTF-8 bytes (Grape's `header` hands Rack the
 * string, lib/api/helpers/headers_helpers.rb `set_http_headers`; Puma writes its bytes as they are,
 * lib/puma/request.rb `str_headers`), here each byte a character of a latin1 string, which Node writes
 * byte for byte (a character above U+00FF it refuses: ERR_INVALID_CHAR). null where Puma leaves the
 * header out: a value with a control character but tab (`illegal_header_value?`,
 * ILLEGAL_HEADER_VALUE_REGEX /[\x00-\x08\x0A-\x1F]/). DEL, which Puma writes, Node will not: left out too.
 */
function headerValue(text: string): string | null {
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(text)) return null;
  return ASCII.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Content-Disposition as Rails makes it for the raw form (lib/api/helpers.rb `send_git_blob`:
 * ActionDispatch::Http::ContentDisposition.format, actionpack/lib/action_dispatch/http/content_disposition.rb):
 * `filename` the name transliterated to ASCII (I18n.transliterate: accents dropped, any other character
 * `?`) and percent-escaped but for ` A-Za-z0-9!#$+.^_\`|~-`; `filename*` the UTF-8 bytes percent-escaped
 * but for `A-Za-z0-9!#$&+.^_\`|~-`. All ASCII, whatever the name.
 */
function contentDisposition(disposition: string, fileName: string): string {
  const escape = (text: string, keep: RegExp) => [...text].map((char) => (keep.test(char) ? char : [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''))).join('');
  const ascii = fileName.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x00-\x7f]/gu, '?');
  return `${disposition}; filename="${escape(ascii, /^[ A-Za-z0-9!#$+.^_`|~-]$/)}"; filename*=UTF-8''${escape(fileName, /^[A-Za-z0-9!#$&+.^_`|~-]$/)}`;
}

/**
 * read_code on a project the caller can see, as the repository feature decides (app/policies/project_policy.rb,
 * app/models/project_feature.rb): disabled for everyone; on a private project Reporter and above
 * (PRIVATE_FEATURES_MIN_ACCESS_LEVEL_FOR_PRIVATE_PROJECT); a private feature of a public or internal
 * project for members, Guests included; an enabled one for everyone who sees the project.
 */
export function canReadCode(store: Store, project: Project, user: User | undefined): boolean {
  const feature = project.repositoryAccessLevel ?? 'enabled';
  if (feature === 'disabled') return false;
  if (project.visibility === 'private') return store.accessLevel(project, user) >= ACCESS.REPORTER;
  if (feature === 'private') return store.accessLevel(project, user) >= ACCESS.GUEST;
  return true;
}

/** The fields of GitLab's `blob_data`, in its order (lib/api/files.rb): the body's and the headers'. */
const BLOB_DATA_FIELDS = ['file_name', 'file_path', 'size', 'encoding', 'content_sha256', 'ref', 'blob_id', 'commit_id', 'last_commit_id', 'execute_filemode'] as const;
type BlobDataField = (typeof BLOB_DATA_FIELDS)[number];

/**
 * GitLab's `blob_data` (lib/api/files.rb) of a file at a commit, ready to send: the values of the
 * X-Gitlab-* headers and GET file's JSON body, both but `ref`, the one field from the request.
 */
interface BlobData {
  file: FileAtRef;
  /** The header values, in BLOB_DATA_FIELDS' order (headerValue's); `ref`'s is left undefined. */
  headerValues: (string | null | undefined)[];
  /** A header value holds bytes above 0x7f (the name's, or the path's, in UTF-8): see sentAsBytes. */
  wide: boolean;
  /** The JSON body cut around the value of `ref`, and ending before the content's. */
  bodyBeforeRef: string;
  bodyAfterRef: string;
  /** The last body made, with the ref it names: a run reads a file by the same ref again and again. */
  lastBody?: { ref: string; text: string };
}


/** The read forms' work: who may read, the commit a ref names, and each file's blob_data, made once. */
class BlobReads {
  /** The header of each field (file_name → x-gitlab-file-name), in the lowercase Fastify sends. */
  private readonly headerNames: string[];

  constructor(private readonly ctx: Context) {
    this.headerNames = BLOB_DATA_FIELDS.map((key) => `${ctx.options.headerPrefix}${key.replace(/_/g, '-')}`.toLowerCase());
  }

  readableProject(request: FastifyRequest, id: string): Project {
    const actor = actorOf(this.ctx, request);
    requireScope(actor, READ_FILE_SCOPES);
    const project = findProject(this.ctx, request, id);
    // authorize_read_code! (lib/api/files.rb): a project the caller sees but whose code they may not read is 403.
    if (!canReadCode(this.ctx.store, project, actor.user)) throw forbidden();
    return project;
  }

  resolveCommit(project: Project, ref: string): Commit {
    const commit = project.repository.resolve(ref);
    if (!commit) throw notFound('Commit');
    return commit;
  }

  /**
   * BlobData by commit, then path: made on the first read of a file at a commit, then reused.
   * Never invalidated, because nothing in it can change: a commit's id hashes its tree and history,
   * so the blob at a path, its size, sha256 and mode, and the file's last commit stay what they
   * are. An entry goes when its Commit object does (with a deleted project).
   */
  private readonly blobDataCache = new WeakMap<Commit, Map<string, BlobData>>();

  /** The file at `path` in `commit` with its blob_data; 404 "File Not Found" when there is none. */
  fileAt(project: Project, commit: Commit, path: string): BlobData {
    let byPath = this.blobDataCache.get(commit);
    if (!byPath) this.blobDataCache.set(commit, (byPath = new Map()));
    let data = byPath.get(path);
    if (!data) {
      const file = project.repository.readFile(commit, path);
      if (!file) throw notFound('File');
      byPath.set(path, (data = this.blobData(project, file)));
    }
    return data;
  }

  blobData(project: Project, file: FileAtRef): BlobData {
    const values: Record<BlobDataField, string | number | boolean | undefined> = {
      file_name: file.path.split('/').pop()!,
      file_path: file.path,
      size: file.content.length,
      encoding: 'base64',
      content_sha256: project.repository.contentSha256(file.blobId),
      ref: undefined,
      blob_id: file.blobId,
      commit_id: file.commit.id,
      last_commit_id: project.repository.lastCommitFor(file.commit, file.path).id,
      execute_filemode: file.mode === '100755',
    };
    // Member by member, as JSON.stringify writes an object: "key":value, joined by commas.
    const members = BLOB_DATA_FIELDS.map((key) => `${JSON.stringify(key)}:${JSON.stringify(values[key])}`);
    const ref = BLOB_DATA_FIELDS.indexOf('ref');
    const headerValues = BLOB_DATA_FIELDS.map((key) => (key === 'ref' ? undefined : headerValue(String(values[key]))));
    return {
      file,
      headerValues,
      wide: headerValues.some((v) => v !== undefined && v !== null && !ASCII.test(v)),
      bodyBeforeRef: `{${members.slice(0, ref).join(',')},"ref":`,
      bodyAfterRef: `,${members.slice(ref + 1).join(',')},"content":`,
    };
  }

  /** GET file's body: blob_data and the content, serialized from the parts made once (base64 needs no JSON escaping). */
  fileBody(data: BlobData, ref: string): string {
    if (data.lastBody?.ref !== ref) {
      data.lastBody = { ref, text: `${data.bodyBeforeRef}${JSON.stringify(ref)}${data.bodyAfterRef}"${data.file.content.toString('base64')}"}` };
    }
    return data.lastBody.text;
  }

  /** Replies with a metadata header of bytes above 0x7f: their body goes as a Buffer (sentAsBytes). */
  private readonly wideReplies = new WeakSet<FastifyReply>();

  /**
   * Node writes the headers with a string body in one piece, in the body's encoding (UTF-8), which
   * would encode again a header's bytes above 0x7f; with a Buffer body they go as they are. A route
   * hook, so that it runs after the server's own (which take string bodies); almost every file's
   * headers are plain ASCII, and its body stays a string.
   */
  readonly sentAsBytes = (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    done(null, typeof payload === 'string' && this.wideReplies.has(reply) ? Buffer.from(payload) : payload);
  };

  setMetadataHeaders(reply: FastifyReply, data: BlobData, ref: string): void {
    for (let i = 0; i < this.headerNames.length; i++) {
      const value = data.headerValues[i] === undefined ? headerValue(ref) : data.headerValues[i];
      if (value !== null) reply.header(this.headerNames[i], value);
    }
    if (data.wide || !ASCII.test(ref)) this.wideReplies.add(reply);
  }

  /** Reads `ref` (required and not blank, as on the file and blame forms) after the path check. */
  requiredRef(params: Params): string {
    const ref = params.string('ref', { required: true, allowBlank: false });
    params.done();
    return ref!;
  }
}

/** GET file, blame and raw. */
const registerReads = (app: FastifyInstance, ctx: Context, reads: BlobReads) => {
  // The read forms are synchronous handlers: Fastify sends what they return at once, without the
  // promise and the turn of the microtask queue of an async handler (GET file is the hottest route).
  on<FileRoute>(app, FILE_ROUTES.get, { onSend: reads.sentAsBytes }, (request, reply) => {
    actorOf(ctx, request);
    const path = validFilePath(request.params.file_path);
    const ref = reads.requiredRef(new Params(mergedParams(request)));
    const project = reads.readableProject(request, request.params.id);
    const data = reads.fileAt(project, reads.resolveCommit(project, ref), path);
    reads.setMetadataHeaders(reply, data, ref);
    reply.type(JSON_CONTENT_TYPE);
    return reads.fileBody(data, ref);
  });

  on<FileRoute>(app, FILE_ROUTES.blame, { onSend: reads.sentAsBytes }, (request, reply) => {
    actorOf(ctx, request);
    const path = validFilePath(request.params.file_path);
    const params = new Params(mergedParams(request));
    const range = readRange(params);
    const ref = reads.requiredRef(params);
    const project = reads.readableProject(request, request.params.id);
    const commit = reads.resolveCommit(project, ref);
    const data = reads.fileAt(project, commit, path);
    if (range && range.start > range.end) throw apiError(400, 'range[start] must be less than or equal to range[end]');
    reads.setMetadataHeaders(reply, data, ref);
    const ranges = project.repository.blame(commit, path);
    return (range ? sliceRanges(ranges, range.start, range.end) : ranges).map((r) => ({ commit: commitEntity(r.commit), lines: r.lines }));
  });

  on<FileRoute>(app, FILE_ROUTES.raw, { onSend: reads.sentAsBytes }, (request, reply) => {
    actorOf(ctx, request);
    const path = validFilePath(request.params.file_path);
    const params = new Params(mergedParams(request));
    // optional :ref, allow_blank: false (lib/api/files.rb): absent reads the default branch, blank is a 400 "ref is empty".
    const ref = params.string('ref', { allowBlank: false });
    const lfs = params.boolean('lfs') ?? false;
    params.done();
    const project = reads.readableProject(request, request.params.id);
    const commit = ref === undefined ? project.repository.branchHead(project.repository.defaultBranch) : reads.resolveCommit(project, ref);
    if (!commit) throw notFound('Commit');
    const data = reads.fileAt(project, commit, path);
    const { file } = data;
    const fileName = path.split('/').pop()!;
    reply.header('Content-Disposition', contentDisposition('inline', fileName));
    // no_cache_headers as GitLab's answer carries them (spec/requests/api/files_spec.rb "sets no-cache headers").
    reply.header('Cache-Control', 'max-age=0, private, must-revalidate, no-store, no-cache');
    reply.header('Expires', 'Fri, 01 Jan 1990 00:00:00 GMT');
    const pointer = lfs ? parseLfsPointer(file.content) : undefined;
    if (pointer) {
      const object = project.repository.lfsObjects.get(pointer.oid);
      if (!object) throw notFound();
      reply.type('application/octet-stream');
      return object;
    }
    reads.setMetadataHeaders(reply, data, ref ?? '');
    reply.type('text/plain; charset=utf-8');
    return file.content;
  });
};

function writableProject(ctx: Context, request: FastifyRequest, actor: Actor, id: string): Project {
  requireScope(actor, WRITE_API_SCOPES);
  const project = findProject(ctx, request, id);
  // authorize! :push_code (lib/api/files.rb; no authenticate! first): a caller without it, anonymous
  // included, is 403 on a project they see (lib/api/helpers.rb authorize!: forbidden!). A disabled
  // repository takes push_code from everyone (app/policies/project_policy.rb, repository_disabled).
  if (!actor.user || project.repositoryAccessLevel === 'disabled') throw forbidden();
  if (ctx.store.accessLevel(project, actor.user) < ACCESS.DEVELOPER) throw forbidden();
  return project;
}

/** A file's create, update or delete: one commit on the branch named. */
function write(ctx: Context, request: FastifyRequest<FileRoute>, kind: WriteAction['kind']) {
  const { store } = ctx;
  const actor = actorOf(ctx, request);
  const path = validFilePath(request.params.file_path);
  const params = new Params(mergedParams(request));
  const branch = params.string('branch', { required: true, allowBlank: false });
  const message = params.string('commit_message', { required: true, allowBlank: false });
  const startBranch = params.string('start_branch');
  const authorEmail = params.string('author_email');
  const authorName = params.string('author_name');
  let content: string | undefined;
  let encoding: string | undefined;
  let executable: boolean | undefined;
  let lastCommitId: string | undefined;
  if (kind !== 'delete') {
    // `content: null` is taken as empty (spec/requests/api/files_spec.rb "when base64 encoding with a nil content": an empty file).
    content = params.raw.content === null ? '' : params.string('content', { required: true });
    encoding = params.string('encoding', { values: ['text', 'base64'] });
    executable = params.boolean('execute_filemode');
    lastCommitId = params.string('last_commit_id');
  }
  params.done();
  const project = writableProject(ctx, request, actor, request.params.id);
  const user = actor.user!;
  if (project.protectedBranches.has(branch!) && store.accessLevel(project, user) < ACCESS.MAINTAINER) {
    throw apiError(400, 'You are not allowed to push into this branch');
  }
  const time = Math.floor(Date.now() / 1000);
  // Gitlab::Git::User.from_gitlab (lib/gitlab/git/user.rb): the committer's address is
  // User#commit_email_or_default, the author's too unless author_email is given.
  const commitEmail = user.commitEmail ?? user.email;
  const committer = { name: user.name, email: commitEmail, time };
  const author = { name: authorName || user.name, email: authorEmail || commitEmail, time };
  const action: WriteAction =
    kind === 'delete'
      ? { kind, path }
      : { kind, path, content: encoding === 'base64' ? Buffer.from(content!, 'base64') : Buffer.from(content!), executable };
  try {
    project.repository.commit({
      branch: branch!,
      startBranch: startBranch || undefined,
      action,
      message: message!,
      author,
      committer,
      lastCommitId: lastCommitId || undefined,
    });
  } catch (error) {
    if (error instanceof RepositoryError) throw apiError(400, error.message);
    throw error;
  }
  return { file_path: path, branch: branch! };
}

export const repositoryFilesRoutes: RouteModule = (app, ctx) => {
  registerReads(app, ctx, new BlobReads(ctx));

  on<FileRoute>(app, FILE_ROUTES.create, async (request, reply) => {
    const result = write(ctx, request, 'create');
    reply.code(201);
    return result;
  });

  on<FileRoute>(app, FILE_ROUTES.update, async (request) => write(ctx, request, 'update'));

  on<FileRoute>(app, FILE_ROUTES.remove, async (request, reply) => {
    write(ctx, request, 'delete');
    reply.code(204);
  });
};

/**
 * `range` is optional, but when either bound is given both are required and must be integers > 0
 * (lib/api/files.rb: requires :start, :end, type: Integer, allow_blank: false, values v > 0): a
 * missing bound is "is missing, … is empty", a blank one "is empty" (spec/requests/api/files_spec.rb
 * "when range is incomplete", "when range is missing").
 */
function readRange(all: Params): { start: number; end: number } | undefined {
  // `optional :range, type: Hash`: Rack makes `range[start]=1&range[end]=2` the hash; JSON sends it as one.
  const range = all.raw.range;
  if (range === undefined) return undefined;
  if (typeof range !== 'object' || range === null || Array.isArray(range)) {
    all.addError('range is invalid');
    return undefined;
  }
  const bounds = range as Record<string, unknown>;
  const params = all.within({ 'range[start]': bounds.start, 'range[end]': bounds.end });
  const bound = (name: string): number | undefined => {
    const value = params.raw[name];
    if (value === undefined || value === null) {
      params.addError(`${name} is missing`);
      params.addError(`${name} is empty`);
      return undefined;
    }
    if (typeof value === 'string' && value.trim() === '') {
      params.addError(`${name} is empty`);
      return undefined;
    }
    return params.integer(name, { required: true, min: 1 });
  };
  const start = bound('range[start]');
  const end = bound('range[end]');
  return start === undefined || end === undefined ? undefined : { start, end };
}

/** Keeps lines `start`..`end` (1-based, inclusive) of the blame ranges; an end past the file is clamped. */
function sliceRanges<T extends { lines: string[] }>(ranges: T[], start: number, end: number): T[] {
  const out: T[] = [];
  let line = 1;
  for (const range of ranges) {
    const first = line;
    const last = line + range.lines.length - 1;
    line = last + 1;
    if (last < start || first > end) continue;
    out.push({ ...range, lines: range.lines.slice(Math.max(start, first) - first, Math.min(end, last) - first + 1) });
  }
  return out;
}

function commitEntity(commit: Commit) {
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  return {
    id: commit.id,
    message: commit.message,
    parent_ids: commit.parentIds,
    authored_date: iso(commit.author.time),
    author_name: commit.author.name,
    author_email: commit.author.email,
    committed_date: iso(commit.committer.time),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
  };
}
