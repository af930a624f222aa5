// HEAD /projects/:id/repository/files/:file_path/blame
import { endpoint } from './kit.js';
import { expectHeader, expectStatus, expectTrue } from '../../runner/core/checks.js';
import { createFile, fileUrl, headerName, METADATA_FIELDS, ownBranch, readFile } from './helpers.js';

const suite = endpoint('blame-head');

suite.test(
  {
    case: 'same-headers-as-file',
    title: 'HEAD blame answers 200 with the same metadata headers as HEAD file, and no body',
    clauses: ['files.blame.head', 'files.file.headers'],
    // X-Gitlab-Commit-Id is the branch's head: no other test may commit to it between the two reads.
    fixtures: { ownBranch },
  },
  async ({ as, run, files, ownBranch }) => {
    const { publicProject, path } = files;
    const branch = ownBranch;
    const file = path('head-blame', 'lines.txt');
    await createFile(as('maintainer'), publicProject, file, 'one\ntwo\n', { branch });
    const fields = await readFile(as('developer'), publicProject, file, branch);
    const res = await as('developer').head(`${fileUrl(publicProject, file)}/blame`, { query: { ref: branch } });
    expectStatus(res, 200);
    expectTrue(res.bytes.length === 0, 'no body on HEAD', `got ${res.bytes.length} bytes`, res);
    for (const field of METADATA_FIELDS) expectHeader(res, headerName(run.headerPrefix, field), String(fields[field]));
  },
);

suite.test(
  {
    case: 'errors',
    title: 'HEAD blame of an unknown file is 404, without ref 400, on a private project 404 for an outsider',
    clauses: ['files.blame.head', 'files.get.not-found', 'files.get.ref-required', 'files.get.private-hidden'],
  },
  async ({ as, files }) => {
    const { publicProject, privateProject, branch } = files;
    expectStatus(await as('developer').head(`${fileUrl(publicProject, 'missing.txt')}/blame`, { query: { ref: branch } }), 404);
    expectStatus(await as('developer').head(`${fileUrl(publicProject, 'README.md')}/blame`), 400);
    expectStatus(await as('outsider').head(`${fileUrl(privateProject, 'README.md')}/blame`, { query: { ref: branch } }), 404);
    expectStatus(await as('anonymous').head(`${fileUrl(publicProject, 'README.md')}/blame`, { query: { ref: branch } }), 200);
  },
);

suite.test(
  {
    case: 'executable-file',
    title: 'HEAD blame of an executable file carries Execute-Filemode "true" with its path, name and last commit',
    clauses: ['files.blame.head', 'files.file.headers', 'files.file.execute-filemode'],
  },
  async ({ as, run, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('head-blame-exec', 'ls');
    await createFile(as('maintainer'), publicProject, file, '#!/bin/sh\nls "$@"\n', { branch, executable: true });
    const fields = await readFile(as('developer'), publicProject, file, branch);
    for (const who of ['anonymous', 'developer'] as const) {
      const res = await as(who).head(`${fileUrl(publicProject, file)}/blame`, { query: { ref: branch } });
      expectStatus(res, 200);
      expectHeader(res, headerName(run.headerPrefix, 'execute_filemode'), 'true');
      expectHeader(res, headerName(run.headerPrefix, 'file_path'), file);
      expectHeader(res, headerName(run.headerPrefix, 'file_name'), 'ls');
      expectHeader(res, headerName(run.headerPrefix, 'last_commit_id'), String(fields.last_commit_id));
      expectHeader(res, headerName(run.headerPrefix, 'content_sha256'), String(fields.content_sha256));
    }
  },
);
