// HEAD /projects/:id/repository/files/:file_path/raw
import { endpoint } from './kit.js';
import { expectHeader, expectStatus, expectTrue } from '../../runner/core/checks.js';
import { createFile, expectGitLabStatus, fileUrl, gitBlobId, headerName, METADATA_FIELDS, ownBranch, readFile } from './helpers.js';

const suite = endpoint('raw-head');

suite.test(
  {
    case: 'metadata-only',
    title: 'HEAD raw answers 200 with the file metadata headers and no body',
    clauses: ['files.raw.head', 'files.file.headers'],
  },
  async ({ as, run, files }) => {
    const { publicProject, path, branch } = files;
    const file = path('head-raw', 'page.html');
    const content = '<p>hello</p>\n';
    await createFile(as('maintainer'), publicProject, file, content, { branch });
    const res = await as('developer').head(`${fileUrl(publicProject, file)}/raw`, { query: { ref: branch } });
    expectStatus(res, 200);
    expectTrue(res.bytes.length === 0, 'no body on HEAD', `got ${res.bytes.length} bytes`, res);
    expectHeader(res, headerName(run.headerPrefix, 'blob_id'), gitBlobId(Buffer.from(content)));
    expectHeader(res, headerName(run.headerPrefix, 'file_path'), file);
    expectHeader(res, headerName(run.headerPrefix, 'size'), String(Buffer.byteLength(content)));
  },
);

suite.test(
  {
    case: 'errors',
    title: 'HEAD raw of an unknown file is 404; on a private project 404 for an outsider',
    clauses: ['files.raw.head', 'files.get.not-found', 'files.get.private-hidden'],
  },
  async ({ as, files }) => {
    const { publicProject, privateProject } = files;
    expectStatus(await as('developer').head(`${fileUrl(publicProject, 'missing.txt')}/raw`), 404);
    expectStatus(await as('outsider').head(`${fileUrl(privateProject, 'README.md')}/raw`), 404);
    expectStatus(await as('anonymous').head(`${fileUrl(publicProject, 'README.md')}/raw`), 200);
  },
);

suite.test(
  {
    case: 'lfs-missing-object',
    title: 'HEAD raw with lfs=true on an LFS pointer whose object the project does not hold is 404 (or, with LFS off, the pointer\'s metadata)',
    clauses: ['files.raw.head', 'files.raw.lfs-missing-object'],
    requires: { minVersion: '15.7' },
  },
  async ({ as, run, files }) => {
    const { publicProject, path, branch } = files;
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${'fedcba9876543210'.repeat(4)}\nsize 4321\n`;
    const file = path('head-raw-lfs', 'orphan.iso');
    await createFile(as('maintainer'), publicProject, file, pointer, { branch });
    const res = await as('developer').head(`${fileUrl(publicProject, file)}/raw`, { query: { ref: branch, lfs: true } });
    // As GET raw (files.raw.lfs-missing-object): GitLab answers 404 (lib/api/files.rb: not_found! unless
    // lfs_object&.project_allowed_access?); a target with LFS off serves the pointer blob.
    expectStatus(res, [404, 200], 'no LFS object: 404, or the pointer where LFS is off');
    expectTrue(res.bytes.length === 0, 'no body on HEAD', `got ${res.bytes.length} bytes`, res);
    if (res.status === 200) expectHeader(res, headerName(run.headerPrefix, 'blob_id'), gitBlobId(Buffer.from(pointer)));
    // GitLab, with LFS on (its default), answers 404 (app/models/blob.rb: with LFS off, stored_externally? is false and the pointer is served).
    expectGitLabStatus(res, 'lib/api/files.rb (GET raw, run for HEAD: not_found! unless lfs_object&.project_allowed_access?); spec/requests/api/files_spec.rb (HEAD raw: and the file has an lfs object: responds with 404)', 404);
    expectStatus(await as('developer').head(`${fileUrl(publicProject, file)}/raw`, { query: { ref: branch } }), 200);
  },
);

suite.test(
  {
    case: 'every-metadata-header',
    title: 'HEAD raw carries every metadata header, each equal to the field of the same name of GET file at the same ref',
    clauses: ['files.raw.head', 'files.file.headers'],
    // X-Gitlab-Commit-Id is the branch's head: no other test may commit to it between the two reads.
    fixtures: { ownBranch },
  },
  async ({ as, run, files, ownBranch }) => {
    const { publicProject, path } = files;
    const branch = ownBranch;
    const file = path('head-raw-all', 'tool.sh');
    await createFile(as('maintainer'), publicProject, file, '#!/bin/sh\necho hi\n', { branch, executable: true });
    const fields = await readFile(as('developer'), publicProject, file, branch);
    const res = await as('developer').head(`${fileUrl(publicProject, file)}/raw`, { query: { ref: branch } });
    expectStatus(res, 200);
    for (const field of METADATA_FIELDS) expectHeader(res, headerName(run.headerPrefix, field), String(fields[field]));
  },
);
