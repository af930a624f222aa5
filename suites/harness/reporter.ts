// The conformance reporter: turns vitest's results into verdicts (pass, fail, unsupported,
// disabled, error), applies the baseline, and writes results.json, junit.xml, summary.md,
// report.html and clauses.json into the report directory. It also checks the catalog: every
// testable clause of the areas that ran has a test, every test id is unique. Everything it writes
// goes through `redact`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { TestMeta } from './conformance.js';
import { loadConfig, type Config } from './config.js';
import { redact, redactValue, REDACTED, registerRunSecrets } from './redact.js';
import type { RunContext } from './run-context.js';
import { applyBaseline, loadBaseline } from './reports/baseline.js';
import { clauseCoverage } from './reports/clauses.js';
import { reportHtml } from './reports/html.js';
import { junitXml } from './reports/junit.js';
import { summaryMarkdown } from './reports/markdown.js';
import { buildResults, type Results, type TestRecord, type Verdict } from './reports/results.js';

export function verdictOf(test: TestCase): { verdict: Verdict; reason: string | null } {
  const result = test.result();
  if (result.state === 'passed') return { verdict: 'pass', reason: null };
  const note = result.state === 'skipped' ? result.note : undefined;
  if (note === undefined && result.state !== 'failed') {
    // Skipped without a gate's note: a hook of its file failed, so the test never ran.
    const hookError = test.module.errors()[0] ?? suiteErrors(test)[0];
    if (hookError) return { verdict: 'error', reason: redact(`the test could not run: ${hookError.message}`) };
    if (test.options.mode === 'skip') return { verdict: 'disabled', reason: 'not selected (--grep or shard)' };
  }
  if (result.state === 'skipped' || result.state === 'pending') {
    const verdict: Verdict = note?.startsWith('unsupported:') ? 'unsupported' : 'disabled';
    return { verdict, reason: note?.replace(/^(unsupported|disabled):\s*/, '') || 'skipped' };
  }
  const error = result.errors?.[0];
  const message = error?.message ?? 'failed';
  const harness = error?.name === 'HarnessError' || /timed out in \d+ms/i.test(message);
  return { verdict: harness ? 'error' : 'fail', reason: redact(message) };
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

export function writeReports(reportDir: string, results: Results, coverage: ReturnType<typeof clauseCoverage>): void {
  mkdirSync(reportDir, { recursive: true });
  const safe = redactValue(results);
  writeFileSync(join(reportDir, 'results.json'), `${JSON.stringify(safe, null, 2)}\n`);
  writeFileSync(join(reportDir, 'junit.xml'), redact(junitXml(safe)));
  writeFileSync(join(reportDir, 'summary.md'), redact(summaryMarkdown(safe)));
  writeFileSync(join(reportDir, 'report.html'), redact(reportHtml(safe, coverage)));
  writeFileSync(join(reportDir, 'clauses.json'), `${JSON.stringify({ clauses: coverage.clauses }, null, 2)}\n`);
}

export class ConformanceReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const project = testModules.find((m) => m.project.name.startsWith('conformance'))?.project;
    const run = project?.getProvidedContext().conformance as RunContext | undefined;
    // This process did not make the run: its tokens are registered here before any text is written.
    if (run) registerRunSecrets(run);
    const records: TestRecord[] = [];
    for (const module of testModules) {
      if (!module.project.name.startsWith('conformance')) continue;
      for (const test of module.children.allTests()) {
        const meta = test.meta().conformance as TestMeta | undefined;
        if (!meta) continue;
        const { verdict, reason } = verdictOf(test);
        records.push({
          id: meta.id,
          title: meta.title,
          area: meta.area,
          endpoint: meta.endpoint,
          clauses: meta.clauses,
          verdict,
          reason,
          durationMs: Math.round(test.diagnostic()?.duration ?? 0),
          file: module.relativeModuleId,
          ...(verdict === 'fail' || verdict === 'error' ? { evidence: test.meta().evidence ?? [] } : {}),
        });
      }
    }
    if (records.length === 0) return;
    const config = loadConfig();

    const results = buildResults(records, run, shownSettings(config));
    if (config.expectedFailuresPath) results.baseline = applyBaseline(results, config.expectedFailuresPath, loadBaseline(config.expectedFailuresPath));
    const coverage = clauseCoverage(records);
    writeReports(config.reportDir, results, coverage);

    const problems = [...duplicateIds(records).map((id) => `test id ${id} is used by more than one test`), ...coverage.gaps.map((id) => `clause ${id} has no test`)];
    const s = results.summary;
    console.log(
      `\nconformance: ${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.unsupported} unsupported, ${s.disabled} disabled; ` +
        `clauses covered ${coverage.covered}/${coverage.testable}; reports in ${config.reportDir}/`,
    );
    if (problems.length > 0) {
      console.error(`conformance catalog problems:\n  ${problems.join('\n  ')}`);
      process.exitCode = 1;
    }
  }
}

function duplicateIds(records: TestRecord[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const r of records) (seen.has(r.id) ? dups : seen).add(r.id);
  return [...dups];
}
