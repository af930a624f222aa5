// What the command line prints last, after the run: the verdict table at the run's level, the root
// causes, the failing tests (the first 20, then a count) and where the reports are.
import { resolve } from 'node:path';
import { causeLine, rootCauses } from './causes.js';
import { chosenSummary, headline, shardText, shownVerdicts, type Results, type TestRecord } from './results.js';

export const FAILURES_SHOWN = 20;

export function printTable(results: Results, out: (line: string) => void = console.log): void {
  const areas = [...new Set(results.tests.map((t) => t.area))].sort();
  const verdicts = shownVerdicts(results);
  // The table follows the level the exit code follows.
  const verdict = (t: TestRecord) => (results.level === 'parity' ? t.parity : t.verdict);
  const rows = areas.map((area) => [area, ...verdicts.map((v) => String(results.tests.filter((t) => t.area === area && verdict(t) === v).length))]);
  rows.push(['total', ...verdicts.map((v) => String(chosenSummary(results)[v]))]);
  const header = ['area', ...verdicts];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  out(`\nTarget ${results.target.url} (GitLab ${results.target.version}); verdicts at the ${results.level} level${shardText(results) ? `; ${shardText(results)}` : ''}`);
  out(line(header));
  for (const row of rows) out(line(row));
}

/** The headline, the root causes, the failing tests and the report's path. */
export function printEnding(results: Results, reportDir: string, out: (line: string) => void = console.log): void {
  const level = results.level;
  const verdict = (t: TestRecord) => (level === 'parity' ? t.parity : t.verdict);
  const failing = results.tests.filter((t) => verdict(t) === 'fail' || verdict(t) === 'error');
  const title = headline(results);
  out('');
  if (results.status === 'interrupted') out(`INTERRUPTED (${results.interruption}): ${results.summary['not-run']} selected test(s) did not run; the verdicts above are of the tests that ended`);
  if (failing.length > 0) {
    const causes = rootCauses({ tests: failing.map((t) => ({ ...t, verdict: verdict(t) })) });
    if (causes.length > 0) {
      out(`Root causes (${causes.length}):`);
      for (const g of causes.slice(0, FAILURES_SHOWN)) out(`  ${causeLine(g)}`);
      if (causes.length > FAILURES_SHOWN) out(`  … and ${causes.length - FAILURES_SHOWN} more`);
    }
    // Failures first, then the tests that could not be checked.
    const ordered = [...failing].sort((a, b) => Number(verdict(a) === 'error') - Number(verdict(b) === 'error'));
    out(`${failing.length === 1 ? 'The test' : `Tests`} that did not pass at the ${level} level${failing.length > FAILURES_SHOWN ? ` (the first ${FAILURES_SHOWN} of ${failing.length})` : ''}:`);
    for (const t of ordered.slice(0, FAILURES_SHOWN)) out(`  ${verdict(t).padEnd(5)} ${t.id}: ${firstLine(t, level)}`);
    if (failing.length > FAILURES_SHOWN) out(`  … and ${failing.length - FAILURES_SHOWN} more (every one is in the report)`);
  }
  out(`${title === 'PASSED' || title === 'FAILED' ? `${title} at the ${level} level` : title}. Report: ${resolve(reportDir, 'report.html')} (also summary.md, junit.xml, results.json)`);
}

function firstLine(t: TestRecord, level: Results['level']): string {
  if (level === 'parity' && t.verdict === 'pass') return `GitLab parity: ${(t.parityNotes?.[0]?.text ?? '').split('\n')[0]}`;
  const line = (t.reason ?? '').split('\n')[0];
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
