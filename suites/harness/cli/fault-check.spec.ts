// The meta-test of the suite's power: runs `npm run faults` (faults/check.ts) in a child process.
// With no fault on, every conformance test passes; with each seeded fault on, the tests pinned for it
// in caught-by.json fail. reports/faults.json holds the detection rate per area.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { CATALOGUE } from '../../../reference-server/faults/catalogue.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

test('every seeded fault is caught by the tests pinned for it, and no test fails without a fault', { timeout: 900_000 }, () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('CONFORMANCE_') && k !== 'NODE_ENV' && k !== 'TEST'));
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'suites', 'harness', 'cli', 'fault-check.ts')], { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const report = JSON.parse(readFileSync(join(ROOT, 'reports', 'faults.json'), 'utf8')) as { faults: number; detected: number; baselineFailures: string[]; outcomes: { fault: string; detected: boolean; missedPins: string[] }[] };
  expect(report.baselineFailures).toEqual([]);
  expect(report.outcomes.filter((o) => !o.detected || o.missedPins.length > 0)).toEqual([]);
  expect(report.faults).toBe(CATALOGUE.length);
  expect(report.faults).toBeGreaterThanOrEqual(60);
  expect(run.status, run.stderr.slice(-2000)).toBe(0);
});
