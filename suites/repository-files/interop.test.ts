// What clients rely on at the HTTP level, on the repository-files endpoints (suites/common/interop.ts):
// the JSON media type, a bodiless DELETE that declares JSON, form-encoded writes, a token in the query.
import { expectEqual, expectFields, expectError, expectStatus } from '../../runner/core/checks.js';
import { endpoint } from './kit.js';
import { expectJsonAnswers, expectPrivateTokenQuery, sendEmptyJson } from '../common/interop.js';
import { createFile, expectWriteSucceeded, fileUrl, readFile, writeBody } from './helpers.js';

endpoint('get').test(
  {
    case: 'json-media-type',
    title: 'a file and a 404 for a missing one are answered as application/json (exactly, at the parity level)',
    clauses: ['files.http.json-media-type'],
  },
  async ({ as, files }) => {
    const { privateProject, path, branch } = files;
    const file = path('media-type');
    await createFile(as('maintainer'), privateProject, file, 'json\n', { branch });
    const found = await as('developer').get(fileUrl(privateProject, file), { query: { ref: branch } });
    const missing = await as('developer').get(fileUrl(privateProject, path('media-type', 'absent.txt')), { query: { ref: branch } });
    expectJsonAnswers(found, missing, 'file');
  },
);

endpoint('delete').test(
  {
    case: 'empty-json-body',
    title: 'DELETE with its parameters in the query, Content-Type application/json and no body deletes the file',
    clauses: ['files.http.empty-json-body', 'files.delete.commit'],
  },
  async ({ as, files }) => {
    const { privateProject, path, branch } = files;
    const file = path('empty-json');
    await createFile(as('maintainer'), privateProject, file, 'to be deleted\n', { branch });
    const res = await sendEmptyJson(as('maintainer'), 'DELETE', fileUrl(privateProject, file), { branch, commit_message: 'conformance: delete with an empty JSON body' });
    // The spec leaves the answer of a delete open; GitLab answers 204 (lib/api/files.rb).
    expectStatus(res, [200, 204], 'the spec shows no response for DELETE file');
    expectError(await as('developer').get(fileUrl(privateProject, file), { query: { ref: branch } }), 404);
  },
);

endpoint('create').test(
  {
    case: 'form-body',
    title: 'a file created with form fields (application/x-www-form-urlencoded) reads back as written',
    clauses: ['files.http.form-body', 'files.create.commit'],
  },
  async ({ as, files }) => {
    const { privateProject, path, branch } = files;
    const file = path('form-body');
    const res = await as('maintainer').post(fileUrl(privateProject, file), { body: writeBody('sent as form fields\n', { branch, message: 'conformance: form body' }), form: true });
    expectWriteSucceeded(res);
    expectFields(res.body, { file_path: file, branch }, 'the write result', res);
    const back = await readFile(as('developer'), privateProject, file, branch);
    expectEqual(Buffer.from(String(back.content), 'base64').toString('utf8'), 'sent as form fields\n', 'the content read back');
  },
);

endpoint('get').test(
  {
    case: 'private-token-query',
    title: 'a token in the private_token query parameter reads a private file; a wrong one is refused with 401',
    clauses: ['files.http.private-token-query'],
    // Beyond the spec (GitLab's own behaviour, which clients use): the whole test is a parity check.
    level: 'parity',
  },
  async ({ as, run, files }) => {
    const { privateProject, path, branch } = files;
    const file = path('query-token');
    await createFile(as('maintainer'), privateProject, file, 'private\n', { branch });
    await expectPrivateTokenQuery(as('anonymous'), fileUrl(privateProject, file), run.actors.developer.tokens.api, 'file', { query: { ref: branch } });
  },
);
