// The meta-test of the suite's power: runs `npm run faults` (cli/fault-check.ts) in a
// child process. With no fault on, every conformance test passes; every seeded fault names the clauses
// it breaks (all of them in the catalog), and with it on, a test naming one of those clauses fails at
// the fault's level. reports/faults.json holds the detection rate per area. The differential mode
// (docs/differential.md) rides on the same runs: with each fault on, a test naming one of its clauses
// shows a difference beyond noise against the same files run with no fault, for at least 95 % of the
// faults; docs/differential.md names the others and says why.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { CATALOGUE } from '../reference-server/areas.js';
import { CATALOG } from '../suites/areas.js';

const ROOT = resolve(import.meta.dirname, '..');

interface FaultReport {
  faults: number;
  caught: number;
  baselineFailures: string[];
  unknownClauses: { fault: string; clause: string }[];
  outcomes: { fault: string; level: 'spec' | 'parity'; clauses: string[]; caught: boolean; caughtBy: { id: string; clauses: string[] }[]; differential: { shown: boolean; shownBy: string[]; differences: number; uncovered: number } }[];
  differential: { shown: number; rate: number; notShown: string[]; noiseWithoutFault: unknown[] };
}

test('every seeded fault names clauses of the catalog', () => {
  const known = new Set(CATALOG.clauses.map((c) => c.id));
  expect(CATALOGUE.filter((f) => f.clauses.length === 0).map((f) => f.name)).toEqual([]);
  expect(CATALOGUE.flatMap((f) => f.clauses.filter((id) => !known.has(id)).map((id) => `${f.name} → ${id}`))).toEqual([]);
});

test('every seeded fault is caught by a test naming one of its clauses, and no test fails without a fault', { timeout: 4_200_000 }, () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('CONFORMANCE_') && k !== 'NODE_ENV' && k !== 'TEST'));
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'fault-check.ts')], { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
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
  // The differential: a difference in an exchange of a test naming one of the fault's clauses.
  const shown = report.outcomes.filter((o) => o.differential.shown);
  console.log(
    `differential: ${shown.length} of ${report.faults} faults shown (${report.differential.rate} %); ` +
      `${report.outcomes.reduce((n, o) => n + o.differential.differences, 0)} differences, ${report.outcomes.reduce((n, o) => n + o.differential.uncovered, 0)} of them in tests whose verdicts did not change; ` +
      `two runs with no fault differ in ${report.differential.noiseWithoutFault.length} place(s)`,
  );
  expect(shown.length / report.faults, `faults no difference shows: ${report.differential.notShown.join(', ')}`).toBeGreaterThanOrEqual(0.95);
  const doc = readFileSync(join(ROOT, 'docs', 'differential.md'), 'utf8');
  expect(report.differential.notShown.filter((name) => !doc.includes(`\`${name}\``)), 'faults no difference shows that docs/differential.md does not explain').toEqual([]);
  expect(run.status, run.stderr.slice(-2000)).toBe(0);
});
