// PUT /projects/:id/repository/files/:file_path
import { endpoint } from '../harness/run/conformance.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue } from '../harness/core/checks.js';
import { createFile, fileUrl, readFile, useFilesWorld, writeBody } from './helpers.js';
import { repositoryFiles } from './area.js';

const suite = endpoint(repositoryFiles, 'update');

const world = useFilesWorld('update-file');

const text = (body: Record<string, unknown>) => Buffer.from(body.content as string, 'base64').toString('utf8');

suite.test(
  {
    case: 'commits-and-reads-back',
    title: 'update answers 200 with {file_path, branch}; the new content, size and a new last_commit_id read back',
    clauses: ['files.update.commit', 'files.file.last-commit-id'],
  },
  async ({ as }) => {
    const { publicProject, path } = world();
    const file = path('update');
    await createFile(as('maintainer'), publicProject, file, 'before\n');
    const before = await readFile(as('developer'), publicProject, file);
    const res = await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('after the update\n') });
    expectOk(res, 200, 'file-write-result');
    expectEqual(res.body, { file_path: file, branch: 'main' }, 'the write result');
    const after = await readFile(as('developer'), publicProject, file);
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
  async ({ as }) => {
    const { publicProject, path } = world();
    const file = path('update-lcid');
    await createFile(as('maintainer'), publicProject, file, 'v1\n');
    const v1 = (await readFile(as('developer'), publicProject, file)).last_commit_id as string;
    expectOk(await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('v2\n', { lastCommitId: v1 }) }), 200, 'file-write-result');
    const stale = await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('v3 from a stale editor\n', { lastCommitId: v1 }) });
    expectError(stale, 400);
    expectEqual(text(await readFile(as('developer'), publicProject, file)), 'v2\n', 'the content of the accepted update to be kept');
  },
);

suite.test(
  {
    case: 'missing-file',
    title: 'updating a file that does not exist fails with 400 and does not create it',
    clauses: ['files.update.missing'],
  },
  async ({ as }) => {
    const { publicProject, path } = world();
    const file = path('update-missing');
    expectError(await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('x\n') }), 400);
    expectStatus(await as('developer').get(fileUrl(publicProject, file), { query: { ref: 'main' } }), 404);
  },
);

suite.test(
  {
    case: 'same-content',
    title: 'an update with the current content is refused as an empty commit',
    clauses: ['files.update.empty-commit'],
  },
  async ({ as }) => {
    const { publicProject, path } = world();
    const file = path('update-same');
    await createFile(as('maintainer'), publicProject, file, 'unchanged\n');
    const before = await readFile(as('developer'), publicProject, file);
    const res = await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('unchanged\n') });
    // The spec and GitLab's docs say 400; gitlab-facts §1 marks the code path unconfirmed. A 200 is
    // tolerated only if no content was changed.
    expectStatus(res, [400, 200], 'the spec says 400 (empty commit); GitLab\'s code path is unconfirmed');
    const after = await readFile(as('developer'), publicProject, file);
    expectEqual(text(after), 'unchanged\n', 'the content to be unchanged');
    expectEqual(after.blob_id, before.blob_id, 'the blob to be unchanged');
  },
);

suite.test(
  {
    case: 'execute-flag',
    title: 'execute_filemode on update turns the execute flag on and off',
    clauses: ['files.create.execute-filemode'],
  },
  async ({ as }) => {
    const { publicProject, path } = world();
    const file = path('update-exec', 'script.sh');
    await createFile(as('maintainer'), publicProject, file, 'echo 1\n');
    expectOk(await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('echo 2\n', { executable: true }) }), 200, 'file-write-result');
    expectEqual((await readFile(as('developer'), publicProject, file)).execute_filemode, true, 'execute_filemode after turning it on');
    expectOk(await as('maintainer').put(fileUrl(publicProject, file), { body: writeBody('echo 3\n', { executable: false }) }), 200, 'file-write-result');
    expectEqual((await readFile(as('developer'), publicProject, file)).execute_filemode, false, 'execute_filemode after turning it off');
  },
);

suite.test(
  {
    case: 'required-and-traversal',
    title: 'update needs branch, commit_message and content, and refuses traversal; nothing changes',
    clauses: ['files.create.required', 'files.write.traversal'],
  },
  async ({ as }) => {
    const { publicProject, path } = world();
    const file = path('update-required');
    await createFile(as('maintainer'), publicProject, file, 'keep me\n');
    for (const missing of ['branch', 'commit_message', 'content']) {
      const body = writeBody('changed\n');
      delete body[missing];
      expectError(await as('maintainer').put(fileUrl(publicProject, file), { body }), 400, { error: new RegExp(missing) });
    }
    expectError(await as('maintainer').put(fileUrl(publicProject, `${path('update-required')}/../other.txt`), { body: writeBody('x') }), 400, { error: 'file_path should be a valid file path' });
    expectEqual(text(await readFile(as('developer'), publicProject, file)), 'keep me\n', 'the content to be unchanged');
  },
);

suite.test(
  {
    case: 'roles-and-scopes',
    title: 'Reporter, Guest and read-only tokens may not update (403); anonymous is refused; the file is unchanged',
    clauses: ['files.write.role', 'files.auth.scopes', 'files.write.anonymous'],
  },
  async ({ as }) => {
    const { publicProject, path } = world();
    const file = path('update-roles');
    await createFile(as('maintainer'), publicProject, file, 'stable\n', { branch: 'cnf-update-roles', startBranch: 'main' });
    const attempt = (who: ReturnType<typeof as>) => who.put(fileUrl(publicProject, file), { body: writeBody('changed\n', { branch: 'cnf-update-roles' }) });
    expectError(await attempt(as('reporter')), 403);
    expectError(await attempt(as('guest')), 403);
    expectStatus(await attempt(as('developer', 'read_api')), 403);
    expectStatus(await attempt(as('developer', 'read_repository')), 403);
    expectStatus(await attempt(as('anonymous')), [401, 403, 404], 'GitLab answers 401, or 403/404 depending on visibility');
    expectEqual(text(await readFile(as('developer'), publicProject, file, 'cnf-update-roles')), 'stable\n', 'the content to be unchanged');
    expectOk(await attempt(as('developer')), 200, 'file-write-result');
  },
);
