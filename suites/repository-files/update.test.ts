// PUT /projects/:id/repository/files/:file_path
import { endpoint } from './kit.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue, expectFields } from '../../runner/core/checks.js';
import { blameAuthors, createFile, expectGitLabError, expectGitLabStatus, expectWriteParamError, fileUrl, GITLAB_TEXT, readFile, ownBranch, writeBody, type WriteOptions } from './helpers.js';

const suite = endpoint('update');

const text = (body: Record<string, unknown>) => Buffer.from(body.content as string, 'base64').toString('utf8');

suite.test(
  {
    case: 'commits-and-reads-back',
    title: 'update answers 200 with {file_path, branch}; the new content, size and a new last_commit_id read back',
    clauses: ['files.update.commit', 'files.file.last-commit-id'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('update');
    await createFile(as('maintainer'), publicProject, file, 'before\n', { branch });
    const before = await readFile(as('developer'), publicProject, file, branch);
    const res = await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('after the update\n', { branch }) });
    expectOk(res, 200, 'file-write-result');
    expectFields(res.body, { file_path: file, branch }, 'the write result');
    const after = await readFile(as('developer'), publicProject, file, branch);
    expectEqual(text(after), 'after the update\n', 'the updated content');
    expectEqual(after.size, Buffer.byteLength('after the update\n'), 'the updated size');
    expectTrue(after.last_commit_id !== before.last_commit_id, 'a new last_commit_id after the update', `it stayed ${String(after.last_commit_id)}`);
  },
);

suite.test(
  {
    case: 'last-commit-id',
    title: 'a current last_commit_id lets the update through; a stale one fails with 400 and nothing is lost',
    clauses: ['files.update.last-commit-id'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('update-lcid');
    await createFile(as('maintainer'), publicProject, file, 'v1\n', { branch });
    const v1 = (await readFile(as('developer'), publicProject, file, branch)).last_commit_id as string;
    expectOk(await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('v2\n', { branch, lastCommitId: v1 }) }), 200, 'file-write-result');
    const stale = await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('v3 from a stale editor\n', { branch, lastCommitId: v1 }) });
    expectError(stale, 400, { message: 'You are attempting to update a file that has changed since you started editing it.', gitlab: 'app/services/files/update_service.rb (FileChangedError); spec/requests/api/files_spec.rb' });
    expectEqual(text(await readFile(as('developer'), publicProject, file, branch)), 'v2\n', 'the content of the accepted update to be kept');
  },
);

suite.test(
  {
    case: 'missing-file',
    title: 'updating a file that does not exist fails with 400 and does not create it',
    clauses: ['files.update.missing'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('update-missing');
    expectError(await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('x\n', { branch }) }), 400, { message: "A file with this name doesn't exist", gitlab: 'Gitaly internal/gitaly/service/operations/commit_files.go (index error); lib/api/files.rb (render_api_error!(result[:message], http_status))' });
    expectStatus(await as('developer').get(fileUrl(publicProject, file), { query: { ref: branch } }), 404);
  },
);

suite.test(
  {
    case: 'same-content',
    title: 'an update with the current content is refused as an empty commit (spec) or makes an empty commit (GitLab); the file stays as it was',
    clauses: ['files.update.empty-commit'],
    // The branch's head is read: no other test may commit to it meanwhile.
    fixtures: { ownBranch },
  },
  async ({ as, files, ownBranch }) => {
    const { publicProject, path } = files;
    const branch = ownBranch;
    const file = path('update-same');
    await createFile(as('maintainer'), publicProject, file, 'unchanged\n', { branch });
    const before = await readFile(as('developer'), publicProject, file, branch);
    const res = await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('unchanged\n', { branch }) });
    // Divergence. The spec (Errors: "the commit is empty because new content equals current content")
    // says 400. GitLab has no such check: Files::UpdateService#validate! only compares last_commit_id
    // (app/services/files/update_service.rb), and Gitaly's UserCommitFiles writes the commit without
    // comparing trees (internal/gitaly/service/operations/commit_files.go), so it answers 200 with an
    // empty commit. Both are accepted; either way the file itself must not change.
    expectStatus(res, [400, 200], 'the spec says 400 (empty commit); GitLab answers 200 and makes an empty commit');
    expectGitLabStatus(res, 'app/services/files/update_service.rb (validate!: no content check); Gitaly internal/gitaly/service/operations/commit_files.go (no empty-tree check)', 200);
    if (res.status === 200) expectOk(res, 200, 'file-write-result');
    else expectError(res, 400);
    const after = await readFile(as('developer'), publicProject, file, branch);
    expectEqual(text(after), 'unchanged\n', 'the content to be unchanged');
    expectEqual([after.blob_id, after.execute_filemode], [before.blob_id, before.execute_filemode], 'the blob and the file mode to be unchanged');
    // An empty commit does not touch the path, so the last commit of the file stays in both cases.
    expectEqual(after.last_commit_id, before.last_commit_id, 'the last commit that touched the file to stay the same');
    if (res.status === 400) expectEqual(after.commit_id, before.commit_id, 'a refused update to leave the branch head where it was');
    else expectTrue(after.commit_id !== before.commit_id, 'the empty commit to be the new head of the branch', `the head stayed ${String(after.commit_id)}`);
  },
);

suite.test(
  {
    case: 'execute-flag',
    title: 'execute_filemode on update turns the execute flag on and off',
    clauses: ['files.create.execute-filemode'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('update-exec', 'script.sh');
    await createFile(as('maintainer'), publicProject, file, 'echo 1\n', { branch });
    expectOk(await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('echo 2\n', { branch, executable: true }) }), 200, 'file-write-result');
    expectEqual((await readFile(as('developer'), publicProject, file, branch)).execute_filemode, true, 'execute_filemode after turning it on');
    expectOk(await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('echo 3\n', { branch, executable: false }) }), 200, 'file-write-result');
    expectEqual((await readFile(as('developer'), publicProject, file, branch)).execute_filemode, false, 'execute_filemode after turning it off');
  },
);

suite.test(
  {
    case: 'required-and-traversal',
    title: 'update needs branch, commit_message and content, and refuses traversal; nothing changes',
    clauses: ['files.create.required', 'files.write.traversal', 'files.raw.leading-slash', 'files.errors.shape'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('update-required');
    await createFile(as('maintainer'), publicProject, file, 'keep me\n', { branch });
    for (const missing of ['branch', 'commit_message', 'content']) {
      const body = writeBody('changed\n', { branch });
      delete body[missing];
      expectWriteParamError(await as('maintainer').put(fileUrl(publicProject, file), { body }), missing);
    }
    expectWriteParamError(await as('maintainer').put(fileUrl(publicProject, file), { body: { ...writeBody('changed\n', { branch }), commit_message: '' } }), 'commit_message');
    expectError(await as('maintainer').put(fileUrl(publicProject, file), { body: {} }), 400);
    expectError(await as('maintainer').put(fileUrl(publicProject, `${path('update-required')}/../other.txt`), { body: writeBody('x', { branch }) }), 400, { error: 'file_path should be a valid file path', gitlab: GITLAB_TEXT.filePath });
    expectError(await as('maintainer').put(fileUrl(publicProject, `/${file}`), { body: writeBody('changed\n', { branch }) }), 400, { error: 'file_path should be a valid file path', gitlab: `${GITLAB_TEXT.filePath} (when path is absolute)` });
    expectEqual(text(await readFile(as('developer'), publicProject, file, branch)), 'keep me\n', 'the content to be unchanged');
  },
);

suite.test(
  {
    case: 'roles-and-scopes',
    title: 'Reporter, Guest and read-only tokens may not update (403); anonymous is refused; the file is unchanged',
    clauses: ['files.write.role', 'files.auth.scopes', 'files.write.anonymous'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('update-roles');
    const roles = `${branch}-roles`;
    await createFile(as('maintainer'), publicProject, file, 'stable\n', { branch: roles, startBranch: branch });
    const attempt = (who: ReturnType<typeof as>) => who.put(fileUrl(publicProject, file), { body: writeBody('changed\n', { branch: roles }) });
    expectError(await attempt(as('reporter')), 403);
    expectError(await attempt(as('guest')), 403);
    for (const scope of ['read_api', 'read_repository'] as const) {
      expectError(await attempt(as('developer', scope)), 403, { error: 'insufficient_scope', gitlab: 'lib/api/api_guard.rb (InsufficientScopeError)' });
    }
    // GitLab's files API does not authenticate first: authorize! :push_code answers 403 on a public project.
    const anonymous = await attempt(as('anonymous'));
    expectStatus(anonymous, [401, 403, 404], 'a write without a token is refused: 401, or 403/404 depending on visibility');
    expectGitLabError(anonymous, 'lib/api/files.rb (authorize! :push_code, no authenticate!); lib/api/helpers.rb (authorize!: forbidden!)', 403, { message: '403 Forbidden' });
    expectEqual(text(await readFile(as('developer'), publicProject, file, roles)), 'stable\n', 'the content to be unchanged');
    expectOk(await attempt(as('developer')), 200, 'file-write-result');
  },
);

suite.test(
  {
    case: 'null-content',
    title: 'an update with encoding=base64 and content null writes an empty file (GitLab), or is refused as a missing content',
    clauses: ['files.update.null-content', 'files.create.encoding'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('update-null');
    await createFile(as('maintainer'), publicProject, file, 'not empty yet\n', { branch });
    const res = await as('maintainer').put(fileUrl(publicProject, file), { body: { ...writeBody(undefined, { branch, encoding: 'base64' }), content: null } });
    // The spec requires content and says nothing of null; GitLab takes it as empty (spec/requests/api/
    // files_spec.rb "when base64 encoding with a nil content": updates a file with an empty content).
    expectStatus(res, [200, 400], 'null content: an empty file (GitLab) or a missing content');
    expectGitLabStatus(res, 'spec/requests/api/files_spec.rb (when base64 encoding with a nil content: 200, empty blob)', 200);
    const after = await readFile(as('developer'), publicProject, file, branch);
    if (res.status === 200) {
      expectOk(res, 200, 'file-write-result');
      expectEqual([text(after), after.size], ['', 0], 'the file to be empty after the update');
    } else {
      expectError(res, 400);
      expectEqual(text(after), 'not empty yet\n', 'a refused update to leave the content');
    }
  },
);

suite.test(
  {
    case: 'form-fields',
    title: 'update takes its parameters as form fields: content, author, execute_filemode and a current last_commit_id; a stale one is refused',
    clauses: ['files.update.commit', 'files.create.author', 'files.create.execute-filemode', 'files.update.last-commit-id', 'files.http.form-body'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('update-form', 'script.sh');
    await createFile(as('maintainer'), publicProject, file, 'echo 1\n', { branch });
    const v1 = (await readFile(as('developer'), publicProject, file, branch)).last_commit_id as string;
    const put = (content: string, options: Omit<WriteOptions, 'branch'>) => as('maintainer').put(fileUrl(publicProject, file), { body: writeBody(content, { branch, ...options }), form: true });

    const res = await put('echo 2\n', { authorName: 'Form Author', authorEmail: 'form.author@example.com', executable: true, lastCommitId: v1 });
    expectOk(res, 200, 'file-write-result');
    expectFields(res.body, { file_path: file, branch }, 'the write result', res);
    const v2 = await readFile(as('developer'), publicProject, file, branch);
    expectEqual([text(v2), v2.execute_filemode], ['echo 2\n', true], 'the content and the execute flag sent as form fields');
    const blame = await as('developer').get(`${fileUrl(publicProject, file)}/blame`, { query: { ref: branch } });
    expectOk(blame, 200, 'blame-range', { list: true });
    const commit = (blame.body as { commit: { id: string; author_name: string; author_email: string } }[])[0].commit;
    expectEqual([commit.id, commit.author_name, commit.author_email], [v2.last_commit_id, 'Form Author', 'form.author@example.com'], 'the commit author from the form fields', blame);

    expectOk(await put('echo 3\n', { executable: false }), 200, 'file-write-result');
    expectEqual((await readFile(as('developer'), publicProject, file, branch)).execute_filemode, false, 'execute_filemode=false as a form field');

    const stale = await put('echo stale\n', { lastCommitId: v1 });
    expectError(stale, 400, { message: 'You are attempting to update a file that has changed since you started editing it.', gitlab: 'app/services/files/update_service.rb (FileChangedError); spec/requests/api/files_spec.rb (with form encoding)' });
    expectEqual(text(await readFile(as('developer'), publicProject, file, branch)), 'echo 3\n', 'the content to survive a stale form update');
  },
);

suite.test(
  {
    case: 'form-errors',
    title: 'a form update without parameters, with an empty commit_message or an absolute path is refused with 400; nothing changes',
    clauses: ['files.create.required', 'files.write.traversal', 'files.raw.leading-slash', 'files.http.form-body'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('update-form-errors');
    await createFile(as('maintainer'), publicProject, file, 'keep me\n', { branch });
    expectError(await as('maintainer').put(fileUrl(publicProject, file), { body: {}, form: true }), 400);
    expectWriteParamError(await as('maintainer').put(fileUrl(publicProject, file), { body: { ...writeBody('changed\n', { branch }), commit_message: '' }, form: true }), 'commit_message');
    expectError(await as('maintainer').put(fileUrl(publicProject, `/${file}`), { body: writeBody('changed\n', { branch }), form: true }), 400, { error: 'file_path should be a valid file path', gitlab: `${GITLAB_TEXT.filePath} (when path is absolute)` });
    expectEqual(text(await readFile(as('developer'), publicProject, file, branch)), 'keep me\n', 'the content to be unchanged');
  },
);

suite.test(
  {
    case: 'default-author',
    title: 'without author_name and author_email, the update commit is authored by the user of the token (blame names their name and email)',
    clauses: ['files.create.default-author', 'files.update.commit'],
  },
  async ({ as, run, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('default-author', 'notes.txt');
    await createFile(as('maintainer'), publicProject, file, 'by the maintainer\n', { branch, authorName: 'Someone Else', authorEmail: 'someone@example.com' });
    const res = await as('developer').put(fileUrl(publicProject, file), { body: writeBody('by the developer\n', { branch }) });
    expectOk(res, 200, 'file-write-result');
    const developer = run.actors.developer;
    expectEqual(await blameAuthors(as('developer'), publicProject, file, branch), [`${developer.name} <${developer.email}>`], 'the author of the update commit, which changed every line');
  },
);
