// The diff's text reports: the terminal summary (counts per area and kind, the tests with the most
// differences), diff.md (the same and every difference, fit for a merge request) and diff.json (the
// shape: docs/differential.md). Every value is masked as it is printed, every whole text for token shapes.
import { DIFFERENCE_KINDS, type DifferenceKind } from './compare.js';
import type { Coverage, Difference, DiffResult, SourceInfo, TestDiff, Verdicts } from './diff.js';
import { maskTokens, maskTokenShapes } from './secrets.js';

/** Column titles of the kinds, short enough for a terminal. */
export const KIND_TITLES: Record<DifferenceKind, string> = {
  status: 'status',
  header: 'header',
  'body-field-added': 'added',
  'body-field-removed': 'removed',
  'value-changed': 'changed',
  'type-changed': 'type',
  'order-changed': 'order',
  'request-changed': 'request',
  'exchange-missing': 'exchange',
  'test-missing': 'test',
};

/** A value as one line: JSON, cut at `max` characters; `(absent)` for a side without one. */
export function showValue(value: unknown, max = 120): string {
  if (value === undefined) return '(absent)';
  const text = (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value)).replace(/\n/g, '\\n');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Where a difference is: `status`, `header x-total`, `body /0/email`, `request /query/page`, `exchange`, `test`. */
export function placeOf(d: Difference): string {
  if (d.locus.startsWith('header:')) return `header ${d.header}`;
  if (d.locus.startsWith('body:')) return `body ${d.pointer || '(whole body)'}`;
  if (d.locus.startsWith('request:')) return `request ${d.pointer || '(whole request)'}`;
  return d.locus;
}

export const coverageText = (c: Coverage) => (c === 'spec' ? 'covered by the spec verdict' : c === 'parity' ? 'covered by the parity verdict' : 'not covered by a verdict');

export const verdictsText = (v: Verdicts | null) => (v ? `${v.spec}/${v.parity}` : 'absent');

const sourceText = (s: SourceInfo) => `${s.file}: GitLab ${s.target.version}${s.target.referenceServer ? ' (reference server)' : ''} at ${s.target.origin}, recorded ${s.recordedAt}, ${s.tests} tests, ${s.exchanges} exchanges`;

const firstHand = (t: DiffResult['tests'][number]) => t.exchanges.flatMap((e) => e.differences).filter((d) => !d.knockOn).length;

/** Tests by number of first-hand differences, most first (ties by all differences, then id). */
const topTests = (result: DiffResult, n: number) =>
  result.tests
    .filter((t) => t.differences > 0)
    .sort((a, b) => firstHand(b) - firstHand(a) || b.differences - a.differences || a.id.localeCompare(b.id))
    .slice(0, n);

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), ...rows.map(line)];
}

function countRows(result: DiffResult): string[][] {
  const areas = Object.keys(result.summary.byArea).sort();
  const row = (name: string, counts: Record<DifferenceKind, number>) => [name, ...DIFFERENCE_KINDS.map((k) => String(counts[k])), String(DIFFERENCE_KINDS.reduce((n, k) => n + counts[k], 0))];
  return [...areas.map((a) => row(a, result.summary.byArea[a])), row('total', result.summary.byKind)];
}

/** The summary printed on the terminal. */
export function terminalSummary(result: DiffResult, reports: string[]): string {
  const s = result.summary;
  const lines = [
    `Differential: candidate ${sourceText(result.candidate)}`,
    `  against baseline ${sourceText(result.baseline)}`,
    ...result.noiseSources.map((n) => `  noise from ${sourceText(n)}`),
    `${s.tests} tests, ${s.comparedExchanges} exchanges compared: ${s.differences} difference(s) in ${s.differingTests} test(s)${s.knockOn ? `, ${s.knockOn} of them knock-on (after a write that went otherwise on the same group or project)` : ''}, ${s.uncovered} not covered by a verdict; ${s.noise} noise, apart${result.noiseSources.length ? '' : ' (no --noise transcript given)'}`,
    ...result.warnings.map((w) => `warning: ${w}`),
  ];
  if (s.differences > 0) {
    lines.push('', ...table(['area', ...DIFFERENCE_KINDS.map((k) => KIND_TITLES[k]), 'total'], countRows(result)));
    lines.push('', 'Tests with the most first-hand differences (knock-on ones apart):');
    for (const t of topTests(result, 10).filter((t) => firstHand(t) > 0)) {
      const knockOn = t.differences - firstHand(t);
      lines.push(`  ${String(firstHand(t)).padStart(4)}  ${t.id} (${coverageText(t.covered)}${knockOn ? `; ${knockOn} knock-on` : ''})`);
    }
    const onlyKnockOn = result.tests.filter((t) => t.differences > 0 && firstHand(t) === 0).length;
    if (onlyKnockOn > 0) lines.push(`  and ${onlyKnockOn} test(s) whose differences are all knock-on`);
  }
  if (reports.length) lines.push('', `Reports: ${reports.join(', ')}`);
  return maskTokenShapes(lines.join('\n'));
}

// ---- Markdown -----------------------------------------------------------------------------

/** An inline code span that holds any text (a fence longer than any run of backticks inside). */
function code(value: string): string {
  const text = maskTokens(value);
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return longest || text.startsWith(' ') ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

const MARKDOWN_PER_TEST = 40;

function markdownDifference(d: Difference): string {
  const where = d.kind === 'test-missing' ? '' : ` #${d.index ?? '–'}${d.candidateIndex !== d.index ? `/${d.candidateIndex ?? '–'}` : ''} ${code(`${d.method} ${d.path}`)}`;
  const knockOn = d.knockOn ? ` _(knock-on: after ${code(d.knockOn.test)} #${d.knockOn.index ?? '–'} on ${code(d.knockOn.object)})_` : '';
  return `  -${where} **${d.kind}** ${code(placeOf(d))}: ${code(showValue(d.baseline))} → ${code(showValue(d.candidate))}${knockOn}`;
}

function markdownTest(t: TestDiff, list: (t: TestDiff) => Difference[]): string[] {
  const all = list(t);
  const lines = [
    `- ${code(t.id)} — clauses ${t.clauses.map(code).join(', ') || 'none'}; verdicts (spec/parity) baseline ${verdictsText(t.verdicts.baseline)}, candidate ${verdictsText(t.verdicts.candidate)}; ${coverageText(t.covered)}`,
    ...all.slice(0, MARKDOWN_PER_TEST).map(markdownDifference),
  ];
  if (all.length > MARKDOWN_PER_TEST) lines.push(`  - … and ${all.length - MARKDOWN_PER_TEST} more (diff.json, diff.html)`);
  return lines;
}

/** Tests grouped by area, then by the endpoint form they check. */
export function grouped(tests: TestDiff[]): Map<string, Map<string, TestDiff[]>> {
  const out = new Map<string, Map<string, TestDiff[]>>();
  for (const t of [...tests].sort((a, b) => a.area.localeCompare(b.area) || a.endpoint.localeCompare(b.endpoint) || a.id.localeCompare(b.id))) {
    const area = out.get(t.area) ?? new Map<string, TestDiff[]>();
    out.set(t.area, area);
    area.set(t.endpoint, [...(area.get(t.endpoint) ?? []), t]);
  }
  return out;
}

const differencesOf = (t: TestDiff) => t.exchanges.flatMap((e) => e.differences);
const noiseOf = (t: TestDiff) => t.exchanges.flatMap((e) => e.noise);

export function diffMarkdown(result: DiffResult): string {
  const s = result.summary;
  const lines = [
    `# Differential report: ${s.differences === 0 ? 'no difference' : `${s.differences} difference(s)`} beyond noise`,
    '',
    `- Baseline: ${sourceText(result.baseline)}`,
    `- Candidate: ${sourceText(result.candidate)}`,
    ...result.noiseSources.map((n) => `- Noise: ${sourceText(n)}`),
    `- ${s.tests} tests, ${s.comparedExchanges} exchanges compared; ${s.differingTests} test(s) differ; ${s.uncovered} difference(s) not covered by a verdict; ${s.noise} noise (not counted)`,
    ...result.warnings.map((w) => `- Warning: ${w}`),
  ];
  if (s.differences > 0) {
    lines.push('', `| area | ${DIFFERENCE_KINDS.map((k) => KIND_TITLES[k]).join(' | ')} | total |`, `|---|${DIFFERENCE_KINDS.map(() => '---:').join('|')}|---:|`);
    for (const row of countRows(result)) lines.push(`| ${row.join(' | ')} |`);
    lines.push('', '## Differences');
    for (const [area, endpoints] of grouped(result.tests.filter((t) => t.differences > 0))) {
      lines.push('', `### ${area}`);
      for (const [endpoint, tests] of endpoints) {
        lines.push('', `#### ${code(endpoint)}`, '');
        for (const t of tests) lines.push(...markdownTest(t, differencesOf));
      }
    }
  }
  const noisy = result.tests.filter((t) => t.noise > 0);
  if (noisy.length) {
    lines.push('', `## Noise (${s.noise}, not counted)`, '', 'What also differs between the baseline and a second recording of its target.', '');
    for (const t of noisy) lines.push(...markdownTest(t, noiseOf));
  }
  return maskTokenShapes(`${lines.join('\n')}\n`);
}

// ---- JSON -----------------------------------------------------------------------------------

/** diff.json: the result without the normalized exchanges (diff.html shows those). */
export function diffJson(result: DiffResult): string {
  const tests = result.tests.map((t) => ({
    id: t.id,
    area: t.area,
    endpoint: t.endpoint,
    kind: t.kind,
    clauses: t.clauses,
    verdicts: t.verdicts,
    covered: t.covered,
    differences: t.differences,
    noise: t.noise,
  }));
  return maskTokens(`${JSON.stringify({ ...result, tests }, null, 2)}\n`);
}
