// `merge`: shards' results joined as one run's, and the directories it must refuse, each with one line.
// (cli/ci-templates-run.spec.ts merges real shards and compares them with a whole run.)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { buildResults, type Results, type TestRecord, type Verdict } from '../runner/report/results.js';
import { mergeShards } from '../runner/report/merge.js';
import { validateAgainst } from '../schemas/registry.js';
import { merge } from './merge.js';

const work = mkdtempSync(join(tmpdir(), 'conformance-merge-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** A record of a test; its clause is of no area of the catalogue, which then has no gaps to report. */
function record(id: string, verdict: Verdict, more: Partial<TestRecord> = {}): TestRecord {
  return { id, title: id, area: 'members', endpoint: 'POST /groups/:id/members', kind: 'group', clauses: ['made-up.add.single'], verdict, reason: verdict === 'pass' ? null : 'wanted 201, got 500', parity: verdict, durationMs: 5, file: `suites/members/${id}.test.ts`, fixtures: [], needs: [], ...more };
}

function shard(index: number, count: number, tests: TestRecord[], change: (r: Results) => void = () => undefined): Results {
  const results = buildResults(tests, { targetUrl: 'https://gitlab.example.com', version: '17.11.0-ee', referenceServer: false, settings: { capabilities: ['premium'] } } as never, { areas: [], endpoints: [], disabledTests: [] }, 'spec');
  results.shard = { run: 'pipeline-7', index, count, files: [...new Set(tests.map((t) => t.file))] };
  results.files = results.shard.files.map((file) => ({ file, durationMs: 100 }));
  change(results);
  return results;
}

/** Writes shards' results.json to directories and returns them. */
function dirs(name: string, shards: Results[]): string[] {
  return shards.map((results, i) => {
    const dir = join(work, name, `shard-${i + 1}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'results.json'), JSON.stringify(results));
    return dir;
  });
}

/** The command in this process: its exit code and what it printed. */
async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  const code = await merge(args);
  vi.restoreAllMocks();
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

const cause = (setUp: boolean) => ({ endpoint: 'POST /groups/:id/members', got: 500, wanted: 'HTTP 201', setUp });

describe('gitlab-api-conformance merge', () => {
  test('joins the shards into one run: every test once, counts, status and exit code as the whole run\'s, root causes across shards', async () => {
    const shards = [
      shard(1, 3, [record('a', 'pass'), record('b', 'fail', { cause: cause(false) })]),
      shard(2, 3, [record('c', 'pass'), record('d', 'error', { cause: cause(true) })]),
      shard(3, 3, [record('e', 'unsupported')]),
    ];
    const out = join(work, 'joined', 'out');
    const { code, stdout } = await run([...dirs('joined', shards).reverse(), '--out', out]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/the 3 shards of run pipeline-7, merged/);
    const merged = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    expect(validateAgainst('results', merged)).toEqual([]);
    expect(merged.tests.map((t) => t.id).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(merged.summary).toMatchObject({ total: 5, pass: 2, fail: 1, error: 1, unsupported: 1 });
    expect(merged.status).toBe('complete');
    expect(merged.merged).toEqual({ run: 'pipeline-7', shards: 3 });
    expect(merged.shard).toBeUndefined();
    // One cause for the failure of shard 1 and the set-up error of shard 2.
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toContain('`POST /groups/:id/members answered HTTP 500: 1 test could not set up (wanted HTTP 201); 1 test fails on it (wanted HTTP 201)`');
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuites name="gitlab-api-conformance \(the 3 shards of run pipeline-7, merged\)" tests="5" failures="1" errors="1"/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('the 3 shards of run pipeline-7, merged');
  });

  test('passing shards merge to exit 0; an interrupted shard makes the run interrupted (exit 2)', async () => {
    const passing = dirs('passing', [shard(1, 2, [record('a', 'pass')]), shard(2, 2, [record('b', 'pass')])]);
    expect((await run([...passing, '--out', join(work, 'passing', 'out')])).code).toBe(0);
    const cut = dirs('cut', [shard(1, 2, [record('a', 'pass')]), shard(2, 2, [record('b', 'not-run')], (r) => Object.assign(r, { status: 'interrupted', interruption: 'SIGTERM' }))]);
    const { code } = await run([...cut, '--out', join(work, 'cut', 'out')]);
    expect(code).toBe(2);
    expect((JSON.parse(readFileSync(join(work, 'cut', 'out', 'results.json'), 'utf8')) as Results).interruption).toBe('shard 2: SIGTERM');
  });

  test('refuses directories of different runs, suite versions or targets, with one line, exit 2', async () => {
    const cases: [string, (r: Results) => void, RegExp][] = [
      ['run', (r) => (r.shard!.run = 'pipeline-8'), /different runs: run pipeline-7 against pipeline-8 \(the shards of one run take one --run-id\)$/],
      ['version', (r) => (r.suite.version = '0.0.9'), /different runs: suite version .* against 0\.0\.9$/],
      ['target', (r) => (r.target.url = 'https://staging.example.com'), /different runs: target https:\/\/gitlab\.example\.com \(GitLab 17\.11\.0-ee\) against https:\/\/staging\.example\.com/],
    ];
    for (const [name, change, message] of cases) {
      const given = dirs(`mixed-${name}`, [shard(1, 2, [record('a', 'pass')]), shard(2, 2, [record('b', 'pass')], change)]);
      const { code, stderr } = await run([...given, '--out', join(work, `mixed-${name}`, 'out')]);
      expect(code, name).toBe(2);
      expect(stderr.split('\n'), name).toHaveLength(1);
      expect(stderr, name).toMatch(message);
    }
    // Not a shard at all: a whole run's directory.
    const whole = dirs('whole', [shard(1, 1, [record('a', 'pass')], (r) => delete r.shard)]);
    expect((await run([...whole, '--out', join(work, 'whole', 'out')])).stderr).toMatch(/is not a shard's report/);
  });

  test('names the shard that is missing, and a shard given twice', async () => {
    const given = dirs('missing', [shard(1, 3, [record('a', 'pass')]), shard(2, 3, [record('b', 'pass')])]);
    const { code, stderr } = await run([...given, '--out', join(work, 'missing', 'out')]);
    expect(code).toBe(2);
    expect(stderr).toBe('merge: shard 3 of 3 of run pipeline-7 is missing: give its report directory too');
    expect(() => mergeShards([{ name: 'x', results: shard(1, 2, []) }, { name: 'y', results: shard(1, 2, []) }])).toThrow('x and y are both shard 1 of 2 of run pipeline-7');
    expect((await run([join(work, 'nowhere'), '--out', join(work, 'out')])).stderr).toMatch(/nowhere: no readable results\.json \(ENOENT\)/);
  });
});
