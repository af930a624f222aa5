// GET /projects/:id/repository/files/:file_path/blame
import { endpoint } from './kit.js';
import { expectEqual, expectError, expectHeader, expectOk, expectStatus, expectTrue, parity } from '../../runner/core/checks.js';
import { apiPath } from '../../runner/core/client.js';
import { createFile, expectGitLabError, expectGitLabStatus, type FilesWorld, fileUrl, GITLAB_TEXT, headerName, ownBranch, readFile, updateFile } from './helpers.js';
import type { Kit } from '../../runner/run/conformance.js';

const suite = endpoint('blame');

interface BlameRange {
  commit: { id: string; parent_ids: string[]; author_name: string; author_email: string; message: string; authored_date: string; committed_date: string };
  lines: string[];
}

/** Two commits by two authors: lines 1-2 from the first, lines 3-5 from the second. */
async function twoAuthorFile({ as }: Kit, w: FilesWorld, name: string, branch = w.branch) {
  const file = w.path('blame', name);
  await createFile(as('maintainer'), w.publicProject, file, 'alpha\nbeta\ngamma\n', { branch, authorName: 'Ada Author', authorEmail: 'ada@example.com', message: 'first version' });
  const first = (await readFile(as('maintainer'), w.publicProject, file, branch)).last_commit_id as string;
  await updateFile(as('maintainer'), w.publicProject, file, 'alpha\nbeta\nGAMMA\ndelta\nepsilon\n', { branch, authorName: 'Bob Builder', authorEmail: 'bob@example.com', message: 'second version' });
  const second = (await readFile(as('maintainer'), w.publicProject, file, branch)).last_commit_id as string;
  return { file, first, second };
}

suite.test(
  {
    case: 'ranges-follow-history',
    title: 'blame groups consecutive lines by the commit that last changed them and covers the file exactly',
    clauses: ['files.blame.shape', 'files.blame.covers-file', 'files.blame.last-change', 'files.blame.timestamps', 'files.create.author'],
    // It checks the second commit's parent: no other test may commit to its branch in between.
    fixtures: { ownBranch },
  },
  async ({ files, ownBranch, ...kit }) => {
    const w = files;
    const branch = ownBranch;
    const { file, first, second } = await twoAuthorFile(kit, w, 'history.txt', branch);
    const blame = await kit.as('developer').get(`${fileUrl(w.publicProject, file)}/blame`, { query: { ref: branch } });
    expectOk(blame, 200, 'blame-range', { list: true });
    const ranges = blame.body as BlameRange[];
    expectEqual(ranges.map((r) => r.lines), [['alpha', 'beta'], ['GAMMA', 'delta', 'epsilon']], 'consecutive lines of one commit to form one range, covering the file in order');
    expectEqual(ranges.map((r) => r.commit.id), [first, second], 'each range to name the commit that last changed it');
    const byId = new Map(ranges.map((r) => [r.commit.id, r.commit]));
    expectEqual(byId.get(first)?.author_name, 'Ada Author', 'the first commit\'s author_name (from author_name)');
    expectEqual(byId.get(second)?.author_email, 'bob@example.com', 'the second commit\'s author_email (from author_email)');
    expectEqual(byId.get(second)?.parent_ids, [first], 'the second commit\'s parent to be the first');
    expectTrue(/\.\d{3}/.test(byId.get(first)!.authored_date), 'authored_date with milliseconds', `got ${byId.get(first)!.authored_date}`, blame);
    // The commits were made moments ago: their dates are today's, by the target's own clock.
    const now = Date.parse(blame.headers.date ?? new Date().toUTCString());
    for (const date of [byId.get(first)!.authored_date, byId.get(second)!.committed_date]) {
      expectTrue(Math.abs(Date.parse(date) - now) < 86_400_000, 'commit dates of commits just made to be within a day of the answer\'s Date', `got ${date}`, blame);
    }
  },
);

suite.test(
  {
    case: 'range-selects-lines',
    title: 'range[start] and range[end] limit the answer to those lines, with their commits',
    clauses: ['files.blame.range'],
  },
  async ({ files, ...kit }) => {
    const w = files;
    const { file, first, second } = await twoAuthorFile(kit, w, 'range.txt');
    const res = await kit.as('developer').get(`${fileUrl(w.publicProject, file)}/blame`, { query: { ref: w.branch, 'range[start]': 2, 'range[end]': 3 } });
    expectOk(res, 200, 'blame-range', { list: true });
    const ranges = res.body as BlameRange[];
    expectEqual(ranges.map((r) => r.lines), [['beta'], ['GAMMA']], 'only lines 2 to 3');
    expectEqual(ranges.map((r) => r.commit.id), [first, second], 'the commits of lines 2 and 3');

    const tail = await kit.as('developer').get(`${fileUrl(w.publicProject, file)}/blame`, { query: { ref: w.branch, 'range[start]': 4, 'range[end]': 5 } });
    expectOk(tail, 200, 'blame-range', { list: true });
    expectEqual((tail.body as BlameRange[]).map((r) => [r.commit.id, r.lines]), [[second, ['delta', 'epsilon']]], 'lines 4 to 5 only, with no range of the first commit');
    const one = await kit.as('developer').get(`${fileUrl(w.publicProject, file)}/blame`, { query: { ref: w.branch, 'range[start]': 1, 'range[end]': 1 } });
    expectOk(one, 200, 'blame-range', { list: true });
    expectEqual((one.body as BlameRange[]).map((r) => [r.commit.id, r.lines]), [[first, ['alpha']]], 'a range of one line (start equal to end)');
  },
);

suite.test(
  {
    case: 'only-ref',
    title: 'a request with only ref is valid and blames the whole file; GitLab also sends the file metadata headers',
    clauses: ['files.blame.covers-file', 'files.file.headers'],
  },
  async ({ as, run, files }) => {
    const { publicProject, branch } = files;
    const res = await as('anonymous').get(`${fileUrl(publicProject, 'README.md')}/blame`, { query: { ref: branch } });
    expectOk(res, 200, 'blame-range', { list: true });
    const readme = Buffer.from((await readFile(as('developer'), publicProject, 'README.md', branch)).content as string, 'base64').toString('utf8');
    expectEqual((res.body as BlameRange[]).flatMap((r) => r.lines), readme.replace(/\n$/, '').split('\n'), 'the README\'s lines');
    // The spec names the metadata headers for the HEAD forms only; GitLab's GET blame sets them too.
    parity(res, 'lib/api/files.rb (GET blame: set_http_headers(blob_data))', () => expectHeader(res, headerName(run.headerPrefix, 'file_path'), 'README.md'));
  },
);

suite.test(
  {
    case: 'range-validation',
    title: 'a bound below 1, a bound without the other, or start after end is refused with 400',
    clauses: ['files.blame.range-validation', 'files.errors.shape'],
  },
  async ({ as, files }) => {
    const { publicProject, branch } = files;
    const blame = (query: Record<string, string | number>) => as('developer').get(`${fileUrl(publicProject, 'README.md')}/blame`, { query: { ref: branch, ...query } });
    expectError(await blame({ 'range[start]': 0, 'range[end]': 1 }), 400, { error: /range\[start\]/, gitlab: GITLAB_TEXT.params });
    // A bound left out fails both its presence and its allow_blank check (spec/requests/api/files_spec.rb "when range is incomplete").
    const incomplete = `${GITLAB_TEXT.params} (requires :start, :end, allow_blank: false); spec/requests/api/files_spec.rb (when range is incomplete)`;
    expectError(await blame({ 'range[start]': 1 }), 400, { error: 'range[end] is missing, range[end] is empty', gitlab: incomplete });
    expectError(await blame({ 'range[end]': 1 }), 400, { error: 'range[start] is missing, range[start] is empty', gitlab: incomplete });
    expectError(await blame({ 'range[start]': 'one', 'range[end]': 2 }), 400, { error: /range\[start\]/, gitlab: GITLAB_TEXT.params });
    expectError(await blame({ 'range[start]': 2, 'range[end]': 1 }), 400, { message: 'range[start] must be less than or equal to range[end]', gitlab: 'lib/api/files.rb (fetch_blame_range: render_api_error!); spec/requests/api/files_spec.rb (when start > end)' });
    // Negative and blank bounds, as anonymous and as a member (spec/requests/api/files_spec.rb "when
    // range contains negative integers", "when range is missing"; Grape joins the errors with ", ").
    for (const who of ['anonymous', 'developer'] as const) {
      const asWho = (query: Record<string, string | number>) => as(who).get(`${fileUrl(publicProject, 'README.md')}/blame`, { query: { ref: branch, ...query } });
      expectError(await asWho({ 'range[start]': -2, 'range[end]': -5 }), 400, { error: 'range[start] does not have a valid value, range[end] does not have a valid value', gitlab: `${GITLAB_TEXT.params}; spec/requests/api/files_spec.rb (when range contains negative integers)` });
      expectError(await asWho({ 'range[start]': '', 'range[end]': '' }), 400, { error: 'range[start] is empty, range[end] is empty', gitlab: `${GITLAB_TEXT.params} (allow_blank: false); spec/requests/api/files_spec.rb (when range is missing)` });
    }
    // range is a hash (spec: range, hash); a plain value is none. No server error; GitLab refuses it in
    // its parameter check (`optional :range, type: Hash`: Grape's coercion, "is invalid"), whatever it adds about the bounds.
    const plain = await blame({ range: 5 });
    expectTrue(plain.status < 500, 'no server error for a range that is not a hash', `got HTTP ${plain.status}`, plain);
    parity(plain, `${GITLAB_TEXT.params} (optional :range, type: Hash; coerce: "is invalid")`, () => expectError(plain, 400, { error: /\brange is invalid\b/ }));
    // A missing file and start after end: both refusals apply, the spec orders none. GitLab checks the
    // range after the file lookup (fetch_blame_range runs after assign_file_vars!): 404 first.
    const missing = await as('developer').get(`${fileUrl(publicProject, 'missing.txt')}/blame`, { query: { ref: branch, 'range[start]': 2, 'range[end]': 1 } });
    expectError(missing, [400, 404]);
    expectGitLabError(missing, 'lib/api/files.rb (GET blame: assign_file_vars! before fetch_blame_range)', 404, { message: '404 File Not Found' });
  },
);

suite.test(
  {
    case: 'range-past-end',
    title: 'a range that ends past the last line does not fail the server',
    clauses: ['files.blame.range'],
  },
  async ({ as, files }) => {
    const { publicProject, branch } = files;
    const res = await as('developer').get(`${fileUrl(publicProject, 'README.md')}/blame`, { query: { ref: branch, 'range[start]': 1, 'range[end]': 500 } });
    // The spec does not say what an end past the last line does: a clamped answer (200) or a refusal
    // (400) are both accepted. GitLab passes the range to Gitaly's RawBlame, which refuses only a start
    // past the end ("range is outside of the file length"); git blame clamps the end: 200.
    expectStatus(res, [200, 400], 'the spec leaves an end past the last line open');
    if (res.status === 200) expectOk(res, 200, 'blame-range', { list: true });
    else expectError(res, 400);
    expectGitLabStatus(res, 'lib/gitlab/blame.rb (range); Gitaly internal/gitaly/service/commit/raw_blame.go (only a start past the end is refused); git builtin/blame.c (the end is clamped)', 200);
    // A bound repeated in the query string: which value counts is the target's business, a server error is not.
    const repeated = await as('developer').get(`${fileUrl(publicProject, 'README.md')}/blame?ref=${encodeURIComponent(branch)}&range[start]=1&range[start]=2&range[end]=3`);
    expectTrue(repeated.status < 500, 'no server error for a repeated range bound', `got HTTP ${repeated.status}`, repeated);
  },
);

suite.test(
  {
    case: 'errors',
    title: 'blame of an unknown file, unknown ref, without ref, or on a private project for an outsider fails',
    clauses: ['files.get.not-found', 'files.get.ref-required', 'files.get.private-hidden', 'files.read.role'],
  },
  async ({ as, files }) => {
    const { publicProject, privateProject, branch } = files;
    const url = (p: typeof publicProject, f: string) => `${fileUrl(p, f)}/blame`;
    expectError(await as('developer').get(url(publicProject, 'missing.txt'), { query: { ref: branch } }), 404, { message: '404 File Not Found', gitlab: GITLAB_TEXT.fileNotFound });
    expectError(await as('developer').get(url(publicProject, 'README.md'), { query: { ref: 'nope' } }), 404, { message: '404 Commit Not Found', gitlab: GITLAB_TEXT.commitNotFound });
    expectError(await as('developer').get(url(publicProject, 'README.md')), 400, { error: /ref/, gitlab: GITLAB_TEXT.params });
    expectError(await as('outsider').get(url(privateProject, 'README.md'), { query: { ref: branch } }), 404, { message: '404 Project Not Found', gitlab: GITLAB_TEXT.projectNotFound });
    expectError(await as('guest').get(url(privateProject, 'README.md'), { query: { ref: branch } }), 403);
    expectOk(await as('reporter', 'read_api').get(url(privateProject, 'README.md'), { query: { ref: branch } }), 200, 'blame-range', { list: true });
  },
);

suite.test(
  {
    case: 'leading-slash-refused',
    title: 'blame, unlike raw, refuses an encoded leading slash in file_path with 400',
    clauses: ['files.raw.leading-slash'],
  },
  async ({ as, files }) => {
    const { publicProject, branch } = files;
    const res = await as('developer').get(apiPath`/projects/${publicProject.id}/repository/files/${'/README.md'}/blame`, { query: { ref: branch } });
    expectError(res, 400, { error: 'file_path should be a valid file path', gitlab: GITLAB_TEXT.filePath });
    expectOk(await as('developer').get(`${fileUrl(publicProject, 'README.md')}/blame`, { query: { ref: branch } }), 200, 'blame-range', { list: true });
  },
);

suite.test(
  {
    case: 'dotfile-and-commit-sha',
    title: 'blame of a dotfile, and of a file at an older commit id after it was deleted on the branch (also with a read_repository token)',
    clauses: ['files.blame.covers-file', 'files.get.ref-kinds', 'files.path.encoded', 'files.auth.scopes'],
  },
  async ({ as, files }) => {
    const { publicProject, path, branch } = files;
    await createFile(as('maintainer'), publicProject, '.gitignore', 'node_modules/\ncoverage/\n', { branch });
    const gone = path('blame-sha', 'gone.txt');
    await createFile(as('maintainer'), publicProject, gone, 'one\ntwo\n', { branch });
    // The commit that added it (the branch's head may have moved on: the file's other tests commit too).
    const sha = (await readFile(as('maintainer'), publicProject, gone, branch)).last_commit_id as string;
    expectStatus(await as('maintainer').delete(fileUrl(publicProject, gone), { body: { branch, commit_message: 'conformance: delete gone.txt' } }), [200, 204]);
    for (const [who, scope] of [['anonymous', 'api'], ['developer', 'api'], ['developer', 'read_repository']] as const) {
      const dot = await as(who, scope).get(`${fileUrl(publicProject, '.gitignore')}/blame`, { query: { ref: branch } });
      expectOk(dot, 200, 'blame-range', { list: true });
      expectEqual((dot.body as BlameRange[]).flatMap((r) => r.lines), ['node_modules/', 'coverage/'], `the lines of .gitignore (${who}, ${scope})`, dot);
      const old = await as(who, scope).get(`${fileUrl(publicProject, gone)}/blame`, { query: { ref: sha } });
      expectOk(old, 200, 'blame-range', { list: true });
      expectEqual((old.body as BlameRange[]).map((r) => [r.commit.id, r.lines]), [[sha, ['one', 'two']]], `the deleted file's blame at ${sha} (${who}, ${scope})`, old);
    }
    expectError(await as('developer').get(`${fileUrl(publicProject, gone)}/blame`, { query: { ref: branch } }), 404, { message: '404 File Not Found', gitlab: GITLAB_TEXT.fileNotFound });
  },
);

suite.test(
  {
    case: 'unknown-commit-sha',
    title: 'blame at a well-formed commit id the repository does not hold is 404 (GitLab: "404 Commit Not Found")',
    clauses: ['files.get.not-found', 'files.get.ref-kinds'],
  },
  async ({ as, files }) => {
    const { publicProject } = files;
    const res = await as('developer').get(`${fileUrl(publicProject, 'README.md')}/blame`, { query: { ref: '1'.repeat(40) } });
    expectError(res, 404, { message: '404 Commit Not Found', gitlab: `${GITLAB_TEXT.commitNotFound}; spec/requests/api/files_spec.rb (GET blame: when commit does not exist)` });
  },
);
