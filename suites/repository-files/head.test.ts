// HEAD /projects/:id/repository/files/:file_path
import { endpoint } from './kit.js';
import { expectEqual, expectHeader, expectStatus, expectTrue } from '../../runner/core/checks.js';
import { ANONYMOUS_PRIVATE_GITLAB, createFile, expectGitLabStatus, fileUrl, gitBlobId, headerName, METADATA_FIELDS, ownBranch, readFile, sha256 } from './helpers.js';

const suite = endpoint('head');

suite.test(
  {
    case: 'headers-match-file',
    title: 'HEAD answers 200 with the metadata headers equal to the file\'s fields, and no body',
    clauses: ['files.head.metadata-only', 'files.file.headers', 'files.file.blob-id', 'files.file.content-sha256'],
    // X-Gitlab-Commit-Id is the branch's head: no other test may commit to it between the two reads.
    fixtures: { ownBranch },
  },
  async ({ as, run, files, ownBranch }) => {
    const { publicProject, path } = files;
    const branch = ownBranch;
    const file = path('head', 'data.json');
    const content = '{"a": 1}\n';
    await createFile(as('maintainer'), publicProject, file, content, { branch });
    const fields = await readFile(as('developer'), publicProject, file, branch);

    const res = await as('developer').head(fileUrl(publicProject, file), { query: { ref: branch } });
    expectStatus(res, 200);
    expectTrue(res.bytes.length === 0, 'no body on HEAD', `got ${res.bytes.length} bytes`, res);
    for (const field of METADATA_FIELDS) expectHeader(res, headerName(run.headerPrefix, field), String(fields[field]));
    expectEqual(res.headers[headerName(run.headerPrefix, 'blob_id').toLowerCase()], gitBlobId(Buffer.from(content)), 'the blob id header to be the git blob SHA-1');
    expectEqual(res.headers[headerName(run.headerPrefix, 'content_sha256').toLowerCase()], sha256(Buffer.from(content)), 'the SHA-256 header of the content');
  },
);

suite.test(
  {
    case: 'errors-without-body',
    title: 'HEAD of an unknown file, an unknown ref or without ref answers with the error status',
    clauses: ['files.get.not-found', 'files.get.ref-required', 'files.head.metadata-only'],
  },
  async ({ as, files }) => {
    const { publicProject, branch } = files;
    expectStatus(await as('developer').head(fileUrl(publicProject, 'missing.txt'), { query: { ref: branch } }), 404);
    expectStatus(await as('developer').head(fileUrl(publicProject, 'README.md'), { query: { ref: 'no-such-ref' } }), 404);
    expectStatus(await as('developer').head(fileUrl(publicProject, 'README.md')), 400);
  },
);

suite.test(
  {
    case: 'access',
    title: 'HEAD follows the read rules: public without a token, private hidden from outsiders, Guest refused',
    clauses: ['files.get.public-without-auth', 'files.get.private-hidden', 'files.read.role', 'files.auth.scopes'],
  },
  async ({ as, files }) => {
    const { publicProject, privateProject, branch } = files;
    const query = { ref: branch };
    expectStatus(await as('anonymous').head(fileUrl(publicProject, 'README.md'), { query }), 200);
    const hidden = await as('anonymous').head(fileUrl(privateProject, 'README.md'), { query });
    expectStatus(hidden, [401, 404], 'the spec only frees a public repository from authentication; GitLab hides the private project (404)');
    expectGitLabStatus(hidden, ANONYMOUS_PRIVATE_GITLAB, 404);
    expectStatus(await as('outsider').head(fileUrl(privateProject, 'README.md'), { query }), 404);
    expectStatus(await as('guest').head(fileUrl(privateProject, 'README.md'), { query }), 403);
    expectStatus(await as('reporter', 'read_repository').head(fileUrl(privateProject, 'README.md'), { query }), 200);
  },
);

suite.test(
  {
    case: 'paths-and-commit-sha',
    title: 'HEAD refuses a ".." or an encoded absolute file_path with 400, and answers a file at an older commit id after it was deleted on the branch',
    clauses: ['files.write.traversal', 'files.raw.leading-slash', 'files.head.metadata-only', 'files.file.headers', 'files.get.ref-kinds'],
  },
  async ({ as, run, files }) => {
    const { publicProject, path, branch } = files;
    const gone = path('head-sha', 'commit.js.coffee');
    const content = 'class Commit\n';
    await createFile(as('maintainer'), publicProject, gone, content, { branch });
    const sha = (await readFile(as('maintainer'), publicProject, gone, branch)).commit_id as string;
    expectStatus(await as('maintainer').delete(fileUrl(publicProject, gone), { body: { branch, commit_message: 'conformance: delete the file' } }), [200, 204]);
    const query = { ref: branch };
    for (const [who, scope] of [['anonymous', 'api'], ['developer', 'read_repository'], ['developer', 'api']] as const) {
      const reader = as(who, scope);
      expectStatus(await reader.head(fileUrl(publicProject, '../README.md'), { query }), 400);
      expectStatus(await reader.head(fileUrl(publicProject, '/etc/passwd.rb'), { query }), 400);
      const res = await reader.head(fileUrl(publicProject, gone), { query: { ref: sha } });
      expectStatus(res, 200);
      expectTrue(res.bytes.length === 0, 'no body on HEAD', `got ${res.bytes.length} bytes`, res);
      expectHeader(res, headerName(run.headerPrefix, 'file_name'), 'commit.js.coffee');
      expectHeader(res, headerName(run.headerPrefix, 'content_sha256'), sha256(Buffer.from(content)));
      expectHeader(res, headerName(run.headerPrefix, 'commit_id'), sha);
      expectStatus(await reader.head(fileUrl(publicProject, gone), { query }), 404);
    }
  },
);
