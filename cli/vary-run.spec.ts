// The whole suite, at both levels, against the reference server in vary mode
// (reference-server/vary/) for five seeds (issue #25): ids of groups and projects that collide, ids
// with gaps, lists whose order GitLab leaves open in another order, unknown fields on every object,
// other timestamp precision, keys and headers in other orders, extra headers. A test that fails here
// rests on something GitLab does not promise, and must accept every answer GitLab's code allows.
// Each run is the real command in a child process against a server started here (one run reports
// both levels; its exit code follows the parity level). The same runs are the suite's race check
// (reference-server/neighbours.ts): the tests mark their requests about sources other tests of their
// file share (CONFORMANCE_MARK_SHARED_LISTS), and the server, in neighbours mode, changes a list a
// test reads when another test changed it before, as that test could have just then; a test that
// compares such a list must take a source of its own or run alone, or it fails here.
import { afterEach, expect, test } from 'vitest';
import { cleanUpChildren, cli, fullTarget, resultsIn, server, tempDir } from './cli-child.js';

const RUN_MS = 600_000;
/**
 * Each seed with the files it runs at once: a URL target's default of 8 once, and other schedules
 * for the others (each file's tests run at once whatever the number of files, so the neighbours
 * have the same tests beside them). Eight threads each load the suite: on 2 cores a run at 8 took
 * 27 s of CPU against 19 at 4 and 15.5 at 2 (2026-11-29).
 */
const SEEDS = [
  [1, 8],
  [2, 4],
  [3, 2],
  [4, 4],
  [5, 2],
] as const;

afterEach(cleanUpChildren);

test.each(SEEDS)('the whole suite passes at both levels against the reference server with --vary %i and neighbours, %i files at once', { timeout: RUN_MS }, async (seed, concurrency) => {
  const target = await server({ vary: seed, neighbours: true });
  const dir = tempDir(`conformance-vary-${seed}-`);
  const reports = `${dir}/reports`;
  const run = await cli(['--report-dir', reports, '--level', 'parity', '--concurrency', String(concurrency)], { ...fullTarget(target, dir), CONFORMANCE_MARK_SHARED_LISTS: 'true' }, { dir, timeoutMs: RUN_MS - 10_000 });
  const results = resultsIn(reports, run);
  const failing = results.tests.filter((t) => [t.verdict, t.parity].some((v) => v === 'fail' || v === 'error'));
  const lines = failing.map((t) => `${t.id} [spec ${t.verdict}, parity ${t.parity}]: ${(t.reason ?? '').split('\n').slice(0, 3).join(' ')}`);
  expect(failing.length, `${failing.length} test(s) fail against --vary ${seed}:\n${lines.join('\n')}`).toBe(0);
  expect(results.summary.pass, 'tests that passed (the run must not be empty)').toBeGreaterThan(100);
  expect(results.summary.unsupported, 'tests reported unsupported (the server offers every capability and fixture)').toBe(0);
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
  // The race check had something to check: tests marked their reads, and neighbours joined lists (a new user each, most of them).
  expect([...target.store.users.values()].filter((u) => u.username.startsWith('neighbour-')).length, 'users the neighbours mode made').toBeGreaterThan(10);
});
