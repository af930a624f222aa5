// Containment (issue #25): the suite against the reference server playing a target that lacks one
// set-up endpoint beyond the target contract (`--without NAME`, contract/extra-setup-endpoints.ts),
// for each name. Only the tests that declare the name (themselves or through their fixtures) may change
// verdict, and each that does is `unsupported` with the reason "the target lacks …"; the other tests
// pass at both levels as they do against the full server; the report lists what the target lacks.
// Each run is the real command in a child process against a server started here. A run takes the
// tests that declare the name (`list --json` says which) and a sample of the others, one in
// SAMPLE_EVERY of every area: the others could only fail through a declaration that is missing, and
// the fixtures they share with the dependents are in the run with them.
import { afterEach, beforeAll, expect, test } from 'vitest';
import { EXTRA_SETUP_ENDPOINT_NAMES } from '../contract/extra-setup-endpoints.js';
import { cleanUpChildren, cli, fullTarget, resultsIn, server, tempDir } from './cli-child.js';
import { testNamePattern, type TestMeta } from '../runner/run/conformance.js';

const RUN_MS = 600_000;
const SAMPLE_EVERY = 8;

afterEach(cleanUpChildren);

/** Every test's metadata, from `list --json` (no run, no target). */
let metas: TestMeta[] = [];
beforeAll(async () => {
  const { stdout } = await cli(['list', '--json'], {});
  metas = stdout.trim().split('\n').map((line) => JSON.parse(line) as TestMeta);
}, 120_000);

/** The tests that declare `name`, and one in SAMPLE_EVERY of the others: a --grep pattern for their ids. */
function selection(name: string): string {
  const dependents = metas.filter((m) => m.needs.includes(name as TestMeta['needs'][number]));
  const sample = metas.filter((m) => !m.needs.includes(name as TestMeta['needs'][number])).filter((_, i) => i % SAMPLE_EVERY === 0);
  return testNamePattern([...dependents, ...sample].map((m) => m.id));
}

test.each(EXTRA_SETUP_ENDPOINT_NAMES)('without %s, only the tests that need it change verdict, each unsupported with the reason', { timeout: RUN_MS }, async (name) => {
  expect(metas.length, 'list --json names the tests').toBeGreaterThan(600);
  // Without permanent removal only GitLab 17/18's delayed deletion has anything to lose.
  const target = await server({ without: [name], delayedDeletion: name === 'permanent-removal' });
  const dir = tempDir(`conformance-without-${name}-`);
  const reports = `${dir}/reports`;
  // A part of the suite: one worker thread (cli-child.ts target).
  const run = await cli(['--report-dir', reports, '--level', 'parity', '--grep', selection(name)], { ...fullTarget(target, dir), CONFORMANCE_CONCURRENCY: '1' }, { dir, timeoutMs: RUN_MS - 10_000 });
  const results = resultsIn(reports, run);

  const ran = results.tests.filter((t) => t.verdict !== 'disabled');
  const dependents = ran.filter((t) => t.needs.includes(name));
  const others = ran.filter((t) => !t.needs.includes(name));
  expect(dependents.length, 'every test that declares the name ran').toBe(metas.filter((m) => m.needs.includes(name as TestMeta['needs'][number])).length);
  const notPassing = others.filter((t) => t.verdict !== 'pass' || t.parity !== 'pass').map((t) => `${t.id} [${t.verdict}/${t.parity}]: ${(t.reason ?? '').split('\n')[0]}`);
  expect(notPassing, `tests that do not need ${name} must not change verdict`).toEqual([]);
  const changed = dependents.filter((t) => t.verdict !== 'pass' || t.parity !== 'pass');
  const badlyChanged = changed.filter((t) => t.verdict !== 'unsupported' || !(t.reason ?? '').includes(`(set-up "${name}")`)).map((t) => `${t.id} [${t.verdict}]: ${t.reason}`);
  expect(badlyChanged, `tests that need ${name} are unsupported, with the reason, or pass`).toEqual([]);
  const lacking = results.lackingSetup?.find((l) => l.need === name);
  if (changed.length > 0) expect(lacking?.tests, 'the report lists the set-up endpoint the target lacks, with the tests it cost').toBe(changed.length);
  else expect(lacking).toBeUndefined();
  console.log(`without ${name}: ${changed.length} of ${dependents.length} tests that need it unsupported; ${others.length} others (a sample) pass`);
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
});
