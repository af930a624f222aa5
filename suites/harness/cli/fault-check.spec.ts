// The meta-test of the suite's power: runs `npm run faults` (suites/harness/cli/fault-check.ts) in a
// child process. With no fault on, every conformance test passes; every seeded fault names the clauses
// it breaks (all of them in the catalog), and with it on, a test naming one of those clauses fails at
// the fault's level. reports/faults.json holds the detection rate per area.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { CATALOGUE } from '../../../reference-server/faults/catalogue.js';
import { CATALOG } from '../../areas.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

interface FaultReport {
  faults: number;
  caught: number;
  baselineFailures: string[];
  unknownClauses: { fault: string; clause: string }[];
  outcomes: { fault: string; level: 'spec' | 'parity'; clauses: string[]; caught: boolean; caughtBy: { id: string; clauses: string[] }[] }[];
}

test('every seeded fault names clauses of the catalog', () => {
  const known = new Set(CATALOG.clauses.map((c) => c.id));
  expect(CATALOGUE.filter((f) => f.clauses.length === 0).map((f) => f.name)).toEqual([]);
  expect(CATALOGUE.flatMap((f) => f.clauses.filter((id) => !known.has(id)).map((id) => `${f.name} → ${id}`))).toEqual([]);
});

test('every seeded fault is caught by a test naming one of its clauses, and no test fails without a fault', { timeout: 4_200_000 }, () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('CONFORMANCE_') && k !== 'NODE_ENV' && k !== 'TEST'));
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'suites', 'harness', 'cli', 'fault-check.ts')], { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const report = JSON.parse(readFileSync(join(ROOT, 'reports', 'faults.json'), 'utf8')) as FaultReport;
  expect(report.baselineFailures).toEqual([]);
  expect(report.unknownClauses).toEqual([]);
  expect(report.outcomes.filter((o) => o.clauses.length === 0).map((o) => o.fault)).toEqual([]);
  expect(report.outcomes.filter((o) => !o.caught).map((o) => `${o.fault} (${o.level}): ${o.clauses.join(', ')}`)).toEqual([]);
  // Caught means: by a test that names one of the fault's clauses.
  for (const o of report.outcomes) for (const by of o.caughtBy) expect(by.clauses.filter((c) => o.clauses.includes(c)), `${o.fault} caught by ${by.id}`).not.toEqual([]);
  expect(report.faults).toBe(CATALOGUE.length);
  expect(report.faults).toBeGreaterThanOrEqual(60);
  expect(report.caught).toBe(report.faults);
  expect(run.status, run.stderr.slice(-2000)).toBe(0);
});
