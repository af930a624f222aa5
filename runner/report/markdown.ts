// summary.md: the verdict matrix as Markdown, fit to paste into a merge request. What a target sent
// (its version, its answers in failure reasons) goes in code spans, control characters escaped: no
// link, image or markup of its own in the page it is pasted into.
import { escapeControls } from '../core/output.js';
import { causeLine, rootCauses } from './causes.js';
import { byAreaAndEndpoint, headline, shardText, shownVerdicts, type Results, type TestRecord, type Verdict } from './results.js';

const count = (tests: TestRecord[], verdicts: Verdict[]) => verdicts.map((v) => tests.filter((t) => t.verdict === v).length);
const cell = (n: number) => (n === 0 ? '·' : String(n));

/** A text as one code span: control characters escaped, fenced by more backticks than it holds in a row. */
export function codeSpan(text: string): string {
  if (text === '') return '';
  const shown = escapeControls(text).replace(/\n/g, ' ');
  const fence = '`'.repeat(Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

export function summaryMarkdown(results: Results): string {
  const s = results.summary;
  const p = results.paritySummary;
  const verdicts = shownVerdicts(results);
  const areas = [...new Set(results.tests.map((t) => t.area))];
  const passing = (tests: TestRecord[], key: 'verdict' | 'parity') => `${tests.filter((t) => t[key] === 'pass').length}/${tests.filter((t) => t[key] !== 'unsupported' && t[key] !== 'disabled' && t[key] !== 'not-run').length}`;
  const title = headline(results);
  const lines = [
    `# GitLab API conformance: ${title === 'PASSED' || title === 'FAILED' ? `${title} at the ${results.level} level` : title}`,
    '',
    ...(results.status === 'interrupted' ? [`**The run was interrupted (${results.interruption}).** ${s['not-run']} selected test(s) did not run; the verdicts below are of the tests that ended.`, ''] : []),
    ...(results.status === 'empty' ? ['**Nothing was checked:** no selected test ran (none matched the selection, or each is unsupported on this target).', ''] : []),
    `Target ${codeSpan(results.target.url)} (GitLab ${codeSpan(results.target.version)}), ${results.generatedAt}${shardText(results) ? `; ${shardText(results)}` : ''}.`,
    ...(results.cleanUp?.pending.length ? [`Clean-up: ${results.cleanUp.pending.map(codeSpan).join('; ')} (pending deletion is GitLab's own delay, not something the run left).`] : []),
    `Spec level: **${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.unsupported} unsupported, ${s.disabled} disabled${s['not-run'] ? `, ${s['not-run']} not run` : ''}** of ${s.total} tests.`,
    `GitLab-parity level: **${p.pass} pass, ${p.fail} fail, ${p.error} error**.`,
    '',
    '| area | spec: passed / run | GitLab parity: passed / run |',
    '|---|---:|---:|',
    ...areas.map((area) => {
      const tests = results.tests.filter((t) => t.area === area);
      return `| ${area} | ${passing(tests, 'verdict')} | ${passing(tests, 'parity')} |`;
    }),
    '',
    'Verdicts at the spec level:',
    '',
    `| area / endpoint | ${verdicts.join(' | ')} |`,
    `|---|${verdicts.map(() => '---:').join('|')}|`,
  ];
  for (const [area, endpoints] of byAreaAndEndpoint(results)) {
    lines.push(`| **${area}** | ${count([...endpoints.values()].flat(), verdicts).map((n) => `**${cell(n)}**`).join(' | ')} |`);
    for (const [endpoint, tests] of endpoints) lines.push(`| \`${endpoint}\` | ${count(tests, verdicts).map(cell).join(' | ')} |`);
  }
  if (results.lackingSetup) {
    lines.push('', '## Set-up endpoints the target lacks', '', 'Beyond the target contract (the spec never names them); only the tests that need one are unsupported.', '');
    for (const l of results.lackingSetup) lines.push(`- \`${l.endpoint}\` (set-up "${l.need}"): ${l.tests} test(s) unsupported`);
  }
  if (results.fixtures) {
    lines.push('', '## Fixtures that could not be built', '');
    for (const f of results.fixtures) lines.push(`- \`${f.fixture}\` (${f.scope}), ${f.dependents.length} dependent test(s): ${codeSpan(f.message)}`);
  }
  const failing = results.tests.filter((t) => t.verdict === 'fail' || t.verdict === 'error');
  const causes = rootCauses(results);
  if (causes.length > 0) {
    lines.push('', '## Root causes', '', 'Tests that did not pass, grouped by the answer that stopped them (the endpoint and its status).', '');
    for (const g of causes) lines.push(`- ${codeSpan(causeLine(g))}`);
  }
  if (failing.length > 0) {
    lines.push('', '## Failures', '');
    for (const t of failing) {
      const expected = t.expected ? ` _(expected: ${t.expected.reason})_` : '';
      lines.push(`- **${t.verdict}** \`${t.id}\` — ${t.title} (\`${t.endpoint}\`)${expected}: ${codeSpan((t.reason ?? '').split('\n')[0])}`);
    }
  }
  const parityOnly = results.tests.filter((t) => t.verdict === 'pass' && t.parity === 'fail');
  if (parityOnly.length > 0) {
    lines.push('', '## Where GitLab does more (parity level only)', '');
    for (const t of parityOnly) {
      for (const note of t.parityNotes ?? []) lines.push(`- \`${t.id}\`: ${codeSpan(note.text.split('\n')[0])} (GitLab: ${note.gitlab})`);
    }
  }
  if (results.baseline) {
    const b = results.baseline;
    lines.push('', `Baseline \`${b.file}\`: ${b.unexpectedFailures.length} unexpected failure(s), ${b.stale.length} stale entr${b.stale.length === 1 ? 'y' : 'ies'}.`);
  }
  return `${lines.join('\n')}\n`;
}
