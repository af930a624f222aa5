// GET /projects/:id/repository/files/:file_path
import { endpoint } from './kit.js';
import { expectEqual, expectError, expectHeader, expectOk, expectStatus, expectTrue, parity } from '../../runner/core/checks.js';
import { apiPath } from '../../runner/core/client.js';
import { ANONYMOUS_PRIVATE_GITLAB, createFile, expectGitLabError, fileUrl, gitBlobId, GITLAB_TEXT, headerName, METADATA_FIELDS, ownBranch, readFile, sha256, updateFile } from './helpers.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { repositories } from '../common/repositories.js';
import { renameProject } from '../common/setup-endpoints.js';

const suite = endpoint('get');

suite.test(
  {
    case: 'metadata-matches-content',
    title: 'a file reads back with its name, path, size, Base64 content, SHA-256 and git blob id',
    clauses: ['files.file.shape', 'files.file.name-and-path', 'files.file.content-base64', 'files.file.content-sha256', 'files.file.blob-id', 'files.file.ref', 'files.path.encoded'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('metadata', 'notes.v1.md');
    const content = 'first line\nzweite Zeile: äöü\n\tthird line\n';
    await createFile(as('maintainer'), publicProject, file, content, { branch });

    const res = await as('developer').get(fileUrl(publicProject, file), { query: { ref: branch } });
    expectOk(res, 200, 'file');
    const body = res.body as Record<string, unknown>;
    const bytes = Buffer.from(content, 'utf8');
    expectEqual(body.file_name, 'notes.v1.md', 'file_name to be the base name');
    expectEqual(body.file_path, file, 'file_path to be the full path');
    expectEqual(body.size, bytes.length, 'size to be the byte length of the content');
    expectEqual(body.encoding, 'base64', 'encoding to be base64');
    expectEqual(Buffer.from(body.content as string, 'base64').toString('utf8'), content, 'content to decode to the file content');
    expectEqual(body.content_sha256, sha256(bytes), 'content_sha256 to be the SHA-256 of the content');
    expectEqual(body.blob_id, gitBlobId(bytes), 'blob_id to be the git blob SHA-1 of the content');
    expectEqual(body.ref, branch, 'ref to echo the requested ref');
  },
);

suite.test(
  {
    case: 'commit-and-last-commit',
    title: 'commit_id is the commit ref resolves to; last_commit_id the last commit that touched the file',
    clauses: ['files.file.commit-id', 'files.file.last-commit-id', 'files.get.ref-kinds'],
    // The branch's head is read: no other test may commit to it meanwhile.
    fixtures: { ownBranch },
  },
  async ({ as, files, ownBranch }) => {
    const { publicProject, path } = files;
    const branch = ownBranch;
    const file = path('commits');
    await createFile(as('maintainer'), publicProject, file, 'one\n', { branch });
    const first = await readFile(as('maintainer'), publicProject, file, branch);
    expectEqual(first.commit_id, first.last_commit_id, 'right after the file was written, commit_id and last_commit_id to be its commit');

    await createFile(as('maintainer'), publicProject, path('commits', 'other.txt'), 'another file\n', { branch });
    const after = await readFile(as('maintainer'), publicProject, file, branch);
    expectEqual(after.last_commit_id, first.last_commit_id, 'last_commit_id to stay the commit that last touched the file');
    expectTrue(after.commit_id !== first.commit_id, 'commit_id to move to the new head of the branch after another commit', `it stayed ${String(after.commit_id)}`);

    const bySha = await as('maintainer').get(fileUrl(publicProject, file), { query: { ref: first.commit_id as string } });
    expectOk(bySha, 200, 'file');
    const pinned = bySha.body as Record<string, unknown>;
    expectEqual(pinned.commit_id, first.commit_id, 'commit_id to be the commit named by a commit-id ref');
    expectEqual(pinned.ref, first.commit_id, 'ref to echo the commit id');
  },
);

suite.test(
  {
    case: 'headers-equal-fields',
    title: 'GET file carries the metadata headers, each equal to the JSON field of the same name (GitLab parity: the spec names them for HEAD only)',
    clauses: ['files.file.headers'],
  },
  async ({ as, run, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('headers');
    await createFile(as('maintainer'), publicProject, file, 'header check\n', { branch });
    const res = await as('reporter').get(fileUrl(publicProject, file), { query: { ref: branch } });
    expectOk(res, 200, 'file');
    const body = res.body as Record<string, unknown>;
    // The spec: "The same data is carried in HTTP response headers by the HEAD operations" (HEAD is
    // checked at the spec level in head.test.ts); GitLab's GET file sets them too.
    parity(res, 'lib/api/files.rb (GET file: set_http_headers(data)); lib/api/helpers/headers_helpers.rb', () => {
      for (const field of METADATA_FIELDS) expectHeader(res, headerName(run.headerPrefix, field), String(body[field]));
    });
  },
);

suite.test(
  {
    case: 'project-by-full-path',
    title: 'the project may be named by its URL-encoded full path instead of its id',
    clauses: ['files.id.path-or-number'],
  },
  async ({ as, files }) => {
    const { privateProject, branch } = files;
    const res = await as('reporter').get(fileUrl(privateProject.fullPath, 'README.md'), { query: { ref: branch } });
    expectOk(res, 200, 'file');
    expectEqual((res.body as { file_path: string }).file_path, 'README.md', 'the README of the project named by path');
  },
);

suite.test(
  {
    case: 'executable-flag',
    title: 'execute_filemode is true for a file written with the execute flag and false otherwise',
    clauses: ['files.file.execute-filemode'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    await createFile(as('maintainer'), publicProject, path('exec', 'run.sh'), '#!/bin/sh\necho hi\n', { branch, executable: true });
    await createFile(as('maintainer'), publicProject, path('exec', 'plain.sh'), 'echo plain\n', { branch });
    expectEqual((await readFile(as('developer'), publicProject, path('exec', 'run.sh'), branch)).execute_filemode, true, 'execute_filemode of run.sh');
    expectEqual((await readFile(as('developer'), publicProject, path('exec', 'plain.sh'), branch)).execute_filemode, false, 'execute_filemode of plain.sh');
  },
);

suite.test(
  {
    case: 'ref-required',
    title: 'a missing or blank ref is refused with 400 in the parameter-error shape',
    clauses: ['files.get.ref-required', 'files.errors.shape'],
  },
  async ({ as, files }) => {
    const { publicProject } = files;
    expectError(await as('developer').get(fileUrl(publicProject, 'README.md')), 400, { error: /ref/, gitlab: GITLAB_TEXT.params });
    expectError(await as('developer').get(fileUrl(publicProject, 'README.md'), { query: { ref: '' } }), 400, { error: /ref/, gitlab: GITLAB_TEXT.params });
  },
);

suite.test(
  {
    case: 'not-found-by-cause',
    title: 'an unknown file, ref or project gives 404 with the cause in the message',
    clauses: ['files.get.not-found', 'files.errors.shape'],
  },
  async ({ as, files }) => {
    const { publicProject, branch } = files;
    const reader = as('developer');
    expectError(await reader.get(fileUrl(publicProject, 'no/such/file.txt'), { query: { ref: branch } }), 404, { message: '404 File Not Found', gitlab: GITLAB_TEXT.fileNotFound });
    expectError(await reader.get(fileUrl(publicProject, 'README.md'), { query: { ref: 'no-such-branch' } }), 404, { message: '404 Commit Not Found', gitlab: GITLAB_TEXT.commitNotFound });
    expectError(await reader.get(fileUrl(2147483000, 'README.md'), { query: { ref: branch } }), 404, { message: '404 Project Not Found', gitlab: GITLAB_TEXT.projectNotFound });
  },
);

suite.test(
  {
    case: 'public-anonymous',
    title: 'a file of a public project is readable without a token',
    clauses: ['files.get.public-without-auth'],
  },
  async ({ as, files }) => {
    const { publicProject, branch } = files;
    const res = await as('anonymous').get(fileUrl(publicProject, 'README.md'), { query: { ref: branch } });
    expectOk(res, 200, 'file');
  },
);

suite.test(
  {
    case: 'private-hidden',
    title: 'a private project is not found for anonymous callers and for non-members',
    clauses: ['files.get.private-hidden'],
  },
  async ({ as, files }) => {
    const { privateProject, branch } = files;
    // The spec only says a public repository needs no authentication: 401 or 404. GitLab hides the
    // project (find_project! without authenticate_non_public on the files routes).
    const anonymous = await as('anonymous').get(fileUrl(privateProject, 'README.md'), { query: { ref: branch } });
    expectError(anonymous, [401, 404]);
    expectGitLabError(anonymous, ANONYMOUS_PRIVATE_GITLAB, 404, { message: '404 Project Not Found' });
    expectError(await as('outsider').get(fileUrl(privateProject, 'README.md'), { query: { ref: branch } }), 404, { message: '404 Project Not Found', gitlab: GITLAB_TEXT.projectNotFound });
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'on a private project Reporter and above read files, a Guest is refused with 403',
    clauses: ['files.read.role'],
  },
  async ({ as, files }) => {
    const { privateProject, branch } = files;
    for (const role of ['owner', 'maintainer', 'developer', 'reporter'] as const) {
      expectOk(await as(role).get(fileUrl(privateProject, 'README.md'), { query: { ref: branch } }), 200, 'file');
    }
    expectError(await as('guest').get(fileUrl(privateProject, 'README.md'), { query: { ref: branch } }), 403);
  },
);

suite.test(
  {
    case: 'token-scopes',
    title: 'tokens with scope api, read_api or read_repository may read files; an unknown token is refused with 401',
    clauses: ['files.auth.scopes', 'files.auth.private-token'],
  },
  async ({ as, withToken, files }) => {
    const { privateProject, branch } = files;
    for (const scope of ['api', 'read_api', 'read_repository'] as const) {
      expectOk(await as('reporter', scope).get(fileUrl(privateProject, 'README.md'), { query: { ref: branch } }), 200, 'file');
    }
    const unknown = withToken('glpat-not-a-real-token-0000', 'an unknown token');
    expectStatus(await unknown.get(fileUrl(privateProject, 'README.md'), { query: { ref: branch } }), 401);
  },
);

suite.test(
  {
    case: 'traversal-refused',
    title: 'a file_path with a ".." segment or a leading slash is refused with 400',
    clauses: ['files.write.traversal', 'files.errors.shape'],
  },
  async ({ as, files }) => {
    const { publicProject, branch } = files;
    for (const bad of ['docs/../README.md', '../README.md', '/README.md']) {
      expectError(await as('developer').get(fileUrl(publicProject, bad), { query: { ref: branch } }), 400, { error: 'file_path should be a valid file path', gitlab: GITLAB_TEXT.filePath });
    }
  },
);

suite.test(
  {
    case: 'unknown-route',
    title: 'an unknown route under /api/v4 gives 404 {"error":"404 Not Found"}',
    clauses: ['files.api-prefix'],
  },
  async ({ as, files }) => {
    const { publicProject, branch } = files;
    const res = await as('developer').get(apiPath`/projects/${publicProject.id}/repository/filez/${'README.md'}`, { query: { ref: branch } });
    expectError(res, 404, { error: '404 Not Found', gitlab: GITLAB_TEXT.route });
  },
);

suite.test(
  {
    case: 'pathspec-characters',
    title: 'a file named with git pathspec characters (":wq") reads back with its name, path and the commit that added it',
    clauses: ['files.file.name-and-path', 'files.file.last-commit-id', 'files.path.encoded'],
  },
  async ({ as, files }) => {
    const { publicProject, privateProject, branch } = files;
    for (const [project, readers] of [
      [publicProject, [['anonymous', 'api']]],
      [privateProject, [['developer', 'api'], ['developer', 'read_repository']]],
    ] as const) {
      await createFile(as('maintainer'), project, ':wq', 'Test file\n', { branch });
      const added = (await readFile(as('maintainer'), project, ':wq', branch)).last_commit_id;
      for (const [who, scope] of readers) {
        const res = await as(who, scope).get(fileUrl(project, ':wq'), { query: { ref: branch } });
        expectOk(res, 200, 'file');
        const body = res.body as Record<string, unknown>;
        expectEqual([body.file_path, body.file_name, body.last_commit_id], [':wq', ':wq', added], `":wq" as ${who} (${scope}) reads it`, res);
      }
    }
  },
);

suite.test(
  {
    case: 'old-commit-sha',
    title: 'a file read at an older commit id is the JSON it was at that commit (ref aside, which echoes the id), after the branch moved on and the file changed',
    clauses: ['files.get.ref-kinds', 'files.file.commit-id', 'files.file.last-commit-id', 'files.file.ref'],
    fixtures: { ownBranch },
  },
  async ({ as, files, ownBranch }) => {
    const { publicProject, path } = files;
    // A branch of the test's own: the commit read must be the branch head when the file is read.
    const branch = ownBranch;
    const file = path('old-sha', 'notes.txt');
    await createFile(as('maintainer'), publicProject, file, 'first\n', { branch });
    // Another commit, so that the commit read and the file's last commit differ.
    await createFile(as('maintainer'), publicProject, path('old-sha', 'other.txt'), 'other\n', { branch });
    const then = await readFile(as('developer'), publicProject, file, branch);
    const sha = then.commit_id as string;
    await updateFile(as('maintainer'), publicProject, file, 'second\n', { branch });
    const res = await as('developer').get(fileUrl(publicProject, file), { query: { ref: sha } });
    expectOk(res, 200, 'file');
    expectEqual({ ...(res.body as Record<string, unknown>), ref: branch }, then, `the file at ${sha}, field by field, as it read when that commit was the branch head`, res);
    expectEqual((res.body as Record<string, unknown>).ref, sha, 'ref to echo the commit id', res);
  },
);

suite.test(
  {
    case: 'anonymous-as-member',
    title: 'a file of a public project reads the same without a token as for a member, field by field',
    clauses: ['files.get.public-without-auth', 'files.file.shape'],
    fixtures: { ownBranch },
  },
  async ({ as, files, ownBranch }) => {
    const { publicProject, path } = files;
    // A branch of the test's own: both reads must meet the same branch head (commit_id).
    const branch = ownBranch;
    const file = path('anonymous', 'notes.txt');
    await createFile(as('maintainer'), publicProject, file, 'read by anyone\n', { branch });
    const byMember = await readFile(as('developer'), publicProject, file, branch);
    const res = await as('anonymous').get(fileUrl(publicProject, file), { query: { ref: branch } });
    expectOk(res, 200, 'file');
    expectEqual(res.body, byMember, 'the anonymous read to equal the member\'s', res);
  },
);

suite.test(
  {
    case: 'binary-content',
    title: 'a binary file reads back as the Base64 of its exact bytes, with their size, SHA-256 and git blob id',
    clauses: ['files.file.content-base64', 'files.file.content-sha256', 'files.file.blob-id', 'files.create.encoding'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0xff, 0xfe, 0x80, 0x0a, 0x0d, 0x1a]);
    const file = path('binary', 'image.png');
    await createFile(as('maintainer'), publicProject, file, bytes.toString('base64'), { branch, encoding: 'base64' });
    const body = await readFile(as('developer'), publicProject, file, branch);
    expectEqual(Buffer.from(body.content as string, 'base64').toString('hex'), bytes.toString('hex'), 'the decoded content to be the bytes written');
    expectEqual([body.size, body.content_sha256, body.blob_id], [bytes.length, sha256(bytes), gitBlobId(bytes)], 'size, content_sha256 and blob_id of the bytes');
  },
);

suite.test(
  {
    case: 'direct-guest',
    title: 'a direct Guest of a private project (no group role) may not read its files: GET file, raw and blame 403',
    clauses: ['files.read.role'],
  },
  async ({ withToken, lease, make, files }) => {
    const { privateProject, branch } = files;
    // A user lent to the test, made a Guest of the project only (taken back after the test).
    const guest = await lease();
    await make.addMember(privateProject, guest.id, ACCESS.GUEST);
    const client = withToken(guest.tokens.api, 'a direct Guest of the project');
    const url = fileUrl(privateProject, 'README.md');
    for (const form of [url, `${url}/raw`, `${url}/blame`]) expectError(await client.get(form, { query: { ref: branch } }), 403, { message: '403 Forbidden', gitlab: 'lib/api/files.rb (assign_file_vars!: authorize_read_code!); spec/requests/api/files_spec.rb (and user is a direct project member, and user is a guest: 403)' });
  },
);

suite.test(
  {
    case: 'moved-project',
    title: 'GitLab parity: after a rename, the old path of the project answers a GET of a file, of raw and of blame with 301 to the same URL by project id, which reads the file; a write through it is refused with 405',
    clauses: ['files.get.moved-project'],
    level: 'parity',
    fixtures: { repositories },
    requires: { setup: ['project-update'] },
  },
  async ({ repositories, ...kit }) => {
    const { as } = kit;
    const project = await kit.make.project({ group: repositories.group, visibility: 'public', hint: 'moved' });
    const file = 'dir/notes.txt';
    await createFile(as('maintainer'), project, file, 'moved along\n', { branch: project.defaultBranch });
    const oldPath = project.fullPath;
    await renameProject(kit, project, `${oldPath.split('/').pop()}-renamed`);
    const tail = (id: number | string, form: string) => `${apiPath`/projects/${id}/repository/files/${file}`}${form}`;
    for (const form of ['', '/raw', '/blame']) {
      const res = await as('developer').get(tail(oldPath, form), { query: { ref: project.defaultBranch } });
      expectStatus(res, 301, 'the old path of a renamed project redirected');
      const location = new URL(expectHeader(res, 'Location'));
      // CGI.escape of file_path: its slash as %2F (lib/api/helpers.rb url_with_project_id).
      expectTrue(location.pathname.endsWith(`/api/v4/projects/${project.id}/repository/files/dir%2Fnotes.txt${form}`), `Location to name the project by id, the file and the form ${form || '(file)'}`, `got ${location.href}`, res);
      expectEqual(location.searchParams.get('ref'), project.defaultBranch, 'the query kept in Location', res);
      const followed = await as('developer').get(`${location.pathname.slice(location.pathname.indexOf('/api/v4/') + '/api/v4'.length)}${location.search}`);
      expectStatus(followed, 200, 'the redirect target reads the file');
    }
    const write = await as('maintainer').put(tail(oldPath, ''), { body: { branch: project.defaultBranch, content: 'changed\n', commit_message: 'through the old path' } });
    expectError(write, 405, { message: 'Non GET methods are not allowed for moved projects', gitlab: 'lib/api/helpers.rb (find_project!: not_allowed! unless request.get?)' });
    const back = await readFile(as('developer'), project, file, project.defaultBranch);
    expectEqual(Buffer.from(back.content as string, 'base64').toString('utf8'), 'moved along\n', 'the file unchanged by the refused write');
  },
);
