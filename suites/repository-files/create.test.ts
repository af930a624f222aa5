// POST /projects/:id/repository/files/:file_path
import { endpoint } from './kit.js';
import { expectEqual, expectError, expectOk, expectStatus, expectFields } from '../../runner/core/checks.js';
import { apiPath } from '../../runner/core/client.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { blameAuthors, createFile, expectWriteSucceeded, expectGitLabError, expectWriteParamError, fileUrl, gitBlobId, GITLAB_TEXT, readFile, sha256, protectedBranch, writeBody } from './helpers.js';

const suite = endpoint('create');

suite.test(
  {
    case: 'commits-and-reads-back',
    title: 'create answers 201 with {file_path, branch} and the file reads back with its content, size, SHA-256 and blob id',
    clauses: ['files.create.commit', 'files.path.encoded', 'files.create.encoding'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('create', 'deep/dir/new.file.rb');
    const content = "puts 'hello'\n";
    const res = await as('maintainer').post(fileUrl(publicProject, file), { body: writeBody(content, { branch }) });
    expectOk(res, 201, 'file-write-result');
    expectFields(res.body, { file_path: file, branch }, 'the write result to echo file_path and branch');
    const back = await readFile(as('developer'), publicProject, file, branch);
    expectEqual(Buffer.from(back.content as string, 'base64').toString('utf8'), content, 'the content as written (encoding defaults to text)');
    expectEqual(back.size, Buffer.byteLength(content), 'size of the new file');
    expectEqual(back.content_sha256, sha256(Buffer.from(content)), 'content_sha256 of the new file');
    expectEqual(back.blob_id, gitBlobId(Buffer.from(content)), 'blob_id of the new file');
  },
);

suite.test(
  {
    case: 'form-fields',
    title: 'create also takes its parameters as form fields, the commit author included',
    clauses: ['files.create.commit', 'files.create.author'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('create-form');
    const res = await as('maintainer').post(fileUrl(publicProject, file), { body: writeBody('from a form\n', { branch, authorName: 'John Doe', authorEmail: 'user@example.org' }), form: true });
    expectWriteSucceeded(res);
    const back = await readFile(as('developer'), publicProject, file, branch);
    expectEqual(Buffer.from(back.content as string, 'base64').toString('utf8'), 'from a form\n', 'the content sent as a form field');
    const blame = await as('developer').get(`${fileUrl(publicProject, file)}/blame`, { query: { ref: branch } });
    expectOk(blame, 200, 'blame-range', { list: true });
    const commit = (blame.body as { commit: { id: string; author_name: string; author_email: string } }[])[0].commit;
    expectEqual([commit.id, commit.author_name, commit.author_email], [back.last_commit_id, 'John Doe', 'user@example.org'], 'the commit author from the form fields', blame);
  },
);

suite.test(
  {
    case: 'base64-and-invalid-encoding',
    title: 'encoding=base64 stores the decoded bytes; an unknown encoding is refused with 400',
    clauses: ['files.create.encoding'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('create-b64');
    await createFile(as('maintainer'), publicProject, file, Buffer.from('decoded text\n').toString('base64'), { branch, encoding: 'base64' }, 'checked');
    expectEqual(Buffer.from((await readFile(as('developer'), publicProject, file, branch)).content as string, 'base64').toString('utf8'), 'decoded text\n', 'the decoded content');
    await createFile(as('maintainer'), publicProject, path('create-b64', 'text.txt'), 'aGVsbG8=', { branch, encoding: 'text' }, 'checked');
    expectEqual(Buffer.from((await readFile(as('developer'), publicProject, path('create-b64', 'text.txt'), branch)).content as string, 'base64').toString('utf8'), 'aGVsbG8=', 'encoding=text to store the content as given');
    const bad = await as('maintainer').post(fileUrl(publicProject, path('create-b64', 'bad.txt')), { body: { ...writeBody('x', { branch }), encoding: 'rot13' } });
    // Grape's {"error":"encoding does not have a valid value"} (older GitLab) or {"message":"400 Bad
    // request - encoding must be text or base64"} (newest GitLab read, files_spec@387ee084).
    expectWriteParamError(bad, 'encoding');
    expectStatus(await as('developer').get(fileUrl(publicProject, path('create-b64', 'bad.txt')), { query: { ref: branch } }), 404);
  },
);

suite.test(
  {
    case: 'execute-flag',
    title: 'execute_filemode=true creates an executable file',
    clauses: ['files.create.execute-filemode'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('create-exec', 'tool.sh');
    await createFile(as('maintainer'), publicProject, file, '#!/bin/sh\n', { branch, executable: true }, 'checked');
    expectEqual((await readFile(as('developer'), publicProject, file, branch)).execute_filemode, true, 'execute_filemode of the new file');
  },
);

suite.test(
  {
    case: 'start-branch',
    title: 'start_branch creates a new branch from it holding the file; the start branch is unchanged',
    clauses: ['files.create.start-branch'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('create-branch');
    const created = `${branch}-new`;
    const res = await as('developer').post(fileUrl(publicProject, file), { body: writeBody('on a new branch\n', { branch: created, startBranch: branch }) });
    expectWriteSucceeded(res);
    expectEqual((res.body as { branch: string }).branch, created, 'the write result\'s branch');
    expectOk(await as('developer').get(fileUrl(publicProject, file), { query: { ref: created } }), 200, 'file');
    expectError(await as('developer').get(fileUrl(publicProject, file), { query: { ref: branch } }), 404, { message: '404 File Not Found', gitlab: GITLAB_TEXT.fileNotFound });
  },
);

suite.test(
  {
    case: 'existing-file',
    title: 'creating a file that exists fails with 400 and the file keeps its content',
    clauses: ['files.create.exists', 'files.errors.shape'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('create-twice');
    await createFile(as('maintainer'), publicProject, file, 'original\n', { branch });
    const again = await as('maintainer').post(fileUrl(publicProject, file), { body: writeBody('replacement\n', { branch }) });
    expectError(again, 400, { message: 'A file with this name already exists', gitlab: 'lib/api/files.rb (render_api_error!(result[:message], 400)); Gitaly internal/gitaly/service/operations/commit_files.go' });
    expectEqual(Buffer.from((await readFile(as('developer'), publicProject, file, branch)).content as string, 'base64').toString('utf8'), 'original\n', 'the original content to be kept');
  },
);

suite.test(
  {
    case: 'required-params',
    title: 'branch, commit_message and content are required: each missing one is a 400 and nothing is written',
    clauses: ['files.create.required', 'files.errors.shape'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('create-required');
    for (const missing of ['branch', 'commit_message', 'content']) {
      const body = writeBody('content\n', { branch });
      delete body[missing];
      expectWriteParamError(await as('maintainer').post(fileUrl(publicProject, file), { body }), missing);
    }
    expectWriteParamError(await as('maintainer').post(fileUrl(publicProject, file), { body: { ...writeBody('x', { branch }), branch: '' } }), 'branch');
    expectWriteParamError(await as('maintainer').post(fileUrl(publicProject, file), { body: { ...writeBody('x', { branch }), commit_message: '' } }), 'commit_message');
    expectStatus(await as('developer').get(fileUrl(publicProject, file), { query: { ref: branch } }), 404);
  },
);

suite.test(
  {
    case: 'traversal',
    title: 'a file_path with /../ or an absolute path is refused with 400 and nothing is written',
    clauses: ['files.write.traversal'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    for (const bad of [`${path('trav')}/../../escape.txt`, '../escape.txt', '/etc/escape.txt']) {
      expectError(await as('maintainer').post(fileUrl(publicProject, bad), { body: writeBody('x', { branch }) }), 400, { error: 'file_path should be a valid file path', gitlab: GITLAB_TEXT.filePath });
    }
    expectStatus(await as('developer').get(fileUrl(publicProject, 'escape.txt'), { query: { ref: branch } }), 404);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'Developer and above may create files; Reporter and Guest get 403, an outsider of a private project 404',
    clauses: ['files.write.role'],
  },
  async ({ as, files }) => {
    const { publicProject, privateProject, path, branch } = files;
    for (const role of ['owner', 'maintainer', 'developer'] as const) {
      const res = await as(role).post(fileUrl(privateProject, path('roles', `${role}.txt`)), { body: writeBody(`by ${role}\n`, { branch: `${branch}-${role}`, startBranch: branch }) });
      expectWriteSucceeded(res);
    }
    for (const role of ['reporter', 'guest'] as const) {
      expectError(await as(role).post(fileUrl(privateProject, path('roles', `${role}.txt`)), { body: writeBody('x', { branch: `${branch}-${role}`, startBranch: branch }) }), 403);
    }
    expectError(await as('outsider').post(fileUrl(privateProject, path('roles', 'outsider.txt')), { body: writeBody('x', { branch }) }), 404);
    expectError(await as('outsider').post(fileUrl(publicProject, path('roles', 'outsider.txt')), { body: writeBody('x', { branch: `${branch}-outsider`, startBranch: branch }) }), 403);
  },
);

suite.test(
  {
    case: 'protected-default-branch',
    title: 'a Developer writing to the protected default branch gets 400; a Maintainer may',
    clauses: ['files.write.role'],
  },
  async ({ as, files }) => {
    const { privateProject, path } = files;
    // The project's default branch, not this file's (a new branch is not protected); the paths are
    // this test's alone, and no test reads main's head.
    const main = { branch: privateProject.defaultBranch };
    const res = await as('developer').post(fileUrl(privateProject, path('protected', 'dev.txt')), { body: writeBody('x', main) });
    // A new GitLab instance protects the default branch of a new project (application setting
    // default_branch_protection; only Maintainers push), and Commits::CreateService refuses the
    // commit; an instance configured without protection lets the Developer push (a success).
    if (res.status < 200 || res.status >= 300) expectStatus(res, 400, 'the default branch is protected on a stock instance; a success where the instance turned protection off');
    if (res.status === 400) {
      expectError(res, 400, { message: 'You are not allowed to push into this branch', gitlab: 'app/services/commits/create_service.rb (validate_permissions!); lib/api/files.rb (render_api_error!(result[:message], 400))' });
    }
    expectWriteSucceeded(await as('maintainer').post(fileUrl(privateProject, path('protected', 'maintainer.txt')), { body: writeBody('x', main) }));
  },
);

suite.test(
  {
    case: 'scopes-and-anonymous',
    title: 'read_api and read_repository tokens may not write (403); no token is refused and nothing is written',
    clauses: ['files.auth.scopes', 'files.write.anonymous', 'files.auth.private-token'],
  },
  async ({ as, withToken, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('scopes');
    for (const scope of ['read_api', 'read_repository'] as const) {
      expectError(await as('maintainer', scope).post(fileUrl(publicProject, file), { body: writeBody('x', { branch }) }), 403, { error: 'insufficient_scope', gitlab: 'lib/api/api_guard.rb (InsufficientScopeError)' });
    }
    // The spec does not say how a write without a token is refused. GitLab's files API does not
    // authenticate first: authorize! :push_code answers 403 on a public project (404 on a hidden one).
    const anonymous = await as('anonymous').post(fileUrl(publicProject, file), { body: writeBody('x', { branch }) });
    expectStatus(anonymous, [401, 403, 404], 'a write without a token is refused: 401, or 403/404 depending on visibility');
    expectGitLabError(anonymous, 'lib/api/files.rb (authorize! :push_code, no authenticate!); lib/api/helpers.rb (authorize!: forbidden!)', 403, { message: '403 Forbidden' });
    expectStatus(await withToken('glpat-unknown-token-00000', 'an unknown token').post(fileUrl(publicProject, file), { body: writeBody('x', { branch }) }), 401);
    expectStatus(await as('developer').get(fileUrl(publicProject, file), { query: { ref: branch } }), 404);
  },
);

suite.test(
  {
    case: 'unknown-project',
    title: 'create in an unknown project is 404 Project Not Found',
    clauses: ['files.get.not-found'],
  },
  async ({ as }) => {
    const res = await as('maintainer').post(apiPath`/projects/${2147483000}/repository/files/${'a.txt'}`, { body: writeBody('x', { branch: 'main' }) });
    expectError(res, 404, { message: '404 Project Not Found', gitlab: GITLAB_TEXT.projectNotFound });
  },
);

suite.test(
  {
    case: 'empty-repository',
    title: 'the first file of a project without commits is created (201) and reads back, not executable (no execute_filemode sent), its commit authored by the user of the token',
    clauses: ['files.create.commit', 'files.create.default-author', 'files.create.execute-filemode', 'files.file.execute-filemode'],
  },
  async ({ as, make, run, files }) => {
    // A private project without commits of the test's own, in the run's group with its members. (A
    // form body is the same write: create.form-body checks it.)
    const { group } = files;
    const project = await make.project({ group, visibility: 'private', hint: 'empty', empty: true });
    // A Maintainer: whether a Developer may make the initial push of the default branch is an instance setting.
    const res = await as('maintainer').post(fileUrl(project, 'first.txt'), { body: writeBody('the first file\n', { branch: 'main' }) });
    expectOk(res, 201, 'file-write-result');
    expectFields(res.body, { file_path: 'first.txt', branch: 'main' }, 'the write result', res);
    const back = await readFile(as('developer'), project, 'first.txt', 'main');
    expectEqual(Buffer.from(back.content as string, 'base64').toString('utf8'), 'the first file\n', 'the first file read back');
    expectEqual(back.commit_id, back.last_commit_id, 'the first commit to be the head and the file\'s last commit');
    // GitLab: spec/requests/api/files_spec.rb (POST, when the repo is empty: the last commit's author_email
    // and author_name are the user's); a file written without execute_filemode is a regular file
    // (lib/gitlab/gitaly_client/operation_service.rb user_commit_files_action_header: execute_filemode:
    // !!action[:execute_filemode], false when not sent; Gitaly's UserCommitFiles creates mode 100644 then).
    expectEqual(back.execute_filemode, false, 'execute_filemode of the first file (none was sent)');
    const maintainer = run.actors.maintainer;
    expectEqual(await blameAuthors(as('developer'), project, 'first.txt', 'main'), [`${maintainer.name} <${maintainer.email}>`], 'the author of the first commit: the user of the token');
  },
);

suite.test(
  {
    case: 'execute-filemode-not-boolean',
    title: 'execute_filemode that is not a boolean, in JSON or as a form field, is refused with 400 and nothing is written',
    clauses: ['files.create.execute-filemode-type', 'files.errors.shape'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    // Not 0: older GitLab (Grape's Boolean) reads 0 as false; a word is no boolean in any version.
    for (const form of [false, true]) {
      const file = path('create-filemode', form ? 'form.sh' : 'json.sh');
      expectWriteParamError(await as('maintainer').post(fileUrl(publicProject, file), { body: { ...writeBody('#!/bin/sh\n', { branch }), execute_filemode: 'maybe' }, form }), 'execute_filemode');
      expectStatus(await as('developer').get(fileUrl(publicProject, file), { query: { ref: branch } }), 404);
    }
  },
);

suite.test(
  {
    case: 'invalid-json',
    title: 'a body declared JSON that does not parse is refused with 400 and nothing is written',
    clauses: ['files.create.invalid-json'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('create-invalid-json');
    const body = JSON.stringify(writeBody('not written\n', { branch }));
    expectError(await as('maintainer').post(fileUrl(publicProject, file), { rawJson: `${body.slice(0, -1)} {` }), 400);
    expectStatus(await as('developer').get(fileUrl(publicProject, file), { query: { ref: branch } }), 404);
  },
);

suite.test(
  {
    case: 'default-author',
    title: 'without author_name and author_email, the commit is authored by the user of the token (blame names their name and email)',
    clauses: ['files.create.default-author', 'files.create.commit'],
  },
  async ({ as, run, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('default-author', 'notes.txt');
    await createFile(as('developer'), publicProject, file, 'by the developer\n', { branch }, 'checked');
    const developer = run.actors.developer;
    expectEqual(await blameAuthors(as('developer'), publicProject, file, branch), [`${developer.name} <${developer.email}>`], 'the author of the create commit');
  },
);

// ---- branches: Commits::CreateService#validate! (app/services/commits/create_service.rb) ----------

/** Where GitLab refuses a write on its branches: the service's check, answered 400 with its message by lib/api/files.rb. */
const COMMIT_CHECKS = (check: string) => `app/services/commits/create_service.rb (${check}); lib/api/files.rb (render_api_error!(result[:message], 400))`;

suite.test(
  {
    case: 'existing-branch',
    title: 'a create, update or delete from start_branch onto another branch that exists is refused with 400 (GitLab: "A branch called \'<branch>\' already exists. Switch to that branch in order to make changes"); neither branch changes',
    clauses: ['files.write.branch-exists', 'files.errors.shape'],
  },
  async ({ as, make, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('existing-branch');
    const added = path('existing-branch', 'added.txt');
    await createFile(as('maintainer'), publicProject, file, 'kept\n', { branch });
    // A branch of this test's own that exists, made from the default branch (it holds neither path).
    const taken = `${branch}-taken`;
    await make.branch(publicProject, taken);
    const refused = { message: `A branch called '${taken}' already exists. Switch to that branch in order to make changes`, gitlab: `${COMMIT_CHECKS('validate_branch_existence!')}; spec/services/commits/create_service_spec.rb` };
    const onto = { branch: taken, startBranch: branch };
    expectError(await as('maintainer').post(fileUrl(publicProject, added), { body: writeBody('not written\n', onto) }), 400, refused);
    expectError(await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('not written\n', onto) }), 400, refused);
    expectError(await as('maintainer').delete(fileUrl(publicProject, file), { body: writeBody(undefined, onto) }), 400, refused);
    for (const [at, ref] of [[added, taken], [file, taken], [added, branch]]) {
      expectStatus(await as('developer').get(fileUrl(publicProject, at), { query: { ref } }), 404, `${at} absent at ${ref}: the refused writes wrote nothing`);
    }
    expectEqual(Buffer.from((await readFile(as('developer'), publicProject, file, branch)).content as string, 'base64').toString('utf8'), 'kept\n', 'the file on the start branch, unchanged');
  },
);

suite.test(
  {
    case: 'start-branch-missing',
    title: 'a start_branch that names no branch, or a new branch without start_branch, is refused with 400 (GitLab: "You can only create or edit files when you are on a branch"); no branch is made',
    clauses: ['files.write.start-branch-missing', 'files.errors.shape'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('start-branch-missing');
    const refused = { message: 'You can only create or edit files when you are on a branch', gitlab: `${COMMIT_CHECKS('validate_on_branch!')}; lib/api/files.rb (commit_params: start_branch defaults to branch)` };
    const created = `${branch}-from-nowhere`;
    expectError(await as('maintainer').post(fileUrl(publicProject, file), { body: writeBody('not written\n', { branch: created, startBranch: `${branch}-no-such-branch` }) }), 400, refused);
    expectError(await as('maintainer').post(fileUrl(publicProject, file), { body: writeBody('not written\n', { branch: created }) }), 400, refused);
    expectError(await as('developer').get(fileUrl(publicProject, file), { query: { ref: created } }), 404, { message: '404 Commit Not Found', gitlab: GITLAB_TEXT.commitNotFound });
    expectStatus(await as('developer').get(fileUrl(publicProject, file), { query: { ref: branch } }), 404, 'the file absent from the file\'s branch');
  },
);

suite.test(
  {
    case: 'invalid-branch-name',
    title: 'a new branch whose name git refuses ("a..b") is refused with 400 (GitLab: "Something went wrong when we tried to create \'<branch>\' for you: Branch name is invalid"); nothing is written',
    clauses: ['files.write.branch-name-invalid', 'files.errors.shape'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('invalid-branch-name');
    const invalid = `${branch}..bad`;
    const res = await as('developer').post(fileUrl(publicProject, file), { body: writeBody('not written\n', { branch: invalid, startBranch: branch }) });
    expectError(res, 400, { message: `Something went wrong when we tried to create '${invalid}' for you: Branch name is invalid`, gitlab: `${COMMIT_CHECKS('validate_new_branch_name!')}; app/services/branches/validate_new_service.rb; lib/gitlab/git_ref_validator.rb` });
    expectStatus(await as('developer').get(fileUrl(publicProject, file), { query: { ref: branch } }), 404, 'the file absent from the start branch');
  },
);

suite.test(
  {
    case: 'protected-branch',
    title: 'on a branch only Maintainers may push to, a Developer\'s create is refused with 400 (GitLab: "You are not allowed to push into this branch") and writes nothing; a Maintainer\'s goes through',
    clauses: ['files.write.protected-branch', 'files.write.role'],
    fixtures: { protectedBranch },
  },
  async ({ as, files, protectedBranch }) => {
    const { privateProject, path } = files;
    const guarded = protectedBranch;
    const file = path('protected-branch', 'dev.txt');
    const res = await as('developer').post(fileUrl(privateProject, file), { body: writeBody('not written\n', { branch: guarded }) });
    expectError(res, 400, { message: 'You are not allowed to push into this branch', gitlab: COMMIT_CHECKS('validate_permissions!: Gitlab::UserAccess#can_push_to_branch?') });
    expectStatus(await as('developer').get(fileUrl(privateProject, file), { query: { ref: guarded } }), 404, 'the Developer\'s file absent from the protected branch');
    expectWriteSucceeded(await as('maintainer').post(fileUrl(privateProject, path('protected-branch', 'maintainer.txt')), { body: writeBody('by the maintainer\n', { branch: guarded }) }));
  },
);

suite.test(
  {
    case: 'commit-email',
    title: 'a user whose commit_email is a verified secondary address authors and commits a create and an update with it, not the primary address (blame shows it)',
    clauses: ['files.write.commit-email', 'files.create.commit'],
    requires: { setup: ['secondary-emails', 'commit-email'] },
  },
  async ({ make, names, admin, withToken, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('commit-email', 'notes.txt');
    // A user of this test's own (it changes the user's addresses), a Developer of the project.
    const user = await make.user('committer');
    const secondary = names.email('commit');
    await make.addEmail(user, secondary, true);
    await make.setup(`make ${secondary} the commit address of ${user.username}`, admin.put(apiPath`/users/${user.id}`, { body: { commit_email: secondary } }), [200], 'commit-email');
    await make.addMember(publicProject, user.id, ACCESS.DEVELOPER);
    const client = withToken(user.tokens.api, 'the user with a commit address');
    const identities = async (what: string) => {
      const res = await client.get(`${fileUrl(publicProject, file)}/blame`, { query: { ref: branch } });
      expectStatus(res, 200, `reading the blame of ${file} after the ${what}`);
      const ranges = res.body as { commit: { author_email: string; committer_email: string } }[];
      return [...new Set(ranges.map((r) => `author ${r.commit.author_email}, committer ${r.commit.committer_email}`))];
    };
    const wanted = [`author ${secondary}, committer ${secondary}`];
    await createFile(client, publicProject, file, 'first\n', { branch }, 'checked');
    expectEqual(await identities('create'), wanted, `the addresses of the create commit (the primary, ${user.email}, is not the commit address)`);
    expectOk(await client.put(fileUrl(publicProject, file), { body: writeBody('second\n', { branch }) }), 200);
    expectEqual(await identities('update'), wanted, 'the addresses of the update commit');
  },
);
