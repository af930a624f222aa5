// GET /projects/:id/repository/files/:file_path/raw
import { endpoint } from './kit.js';
import { expectEqual, expectError, expectHeader, expectStatus, expectTrue, parity } from '../../runner/core/checks.js';
import { apiPath } from '../../runner/core/client.js';
import { ANONYMOUS_PRIVATE_GITLAB, createFile, expectGitLabError, fileUrl, gitBlobId, GITLAB_TEXT, headerName, readFile } from './helpers.js';
import { emptyRepository } from '../common/repositories.js';

const suite = endpoint('raw');

/** Where GitLab answers lfs=true on a pointer whose object the project lacks (LFS on, GitLab's default). */
const LFS_MISSING_GITLAB = 'lib/api/files.rb (GET raw: not_found! unless lfs_object&.project_allowed_access?); spec/requests/api/files_spec.rb (when lfs parameter is true and the project has lfs enabled: 404 response)';
// Tests of raw without a ref read the default branch of the run's public project: they write their
// files to it (at paths of their own, reading no branch head); the others use this file's branch.

suite.test(
  {
    case: 'bytes-as-stored',
    title: 'raw returns the file\'s exact bytes, binary content included',
    clauses: ['files.raw.content', 'files.create.encoding'],
  },
  async ({ as, run, files }) => {
    const { publicProject, path, branch } = files;
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13, 10, 0x7f, 0x80]);
    const file = path('raw', 'blob.bin');
    await createFile(as('maintainer'), publicProject, file, bytes.toString('base64'), { branch, encoding: 'base64' });
    const res = await as('developer').get(`${fileUrl(publicProject, file)}/raw`, { query: { ref: branch } });
    expectStatus(res, 200);
    expectEqual(res.bytes.toString('hex'), bytes.toString('hex'), 'the raw bytes to be the decoded Base64 content');
    // The spec names the metadata headers for the HEAD forms; GitLab's GET raw sets them too.
    parity(res, 'lib/api/files.rb (GET raw: set_http_headers(blob_data))', () => expectHeader(res, headerName(run.headerPrefix, 'blob_id'), gitBlobId(bytes)));
  },
);

suite.test(
  {
    case: 'default-ref',
    title: 'without ref, raw reads the default branch; with ref, that branch',
    clauses: ['files.raw.default-ref', 'files.create.start-branch'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('raw-ref', 'version.txt');
    const main = publicProject.defaultBranch;
    const feature = `${branch}-feature`;
    await createFile(as('maintainer'), publicProject, file, 'on main\n', { branch: main });
    const res = await as('maintainer').put(fileUrl(publicProject, file), {
      body: { branch: feature, start_branch: main, commit_message: 'change on a branch', content: 'on the branch\n' },
    });
    expectStatus(res, 200);
    const plain = await as('developer').get(`${fileUrl(publicProject, file)}/raw`);
    expectStatus(plain, 200);
    expectEqual(plain.bytes.toString('utf8'), 'on main\n', 'the default branch\'s content without ref');
    const onBranch = await as('developer').get(`${fileUrl(publicProject, file)}/raw`, { query: { ref: feature } });
    expectStatus(onBranch, 200);
    expectEqual(onBranch.bytes.toString('utf8'), 'on the branch\n', `the branch's content with ref=${feature}`);
  },
);

suite.test(
  {
    case: 'lfs',
    title: 'lfs=true returns the LFS object instead of the pointer for tracked files, and is ignored for other files',
    clauses: ['files.raw.lfs'],
    requires: { minVersion: '15.7' },
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const dir = path('lfs', '');
    // GitLab reads LFS attributes from the .gitattributes at the root of the branch only.
    await createFile(as('maintainer'), publicProject, '.gitattributes', `${dir}*.bin filter=lfs diff=lfs merge=lfs -text\n`, { branch });
    const payload = 'large object payload\n'.repeat(8);
    await createFile(as('maintainer'), publicProject, `${dir}big.bin`, payload, { branch });
    await createFile(as('maintainer'), publicProject, `${dir}small.txt`, 'not tracked\n', { branch });

    const stored = Buffer.from((await readFile(as('developer'), publicProject, `${dir}big.bin`, branch)).content as string, 'base64').toString('utf8');
    const raw = (name: string, lfs?: boolean) => as('developer').get(`${fileUrl(publicProject, `${dir}${name}`)}/raw`, { query: { ref: branch, lfs } });
    const withLfs = await raw('big.bin', true);
    expectStatus(withLfs, 200);
    if (stored.startsWith('version https://git-lfs.github.com/spec/v1')) {
      // The target stores LFS pointers for tracked paths: lfs=true must resolve the pointer.
      expectEqual(withLfs.bytes.toString('utf8'), payload, 'lfs=true to return the LFS object');
      const pointer = await raw('big.bin');
      expectEqual(pointer.bytes.toString('utf8'), stored, 'without lfs (default false) the pointer as stored');
    } else {
      // LFS is off on the target: the file is an ordinary blob and lfs=true is ignored.
      expectEqual(withLfs.bytes.toString('utf8'), payload, 'lfs=true on an untracked blob to be ignored');
    }
    const untracked = await raw('small.txt', true);
    expectStatus(untracked, 200);
    expectEqual(untracked.bytes.toString('utf8'), 'not tracked\n', 'lfs=true on a file not tracked by LFS to be ignored');
  },
);

suite.test(
  {
    case: 'errors-and-access',
    title: 'raw of an unknown file or ref is 404, traversal 400; public without a token, private hidden, Guest refused',
    clauses: ['files.get.not-found', 'files.write.traversal', 'files.get.public-without-auth', 'files.get.private-hidden', 'files.read.role', 'files.auth.scopes'],
  },
  async ({ as, files }) => {
    const { publicProject, privateProject } = files;
    const raw = (project: typeof publicProject, file: string) => `${fileUrl(project, file)}/raw`;
    expectError(await as('developer').get(raw(publicProject, 'missing.txt')), 404, { message: '404 File Not Found', gitlab: GITLAB_TEXT.fileNotFound });
    expectError(await as('developer').get(raw(publicProject, 'README.md'), { query: { ref: 'nope' } }), 404, { message: '404 Commit Not Found', gitlab: GITLAB_TEXT.commitNotFound });
    expectError(await as('developer').get(raw(publicProject, 'a/../README.md')), 400, { error: 'file_path should be a valid file path', gitlab: GITLAB_TEXT.filePath });
    const anonymous = await as('anonymous').get(raw(publicProject, 'README.md'));
    expectStatus(anonymous, 200);
    expectTrue(anonymous.bytes.length > 0, 'the README bytes', 'the body was empty', anonymous);
    const hidden = await as('anonymous').get(raw(privateProject, 'README.md'));
    expectError(hidden, [401, 404]);
    expectGitLabError(hidden, ANONYMOUS_PRIVATE_GITLAB, 404, { message: '404 Project Not Found' });
    expectError(await as('outsider').get(raw(privateProject, 'README.md')), 404, { message: '404 Project Not Found', gitlab: GITLAB_TEXT.projectNotFound });
    expectError(await as('guest').get(raw(privateProject, 'README.md')), 403);
    expectStatus(await as('reporter', 'read_repository').get(raw(privateProject, 'README.md')), 200);
  },
);

suite.test(
  {
    case: 'download-headers',
    title: 'raw answers inline as text with the file name; a Ref header echoes the ref given, and without one is absent, empty or the default branch',
    clauses: ['files.raw.headers'],
  },
  async ({ as, run, files }) => {
    const { publicProject, path } = files;
    const file = path('raw-headers', 'notes.txt');
    const main = publicProject.defaultBranch;
    await createFile(as('maintainer'), publicProject, file, 'plain text\n', { branch: main });
    const res = await as('developer').get(`${fileUrl(publicProject, file)}/raw`);
    expectStatus(res, 200);
    expectTrue(/^inline;/.test(res.headers['content-disposition'] ?? '') && (res.headers['content-disposition'] ?? '').includes('notes.txt'), 'Content-Disposition inline with the file name', `got ${res.headers['content-disposition']}`, res);
    expectTrue((res.headers['content-type'] ?? '').startsWith('text/plain'), 'a text/plain answer for a text file', `got ${res.headers['content-type']}`, res);
    // Without a ref the spec reads the default branch: a Ref header, if sent, may name it or be empty.
    // GitLab sends the ref as given (blob_data ref: params[:ref], written with to_s): empty, or no
    // header at all where the front server drops an empty one; never the branch name.
    const refHeader = headerName(run.headerPrefix, 'ref').toLowerCase();
    const without = res.headers[refHeader];
    expectTrue(without === undefined || without === '' || without === main, 'the Ref header without a ref to be absent, empty or the default branch', `got ${JSON.stringify(without)}`, res);
    parity(res, 'lib/api/files.rb (blob_data ref: params[:ref]); lib/api/helpers/headers_helpers.rb (set_http_headers: to_s)', () => {
      expectTrue(without === undefined || without === '', 'GitLab\'s Ref header without a ref: the ref as given, empty (or dropped)', `got ${JSON.stringify(without)}`, res);
    });
    const withRef = await as('developer').get(`${fileUrl(publicProject, file)}/raw`, { query: { ref: main } });
    expectStatus(withRef, 200);
    const given = withRef.headers[refHeader];
    expectTrue(given === undefined || given === main, 'a Ref header, when sent, to be the ref given', `got ${JSON.stringify(given)}`, withRef);
    parity(withRef, 'lib/api/files.rb (GET raw: set_http_headers(blob_data))', () => expectHeader(withRef, headerName(run.headerPrefix, 'ref'), main));
  },
);

suite.test(
  {
    case: 'leading-slash',
    title: 'raw with an encoded leading slash in file_path either refuses the absolute path (400) or reads the path without the slash',
    clauses: ['files.raw.leading-slash'],
  },
  async ({ as, files }) => {
    const { publicProject, branch } = files;
    const res = await as('developer').get(apiPath`/projects/${publicProject.id}/repository/files/${'/README.md'}/raw`, { query: { ref: branch } });
    // GitLab's file_path validator refuses an absolute path on every form, /raw included
    // (spec/requests/api/files_spec.rb "when path is absolute", still so in the newest spec read,
    // 387ee084); a later validator has an allow_initial_path_separator option for an encoded initial
    // "/" that no route of the index turns on. Both answers are accepted at the spec level; a 200
    // must be the README itself. GitLab parity: the 400 of files_spec@387ee084.
    expectStatus(res, [200, 400], 'GitLab refuses an absolute file_path; a version allowing an encoded initial separator reads the file');
    expectGitLabError(res, `${GITLAB_TEXT.filePath} (files_spec@387ee084: "when path is absolute" on /raw: 400)`, 400, { error: 'file_path should be a valid file path' });
    if (res.status === 400) {
      expectError(res, 400);
      return;
    }
    const plain = await as('developer').get(`${fileUrl(publicProject, 'README.md')}/raw`, { query: { ref: branch } });
    expectStatus(plain, 200);
    expectEqual(res.bytes.toString('utf8'), plain.bytes.toString('utf8'), 'the README, as without the slash');
  },
);

suite.test(
  {
    case: 'lfs-missing-object',
    title: 'lfs=true on an LFS pointer whose object the project does not hold is 404 (or, with LFS off, the pointer as stored)',
    clauses: ['files.raw.lfs-missing-object'],
    requires: { minVersion: '15.7' },
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    // A pointer committed as an ordinary blob (the path is not tracked by LFS), to an object nobody uploaded.
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${'0123456789abcdef'.repeat(4)}\nsize 12345\n`;
    const file = path('lfs-missing', 'orphan.txt');
    await createFile(as('maintainer'), publicProject, file, pointer, { branch });
    const res = await as('developer').get(`${fileUrl(publicProject, file)}/raw`, { query: { ref: branch, lfs: true } });
    if (res.status === 404) expectError(res, 404, { message: '404 Not Found', gitlab: LFS_MISSING_GITLAB });
    else {
      expectStatus(res, 200, 'a target with LFS off serves the pointer blob itself');
      expectEqual(res.bytes.toString('utf8'), pointer, 'the pointer as stored');
    }
    // GitLab, with LFS on (its default), answers 404; with LFS off for the project it serves the pointer
    // (app/models/blob.rb: stored_externally? is false when external_storage_error?).
    expectGitLabError(res, LFS_MISSING_GITLAB, 404, { message: '404 Not Found' });
    const plain = await as('developer').get(`${fileUrl(publicProject, file)}/raw`, { query: { ref: branch } });
    expectStatus(plain, 200);
    expectEqual(plain.bytes.toString('utf8'), pointer, 'without lfs the pointer as stored');
  },
);

suite.test(
  {
    case: 'no-cache-and-filename',
    title: 'raw is sent with no-cache headers, and a filename* in Content-Disposition names the file in RFC 5987 form',
    clauses: ['files.raw.no-cache', 'files.raw.headers'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('raw-cache', 'notes.txt');
    await createFile(as('maintainer'), publicProject, file, 'plain text\n', { branch });
    const res = await as('developer').get(`${fileUrl(publicProject, file)}/raw`, { query: { ref: branch } });
    expectStatus(res, 200);
    expectEqual(res.bytes.toString('utf8'), 'plain text\n', 'the file bytes');
    const cache = expectHeader(res, 'Cache-Control');
    expectTrue(/(^|[\s,])no-cache([\s,]|$)/.test(cache), 'Cache-Control with no-cache', `got ${JSON.stringify(cache)}`, res);
    const disposition = expectHeader(res, 'Content-Disposition');
    const extended = /filename\*=([^;]*)/.exec(disposition)?.[1];
    if (extended !== undefined) {
      expectTrue(/^[A-Za-z0-9!#$&+^`{}~-]+'[A-Za-z0-9-]*'notes\.txt$/.test(extended.trim()), "filename* as charset'lang'notes.txt", `got ${JSON.stringify(disposition)}`, res);
    }
  },
);

suite.test(
  {
    case: 'quote-in-file-name',
    title: 'a double quote in the file name does not break Content-Disposition: the quoted filename keeps the other characters',
    clauses: ['files.raw.headers'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('raw-quote', 'say"hi.txt');
    await createFile(as('maintainer'), publicProject, file, 'quoted\n', { branch });
    const res = await as('developer').get(`${fileUrl(publicProject, file)}/raw`, { query: { ref: branch } });
    expectStatus(res, 200);
    expectEqual(res.bytes.toString('utf8'), 'quoted\n', 'the file bytes');
    const disposition = expectHeader(res, 'Content-Disposition');
    const quoted = /filename="((?:[^"\\]|\\.)*)"/.exec(disposition)?.[1];
    // Rails' ContentDisposition percent-encodes the quote (%22); escaping (\") or dropping it is accepted too.
    const name = quoted?.replace(/%22|\\"|"/g, '');
    expectEqual(name, 'sayhi.txt', 'the quoted filename, apart from the quote', res);
  },
);

suite.test(
  {
    case: 'empty-repository',
    title: 'raw without ref on a project without commits is 404 (no commit, so no file), not a server error',
    clauses: ['files.get.not-found', 'files.raw.default-ref'],
    // A public project without commits: raw without ref has no default-branch HEAD to read.
    fixtures: { emptyRepository },
  },
  async ({ as, emptyRepository }) => {
    const empty = emptyRepository;
    const res = await as('developer').get(`${fileUrl(empty, 'README.md')}/raw`);
    // GitLab: user_project.commit(nil) finds no default-branch commit, so not_found!('Commit') before any file lookup.
    expectError(res, 404, { message: /^404 (Commit|File) Not Found$/, gitlab: GITLAB_TEXT.commitNotFound });
  },
);

suite.test(
  {
    case: 'blank-ref',
    title: 'raw with a blank ref (ref=) is refused with 400 (GitLab), or read as no ref, from the default branch',
    clauses: ['files.raw.ref-not-blank', 'files.raw.default-ref'],
  },
  async ({ as, files }) => {
    const { publicProject, path } = files;
    const file = path('raw-blank-ref', 'version.txt');
    await createFile(as('maintainer'), publicProject, file, 'on main\n', { branch: publicProject.defaultBranch });
    const res = await as('developer').get(`${fileUrl(publicProject, file)}/raw`, { query: { ref: '' } });
    // The spec makes ref optional (default: the HEAD of the project) and says nothing of a blank one.
    // GitLab declares it optional, allow_blank: false: Grape refuses it.
    expectStatus(res, [200, 400], 'a blank ref is refused, or taken as no ref');
    expectGitLabError(res, 'lib/api/files.rb (GET raw: optional :ref, allow_blank: false); Grape lib/grape/locale/en.yml ("is empty")', 400, { error: 'ref is empty' });
    if (res.status === 400) expectError(res, 400);
    else expectEqual(res.bytes.toString('utf8'), 'on main\n', 'the default branch\'s content for a blank ref');
  },
);

suite.test(
  {
    case: 'dotfile-and-commit-sha',
    title: 'raw reads a dotfile, and a file at an older commit id after it was deleted on the branch',
    clauses: ['files.raw.content', 'files.get.ref-kinds', 'files.path.encoded'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    await createFile(as('maintainer'), publicProject, '.gitignore', 'node_modules/\n', { branch });
    const gone = path('raw-sha', 'gone.txt');
    await createFile(as('maintainer'), publicProject, gone, 'deleted later\n', { branch });
    const sha = (await readFile(as('maintainer'), publicProject, gone, branch)).commit_id as string;
    const removed = await as('maintainer').delete(fileUrl(publicProject, gone), { body: { branch, commit_message: 'conformance: delete gone.txt' } });
    expectStatus(removed, [200, 204]);
    for (const who of ['anonymous', 'developer'] as const) {
      const dot = await as(who).get(`${fileUrl(publicProject, '.gitignore')}/raw`, { query: { ref: branch } });
      expectStatus(dot, 200);
      expectEqual(dot.bytes.toString('utf8'), 'node_modules/\n', `.gitignore read by ${who}`);
      const old = await as(who).get(`${fileUrl(publicProject, gone)}/raw`, { query: { ref: sha } });
      expectStatus(old, 200);
      expectEqual(old.bytes.toString('utf8'), 'deleted later\n', `the deleted file at ${sha}, read by ${who}`);
      expectError(await as(who).get(`${fileUrl(publicProject, gone)}/raw`, { query: { ref: branch } }), 404);
    }
    const token = await as('developer', 'read_repository').get(`${fileUrl(publicProject, gone)}/raw`, { query: { ref: sha } });
    expectStatus(token, 200);
    expectEqual(token.bytes.toString('utf8'), 'deleted later\n', 'the deleted file at its old commit, with a read_repository token');
  },
);

suite.test(
  {
    case: 'no-cache-exact',
    title: 'GitLab parity: raw is sent with Cache-Control "max-age=0, private, must-revalidate, no-store, no-cache", Expires "Fri, 01 Jan 1990 00:00:00 GMT" and Content-Disposition inline; filename="…"; filename*=UTF-8\'\'…',
    clauses: ['files.raw.no-cache', 'files.raw.headers'],
    level: 'parity',
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('raw-cache-exact', 'notes.txt');
    await createFile(as('maintainer'), publicProject, file, 'plain text\n', { branch });
    const res = await as('developer').get(`${fileUrl(publicProject, file)}/raw`, { query: { ref: branch } });
    expectStatus(res, 200);
    const gitlab = 'lib/api/files.rb (GET raw: no_cache_headers; send_git_blob); lib/api/helpers.rb (send_git_blob: ActionDispatch::Http::ContentDisposition.format); spec/requests/api/files_spec.rb (sets no-cache headers; sets inline content disposition by default)';
    parity(res, gitlab, () => {
      expectHeader(res, 'Cache-Control', 'max-age=0, private, must-revalidate, no-store, no-cache');
      expectHeader(res, 'Expires', 'Fri, 01 Jan 1990 00:00:00 GMT');
      expectHeader(res, 'Content-Disposition', `inline; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    });
  },
);
