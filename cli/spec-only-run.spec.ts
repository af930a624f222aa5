// The suite's spec level against a server that does what the spec says and nothing more (issue #12):
// the reference server in spec-only mode (reference-server/spec-only/) answers with other error texts,
// another order of checks where the spec gives none, without the fields the spec leaves optional,
// and with other success statuses where the spec leaves them open. Every conformance test must
// pass at the spec level; one that fails asserts GitLab's behaviour at the spec level and must move
// that assertion to the parity level (or accept both answers). The run is the real command in a
// child process, against a server started here, with its fixture manifest written to a file and
// the metadata headers under the spec's own `X-Service-` prefix.
import { afterAll, expect, test } from 'vitest';
import { cleanUpChildren, cli, fullTarget, resultsIn, server, tempDir } from './cli-child.js';
import type { Results } from '../runner/report/results.js';

const HEADER_PREFIX = 'X-Service-';
const RUN_MS = 600_000;

afterAll(cleanUpChildren);

/**
 * One run at `level` against the spec-only server, in its own report directory: the whole suite, or
 * the `selection` (the level's effect on the exit code and the verdicts shows on one area as well).
 */
async function runAt(level: 'spec' | 'parity', env: Record<string, string>, cwd: string, selection: string[] = []): Promise<{ code: number | null; stderr: string; results: Results }> {
  const reports = `${cwd}/reports-${level}`;
  const run = await cli(['--report-dir', reports, '--level', level, ...selection], env, { dir: cwd, timeoutMs: RUN_MS - 10_000 });
  return { ...run, results: resultsIn(reports, run) };
}

test('the whole suite passes at the spec level against the reference server in spec-only mode, and the level changes no verdict', { timeout: RUN_MS }, async () => {
  const target = await server({ specOnly: true, headerPrefix: HEADER_PREFIX });
  const dir = tempDir('conformance-spec-only-');
  const env = { ...fullTarget(target, dir), CONFORMANCE_HEADER_PREFIX: HEADER_PREFIX };
  // The two runs one after the other: they share the server, and each needs the machine's cores.
  const spec = await runAt('spec', env, dir);
  const parity = await runAt('parity', env, dir, ['--area', 'repository-files']);

  const results = spec.results;
  const failing = results.tests.filter((t) => t.verdict === 'fail' || t.verdict === 'error');
  const lines = failing.map((t) => `${t.id} [${t.verdict}]: ${(t.reason ?? '').split('\n')[0]}`);
  expect(failing.length, `${failing.length} test(s) fail at the spec level against the spec-only server:\n${lines.join('\n')}`).toBe(0);
  expect(results.summary.pass, 'tests that passed (the run must not be empty)').toBeGreaterThan(100);
  expect(results.summary.unsupported, 'tests reported unsupported (the spec-only server offers every capability and fixture)').toBe(0);
  expect(spec.code, spec.stderr.slice(-2000)).toBe(0);

  // The level picks only the summary the exit code follows: every test's two verdicts are the same
  // in both runs (the spec-only server answers other texts than GitLab, so the parity run fails).
  // The parity run is of one area: its tests' verdicts against the same tests' in the whole run.
  const verdicts = (r: Results, ids: Set<string>) => Object.fromEntries(r.tests.filter((t) => ids.has(t.id)).map((t) => [t.id, `${t.verdict}/${t.parity}`]));
  const area = new Set(parity.results.tests.filter((t) => t.verdict !== 'disabled').map((t) => t.id));
  expect(area.size, 'tests of the area the parity run selected').toBeGreaterThan(50);
  expect(verdicts(parity.results, area)).toEqual(verdicts(results, area));
  expect(parity.results.paritySummary.fail, 'the spec-only server differs from GitLab somewhere').toBeGreaterThan(0);
  expect(parity.code, 'the parity run fails on those differences').toBe(1);
  expect(parity.results.summary.fail + parity.results.summary.error, 'the parity run\'s spec verdicts: none fails').toBe(0);
});
