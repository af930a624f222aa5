// `npm run faults`: proves the suite's power on the seeded faults. Starts one reference server,
// runs the whole suite against it with no fault (everything must pass), then switches each fault
// of the catalogue on in turn and re-runs the suite files of its area (all files for cross-cutting
// faults) through one vitest instance. A fault is detected when at least one test fails; the pinned
// tests of caught-by.json must all be among the failures. Writes reports/faults.json and prints the
// detection rate per area. Exit 0 when every fault is detected by its pinned tests.
//   --pin       rewrite caught-by.json from this run (up to 3 failing tests per fault)
//   --only a,b  check these faults only
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createVitest, type TestSpecification } from 'vitest/node';
import { CATALOGUE } from '../../../reference-server/faults/catalogue.js';
import type { Fault } from '../../../reference-server/faults/types.js';
import { startReferenceServer } from '../../../reference-server/server.js';
import { CATALOG } from '../../areas.js';
import { ConformanceReporter } from '../report/reporter.js';
import type { Results } from '../report/results.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PINNED_PATH = join(ROOT, 'reference-server', 'faults', 'caught-by.json');
const ADMIN = 'glpat-fault-check-admin-000';

const { values } = parseArgs({ options: { pin: { type: 'boolean', default: false }, only: { type: 'string' } } });
const only = values.only?.split(',');
const faults = CATALOGUE.filter((f) => !only || only.includes(f.name));
const pinned = JSON.parse(readFileSync(PINNED_PATH, 'utf8')) as Record<string, string[]>;

const server = await startReferenceServer({ adminToken: ADMIN, faultSwitch: true });
const work = mkdtempSync(join(tmpdir(), 'conformance-faults-'));
const manifest = join(work, 'fixtures.json');
writeFileSync(manifest, JSON.stringify(server.fixtures));
Object.assign(process.env, {
  CONFORMANCE_TARGET_URL: server.url,
  CONFORMANCE_ADMIN_TOKEN: ADMIN,
  CONFORMANCE_CAPABILITIES: 'premium,ultimate,ldap,saml,promotion_management,enterprise_users',
  CONFORMANCE_FIXTURES: manifest,
  CONFORMANCE_REPORT_DIR: join(work, 'reports'),
});

const vitest = await createVitest('test', {
  root: ROOT,
  config: join(ROOT, 'vitest.config.ts'),
  project: ['conformance', 'conformance-exclusive'],
  watch: false,
  reporters: [new ConformanceReporter(CATALOG)],
});
const results = (): Results => JSON.parse(readFileSync(join(work, 'reports', 'results.json'), 'utf8')) as Results;
const failing = (r: Results) => r.tests.filter((t) => t.verdict === 'fail' || t.verdict === 'error').map((t) => t.id).sort();

/** The suite files a fault's area runs: its own folder, or every area's for a cross-cutting fault. */
const areaDirs = (area: string) => (area === 'cross-cutting' ? CATALOG.areaNames : [area]).map((a) => `suites/${a}/`);

interface Outcome {
  fault: string;
  area: string;
  description: string;
  failed: string[];
  pinned: string[];
  missedPins: string[];
  detected: boolean;
}

const outcomes: Outcome[] = [];
let baselineFailures: string[] = [];
try {
  const all = await vitest.globTestSpecifications();
  await vitest.runTestSpecifications(all);
  baselineFailures = failing(results());
  if (baselineFailures.length > 0) console.error(`with no fault on, these tests fail: ${baselineFailures.join(', ')}`);

  for (const fault of faults) {
    server.faults.active = new Set([fault.name]);
    const specs = all.filter((spec: TestSpecification) => areaDirs(fault.area).some((dir) => spec.moduleId.startsWith(join(ROOT, dir))));
    await vitest.runTestSpecifications(specs);
    server.faults.active = new Set();
    const failed = failing(results()).filter((id) => !baselineFailures.includes(id));
    const pins = pinned[fault.name] ?? [];
    const missedPins = pins.filter((id) => !failed.includes(id));
    outcomes.push({ fault: fault.name, area: fault.area, description: fault.description, failed, pinned: pins, missedPins, detected: failed.length > 0 });
    console.log(`${failed.length > 0 ? (missedPins.length ? 'PIN MISSED' : 'caught    ') : 'MISSED    '} ${fault.name}: ${failed.length} failing${missedPins.length ? `; pinned but passing: ${missedPins.join(', ')}` : ''}`);
  }
} finally {
  await vitest.close();
  await server.close();
}

const areas = [...new Set(outcomes.map((o) => o.area))];
const rates = areas.map((area) => {
  const of = outcomes.filter((o) => o.area === area);
  const detected = of.filter((o) => o.detected && o.missedPins.length === 0).length;
  return { area, faults: of.length, detected, rate: Math.round((1000 * detected) / Math.max(of.length, 1)) / 10 };
});
const detected = outcomes.filter((o) => o.detected && o.missedPins.length === 0).length;
mkdirSync(join(ROOT, 'reports'), { recursive: true });
writeFileSync(join(ROOT, 'reports', 'faults.json'), `${JSON.stringify({ faults: outcomes.length, detected, baselineFailures, rates, outcomes }, null, 2)}\n`);
console.log(`\n| area | faults | detected | rate |\n|---|---:|---:|---:|`);
for (const r of rates) console.log(`| ${r.area} | ${r.faults} | ${r.detected} | ${r.rate}% |`);
console.log(`| all | ${outcomes.length} | ${detected} | ${Math.round((1000 * detected) / Math.max(outcomes.length, 1)) / 10}% |`);

if (values.pin) {
  const next: Record<string, string[]> = { ...pinned };
  for (const o of outcomes) if (o.failed.length > 0) next[o.fault] = o.failed.slice(0, 3);
  writeFileSync(PINNED_PATH, `${JSON.stringify(next, null, 2)}\n`);
  console.log(`pinned ${outcomes.filter((o) => o.failed.length > 0).length} faults in ${PINNED_PATH}`);
}

const unpinned = faults.filter((f: Fault) => !(pinned[f.name]?.length) && !values.pin).map((f) => f.name);
if (unpinned.length) console.error(`faults with no pinned tests: ${unpinned.join(', ')}`);
process.exitCode = baselineFailures.length === 0 && detected === outcomes.length && unpinned.length === 0 ? 0 : 1;
