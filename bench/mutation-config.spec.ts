// The suite's vitest set-up for mutation testing (vitest.mutation.config.ts) as StrykerJS's vitest
// runner drives it: one vitest, the `threads` pool the runner asks for, and one run per mutant, whose
// tests the runner names by a test-name filter it sets on the project's configuration. The threads
// are kept from run to run (cli/kept-threads.ts); a kept thread must still run exactly the tests each
// run's filter names, or a mutant would be tried on the tests of the mutant before it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** Three runs of one file in one vitest, as Stryker makes them: the names of the tests each ran. */
const DRIVER = `
import { createVitest } from 'vitest/node';
const ctx = await createVitest('test', { config: 'vitest.mutation.config.ts', pool: 'threads', maxWorkers: 1, watch: false, reporters: [] });
const filters = [/reads back by id/, /shows user and password/, /reads back by id/];
const runs = [];
for (const filter of filters) {
  ctx.state.filesMap.clear();
  for (const project of ctx.projects) project.config.testNamePattern = filter;
  await ctx.start(['suites/remote-mirrors/get.test.ts']);
  const ran = [];
  const walk = (task) => (task.type === 'test' ? (task.result?.state === 'pass' ? ran.push(task.name) : undefined) : task.tasks?.forEach(walk));
  ctx.state.getFiles().forEach(walk);
  runs.push(ran);
}
// A file of tests that need an instance setting: it runs in the project of each value.
ctx.state.filesMap.clear();
for (const project of ctx.projects) project.config.testNamePattern = undefined;
await ctx.start(['suites/members/promotion-management.exclusive.test.ts']);
const phases = ctx.state.getFiles().map((file) => {
  const tests = [];
  const walk = (task) => (task.type === 'test' ? tests.push(task.result?.state) : task.tasks?.forEach(walk));
  walk(file);
  return { project: file.projectName, loaded: file.result?.state !== 'fail' || tests.length > 0, passed: tests.filter((s) => s === 'pass').length, failed: tests.filter((s) => s === 'fail').length };
});
console.log(JSON.stringify({ pool: ctx.projects[0].config.pool, runs, phases }));
await ctx.close();
`;

/** The run ledgers in the project's .conformance folder. */
const ledgers = () => (existsSync(join(ROOT, '.conformance')) ? readdirSync(join(ROOT, '.conformance')).filter((f) => f.startsWith('ledger-')) : []);

test('each run in a kept thread runs the tests its own filter names, and passes them; the setting phases\' tests run in a project per value; no run leaves its ledger', { timeout: 180_000 }, async () => {
  const before = new Set(ledgers());
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', DRIVER], { cwd: ROOT, encoding: 'utf8', timeout: 110_000 });
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  expect(line.startsWith('{'), `the driver printed no result: ${child.stderr.slice(-2000)}`).toBe(true);
  const { pool, runs, phases } = JSON.parse(line) as { pool: string; runs: string[][]; phases: { project: string; loaded: boolean; passed: number; failed: number }[] };
  expect(pool, 'the pool in place of the threads pool Stryker asks for').toBe('kept-threads');
  expect(runs.map((ran) => ran.length)).toEqual([1, 1, 1]);
  expect(runs[0][0]).toMatch(/reads back by id/);
  expect(runs[1][0]).toMatch(/shows user and password/);
  expect(runs[2][0]).toMatch(/reads back by id/);
  // The tests that need an instance setting run too, in a project per value (they failed to load in a
  // config without the setting phases, and their mutants had no coverage).
  expect(phases.map((p) => p.project).sort()).toEqual(['mutation-conformance-enable_member_promotion_management=false', 'mutation-conformance-enable_member_promotion_management=true']);
  for (const phase of phases) {
    expect(phase.loaded, `${phase.project} loaded the file`).toBe(true);
    expect(phase.passed, `${phase.project}: tests passed`).toBeGreaterThan(0);
    expect(phase.failed, `${phase.project}: tests failed`).toBe(0);
  }
  // Each file's run is dropped with its server when the file ends, the thread's last one too. Another
  // spec's run in this tree (area-registration's) may hold a ledger of its own just now, until its run
  // ends: a ledger this driver left stays for good, so what is still new after a minute is a leftover.
  await expect.poll(() => ledgers().filter((f) => !before.has(f)), { timeout: 60_000, interval: 500 }).toEqual([]);
});
