// The conformance reporter: turns vitest's results into verdicts (pass, fail, unsupported,
// disabled, error), applies the baseline, and writes results.json, junit.xml, summary.md,
// report.html and clauses.json into the report directory. It also checks the catalog: every
// testable clause of the areas that ran has a test, every test id is unique. Everything it writes
// goes through `redact`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestCase, TestModule, TestRunEndReason } from 'vitest/node';
import type { Catalog } from '../core/area.js';
import { redact, redactValue, REDACTED } from '../core/redact.js';
import { reach } from '../run/coordinator-channel.js';
import type { Config } from '../run/config.js';
import type { Outcome, TestMeta } from '../run/conformance.js';
import { registerRunSecrets, type RunContext } from '../run/context.js';
import { applyBaseline, loadBaseline } from './baseline.js';
import { clauseCoverage, type Coverage } from './clause-coverage.js';
import { reportHtml } from './html.js';
import { junitXml } from './junit.js';
import { summaryMarkdown } from './markdown.js';
import { buildResults, chosenSummary, headline, type FixtureReport, type Results, type ShardLabel, type TestRecord, type Verdict } from './results.js';
import { writeTranscript } from './transcript.js';

/** A test of a file an interrupted run did not load, with why the selection leaves it out (then `disabled`, as a run reports it), when it does. */
export interface UnloadedTest {
  meta: TestMeta;
  file: string;
  notSelected?: string;
}

/** How long an interrupted run's reports wait for its coordinator's tally: it may be gone with the workers. */
const INTERRUPTED_ANSWER_MS = 500;

/**
 * A test's verdicts on both levels, from the outcome the test wrapper recorded where it decided it.
 * `interruption`: why the run was cut short; a test it kept from ending is `not-run`.
 */
export function verdictOf(test: TestCase, interruption?: string): { verdict: Verdict; reason: string | null; parity: Verdict } {
  const result = test.result();
  const outcome = test.meta().outcome as Outcome | undefined;
  const both = (verdict: Verdict, reason: string | null) => ({ verdict, reason, parity: verdict });
  if (outcome?.gate) return both(outcome.gate.verdict, outcome.gate.reason);
  if (interruption !== undefined && (result.state === 'pending' || result.state === 'skipped' || (result.state === 'failed' && outcome?.failure === undefined))) {
    return both('not-run', `the run was interrupted (${interruption}) before this test ${outcome ? 'could end' : 'started'}`);
  }
  if (!outcome) {
    // The body never started: a hook of its file failed, or the test was filtered out.
    const hookError = test.module.errors()[0] ?? suiteErrors(test)[0] ?? (result.state === 'failed' ? result.errors?.[0] : undefined);
    if (hookError) return both('error', redact(`the test could not run: ${hookError.message}`));
    return both('disabled', 'not selected (--grep or shard)');
  }
  const message = result.state === 'failed' ? redact(result.errors?.[0]?.message ?? 'failed') : null;
  // A test that failed only through parity notes passed at the spec level. One that failed with
  // neither (vitest's own timeout) could not be checked.
  const spec: Verdict = outcome.failure ?? (result.state === 'failed' && outcome.parity.length === 0 ? 'error' : 'pass');
  const parity: Verdict = spec !== 'pass' ? spec : outcome.parity.length > 0 ? 'fail' : 'pass';
  return { verdict: spec, reason: spec === 'pass' ? null : message, parity };
}

function suiteErrors(test: TestCase): { message: string }[] {
  const errors: { message: string }[] = [];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) errors.push(...parent.errors());
  return errors;
}

/** The settings in force, as reports show them: secrets removed. */
function shownSettings(config: Config): Record<string, unknown> {
  return { ...config, adminToken: config.adminToken === undefined ? undefined : REDACTED };
}

/**
 * The five reports; with `resultsOnly`, results.json alone. Every report is made from the results
 * with each value masked (redactValue: never the JSON text, whose keys a secret could equal); the
 * pages are masked once more as text, and what a target sent is escaped where it shows (junit.ts,
 * markdown.ts, html.ts). Whatever writes reports (a merge of shards too) writes them here.
 */
export function writeReports(reportDir: string, results: Results, coverage: Coverage, resultsOnly = false): void {
  mkdirSync(reportDir, { recursive: true });
  const safe = redactValue(results);
  writeFileSync(join(reportDir, 'results.json'), `${JSON.stringify(safe, null, 2)}\n`);
  if (resultsOnly) return;
  writeFileSync(join(reportDir, 'junit.xml'), junitXml(safe));
  writeFileSync(join(reportDir, 'summary.md'), redact(summaryMarkdown(safe)));
  writeFileSync(join(reportDir, 'report.html'), redact(reportHtml(safe, coverage)));
  writeFileSync(join(reportDir, 'clauses.json'), `${JSON.stringify({ clauses: coverage.clauses }, null, 2)}\n`);
}

/** What the command line knows of the run that vitest does not: why it was stopped, whether it loaded only a part of the catalog. */
export interface RunControl {
  /** Set when the run is stopped (a signal, a time-out, the target lost), before vitest is cancelled. */
  interruption?: string;
  /** Only a shard of the test files loads: the catalog cannot be checked for clauses with no test. */
  partial?: boolean;
  /** The shard this run is (--shard), its run's name when given (--run-id; else the run's own id) and its files: the reports say so. */
  shard?: Omit<ShardLabel, 'run'> & { run?: string; files: string[] };
  /** Write results.json alone: for a caller that reads the results and shows no report (the seeded-fault check's ~300 runs). */
  resultsOnly?: boolean;
  /**
   * An interrupted run's reports are written by the command (ConformanceReporter.report), once it has
   * the tests of the files the run did not load: the reporter only keeps the modules.
   */
  completeInterrupted?: boolean;
  /** Asked at the end of a run with errors, before the reports: why the run was cut short after all (the target gone), if it was. */
  cutShort?: () => Promise<string | undefined>;
}

export class ConformanceReporter implements Reporter {
  /** The run's results, once written: the command line reads them here. */
  results: Results | undefined;

  /** `catalog`: the registered areas (suites/areas.ts), for clause coverage; `config`: the run's settings. */
  constructor(
    private readonly catalog: Catalog,
    private readonly config: Config,
    private readonly control: RunControl = {},
  ) {}

  /** The test modules of a run that ended interrupted, when the command writes its reports itself (RunControl.completeInterrupted). */
  interruptedModules: ReadonlyArray<TestModule> | undefined;

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors?: ReadonlyArray<unknown>, reason?: TestRunEndReason): Promise<void> {
    const errored = testModules.some((m) => [...m.children.allTests()].some((t) => (t.meta().outcome as Outcome | undefined)?.failure === 'error'));
    if (this.control.interruption === undefined && errored && this.control.cutShort) this.control.interruption = await this.control.cutShort();
    const interruption = this.control.interruption ?? (reason === 'interrupted' ? 'the run was cancelled' : undefined);
    if (interruption !== undefined && this.control.completeInterrupted) {
      this.interruptedModules = testModules;
      return;
    }
    await this.report(testModules, interruption);
  }

  /**
   * Writes the reports and prints the headline. `unloaded`: the tests of the files the run did not
   * load (an interrupted run), `not-run` or `disabled` as the selection holds them; `run`, the run
   * when no module of it says which (interrupted before any test file loaded).
   */
  /** The clause coverage of the reports written, for writing them again with the clean-up's outcome. */
  private coverage: Coverage | undefined;

  /**
   * The reports written again with what the clean-up (which runs after them) left for GitLab to
   * finish: the objects pending deletion, counted as such in summary.md and results.json.
   */
  addCleanUp(cleanUp: { pending: string[] }): void {
    if (this.results === undefined || this.coverage === undefined || cleanUp.pending.length === 0) return;
    this.results.cleanUp = cleanUp;
    writeReports(this.config.reportDir, this.results, this.coverage, this.control.resultsOnly);
  }

  async report(testModules: ReadonlyArray<TestModule>, interruption: string | undefined, unloaded: UnloadedTest[] = [], made?: RunContext): Promise<void> {
    const project = testModules.find((m) => m.project.name.startsWith('conformance'))?.project;
    const run = (project?.getProvidedContext().conformance as RunContext | undefined) ?? made;
    // This process did not make the run: its tokens are registered here before any text is written.
    if (run) registerRunSecrets(run);
    const records: TestRecord[] = [];
    const recorded: Parameters<typeof writeTranscript>[3] = [];
    for (const module of testModules) {
      if (!module.project.name.startsWith('conformance')) continue;
      for (const test of module.children.allTests()) {
        const meta = test.meta().conformance as TestMeta | undefined;
        if (!meta) continue;
        const { verdict, reason, parity } = verdictOf(test, interruption);
        const outcome = test.meta().outcome as Outcome | undefined;
        const notes = outcome?.parity ?? [];
        const record: TestRecord = {
          id: meta.id,
          title: meta.title,
          area: meta.area,
          endpoint: meta.endpoint,
          kind: meta.kind,
          clauses: meta.clauses,
          verdict,
          reason,
          parity,
          ...(notes.length > 0 ? { parityNotes: notes } : {}),
          durationMs: Math.round(test.diagnostic()?.duration ?? 0),
          file: module.relativeModuleId,
          fixtures: meta.fixtures,
          needs: meta.needs,
          ...(parity === 'fail' || parity === 'error' ? { evidence: test.meta().evidence ?? [] } : {}),
          ...((verdict === 'fail' || verdict === 'error') && outcome?.cause ? { cause: outcome.cause } : {}),
        };
        records.push(record);
        recorded.push({ record, meta, outcome });
      }
    }
    const ids = new Set(records.map((r) => r.id));
    for (const { meta, file, notSelected } of unloaded) {
      if (ids.has(meta.id)) continue;
      ids.add(meta.id);
      const verdict: Verdict = notSelected === undefined ? 'not-run' : 'disabled';
      const reason = notSelected ?? `the run was interrupted (${interruption}) before this test started`;
      const record: TestRecord = { id: meta.id, title: meta.title, area: meta.area, endpoint: meta.endpoint, kind: meta.kind, clauses: meta.clauses, verdict, reason, parity: verdict, durationMs: 0, file, fixtures: meta.fixtures, needs: meta.needs };
      records.push(record);
      recorded.push({ record, meta, outcome: undefined });
    }
    if (records.length === 0) return;
    const config = this.config;

    const results = buildResults(records, run, shownSettings(config), config.level, interruption);
    results.files = testModules
      .filter((m) => m.project.name.startsWith('conformance'))
      .map((m) => ({ file: m.relativeModuleId, durationMs: Math.round(m.diagnostic().duration) }))
      .sort((a, b) => b.durationMs - a.durationMs);
    const shard = this.control.shard;
    if (shard) results.shard = { ...shard, run: shard.run ?? run?.runId ?? 'unknown' };
    if (run) {
      // Without the coordinator's tally the verdicts still stand; only its summaries are missing.
      await runTally(run.runId, recorded, interruption !== undefined ? INTERRUPTED_ANSWER_MS : undefined).then(
        (tally) => Object.assign(results, tally),
        (error: unknown) => console.error(`conformance: ${(error as Error).message}; the reports lack the fixtures that could not be built and the request counts`),
      );
    }
    if (config.expectedFailuresPath) results.baseline = applyBaseline(results, config.expectedFailuresPath, loadBaseline(config.expectedFailuresPath));
    const coverage = clauseCoverage(this.catalog.clauses, records);
    writeReports(config.reportDir, results, coverage, this.control.resultsOnly);
    this.coverage = coverage;
    if (config.transcriptPath) writeTranscript(config.transcriptPath, run, config, recorded, this.catalog.collectionIdKinds);

    // A run cut short or loading a shard saw only part of the catalog: its gaps would not be true.
    const gaps = interruption !== undefined || this.control.partial ? [] : coverage.gaps;
    const problems = [...duplicateIds(records).map((id) => `test id ${id} is used by more than one test`), ...gaps.map((id) => `clause ${id} has no test`)];
    // What the command prints goes through the same redaction as what it writes.
    this.results = redactValue(results);
    const s = results.summary;
    const p = results.paritySummary;
    const alike = coverage.bothKinds > 0 ? `; ${coverage.passingOnEach} of ${coverage.bothKinds} clauses of groups and projects alike pass on each kind` : '';
    console.log(
      `\nconformance ${headline(results)}${interruption !== undefined ? ` (${interruption})` : ''}${results.status === 'complete' ? ` at the ${results.level} level` : ''}; spec level: ${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.unsupported} unsupported, ${s.disabled} disabled${s['not-run'] ? `, ${s['not-run']} not run` : ''}; ` +
        `GitLab parity: ${p.pass} pass, ${p.fail} fail, ${p.error} error; the exit code follows the ${results.level} level (${chosenSummary(results).fail + chosenSummary(results).error} failing)\n` +
        `clauses covered by the selected tests ${coverage.covered}/${coverage.testable}${alike}; reports in ${config.reportDir}/`,
    );
    for (const f of results.fixtures ?? []) {
      // Its dependents' verdicts as the table counts them (unsupported where the target lacks a set-up endpoint, else error).
      const verdicts = [...new Set(records.filter((r) => f.dependents.includes(r.id)).map((r) => r.verdict))].join(' or ');
      console.log(`fixture "${f.fixture}" (${f.scope}) could not be built, so ${f.dependents.length} test(s) are ${verdicts || 'unsupported'}: ${f.lacking ? `the target lacks ${f.lacking.endpoint}` : f.message.split('\n')[0]}`);
    }
    if (results.lackingSetup) console.log(`set-up endpoints beyond the target contract that the target lacks: ${results.lackingSetup.map((l) => `${l.endpoint} (${l.tests} tests unsupported)`).join('; ')}`);
    if (problems.length > 0) {
      console.error(`conformance catalog problems:\n  ${problems.join('\n  ')}`);
      process.exitCode = 1;
    }
  }
}

/**
 * What the run's coordinator knows of the run (fixtures that could not be built, requests sent),
 * with what the outcomes of its tests say: the tests each failed fixture kept from running, the
 * set-up endpoints lacking.
 */
async function runTally(runId: string, recorded: { record: TestRecord; outcome: Outcome | undefined }[], answerMs?: number): Promise<Pick<Results, 'fixtures' | 'lackingSetup' | 'requests'>> {
  const { coordinator, close } = reach(runId, answerMs);
  const tally = await coordinator.tallies.tally().finally(close);
  const notRun = ({ record }: { record: TestRecord }) => record.verdict === 'unsupported' || record.verdict === 'error';
  const fixtures: FixtureReport[] = tally.failures.map((f) => ({
    ...f,
    message: redact(f.message),
    dependents: recorded.filter((r) => notRun(r) && r.outcome?.fixtureFailure?.fixture === f.fixture).map((r) => r.record.id),
  }));
  const lacking = new Map<string, { need: string; endpoint: string; tests: number }>();
  for (const { record, outcome } of recorded) {
    const lack = outcome?.gate?.lacking;
    if (record.verdict !== 'unsupported' || !lack) continue;
    const entry = lacking.get(lack.need) ?? { ...lack, tests: 0 };
    entry.tests++;
    lacking.set(lack.need, entry);
  }
  const files = [...tally.requests].map(([file, counts]) => ({ file, ...counts })).sort((a, b) => a.file.localeCompare(b.file));
  const total: Record<string, number> = {};
  for (const row of files) for (const [purpose, n] of Object.entries(row)) if (typeof n === 'number') total[purpose] = (total[purpose] ?? 0) + n;
  return {
    ...(fixtures.length > 0 ? { fixtures } : {}),
    ...(lacking.size > 0 ? { lackingSetup: [...lacking.values()] } : {}),
    requests: { files, total, highestInFlight: tally.highestInFlight },
  };
}

function duplicateIds(records: TestRecord[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const r of records) (seen.has(r.id) ? dups : seen).add(r.id);
  return [...dups];
}
