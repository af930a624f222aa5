// summary.md: the verdict matrix as Markdown, fit to paste into a merge request.
import { byAreaAndEndpoint, VERDICTS, type Results, type TestRecord } from './results.js';

const count = (tests: TestRecord[]) => VERDICTS.map((v) => tests.filter((t) => t.verdict === v).length);
const cell = (n: number) => (n === 0 ? '·' : String(n));

export function summaryMarkdown(results: Results): string {
  const s = results.summary;
  const lines = [
    `# GitLab API conformance: ${s.fail + s.error === 0 ? 'passed' : 'FAILED'}`,
    '',
    `Target \`${results.target.url}\` (GitLab ${results.target.version}), ${results.generatedAt}.`,
    `**${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.unsupported} unsupported, ${s.disabled} disabled** of ${s.total} tests.`,
    '',
    `| area / endpoint | ${VERDICTS.join(' | ')} |`,
    `|---|${VERDICTS.map(() => '---:').join('|')}|`,
  ];
  for (const [area, endpoints] of byAreaAndEndpoint(results)) {
    lines.push(`| **${area}** | ${count([...endpoints.values()].flat()).map((n) => `**${cell(n)}**`).join(' | ')} |`);
    for (const [endpoint, tests] of endpoints) lines.push(`| \`${endpoint}\` | ${count(tests).map(cell).join(' | ')} |`);
  }
  const failing = results.tests.filter((t) => t.verdict === 'fail' || t.verdict === 'error');
  if (failing.length > 0) {
    lines.push('', '## Failures', '');
    for (const t of failing) {
      const expected = t.expected ? ` _(expected: ${t.expected.reason})_` : '';
      lines.push(`- **${t.verdict}** \`${t.id}\` — ${t.title} (\`${t.endpoint}\`)${expected}: ${(t.reason ?? '').split('\n')[0]}`);
    }
  }
  if (results.baseline) {
    const b = results.baseline;
    lines.push('', `Baseline \`${b.file}\`: ${b.unexpectedFailures.length} unexpected failure(s), ${b.stale.length} stale entr${b.stale.length === 1 ? 'y' : 'ies'}.`);
  }
  return `${lines.join('\n')}\n`;
}
