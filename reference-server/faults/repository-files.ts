// The seeded faults of the repository-files area (reference-server/areas.ts registers them with its
// routes): wrong fields and headers of a file, ignored parameters, wrong statuses and leaks.
import { createHash } from 'node:crypto';
import { answer, changeParams, dropParams, mapBody, matches, status, type When } from './dsl.js';
import type { AreaFault, SeededFault } from './types.js';
import { authenticate } from '../http/auth.js';
import { apiError, notFound } from '../http/errors.js';
import { unchangedUpdate } from '../routes/unchanged-update.js';
import { ACCESS } from '../state/model.js';
import type { Project } from '../state/model.js';
import { actAtLevel, callerOf, faultSource, formBodyIgnored, privateTokenQueryIgnored, requestParams, withHeaders, type Json } from './shared.js';
import { validRefName } from '../git/ref-name.js';
import { FILE_ROUTES } from '../routes/repository-files.js';


/** The file a raw request names, at its ref or the default branch, answered as text (for faults that leak it). */
function rawFileOf(project: Project, request: Parameters<NonNullable<SeededFault['onSend']>>[0], reply: Parameters<NonNullable<SeededFault['onSend']>>[1]): string | undefined {
  const ref = (request.query as Json | undefined)?.ref;
  const commit = typeof ref === 'string' && ref !== '' ? project.repository.resolve(ref) : project.repository.branchHead(project.repository.defaultBranch);
  const found = commit && project.repository.readFile(commit, String((request.params as Json).file_path));
  if (!found) return undefined;
  reply.code(200).header('content-type', 'text/plain; charset=utf-8');
  return found.content.toString('utf8');
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

export const repositoryFilesFaults: AreaFault[] = [
  { name: 'files.blob-id-wrong', clauses: ['files.file.blob-id'], description: 'blob_id is not the git blob id (SHA-1 of the content, not of the blob object)', ...mapBody({ route: FILE_ROUTES.get }, (b) => ({ ...b, blob_id: createHash('sha1').update(Buffer.from(String(b.content), 'base64')).digest('hex') })) },
  { name: 'files.sha256-of-base64', clauses: ['files.file.content-sha256'], description: 'content_sha256 hashes the Base64 text instead of the bytes', ...mapBody({ route: FILE_ROUTES.get }, (b) => ({ ...b, content_sha256: createHash('sha256').update(String(b.content)).digest('hex') })) },
  { name: 'files.size-off-by-one', clauses: ['files.file.content-base64'], description: 'size counts one byte too many', ...mapBody({ route: FILE_ROUTES.get }, (b) => ({ ...b, size: Number(b.size) + 1 })) },
  { name: 'files.commit-id-is-last-commit', clauses: ['files.file.commit-id'], description: 'commit_id is the last commit of the file instead of the commit ref resolves to', ...mapBody({ route: FILE_ROUTES.get }, (b) => ({ ...b, commit_id: b.last_commit_id })) },
  { name: 'files.execute-filemode-string', clauses: ['files.file.shape', 'files.file.execute-filemode'], description: 'execute_filemode is the string "false"/"true" instead of a boolean', ...mapBody({ route: FILE_ROUTES.get }, (b) => ({ ...b, execute_filemode: String(b.execute_filemode) })) },
  { name: 'files.ref-not-echoed', clauses: ['files.file.ref'], description: 'ref answers the resolved commit id instead of the requested ref', ...mapBody({ route: FILE_ROUTES.get }, (b) => ({ ...b, ref: b.commit_id })) },
  { name: 'files.header-last-commit-missing', clauses: ['files.file.headers'], description: 'GET and HEAD of a file lack the Last-Commit-Id metadata header', ...withHeaders(['x-gitlab-last-commit-id'], { route: FILE_ROUTES.get, method: ['GET', 'HEAD'] }) },
  { name: 'files.traversal-normalised', clauses: ['files.write.traversal'], description: 'a file_path with ".." is normalised and served instead of being refused', ...changeParams({ route: [FILE_ROUTES.get, FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] }, (_p, request) => {
    const params = request.params as Json;
    const path = String(params.file_path ?? '');
    if (path.split('/').includes('..')) params.file_path = path.split('/').filter((s) => s !== '..' && s !== '').join('/') || 'README.md';
  }) },
  { name: 'files.path-checked-undecoded', level: 'parity', clauses: ['files.path.decoded-traversal'], description: 'file_path is checked as sent, not decoded once more: an encoded traversal, line feed or leading slash, or a double encoding, passes (and reads as a missing file)', ...changeParams({ method: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'], route: [FILE_ROUTES.get, FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove, FILE_ROUTES.raw] }, (_p, request) => {
    const params = request.params as Json;
    const path = String(params.file_path ?? '');
    if (/%[0-9a-f]{2}/i.test(path)) params.file_path = path.replace(/%/g, '_');
  }) },
  { name: 'files.branch-ref-prefix-stripped', level: 'parity', clauses: ['files.write.branch-name-ref-prefix'], description: 'a new branch named refs/heads/<name> is made as <name> instead of being refused', ...changeParams({ route: [FILE_ROUTES.create, FILE_ROUTES.update] }, (p) => {
    if (typeof p.start_branch === 'string' && typeof p.branch === 'string' && p.branch.startsWith('refs/heads/')) p.branch = p.branch.slice('refs/heads/'.length);
  }) },
  { name: 'files.raw-ignores-ref', clauses: ['files.raw.default-ref', 'files.raw.content'], description: 'raw always reads the default branch, whatever ref says', ...dropParams({ route: FILE_ROUTES.raw }, 'ref') },
  { name: 'files.blame-range-ignored', clauses: ['files.blame.range', 'files.blame.range-validation'], description: 'blame ignores range[start] and range[end]', ...dropParams({ route: FILE_ROUTES.blame }, 'range[start]', 'range[end]', 'range') },
  { name: 'files.blame-not-grouped', clauses: ['files.blame.shape'], description: 'blame answers one range per line instead of grouping lines of one commit', ...mapBody({ route: FILE_ROUTES.blame }, (b) => (Array.isArray(b) ? b.flatMap((r) => (r.lines as string[]).map((line) => ({ ...r, lines: [line] }))) : undefined)) },
  { name: 'files.create-200', clauses: ['files.create.commit'], description: 'create answers 200 instead of 201', ...status({ route: FILE_ROUTES.create }, 201, 200) },
  { name: 'files.delete-keeps-file', clauses: ['files.delete.commit', 'files.delete.missing'], description: 'delete answers 204 without deleting the file', ...answer({ route: FILE_ROUTES.remove }, 204) },
  { name: 'files.update-ignores-last-commit-id', clauses: ['files.update.last-commit-id'], description: 'update ignores last_commit_id, so a stale editor overwrites newer content', ...dropParams({ route: FILE_ROUTES.update }, 'last_commit_id') },
  { name: 'files.encoding-ignored', clauses: ['files.create.encoding'], description: 'encoding=base64 is ignored: the Base64 text is stored as it is', ...dropParams({ route: [FILE_ROUTES.create, FILE_ROUTES.update] }, 'encoding') },
  { name: 'files.ref-defaults-to-head', clauses: ['files.get.ref-required'], description: 'a missing ref is taken as HEAD instead of refused', ...changeParams({ route: FILE_ROUTES.get, method: ['GET', 'HEAD'] }, (p, request) => {
    if ((request.query as Json).ref === undefined && p.ref === undefined) p.ref = 'HEAD';
  }) },
  { name: 'files.errors-as-text', clauses: ['files.errors.shape'], description: '404 answers are plain text instead of GitLab\'s JSON error body', onSend(request, reply, payload) {
    if (!matches(request, { route: FILE_ROUTES.get }) || reply.statusCode !== 404) return payload;
    reply.header('content-type', 'text/plain; charset=utf-8');
    return 'Not Found';
  } },
  { name: 'files.guest-reads-private', clauses: ['files.read.role'], description: 'a Guest of a private project reads files (403 turned into the file)', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: FILE_ROUTES.raw }) || reply.statusCode !== 403) return payload;
    const project = ctx.store.findProject(String((request.params as Json).id));
    const head = project?.repository.branchHead(project.repository.defaultBranch);
    const found = head && project!.repository.readFile(head, String((request.params as Json).file_path));
    if (!found) return payload;
    reply.code(200).header('content-type', 'text/plain; charset=utf-8');
    return found.content.toString('utf8');
  } },
  { name: 'files.disabled-repository-readable', clauses: ['files.repository.disabled'], description: 'raw of a project whose repository feature is disabled serves the file (403 turned into the file)', onSend(request, reply, payload, ctx) {
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (!matches(request, { route: FILE_ROUTES.raw }) || reply.statusCode !== 403 || project?.repositoryAccessLevel !== 'disabled') return payload;
    return rawFileOf(project, request, reply) ?? payload;
  } },
  { name: 'files.disabled-repository-writable', clauses: ['files.repository.disabled'], description: 'a create in a project whose repository feature is disabled answers 201 (as if written) instead of 403', onRequest(request, reply, ctx) {
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (!matches(request, { route: FILE_ROUTES.create }) || project?.repositoryAccessLevel !== 'disabled') return false;
    void reply.code(201).send({ file_path: (request.params as Json).file_path, branch: 'main' });
    return true;
  } },
  { name: 'files.private-repository-open', clauses: ['files.repository.private'], description: 'a public project whose repository is private to members serves raw files to non-members (403 turned into the file)', onSend(request, reply, payload, ctx) {
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (!matches(request, { route: FILE_ROUTES.raw }) || reply.statusCode !== 403 || project?.repositoryAccessLevel !== 'private') return payload;
    return rawFileOf(project, request, reply) ?? payload;
  } },
  { name: 'files.private-repository-guest-refused', clauses: ['files.repository.private'], description: 'a Guest of a public project whose repository is private to members is refused (403), as on a private project', onSend(request, reply, payload, ctx) {
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (!matches(request, { route: FILE_ROUTES.get, method: ['GET', 'HEAD'] }) || reply.statusCode !== 200 || project?.repositoryAccessLevel !== 'private') return payload;
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
    if (!matches(request, { route: [FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] }) || reply.statusCode !== 403 || token) return payload;
    reply.code(401).header('content-type', 'application/json');
    return JSON.stringify({ message: '401 Unauthorized' });
  } },
  { name: 'files.raw-blank-ref-default-branch', level: 'parity', clauses: ['files.raw.ref-not-blank'], description: 'raw with a blank ref reads the default branch instead of refusing it (400 "ref is empty")', preHandler(request) {
    if (!matches(request, { route: FILE_ROUTES.raw, method: ['GET', 'HEAD'] })) return;
    const query = request.query as Json | undefined;
    if (query && typeof query.ref === 'string' && query.ref.trim() === '') delete query.ref;
  } },
  { name: 'files.raw-leading-slash-read', level: 'parity', clauses: ['files.raw.leading-slash'], description: 'raw reads an encoded absolute file_path as the path without its leading "/" instead of refusing it (400)', preHandler(request) {
    if (!matches(request, { route: FILE_ROUTES.raw, method: ['GET', 'HEAD'] })) return;
    const params = request.params as Json;
    params.file_path = String(params.file_path ?? '').replace(/^\/+/, '');
  } },
  { name: 'files.empty-update-refused', level: 'parity', clauses: ['files.update.empty-commit'], description: 'PUT with the current content is refused with 400 (the spec\'s empty commit) instead of GitLab\'s 200 and an empty commit', preHandler(request, ctx) {
    if (matches(request, { route: FILE_ROUTES.update }) && unchangedUpdate(ctx.store, request)) throw apiError(400, 'You are attempting to make an empty commit');
  } },
  { name: 'files.blame-blank-range-ignored', clauses: ['files.blame.range-validation'], description: 'blank range bounds (range[start]=&range[end]=) are ignored and the whole file is blamed instead of a 400', preHandler(request) {
    if (!matches(request, { route: FILE_ROUTES.blame, method: ['GET', 'HEAD'] })) return;
    // The query as Rack reads it: range[start]=&range[end]= is the hash range: { start: '', end: '' }.
    const query = request.query as Json | undefined;
    const range = query?.range;
    if (range && typeof range === 'object' && Object.values(range).every((bound) => bound === '')) delete query.range;
  } },
  { name: 'files.null-content-refused', level: 'parity', clauses: ['files.update.null-content'], description: 'PUT with content null is refused as a missing content instead of writing an empty file', ...changeParams({ route: FILE_ROUTES.update }, (p) => {
    if (p.content === null) delete p.content;
  }) },
  { name: 'files.execute-filemode-word-ignored', clauses: ['files.create.execute-filemode-type'], description: 'an execute_filemode that is no boolean is ignored and the file written, instead of a 400', ...changeParams({ route: FILE_ROUTES.create }, (p, request) => {
    if (p.execute_filemode === undefined || typeof p.execute_filemode === 'boolean' || ['true', 'false', '1', '0'].includes(String(p.execute_filemode))) return;
    delete p.execute_filemode;
    delete (request.query as Json).execute_filemode;
  }) },
  { name: 'files.invalid-json-created', clauses: ['files.create.invalid-json'], description: 'a create whose JSON body does not parse answers 201 as if written', onSend(request, reply, payload) {
    if (!matches(request, { route: FILE_ROUTES.create }) || reply.statusCode !== 400 || !payload.includes('message body does not match declared format')) return payload;
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
  { name: 'files.sha-ref-last-commit-is-ref', clauses: ['files.file.last-commit-id'], description: 'a file read at a commit id names that commit as its last_commit_id, whichever commit last touched the file', ...mapBody({ route: FILE_ROUTES.get }, (b) => (/^[0-9a-f]{40}$/.test(String(b.ref)) ? { ...b, last_commit_id: b.ref } : undefined)) },
  { name: 'files.anonymous-sha256-of-base64', clauses: ['files.get.public-without-auth'], description: 'a file read without a token carries the SHA-256 of its Base64 text instead of its bytes', ...mapBody({ route: FILE_ROUTES.get }, (b, ctx, request) => (callerOf(request, ctx) ? undefined : { ...b, content_sha256: createHash('sha256').update(String(b.content)).digest('hex') })) },
  { name: 'files.binary-content-as-text', clauses: ['files.file.content-base64'], description: 'GET file reads the content as UTF-8 text before Base64: bytes that are no UTF-8 come back as replacement characters', ...mapBody({ route: FILE_ROUTES.get }, (b) => ({ ...b, content: Buffer.from(Buffer.from(String(b.content), 'base64').toString('utf8')).toString('base64') })) },
  { name: 'files.default-author-administrator', clauses: ['files.create.default-author'], description: 'a create or update without author_name and author_email is authored by the administrator instead of the user of the token', ...changeParams({ route: [FILE_ROUTES.create, FILE_ROUTES.update] }, (p, request) => {
    const query = request.query as Json;
    if ([p.author_name, p.author_email, query.author_name, query.author_email].every((v) => v === undefined)) Object.assign(p, { author_name: 'Administrator', author_email: 'admin@example.com' });
  }) },
  { name: 'files.blame-unknown-sha-reads-default', clauses: ['files.get.not-found'], description: 'blame at a commit id the repository does not hold reads the default branch instead of answering 404', preHandler(request, ctx) {
    if (!matches(request, { route: FILE_ROUTES.blame })) return;
    const query = request.query as Json;
    const project = ctx.store.findProject(String((request.params as Json).id));
    if (project && /^[0-9a-f]{40}$/.test(String(query.ref)) && !project.repository.resolve(String(query.ref))) query.ref = project.repository.defaultBranch;
  } },
  { name: 'files.raw-head-commit-and-ref-missing', clauses: ['files.file.headers'], description: 'HEAD raw lacks the Commit-Id and Ref metadata headers', ...rewriteHeaders({ route: FILE_ROUTES.raw, method: 'HEAD' }, (name, value) => (['x-gitlab-commit-id', 'x-gitlab-ref'].includes(name) ? undefined : value)) },
  { name: 'files.raw-expires-missing', level: 'parity', clauses: ['files.raw.no-cache'], description: 'GET raw lacks Expires: Fri, 01 Jan 1990 00:00:00 GMT', ...rewriteHeaders({ route: FILE_ROUTES.raw }, (name, value) => (name === 'expires' ? undefined : value)) },
  { name: 'files.raw-cache-control-short', level: 'parity', clauses: ['files.raw.no-cache'], description: 'GET raw sends Cache-Control: no-cache only, not GitLab\'s "max-age=0, private, must-revalidate, no-store, no-cache"', ...rewriteHeaders({ route: FILE_ROUTES.raw }, (name, value) => (name === 'cache-control' ? 'no-cache' : value)) },
  { name: 'files.raw-disposition-without-extended', level: 'parity', clauses: ['files.raw.headers'], description: 'GET raw\'s Content-Disposition lacks filename*=UTF-8\'\'…', ...rewriteHeaders({ route: FILE_ROUTES.raw }, (name, value) => (name === 'content-disposition' ? String(value).replace(/; filename\*=[^;]*/, '') : value)) },
  { name: 'files.direct-guest-reads', clauses: ['files.read.role'], description: 'a direct Guest of a private project reads its files (the 403 of GET file, raw and blame turned into 200)', onSend(request, reply, payload, ctx) {
    if (reply.statusCode !== 403 || ![{ route: FILE_ROUTES.get }, { route: FILE_ROUTES.raw }, { route: FILE_ROUTES.blame }].some((when) => matches(request, when))) return payload;
    const project = ctx.store.findProject(String((request.params as Json).id));
    const user = callerOf(request, ctx);
    if (!project || !user || ctx.store.directMembership(project, user.id)?.accessLevel !== ACCESS.GUEST) return payload;
    reply.code(200);
    return '{}';
  } },
  { name: 'files.blame-range-order-text', level: 'parity', clauses: ['files.blame.range-validation'], description: 'blame with range[start] after range[end] says "range[start] must not be greater than range[end]" instead of GitLab\'s text', onSend(request, reply, payload) {
    if (!matches(request, { route: FILE_ROUTES.blame }) || reply.statusCode !== 400) return payload;
    return payload.replace('range[start] must be less than or equal to range[end]', 'range[start] must not be greater than range[end]');
  } },
  // ---- writes on branches (Commits::CreateService#validate!) ----
  { name: 'files.existing-branch-overwritten', clauses: ['files.write.branch-exists'], description: 'a write from start_branch onto another branch that exists commits onto that branch instead of being refused', ...changeParams({ route: [FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] }, (p, request, ctx) => {
    const project = ctx.store.findProject(String((request.params as Json).id));
    const { branch, start_branch: start } = requestParams(request);
    if (project && typeof start === 'string' && start !== branch && project.repository.branches.has(String(branch))) {
      delete p.start_branch;
      delete (request.query as Json).start_branch;
    }
  }) },
  { name: 'files.missing-start-branch-from-default', clauses: ['files.write.start-branch-missing'], description: 'a start_branch that names no branch (or a new branch without one) starts from the default branch instead of being refused', ...changeParams({ route: [FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] }, (p, request, ctx) => {
    const project = ctx.store.findProject(String((request.params as Json).id));
    const { branch, start_branch: start } = requestParams(request);
    const from = typeof start === 'string' && start !== '' ? start : String(branch);
    if (project && !project.repository.isEmpty && !project.repository.branches.has(from)) p.start_branch = project.repository.defaultBranch;
  }) },
  { name: 'files.invalid-branch-name-mended', clauses: ['files.write.branch-name-invalid'], description: 'a new branch whose name git refuses is made under a mended name ("a..b" as "a.b") instead of being refused', ...changeParams({ route: [FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] }, (p, request) => {
    const { branch } = requestParams(request);
    if (typeof branch === 'string' && !validRefName(branch)) p.branch = branch.replace(/\.\.+/g, '.');
  }) },
  (() => {
    // The route reads the protection; the fault lifts it for a Developer's write and puts it back after.
    const lifted = new WeakMap<object, { project: Project; branch: string }>();
    return {
      name: 'files.protected-branch-open-to-developers',
      clauses: ['files.write.protected-branch'],
      description: 'a Developer writes to a branch only Maintainers may push to',
      preHandler(request, ctx) {
        if (!matches(request, { route: [FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] })) return;
        const project = ctx.store.findProject(String((request.params as Json).id));
        const branch = String(requestParams(request).branch);
        const user = callerOf(request, ctx);
        if (!project || !user || !project.protectedBranches.has(branch) || ctx.store.accessLevel(project, user) !== ACCESS.DEVELOPER) return;
        project.protectedBranches.delete(branch);
        lifted.set(request, { project, branch });
      },
      onSend(request, _reply, payload) {
        const held = lifted.get(request);
        if (held) held.project.protectedBranches.add(held.branch);
        return payload;
      },
    } satisfies AreaFault;
  })(),
  { name: 'files.branch-errors-generic', level: 'parity', clauses: ['files.write.branch-exists', 'files.write.start-branch-missing', 'files.write.branch-name-invalid', 'files.write.protected-branch'], description: 'a write refused on its branches says "Commit failed" instead of GitLab\'s message', onSend(request, reply, payload) {
    if (!matches(request, { route: [FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] }) || reply.statusCode !== 400) return payload;
    return /already exists\. Switch to that branch|when you are on a branch|Something went wrong when we tried to create|not allowed to push into this branch/.test(payload) ? JSON.stringify({ message: 'Commit failed' }) : payload;
  } },
  (() => {
    // The route reads the commit address; the fault hides it for the write and puts it back after.
    const hidden = new WeakMap<object, { user: NonNullable<ReturnType<typeof callerOf>>; commitEmail: string }>();
    return {
      name: 'files.commit-email-ignored',
      clauses: ['files.write.commit-email'],
      description: 'a file write is authored and committed with the primary address, not the user\'s commit_email',
      preHandler(request, ctx) {
        if (!matches(request, { route: [FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] })) return;
        const user = callerOf(request, ctx);
        if (!user?.commitEmail) return;
        hidden.set(request, { user, commitEmail: user.commitEmail });
        delete user.commitEmail;
      },
      onSend(request, _reply, payload) {
        const was = hidden.get(request);
        if (was) was.user.commitEmail = was.commitEmail;
        return payload;
      },
    } satisfies AreaFault;
  })(),
  // ---- clauses that had no fault -------------------------------------------------------------------
  { name: 'files.file-name-is-path', clauses: ['files.file.name-and-path'], description: 'file_name is the full path instead of the base name', ...mapBody({ route: FILE_ROUTES.get }, (b) => ({ ...b, file_name: b.file_path })) },
  { name: 'files.encoded-dot-kept', clauses: ['files.path.encoded'], description: 'only %2F is decoded in file_path: an encoded dot (%2E) stays the text "%2E", so the file is not found', rewriteUrl(_method, url) {
    const [path, query] = url.split('?');
    if (!/^\/api\/v4\/projects\/[^/]+\/repository\/files\//.test(path) || !/%2e/i.test(path)) return undefined;
    return path.replace(/%2e/gi, '%252E') + (query === undefined ? '' : `?${query}`);
  } },
  { name: 'files.commit-id-ref-not-found', clauses: ['files.get.ref-kinds'], description: 'a ref that is a commit id is not resolved: 404 "404 Commit Not Found" (only branch and tag names are)', preHandler(request) {
    if (!matches(request, { route: [FILE_ROUTES.get, FILE_ROUTES.raw, FILE_ROUTES.blame], method: ['GET', 'HEAD'] })) return;
    if (/^[0-9a-f]{40}$/.test(String((request.query as Json).ref))) throw notFound('Commit');
  } },
  { name: 'files.private-project-403', clauses: ['files.get.private-hidden'], description: 'a private project answers 403 to a signed-in non-member instead of 404 (its existence shown)', onSend(request, reply, payload, ctx) {
    if (!matches(request, { route: Object.values(FILE_ROUTES) }) || reply.statusCode !== 404 || !payload.includes('404 Project Not Found') || !faultSource(request, ctx) || !callerOf(request, ctx)) return payload;
    reply.code(403);
    return JSON.stringify({ message: '403 Forbidden' });
  } },
  { name: 'files.head-without-metadata', clauses: ['files.head.metadata-only'], description: 'HEAD file answers 200 without the X-Gitlab-* metadata headers', onSend(request, reply, payload) {
    if (matches(request, { route: FILE_ROUTES.get, method: 'HEAD' })) for (const name of Object.keys(reply.getHeaders())) if (name.startsWith('x-gitlab-')) reply.removeHeader(name);
    return payload;
  } },
  { name: 'files.blame-head-without-metadata', clauses: ['files.blame.head'], description: 'HEAD blame answers 200 without the X-Gitlab-* metadata headers', onSend(request, reply, payload) {
    if (matches(request, { route: FILE_ROUTES.blame, method: 'HEAD' })) for (const name of Object.keys(reply.getHeaders())) if (name.startsWith('x-gitlab-')) reply.removeHeader(name);
    return payload;
  } },
  { name: 'files.raw-head-405', clauses: ['files.raw.head'], description: 'HEAD raw is not routed: 405 Method Not Allowed', ...answer({ route: FILE_ROUTES.raw, method: 'HEAD' }, 405, { message: '405 Method Not Allowed' }) },
  { name: 'files.blame-last-line-dropped', clauses: ['files.blame.covers-file'], description: 'blame leaves out the file\'s last line', ...mapBody({ route: FILE_ROUTES.blame }, (b) => {
    if (!Array.isArray(b) || b.length === 0) return undefined;
    const last = b[b.length - 1];
    const lines = (last.lines as string[]).slice(0, -1);
    return lines.length === 0 ? b.slice(0, -1) : [...b.slice(0, -1), { ...last, lines }];
  }) },
  { name: 'files.blame-newest-commit-everywhere', clauses: ['files.blame.last-change'], description: 'every blame range names the newest commit of the file instead of the one that last changed its lines', ...mapBody({ route: FILE_ROUTES.blame }, (b) => {
    if (!Array.isArray(b) || b.length === 0) return undefined;
    const dateOf = (r: Json) => String((r.commit as Json).committed_date);
    const newest = b.reduce((a, r) => (dateOf(r) > dateOf(a) ? r : a)).commit;
    return b.map((r) => ({ ...r, commit: newest }));
  }) },
  { name: 'files.blame-dates-in-seconds', clauses: ['files.blame.timestamps'], description: 'blame\'s authored_date and committed_date have no milliseconds', ...mapBody({ route: FILE_ROUTES.blame }, (b) => {
    if (!Array.isArray(b)) return undefined;
    const seconds = (d: unknown) => String(d).replace(/\.\d+/, '');
    return b.map((r) => ({ ...r, commit: { ...(r.commit as Json), authored_date: seconds((r.commit as Json).authored_date), committed_date: seconds((r.commit as Json).committed_date) } }));
  }) },
  { name: 'files.raw-lfs-ignored', clauses: ['files.raw.lfs'], description: 'raw ignores lfs=true and answers the LFS pointer', ...dropParams({ route: FILE_ROUTES.raw }, 'lfs') },
  { name: 'files.raw-lfs-missing-500', clauses: ['files.raw.lfs-missing-object'], description: 'raw with lfs=true on a pointer whose object is missing is a server error (500)', onSend(request, reply, payload) {
    if (!matches(request, { route: FILE_ROUTES.raw }) || reply.statusCode !== 404 || String((request.query as Json).lfs) !== 'true' || payload.includes('Project Not Found') || payload.includes('Commit Not Found') || payload.includes('File Not Found')) return payload;
    reply.code(500);
    return JSON.stringify({ message: '500 Internal Server Error' });
  } },
  { name: 'files.commit-message-defaulted', clauses: ['files.create.required'], description: 'a write without commit_message is committed with a default message instead of refused', ...changeParams({ route: [FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] }, (p, request) => {
    if (p.commit_message === undefined && (request.query as Json).commit_message === undefined) p.commit_message = `Update ${String((request.params as Json).file_path)}`;
  }) },
  { name: 'files.author-email-ignored', clauses: ['files.create.author'], description: 'author_email is ignored: the commit author\'s address is the user\'s', ...dropParams({ route: [FILE_ROUTES.create, FILE_ROUTES.update] }, 'author_email') },
  { name: 'files.execute-filemode-ignored', clauses: ['files.create.execute-filemode'], description: 'execute_filemode is ignored on create and update', ...dropParams({ route: [FILE_ROUTES.create, FILE_ROUTES.update] }, 'execute_filemode') },
  { name: 'files.start-branch-written', clauses: ['files.create.start-branch'], description: 'a write with start_branch and a new branch commits onto start_branch instead of creating the branch from it', ...changeParams({ route: [FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] }, (p, request, ctx) => {
    const project = ctx.store.findProject(String((request.params as Json).id));
    const { branch, start_branch: start } = requestParams(request);
    if (project && typeof start === 'string' && start !== '' && project.repository.branches.has(start) && !project.repository.branches.has(String(branch))) {
      delete (request.query as Json).start_branch;
      delete (request.query as Json).branch;
      delete p.start_branch;
      p.branch = start;
    }
  }) },
  { name: 'files.create-existing-201', clauses: ['files.create.exists'], description: 'creating a file that already exists answers 201 (nothing written) instead of 400', onSend(request, reply, payload) {
    if (!matches(request, { route: FILE_ROUTES.create }) || reply.statusCode !== 400 || !payload.includes('A file with this name already exists')) return payload;
    reply.code(201);
    return JSON.stringify({ file_path: (request.params as Json).file_path, branch: requestParams(request).branch });
  } },
  { name: 'files.update-201', clauses: ['files.update.commit'], description: 'update answers 201 instead of 200', ...status({ route: FILE_ROUTES.update }, 200, 201) },
  { name: 'files.update-missing-404', clauses: ['files.update.missing'], description: 'updating a file that does not exist answers 404 instead of 400', onSend(request, reply, payload) {
    if (!matches(request, { route: FILE_ROUTES.update }) || reply.statusCode !== 400 || !payload.includes("A file with this name doesn't exist")) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 File Not Found' });
  } },
  // The route reads the caller's level: the fault raises a Reporter (of the project or a group above it) to Developer for the write.
  { name: 'files.reporter-writes', clauses: ['files.write.role'], description: 'a Reporter may write files (Developer is required)', ...actAtLevel({ route: [FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] }, ACCESS.REPORTER, ACCESS.DEVELOPER, () => true) },
  { name: 'files.unknown-route-405', clauses: ['files.api-prefix'], description: 'an unknown route under /api/v4 answers 405 Method Not Allowed instead of 404', onSend(request, reply, payload) {
    if (reply.statusCode !== 404 || !request.url.startsWith('/api/v4/') || request.routeOptions.config?.route !== undefined || !payload.includes('"error"')) return payload;
    reply.code(405);
    return JSON.stringify({ error: '405 Not Allowed' });
  } },
  { name: 'files.form-body-ignored', clauses: ['files.http.form-body'], description: 'a write sent as form fields is read as if it had no parameters', ...formBodyIgnored({ route: [FILE_ROUTES.create, FILE_ROUTES.update, FILE_ROUTES.remove] }) },
  { name: 'files.private-token-query-ignored', level: 'parity', clauses: ['files.http.private-token-query'], description: 'a token in the private_token query parameter is not read: the request is anonymous', ...privateTokenQueryIgnored({ route: Object.values(FILE_ROUTES) }) },
];
