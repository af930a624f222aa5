// JUnit XML as GitLab CI (artifacts:reports:junit) and GitHub read it: one <testsuite> per area,
// `fail` as <failure>, `error` as <error>, `unsupported`/`disabled` as <skipped> with the reason.
import { escapeControls } from '../core/output.js';
import { shardText, type Results, type Verdict } from './results.js';

/** Text as XML: markup characters as entities, control characters written out (`\x1b`), as the terminal shows them. */
function xml(text: string): string {
  return escapeControls(text).replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!);
}

const firstLine = (text: string | null) => (text ?? '').split('\n')[0];

export function junitXml(results: Results): string {
  const areas = [...new Set(results.tests.map((t) => t.area))];
  const suites = areas.map((area) => {
    const tests = results.tests.filter((t) => t.area === area);
    const n = (v: Verdict[]) => tests.filter((t) => v.includes(t.verdict)).length;
    const time = tests.reduce((sum, t) => sum + t.durationMs, 0) / 1000;
    const cases = tests.map((t) => {
      const props = [
        `<property name="endpoint" value="${xml(t.endpoint)}"/>`,
        `<property name="clauses" value="${xml(t.clauses.join(' '))}"/>`,
        `<property name="verdict" value="${t.verdict}"/>`,
        ...(t.expected ? [`<property name="expected_failure" value="${xml(t.expected.reason)}"/>`] : []),
      ];
      let inner = `<properties>${props.join('')}</properties>`;
      if (t.verdict === 'fail') inner += `<failure message="${xml(firstLine(t.reason))}">${xml(t.reason ?? '')}</failure>`;
      if (t.verdict === 'error') inner += `<error message="${xml(firstLine(t.reason))}">${xml(t.reason ?? '')}</error>`;
      if (t.verdict === 'unsupported' || t.verdict === 'disabled' || t.verdict === 'not-run') inner += `<skipped message="${xml(`${t.verdict}: ${t.reason ?? ''}`)}"/>`;
      return `    <testcase classname="${xml(`${area}.${t.endpoint}`)}" name="${xml(`${t.id}: ${t.title}`)}" file="${xml(t.file)}" time="${(t.durationMs / 1000).toFixed(3)}">${inner}</testcase>`;
    });
    return `  <testsuite name="${xml(area)}" tests="${tests.length}" failures="${n(['fail'])}" errors="${n(['error'])}" skipped="${n(['unsupported', 'disabled', 'not-run'])}" time="${time.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  // A run that was cut short or checked nothing is an error of its own: a CI reading only the
  // counts must not see a pass.
  const runError =
    results.status === 'interrupted' ? `the run was interrupted (${results.interruption}); ${results.summary['not-run']} selected test(s) did not run`
    : results.status === 'empty' ? 'nothing was checked: no selected test ran'
    : undefined;
  if (runError) suites.push(`  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0" time="0.000">\n    <testcase classname="run" name="the run as a whole" time="0.000"><error message="${xml(runError)}">${xml(runError)}</error></testcase>\n  </testsuite>`);
  const s = results.summary;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(`gitlab-api-conformance${shardText(results) ? ` (${shardText(results)})` : ''}`)}" tests="${s.total + (runError ? 1 : 0)}" failures="${s.fail}" errors="${s.error + (runError ? 1 : 0)}" skipped="${s.skipped}">\n${suites.join('\n')}\n</testsuites>\n`;
}
