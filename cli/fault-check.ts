// `npm run faults`: proves the suite's power on the seeded faults. Each fault of the catalogue names
// the clauses its wrong behaviour breaks (reference-server/faults/catalogue.ts), and every test names
// the clauses it checks: one record of what catches what. The check starts one reference server, runs
// the whole suite against it with no fault (everything must pass, at both levels), then, for each
// fault, the tests of its area (every area's for a cross-cutting fault) that name one of its clauses:
// once with no fault (shared by the faults that run the same tests), then with the fault on, through
// one vitest instance. Every run of the suite is a run of its own (freshRun), one test at a time
// (CONFORMANCE_SEQUENTIAL), from the server's state at its start, in worker threads that serve every run (kept-threads.ts). A fault is
// caught when at least one test that names one of its clauses fails at the fault's level (spec: the spec verdict; parity: the GitLab-parity verdict)
// while the fault is on, having passed at that level in the run of the same files with no fault.
// Only the tests naming its clauses run, so no other test's failure is looked for. Writes reports/faults.json and
// prints the detection rate per area. Exit 1 when a fault names a clause the catalog does not hold,
// when a fault is not caught that way, or when a test fails with no fault on.
//
// The differential check rides on the same runs (docs/differential.md): every run records its
// transcript, and the whole suite runs twice with no fault, what differs between the two being
// noise. Each fault's transcript is compared with the one of the same files with no fault,
// restricted to the tests both ran; the fault shows when a test naming one of its clauses has a
// difference beyond noise in at least one exchange. reports/faults.json holds, per fault, those tests
// and how many of the differences were in tests whose verdicts did not change.
//   --only a,b  check these faults only
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createVitest, type TestSpecification } from 'vitest/node';
import { keptThreads } from './kept-threads.js';
import { diffTranscripts, type Difference } from '../runner/differential/diff.js';
import { readTranscript, type Transcript } from '../runner/differential/transcript.js';
import { CATALOGUE } from '../reference-server/areas.js';
import type { SeededFault } from '../reference-server/faults/types.js';
import { startReferenceServer } from '../reference-server/server.js';
import { CATALOG } from '../suites/areas.js';
import type { VerdictLevel } from '../runner/core/exchange.js';
import { CAPABILITIES } from '../runner/run/config.js';
import { ConformanceReporter } from '../runner/report/reporter.js';
import { conformanceProjects, loadConfig, type Flags } from '../runner/run/config.js';
import { createRun } from '../runner/run/lifecycle.js';
import { NameOrder } from '../runner/run/name-order.js';
import { escapeRegExp } from '../runner/core/regexp.js';
import type { Results, TestRecord } from '../runner/report/results.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN = 'glpat-fault-check-admin-000';

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only?.split(',').map((s) => s.trim()).filter((s) => s !== '');
const unknownFaults = (only ?? []).filter((name) => !CATALOGUE.some((f) => f.name === name));
if (unknownFaults.length > 0) {
  console.error(`unknown fault(s): ${unknownFaults.join(', ')}`);
  process.exit(2);
}
const faults = CATALOGUE.filter((f) => !only || only.includes(f.name));

// The clauses each fault names must be in the catalog; checked for the whole catalogue, before any run.
const known = new Set(CATALOG.clauses.map((c) => c.id));
const untestable = new Set(CATALOG.clauses.filter((c) => c.untestable).map((c) => c.id));
const unknownClauses = CATALOGUE.flatMap((f) => f.clauses.filter((id) => !known.has(id)).map((clause) => ({ fault: f.name, clause })));
for (const { fault, clause } of unknownClauses) console.error(`fault ${fault} names clause ${clause}, which no area's clauses.ts holds`);
const withoutClauses = CATALOGUE.filter((f) => f.clauses.length === 0).map((f) => f.name);
if (withoutClauses.length > 0) console.error(`faults that name no clause: ${withoutClauses.join(', ')}`);
for (const f of CATALOGUE) for (const id of f.clauses.filter((c) => untestable.has(c))) console.error(`fault ${f.name} names clause ${id}, which is marked untestable`);

/** Whether a test failed at a level: the spec verdict, or the GitLab-parity verdict. */
const failsAt = (t: TestRecord, level: VerdictLevel) => {
  const verdict = level === 'parity' ? t.parity : t.verdict;
  return verdict === 'fail' || verdict === 'error';
};
const failsAtAll = (t: TestRecord) => failsAt(t, 'spec') || failsAt(t, 'parity');
const levelOf = (f: SeededFault): VerdictLevel => f.level ?? 'spec';

const server = await startReferenceServer({ adminToken: ADMIN, faultSwitch: true });
const work = mkdtempSync(join(tmpdir(), 'conformance-faults-'));
const manifest = join(work, 'fixtures.json');
const resultsPath = join(work, 'reports', 'results.json');
const transcriptPath = join(work, 'transcript.jsonl');
writeFileSync(manifest, JSON.stringify(server.fixtures));
// The settings of every run of the suite: this script's, over the environment and .env (read once, here).
const fixed = (values: Record<string, string>): Flags => Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value, flag: `${name} (the fault check's)` }]));
const settings = loadConfig(process.env, '.env', CATALOG, fixed({
  CONFORMANCE_SEQUENTIAL: 'true',
  CONFORMANCE_TRANSCRIPT: transcriptPath,
  CONFORMANCE_TARGET_URL: server.url,
  CONFORMANCE_ADMIN_TOKEN: ADMIN,
  // The reference server has every capability (as with no target URL).
  CONFORMANCE_CAPABILITIES: CAPABILITIES.join(','),
  CONFORMANCE_FIXTURES: manifest,
  CONFORMANCE_REPORT_DIR: join(work, 'reports'),
}));

// Every run goes through the same two threads (one per project), loaded once.
const pool = keptThreads();
const vitest = await createVitest('test', {
  pool,
  root: ROOT,
  config: join(ROOT, 'vitest.config.ts'),
  // Loaded in this process as it is; mode cli: the settings are this script's, handed in here.
  configLoader: 'native',
  mode: 'cli',
  project: conformanceProjects(CATALOG),
  watch: false,
  maxWorkers: 1,
  sequence: { sequencer: NameOrder },
  provide: { conformanceSettings: settings },
  // Each run loads a part of the files: the catalog's clauses with no test are checked by npm test's own run.
  reporters: [new ConformanceReporter(CATALOG, settings, { partial: true, resultsOnly: true })],
});

let ownRun: { abandon(): Promise<void> } | undefined;

/**
 * Each run of the suite files is a run of its own: its own prefix, users and run fixtures. The names
 * a file's fixtures take are fixed by the file and the run prefix, so a second run under the same
 * prefix would meet what the first left (a branch of that name) and fail to build them. This makes
 * each and hands it to the projects (their global setup then makes none; the workers join it:
 * current-run.ts). The server is this script's own: rather than removing what the run
 * before made (about 70 requests), it goes back to how it started (`reset`), so that every run also
 * starts from the same state.
 */
async function freshRun(): Promise<void> {
  if (ownRun) {
    await ownRun.abandon();
    ownRun = undefined;
    server.reset();
  }
  const made = await createRun({ catalog: CATALOG, config: settings });
  ownRun = made;
  for (const project of vitest.projects) if (project.name.startsWith('conformance')) project.provide('conformance', made.run);
}

/** Runs the given suite files and reads the records the conformance reporter wrote for them, and the run's transcript. */
async function run(specs: TestSpecification[]): Promise<{ tests: TestRecord[]; transcript: Transcript }> {
  await freshRun();
  // Never read the previous run's results or transcript.
  rmSync(resultsPath, { force: true });
  rmSync(transcriptPath, { force: true });
  await vitest.runTestSpecifications(specs);
  return { tests: (JSON.parse(readFileSync(resultsPath, 'utf8')) as Results).tests, transcript: readTranscript(transcriptPath) };
}

/** The transcript with only these tests. */
const withTests = (t: Transcript, ids: Set<string>): Transcript => ({ ...t, tests: new Map([...t.tests].filter(([id]) => ids.has(id))) });

/**
 * The fault's transcript against the one of the same files with no fault, restricted to the tests
 * both ran; what two runs of the whole suite with no fault showed is noise. The fault shows when a
 * test naming one of its clauses has a difference beyond noise.
 */
function compare(fault: SeededFault, without: Transcript | undefined, withFault: Transcript | undefined, knownNoise: Difference[]): Outcome['differential'] {
  if (!without || !withFault) return { shownBy: [], differences: 0, uncovered: 0, noise: 0, shown: false };
  const both = new Set([...withFault.tests.keys()].filter((id) => without.tests.has(id)));
  const diff = diffTranscripts(withTests(without, both), withTests(withFault, both), [], undefined, knownNoise);
  const shownBy = diff.tests.filter((t) => t.differences > 0 && t.clauses.some((c) => fault.clauses.includes(c))).map((t) => t.id);
  return { shownBy, differences: diff.summary.differences, uncovered: diff.summary.uncovered, noise: diff.summary.noise, shown: shownBy.length > 0 };
}

/** The suite files a fault's area runs: its own folder, or every area's for a cross-cutting fault. */
const areaDirs = (area: string) => (area === 'cross-cutting' ? CATALOG.areaNames : [area]).map((a) => `suites/${a}/`);

interface Caught {
  id: string;
  /** The fault's clauses this test names. */
  clauses: string[];
}

interface Outcome {
  fault: string;
  area: string;
  description: string;
  level: VerdictLevel;
  clauses: string[];
  /** Tests naming one of the fault's clauses that failed at its level (and passed at it with no fault). */
  caughtBy: Caught[];
  /**
   * For a spec fault, tests naming one of its clauses that failed at the parity level only; for a
   * parity fault, those that failed the spec verdict too (a sign the fault breaks more than parity).
   */
  otherLevel: string[];
  /** Tests that name one of the fault's clauses and ran (not skipped), whatever their verdict. */
  naming: number;
  caught: boolean;
  /** The fault's transcript against the one with no fault (tests both ran), beyond noise. */
  differential: {
    /** Tests naming one of the fault's clauses with a difference in at least one exchange. */
    shownBy: string[];
    /** Differences in all, and those in tests whose verdicts were alike on both sides (no clause saw them). */
    differences: number;
    uncovered: number;
    noise: number;
    shown: boolean;
  };
}

const outcomes: Outcome[] = [];
let baselineFailures: string[] = [];
/** Where the two runs of the whole suite with no fault differ. */
let noiseWithoutFault: { test: string; index: number | null; locus: string; kind: string }[] = [];
try {
  const all = await vitest.globTestSpecifications();
  const { tests: baseline, transcript: first } = await run(all);
  // A second run with no fault: what differs between the two is noise, wherever it shows again.
  const knownNoise = diffTranscripts(first, (await run(all)).transcript).differences;
  noiseWithoutFault = knownNoise.map((d) => ({ test: d.test, index: d.index, locus: d.locus, kind: d.kind }));
  baselineFailures = baseline.filter(failsAtAll).map((t) => t.id);

  // The files of a fault's area that hold a test naming one of its clauses: only those can catch it.
  const filesOf = (fault: SeededFault) => {
    const namingFiles = new Set(baseline.filter((t) => t.clauses.some((c) => fault.clauses.includes(c))).map((t) => join(ROOT, t.file)));
    return all.filter((spec) => namingFiles.has(spec.moduleId) && areaDirs(fault.area).some((dir) => spec.moduleId.startsWith(join(ROOT, dir))));
  };
  // Of those files, only the tests that name one of the fault's clauses run (the others could not
  // catch it, and their fixtures need not be built): a run costs what its tests need.
  const namingIds = (fault: SeededFault) => baseline.filter((t) => t.clauses.some((c) => fault.clauses.includes(c)) && areaDirs(fault.area).some((dir) => t.file.startsWith(dir))).map((t) => t.id).sort();
  // Faults that run the same tests share one run of them with no fault, made just before theirs.
  const groups = new Map<string, { specs: TestSpecification[]; ids: string[]; faults: SeededFault[] }>();
  for (const fault of faults) {
    const specs = filesOf(fault);
    const ids = namingIds(fault);
    const key = ids.join('\n');
    groups.set(key, { specs, ids, faults: [...(groups.get(key)?.faults ?? []), fault] });
  }
  for (const { specs: filesSpecs, ids, faults: ofGroup } of groups.values()) {
    // On the specifications, not vitest's configuration: the kept threads keep the one of their start.
    // A test's name is `<id>: <title>` (runner/run/conformance.ts testNamePattern).
    const pattern = new RegExp(`^(${ids.map(escapeRegExp).join('|')}): `);
    const specs = filesSpecs.map((spec) => spec.project.createSpecification(spec.moduleId, { testNamePattern: pattern }));
    const without = specs.length > 0 ? await run(specs) : { tests: [], transcript: undefined };
    const failing = without.tests.filter(failsAtAll);
    baselineFailures.push(...failing.map((t) => t.id));
    // What stopped them, for whoever reads the log of a run where a test fails with no fault on.
    for (const t of failing) console.error(`with no fault on, ${t.id} fails: ${(t.reason ?? '').slice(0, 600)}`);
    const passedAt = (level: VerdictLevel) => new Set(without.tests.filter((t) => (level === 'parity' ? t.parity : t.verdict) === 'pass').map((t) => t.id));
    const basePass = { spec: passedAt('spec'), parity: passedAt('parity') };
    for (const fault of ofGroup) {
      const level = levelOf(fault);
      server.faults.active = new Set([fault.name]);
      let tests: TestRecord[] = [];
      let transcript: Transcript | undefined;
      try {
        if (specs.length > 0) ({ tests, transcript } = await run(specs));
      } finally {
        server.faults.active = new Set();
      }
      const named = (t: TestRecord) => t.clauses.filter((c) => fault.clauses.includes(c));
      const newlyFails = (t: TestRecord, at: VerdictLevel) => failsAt(t, at) && basePass[at].has(t.id);
      const caughtBy = tests.filter((t) => named(t).length > 0 && newlyFails(t, level)).map((t) => ({ id: t.id, clauses: named(t) }));
      const caughtIds = new Set(caughtBy.map((c) => c.id));
      const otherLevel =
        level === 'spec'
          ? tests.filter((t) => named(t).length > 0 && !caughtIds.has(t.id) && newlyFails(t, 'parity')).map((t) => t.id)
          : caughtBy.filter((c) => newlyFails(tests.find((t) => t.id === c.id)!, 'spec')).map((c) => c.id);
      const ran = tests.filter((t) => named(t).length > 0 && t.verdict !== 'unsupported' && t.verdict !== 'disabled').length;
      const differential = compare(fault, without.transcript, transcript, knownNoise);
      const outcome: Outcome = {
        fault: fault.name,
        area: fault.area,
        description: fault.description,
        level,
        clauses: fault.clauses,
        caughtBy,
        otherLevel,
        naming: ran,
        caught: caughtBy.length > 0,
        differential,
      };
      outcomes.push(outcome);
      const by = caughtBy.length > 0 ? `by ${caughtBy.map((c) => c.id).join(', ')}` : `no failing test names ${fault.clauses.join(', ') || '(no clause)'} (${ran} ran)`;
      const also = [
        otherLevel.length > 0 ? `${level === 'spec' ? 'failing at the parity level only' : 'failing the spec verdict too'}: ${otherLevel.join(', ')}` : '',
      ].filter((s) => s !== '');
      console.log(`${outcome.caught ? 'caught' : 'MISSED'} ${fault.name} [${level}] ${by}${also.length > 0 ? `; ${also.join('; ')}` : ''}`);
      console.log(
        `  differential: ${differential.shown ? `shown by ${differential.shownBy.join(', ')}` : 'NOT SHOWN by a test naming its clauses'}; ` +
          `${differential.differences} difference(s) (${differential.uncovered} in tests whose verdicts did not change), ${differential.noise} noise`,
      );
    }
  }
  baselineFailures = [...new Set(baselineFailures)].sort();
  if (baselineFailures.length > 0) console.error(`with no fault on, these tests fail: ${baselineFailures.join(', ')}`);
  // The report lists the faults in the catalogue's order.
  outcomes.sort((a, b) => faults.findIndex((f) => f.name === a.fault) - faults.findIndex((f) => f.name === b.fault));
} finally {
  await ownRun?.abandon();
  // The global setup's run removes what its ledger lists when vitest closes: none of it is left.
  server.reset();
  await vitest.close();
  await pool.close();
  await server.close();
}

const areas = [...new Set(outcomes.map((o) => o.area))];
const rate = (n: number, of: number) => Math.round((1000 * n) / Math.max(of, 1)) / 10;
const rates = areas.map((area) => {
  const of = outcomes.filter((o) => o.area === area);
  const caught = of.filter((o) => o.caught).length;
  return { area, faults: of.length, caught, rate: rate(caught, of.length) };
});
const caught = outcomes.filter((o) => o.caught).length;
const missed = outcomes.filter((o) => !o.caught).map((o) => o.fault);
const shown = outcomes.filter((o) => o.differential.shown).length;
const notShown = outcomes.filter((o) => !o.differential.shown).map((o) => o.fault);
mkdirSync(join(ROOT, 'reports'), { recursive: true });
writeFileSync(
  join(ROOT, 'reports', 'faults.json'),
  `${JSON.stringify({ faults: outcomes.length, caught, baselineFailures, unknownClauses, withoutClauses, missed, rates, differential: { shown, rate: rate(shown, outcomes.length), notShown, noiseWithoutFault }, outcomes }, null, 2)}\n`,
);
console.log(`\n| area | faults | caught by a test naming their clause | rate |\n|---|---:|---:|---:|`);
for (const r of rates) console.log(`| ${r.area} | ${r.faults} | ${r.caught} | ${r.rate}% |`);
console.log(`| all | ${outcomes.length} | ${caught} | ${rate(caught, outcomes.length)}% |`);
console.log(
  `differential: ${shown} of ${outcomes.length} faults (${rate(shown, outcomes.length)}%) show a difference in a test naming one of their clauses; ` +
    `two runs of the whole suite with no fault differ in ${noiseWithoutFault.length} place(s) (noise)`,
);
if (notShown.length > 0) console.log(`  not shown: ${notShown.join(', ')}`);
if (missed.length > 0) console.error(`not caught by a test naming their clauses: ${missed.join(', ')}`);
if (unknownClauses.length > 0) console.error(`unknown clause ids: ${unknownClauses.map((u) => `${u.fault} → ${u.clause}`).join(', ')}`);

process.exitCode = baselineFailures.length === 0 && missed.length === 0 && unknownClauses.length === 0 ? 0 : 1;
