// The conformance reporter: turns vitest's results into verdicts (pass, fail, unsupported,
// disabled, error) and writes results.json, junit.xml and clauses.json into the report directory.
// It also checks the catalog: every testable clause of the areas that ran has a test, every test
// id is unique. Everything it writes goes through `redact`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { CATALOG } from '../catalog.js';
import type { Evidence, TestMeta } from './conformance.js';
import { redact, redactValue } from './redact.js';
import type { RunContext } from './run-context.js';
import { loadConfig } from './config.js';

export type Verdict = 'pass' | 'fail' | 'unsupported' | 'disabled' | 'error';

export interface TestRecord {
  id: string;
  title: string;
  area: string;
  endpoint: string;
  clauses: string[];
  verdict: Verdict;
  reason: string | null;
  durationMs: number;
  file: string;
  evidence?: Evidence[];
}

export interface Results {
  suite: { name: string; version: string };
  generatedAt: string;
  target: { url: string; version: string; referenceServer: boolean };
  capabilities: string[];
  summary: { total: number; passed: number; failed: number; skipped: number } & Record<Verdict, number>;
  tests: TestRecord[];
}

const SUITE_VERSION = '0.1.0';

export function verdictOf(test: TestCase): { verdict: Verdict; reason: string | null } {
  const result = test.result();
  if (result.state === 'passed') return { verdict: 'pass', reason: null };
  const note = result.state === 'skipped' ? result.note : undefined;
  if (note === undefined && result.state !== 'failed') {
    // Skipped without a gate's note: a beforeAll hook of its file failed, so the test never ran.
    const hookError = test.module.errors()[0] ?? suiteErrors(test)[0];
    if (hookError) return { verdict: 'error', reason: redact(`the test could not run: ${hookError.message}`) };
  }
  if (result.state === 'skipped' || result.state === 'pending') {
    const note = result.state === 'skipped' ? result.note ?? '' : '';
    const verdict: Verdict = note.startsWith('unsupported:') ? 'unsupported' : 'disabled';
    return { verdict, reason: note.replace(/^(unsupported|disabled):\s*/, '') || 'skipped' };
  }
  const error = result.errors?.[0];
  const message = error?.message ?? 'failed';
  const harness = error?.name === 'HarnessError' || /timed out in \d+ms/i.test(message) || (error?.name !== 'ConformanceFailure' && /world of this file was not built/.test(message));
  return { verdict: harness ? 'error' : 'fail', reason: redact(message) };
}

function suiteErrors(test: TestCase): { message: string }[] {
  const errors: { message: string }[] = [];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) errors.push(...parent.errors());
  return errors;
}

export class ConformanceReporter implements Reporter {
  private vitest!: Vitest;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const records: TestRecord[] = [];
    for (const module of testModules) {
      if (module.project.name !== 'conformance') continue;
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
    const project = this.vitest.projects.find((p) => p.name === 'conformance');
    const run = project?.getProvidedContext().conformance as RunContext | undefined;
    const reportDir = loadConfig().reportDir;
    mkdirSync(reportDir, { recursive: true });

    const results = buildResults(records, run);
    writeFileSync(join(reportDir, 'results.json'), `${JSON.stringify(redactValue(results), null, 2)}\n`);
    writeFileSync(join(reportDir, 'junit.xml'), redact(junitXml(results)));
    const coverage = clauseCoverage(records);
    writeFileSync(join(reportDir, 'clauses.json'), `${JSON.stringify({ clauses: coverage.clauses }, null, 2)}\n`);

    const problems = [...duplicateIds(records).map((id) => `test id ${id} is used by more than one test`), ...coverage.gaps.map((id) => `clause ${id} has no test`)];
    const s = results.summary;
    console.log(
      `\nconformance: ${s.passed} pass, ${s.fail} fail, ${s.error} error, ${s.unsupported} unsupported, ${s.disabled} disabled; ` +
        `clauses covered ${coverage.covered}/${coverage.testable}; reports in ${reportDir}/`,
    );
    if (problems.length > 0) {
      console.error(`conformance catalog problems:\n  ${problems.join('\n  ')}`);
      process.exitCode = 1;
    }
  }
}

export function buildResults(records: TestRecord[], run: RunContext | undefined): Results {
  const count = (v: Verdict) => records.filter((r) => r.verdict === v).length;
  const summary = {
    total: records.length,
    passed: count('pass'),
    failed: count('fail') + count('error'),
    skipped: count('unsupported') + count('disabled'),
    pass: count('pass'),
    fail: count('fail'),
    error: count('error'),
    unsupported: count('unsupported'),
    disabled: count('disabled'),
  };
  return {
    suite: { name: 'gitlab-api-conformance', version: SUITE_VERSION },
    generatedAt: new Date().toISOString(),
    target: { url: run?.targetUrl ?? 'unknown', version: run?.version ?? 'unknown', referenceServer: run?.referenceServer ?? false },
    capabilities: run?.capabilities ?? [],
    summary,
    tests: records.sort((a, b) => a.id.localeCompare(b.id)),
  };
}

function duplicateIds(records: TestRecord[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const r of records) (seen.has(r.id) ? dups : seen).add(r.id);
  return [...dups];
}

/** Each catalog clause with the tests that name it; gaps are testable clauses of areas that ran. */
export function clauseCoverage(records: TestRecord[]) {
  const byClause = new Map<string, string[]>();
  for (const r of records) for (const c of r.clauses) byClause.set(c, [...(byClause.get(c) ?? []), r.id]);
  const prefixes = new Set(records.map((r) => r.clauses[0]?.split('.')[0]));
  const clauses = CATALOG.map((c) => ({
    id: c.id,
    level: c.level,
    text: c.text,
    tests: byClause.get(c.id) ?? [],
    ...(c.untestable ? { untestable: c.untestable } : {}),
  }));
  const relevant = clauses.filter((c) => prefixes.has(c.id.split('.')[0]) && !c.untestable);
  const gaps = relevant.filter((c) => c.tests.length === 0).map((c) => c.id);
  return { clauses, gaps, testable: relevant.length, covered: relevant.length - gaps.length };
}

function xml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '');
}

/** JUnit XML as GitLab CI (artifacts:reports:junit) and GitHub read it: one testsuite per area. */
export function junitXml(results: Results): string {
  const areas = [...new Set(results.tests.map((t) => t.area))];
  const suites = areas.map((area) => {
    const tests = results.tests.filter((t) => t.area === area);
    const n = (v: Verdict[]) => tests.filter((t) => v.includes(t.verdict)).length;
    const time = tests.reduce((sum, t) => sum + t.durationMs, 0) / 1000;
    const cases = tests.map((t) => {
      const props = `<properties><property name="endpoint" value="${xml(t.endpoint)}"/><property name="clauses" value="${xml(t.clauses.join(' '))}"/><property name="verdict" value="${t.verdict}"/></properties>`;
      let inner = props;
      if (t.verdict === 'fail') inner += `<failure message="${xml(firstLine(t.reason))}">${xml(t.reason ?? '')}</failure>`;
      if (t.verdict === 'error') inner += `<error message="${xml(firstLine(t.reason))}">${xml(t.reason ?? '')}</error>`;
      if (t.verdict === 'unsupported' || t.verdict === 'disabled') inner += `<skipped message="${xml(`${t.verdict}: ${t.reason ?? ''}`)}"/>`;
      return `    <testcase classname="${xml(`${area}.${t.endpoint}`)}" name="${xml(`${t.id}: ${t.title}`)}" file="${xml(t.file)}" time="${(t.durationMs / 1000).toFixed(3)}">${inner}</testcase>`;
    });
    return `  <testsuite name="${xml(area)}" tests="${tests.length}" failures="${n(['fail'])}" errors="${n(['error'])}" skipped="${n(['unsupported', 'disabled'])}" time="${time.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const s = results.summary;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="gitlab-api-conformance" tests="${s.total}" failures="${s.fail}" errors="${s.error}" skipped="${s.skipped}">\n${suites.join('\n')}\n</testsuites>\n`;
}

function firstLine(text: string | null): string {
  return (text ?? '').split('\n')[0];
}
