// The CI templates (docs/ci/) run as written, as far as a template runs outside its CI: their YAML
// parsed, the script lines that run the suite in the shard jobs and the merge job taken as they are,
// the CI's variables given (the node index, the pipeline id, a token file), `npx` pointed at this
// tree, and the artifacts passed from the shard jobs' directories to the merge job's as the CI
// would. What a job does before (booting GitLab in Docker, the bootstrap) is bootstrap.spec.ts's.
// The target is a bundled reference server with every capability; the shards run one after another.
// The merged reports must give every test the verdict of one whole run, and the same clause coverage.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import type { ReferenceServer } from '../reference-server/server.js';
import type { Results } from '../runner/report/results.js';
import { CATALOG } from '../suites/areas.js';
import { ADMIN_TOKEN, BIN, cleanUpChildren, cli, fullTarget, resultsIn, server, tempDir, userEnv } from './cli-child.js';
import { shardFiles } from './shards.js';

const ROOT = resolve(import.meta.dirname, '..');
const CI = join(ROOT, 'docs', 'ci');
const RUN_MS = 600_000;

afterAll(cleanUpChildren);

/** A template's shell line run as its job would: in `cwd`, with the job's variables; the command (`exec node_modules/.bin/…` or `npx …`) is this tree's. */
function sh(line: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const command = line.replace(/(?:\bnpx |\bnode_modules\/\.bin\/)gitlab-api-conformance\b/g, `node "${BIN}"`);
  return new Promise((done, fail) => {
    // Async: the reference server answers from this process.
    const child = spawn('bash', ['-euo', 'pipefail', '-c', command], { cwd, env: { ...userEnv(), ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

/** The suite's command lines of a script (the bootstrap and Docker lines are bootstrap.spec.ts's). */
const suiteLines = (lines: string[]) => lines.filter((l) => /(?:\bnpx |\bnode_modules\/\.bin\/)gitlab-api-conformance\b/.test(l));

/** What a run against `s` needs that the CI job's bootstrap would have given: the token in a file, the fixtures' manifest, every capability. */
function targetEnv(s: ReferenceServer, dir: string, tokenFile: string): Record<string, string> {
  writeFileSync(tokenFile, `${ADMIN_TOKEN}\n`, { mode: 0o600 });
  const { CONFORMANCE_FIXTURES, CONFORMANCE_CAPABILITIES, CONFORMANCE_CONCURRENCY } = fullTarget(s, dir);
  return { CONFORMANCE_FIXTURES, CONFORMANCE_CAPABILITIES, CONFORMANCE_CONCURRENCY };
}

const verdicts = (r: Results) => Object.fromEntries(r.tests.map((t) => [t.id, `${t.verdict}/${t.parity}`]));
const clauses = (dir: string) => JSON.parse(readFileSync(join(dir, 'clauses.json'), 'utf8')) as unknown;

// The two side by side, each against servers of its own: on 2 cores one after the other took 155 s.
test.concurrent('gitlab-ci.yml: the parallel shard jobs and the merge job give every test the whole run\'s verdict and its clause coverage', { timeout: RUN_MS }, async () => {
  const doc = parse(readFileSync(join(CI, 'gitlab-ci.yml'), 'utf8')) as Record<string, { parallel?: number; script: string[] }>;
  const shardJob = doc.conformance;
  const mergeJob = doc['conformance-report'];
  const total = shardJob.parallel!;
  expect(total).toBeGreaterThan(1);
  const [shardLine] = suiteLines(shardJob.script);
  const [mergeLine] = suiteLines(mergeJob.script);
  expect(mergeLine).toMatch(/ merge /);

  // One whole run against a server of its own, while the shards run one after another against theirs.
  const wholeServer = await server();
  const wholeDir = tempDir('conformance-whole-');
  const whole = cli(['--report-dir', 'reports'], fullTarget(wholeServer, wholeDir), { dir: wholeDir, timeoutMs: RUN_MS - 30_000 });

  const s = await server();
  const mergeDir = tempDir('conformance-ci-merge-');
  const shards: Results[] = [];
  for (let index = 1; index <= total; index++) {
    const jobDir = tempDir(`conformance-ci-shard-${index}-`);
    const env = { GITLAB_URL: s.url, CI_PROJECT_DIR: jobDir, CI_NODE_INDEX: String(index), CI_NODE_TOTAL: String(total), CI_PIPELINE_ID: '4711', ...targetEnv(s, jobDir, join(jobDir, '.gitlab-token')) };
    const run = await sh(shardLine, jobDir, env);
    shards.push(resultsIn(join(jobDir, 'reports', `shard-${index}`), { code: run.code, stdout: '', stderr: run.output, dir: jobDir, ms: 0 }));
    expect(run.code, run.output.slice(-3000)).toBe(0);
    // The job's artifacts (reports/) reach the merge job's directory.
    cpSync(join(jobDir, 'reports'), join(mergeDir, 'reports'), { recursive: true });
  }
  // Each shard says which shard of which run it is, and ran the files the balanced split gives it.
  for (const [i, r] of shards.entries()) {
    expect(r.shard).toMatchObject({ run: '4711', index: i + 1, count: total });
    expect([...new Set((r.files ?? []).map((f) => f.file))].sort()).toEqual(shardFiles({ index: i + 1, count: total }, CATALOG.areaNames));
  }
  expect(readFileSync(join(mergeDir, 'reports', 'shard-2', 'summary.md'), 'utf8')).toContain(`shard 2 of ${total} of run 4711`);

  const merged = await sh(mergeLine, mergeDir, {});
  expect(merged.code, merged.output.slice(-3000)).toBe(0);
  const joined = resultsIn(join(mergeDir, 'reports'), { code: merged.code, stdout: '', stderr: merged.output, dir: mergeDir, ms: 0 });
  const wholeRun = await whole;
  expect(wholeRun.code, wholeRun.stderr.slice(-3000)).toBe(0);
  const wholeResults = resultsIn(join(wholeDir, 'reports'), wholeRun);

  expect(joined.merged).toEqual({ run: '4711', shards: total });
  expect(joined.summary.fail + joined.summary.error, 'no fail, no error').toBe(0);
  expect(verdicts(joined)).toEqual(verdicts(wholeResults));
  expect(joined.summary).toEqual(wholeResults.summary);
  expect(clauses(join(mergeDir, 'reports'))).toEqual(clauses(join(wholeDir, 'reports')));
  expect(merged.output).toMatch(new RegExp(`clauses covered by the selected tests (\\d+)/\\1`));
  for (const report of ['junit.xml', 'summary.md', 'report.html']) expect(readFileSync(join(mergeDir, 'reports', report), 'utf8')).toContain(`the ${total} shards of run 4711, merged`);
});

test.concurrent('github-actions.yml: the matrix jobs and the report job run as written (one area), the artifacts passed between them', { timeout: RUN_MS }, async () => {
  const doc = parse(readFileSync(join(CI, 'github-actions.yml'), 'utf8')) as { jobs: Record<string, { strategy?: { matrix: { shard: number[] } }; steps: { run?: string; uses?: string; with?: Record<string, string | boolean> }[] }> };
  const shardJob = doc.jobs.conformance;
  const reportJob = doc.jobs.report;
  const matrix = shardJob.strategy!.matrix.shard;
  const lines = (steps: { run?: string }[]) => suiteLines(steps.flatMap((s) => (s.run ?? '').split('\n')));
  const [shardLine] = lines(shardJob.steps);
  const [mergeLine] = lines(reportJob.steps);
  const upload = shardJob.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
  const download = reportJob.steps.find((s) => s.uses?.startsWith('actions/download-artifact'))!;
  expect(download.with).toMatchObject({ pattern: String(upload.with!.name).replace('${{ matrix.shard }}', '*'), 'merge-multiple': true });

  const s = await server();
  const mergeDir = tempDir('conformance-gha-merge-');
  for (const shard of matrix) {
    const expressions: Record<string, string> = { 'matrix.shard': String(shard), 'strategy.job-total': String(matrix.length), 'github.run_id': '99', 'github.run_attempt': '1' };
    const line = shardLine.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) => expressions[name] ?? whole);
    expect(line, 'every expression of the line is given').not.toContain('${{');
    const jobDir = tempDir(`conformance-gha-shard-${shard}-`);
    // The area keeps this run small: the GitLab CI template's test runs the whole suite.
    const env = { GITLAB_URL: s.url, RUNNER_TEMP: jobDir, CONFORMANCE_AREAS: 'repository-files', ...targetEnv(s, jobDir, join(jobDir, 'gitlab-token')) };
    const run = await sh(line, jobDir, env);
    expect(run.code, run.output.slice(-3000)).toBe(0);
    // upload-artifact of reports/, download-artifact with merge-multiple into `path`.
    mkdirSync(join(mergeDir, String(download.with!.path)), { recursive: true });
    cpSync(join(jobDir, String(upload.with!.path)), join(mergeDir, String(download.with!.path)), { recursive: true });
  }
  const merged = await sh(mergeLine, mergeDir, {});
  expect(merged.code, merged.output.slice(-3000)).toBe(0);
  const joined = resultsIn(join(mergeDir, 'reports'), { code: merged.code, stdout: '', stderr: merged.output, dir: mergeDir, ms: 0 });
  expect(joined.merged).toEqual({ run: '99-1', shards: matrix.length });
  expect(new Set(joined.tests.map((t) => t.area))).toEqual(new Set(['repository-files']));
  expect(joined.summary.pass).toBe(joined.summary.total);
  const junit = reportJob.steps.find((s) => s.with?.report_paths !== undefined)!;
  expect(readFileSync(join(mergeDir, String(junit.with!.report_paths)), 'utf8')).toContain(`the ${matrix.length} shards of run 99-1, merged`);
});
