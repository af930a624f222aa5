// report.html: one self-contained page (no script, no network). At its top the headline (PASSED,
// FAILED, INTERRUPTED, NOTHING CHECKED) at the run's level with the counts of both levels, and the
// root causes; then the matrix per area and endpoint, each cell a link to its tests; then every
// failure and error, folded after the first ones so that a hundred stay readable, with the requests
// it made (method, URL, actor, status, the headers that matter, a body excerpt) and a cURL line
// that reproduces each; then the tests that did not run, each with its reason.
import type { Evidence } from '../run/conformance.js';
import { causeLine, rootCauses } from './causes.js';
import { byAreaAndEndpoint, headline, shardText, shownVerdicts, type Results, type TestRecord } from './results.js';

const esc = (text: string) => text.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[ch]!);

const HEADERS_THAT_MATTER = /^(content-type|location|retry-after|link|x-total|x-total-pages|x-page|x-per-page|x-next-page|x-prev-page|x-[a-z]+-(blob-id|commit-id|content-sha256|encoding|file-name|file-path|last-commit-id|ref|size|execute-filemode))$/;

/** Failures shown unfolded; the rest are folded to one line each. */
const OPEN_FAILURES = 10;

/** A cURL line that sends the request again; the token is the shell variable $TOKEN (never the value). */
export function curlLine(baseUrl: string, e: Evidence): string {
  const parts = [`curl -sS -X ${e.method}`, `'${baseUrl}${e.url}'`];
  if (e.actor !== 'anonymous') parts.push(`-H "PRIVATE-TOKEN: $TOKEN"`);
  if (e.requestBody !== undefined) parts.push(`-H 'Content-Type: application/json'`, `--data '${JSON.stringify(e.requestBody).replace(/'/g, "'\\''")}'`);
  if (e.method === 'HEAD') parts.push('--head');
  return parts.join(' ');
}

/**
 * The comment above a cURL line: whose token $TOKEN must hold, by username when the report knows it,
 * and where a run with --keep leaves its users' tokens (lifecycle.ts keepForRepro).
 */
export function actorNote(e: Evidence, runId?: string): string {
  if (e.actor === 'anonymous') return '# sent without a token';
  if (e.actor === 'admin') return '# as admin: export TOKEN=<the administrator\'s token the run was given>';
  const kept = `.conformance/kept-${runId ?? '<run id>'}.tokens.json`;
  return `# as ${e.actor}: export TOKEN=<the api token of ${e.user === undefined ? `the user acting as ${e.actor}` : `user ${e.user}`}: a run with --keep leaves it in ${kept}>`;
}

const anchor = (id: string) => `t-${id.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
const endpointAnchor = (endpoint: string, verdict: string) => `e-${endpoint.replace(/[^A-Za-z0-9]+/g, '-')}-${verdict}`;

function exchangeHtml(baseUrl: string, e: Evidence, runId: string | undefined): string {
  const headers = Object.entries(e.headers).filter(([name]) => HEADERS_THAT_MATTER.test(name));
  const body = e.body === undefined ? '(empty body)' : typeof e.body === 'string' ? e.body : JSON.stringify(e.body, null, 2);
  return `<div class="exchange">
  <div><b>${esc(e.method)}</b> <code>${esc(e.url)}</code> as <i>${esc(e.actor)}</i> → <b class="status s${String(e.status)[0]}">${e.status}</b> <span class="muted">${e.durationMs} ms${e.retries ? `, ${e.retries} retr${e.retries === 1 ? 'y' : 'ies'}` : ''}</span></div>
  ${e.requestBody === undefined ? '' : `<div class="muted">sent</div><pre>${esc(JSON.stringify(e.requestBody, null, 2).slice(0, 2000))}</pre>`}
  ${headers.length ? `<div class="muted">headers</div><pre>${esc(headers.map(([k, v]) => `${k}: ${v}`).join('\n'))}</pre>` : ''}
  <div class="muted">body</div><pre>${esc(body.slice(0, 2000))}${body.length > 2000 ? '…' : ''}</pre>
  <div class="muted">reproduce</div><pre class="curl">${esc(`${actorNote(e, runId)}\n${curlLine(baseUrl, e)}`)}</pre>
</div>`;
}

function failureHtml(results: Results, t: TestRecord, open: boolean): string {
  const verdict = t.verdict === 'pass' ? 'parity' : t.verdict;
  const reason = t.verdict === 'pass' ? (t.parityNotes ?? []).map((n) => `${n.text}\n  GitLab: ${n.gitlab}`).join('\n') : (t.reason ?? '');
  const expected = t.expected ? `<p class="expected">expected failure: ${esc(t.expected.reason)}${t.expected.link ? ` (<a href="${esc(t.expected.link)}">link</a>)` : ''}</p>` : '';
  return `<details class="failure ${verdict}" id="${anchor(t.id)}"${open ? ' open' : ''}>
  <summary><span class="badge ${verdict}">${verdict === 'parity' ? 'parity fail' : verdict}</span> <b>${esc(t.id)}</b> — ${esc(reason.split('\n')[0].slice(0, 200))}</summary>
  <p>${esc(t.title)}<br><code>${esc(t.endpoint)}</code> · clauses ${t.clauses.map((c) => `<code>${esc(c)}</code>`).join(' ')} · spec <b>${t.verdict}</b>, parity <b>${t.parity}</b> · <span class="muted">${esc(t.file)}</span></p>
  ${expected}
  <pre class="reason">${esc(reason)}</pre>
  ${(t.evidence ?? []).map((e) => exchangeHtml(results.target.url, e, results.runId)).join('\n')}
  <p class="muted">To run this test again and keep what it made for a look by hand: <code>gitlab-api-conformance --target … --grep '${esc(t.id)}' --keep</code> (then <code>gitlab-api-conformance sweep</code>).</p>
</details>`;
}

export function reportHtml(results: Results, coverage: { covered: number; testable: number }): string {
  const s = results.summary;
  const p = results.paritySummary;
  const verdicts = shownVerdicts(results);
  const rows: string[] = [];
  const lists: string[] = [];
  for (const [area, endpoints] of byAreaAndEndpoint(results)) {
    const all = [...endpoints.values()].flat();
    const cells = (tests: TestRecord[], endpoint?: string) =>
      [...verdicts.map((v) => {
        const n = tests.filter((t) => t.verdict === v).length;
        const text = n ? (endpoint ? `<a href="#${endpointAnchor(endpoint, v)}">${n}</a>` : String(n)) : '·';
        return `<td class="${n ? v : 'zero'}">${text}</td>`;
      }), (() => {
        const n = tests.filter((t) => t.parity === 'fail' && t.verdict === 'pass').length;
        return `<td class="${n ? 'fail' : 'zero'}">${n && endpoint ? `<a href="#${endpointAnchor(endpoint, 'parity')}">${n}</a>` : n || '·'}</td>`;
      })()].join('');
    rows.push(`<tr class="area"><th>${esc(area)}</th>${cells(all)}</tr>`);
    for (const [endpoint, tests] of endpoints) {
      rows.push(`<tr><td><code>${esc(endpoint)}</code></td>${cells(tests, endpoint)}</tr>`);
      const groups = [...verdicts.map((v) => [v, tests.filter((t) => t.verdict === v)] as const), ['parity', tests.filter((t) => t.verdict === 'pass' && t.parity === 'fail')] as const].filter(([, ts]) => ts.length > 0);
      lists.push(`<details><summary><code>${esc(endpoint)}</code> <span class="muted">${tests.length} tests</span></summary>${groups
        .map(([v, ts]) => `<div id="${endpointAnchor(endpoint, v)}"><b>${v === 'parity' ? 'pass, parity fail' : v}</b><ul>${ts.map((t) => `<li>${['fail', 'error'].includes(t.verdict) || v === 'parity' ? `<a href="#${anchor(t.id)}">${esc(t.id)}</a>` : `<code>${esc(t.id)}</code>`} — ${esc(t.title)}${t.reason && t.verdict !== 'pass' && !['fail', 'error'].includes(t.verdict) ? ` <span class="muted">(${esc(t.reason)})</span>` : ''}</li>`).join('')}</ul></div>`)
        .join('')}</details>`);
    }
  }
  const failing = results.tests.filter((t) => t.verdict === 'fail' || t.verdict === 'error');
  const parityOnly = results.tests.filter((t) => t.verdict === 'pass' && t.parity === 'fail');
  const notRun = results.tests.filter((t) => t.verdict === 'unsupported' || t.verdict === 'not-run');
  // Disabled tests are counted by reason: a selection can turn hundreds off.
  const disabled = new Map<string, number>();
  for (const t of results.tests.filter((t) => t.verdict === 'disabled')) disabled.set(t.reason ?? '', (disabled.get(t.reason ?? '') ?? 0) + 1);
  const title = headline(results);
  const causes = rootCauses(results);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GitLab API conformance — ${esc(title)} — ${esc(results.target.url)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#1f1f1f;padding:0 16px}
h1{font-size:22px;margin-bottom:4px} h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd}
.muted{color:#6b6b6b;font-size:12px} code{font-family:ui-monospace,monospace;font-size:12.5px}
table{border-collapse:collapse;width:100%} th,td{padding:4px 8px;border-bottom:1px solid #eee;text-align:right}
th:first-child,td:first-child{text-align:left} tr.area th{background:#f5f5f5;padding-top:8px}
td.pass{color:#1a7f37;font-weight:600} td.fail,td.error{background:#ffebe9;color:#cf222e;font-weight:700}
td.unsupported,td.disabled,td.not-run{color:#9a6700} td.zero{color:#bbb} td a{color:inherit}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;color:#fff}
.badge.fail{background:#cf222e}.badge.error{background:#8250df}.badge.parity{background:#9a6700}
.banner{padding:10px 14px;border-radius:6px;font-weight:600;margin:10px 0}
.banner.PASSED{background:#dafbe1;color:#1a7f37}.banner.FAILED{background:#ffebe9;color:#cf222e}
.banner.INTERRUPTED,.banner.NOTHING{background:#fff8c5;color:#7d4e00}
pre{background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:2px 0 8px}
pre.reason{background:#fff8f7;border-left:3px solid #cf222e} pre.curl{background:#1f2328;color:#e6edf3}
details.failure{border:1px solid #e5e5e5;border-radius:6px;padding:6px 10px;margin:6px 0}
details.failure summary{cursor:pointer}
.exchange{border:1px solid #e5e5e5;border-radius:6px;padding:8px;margin:8px 0}
.status.s2{color:#1a7f37}.status.s4,.status.s5{color:#cf222e} .expected{color:#9a6700}
</style></head><body>
<h1>GitLab API conformance</h1>
<div class="muted">${esc(results.suite.name)} ${esc(results.suite.version)} · target <code>${esc(results.target.url)}</code> (GitLab ${esc(results.target.version)}${results.target.referenceServer ? ', bundled reference server' : ''}) · ${esc(results.generatedAt)} · capabilities: ${esc(results.capabilities.join(', ') || 'none')}${shardText(results) ? ` · ${esc(shardText(results)!)}` : ''}</div>
<div class="banner ${title.split(' ')[0]}">${esc(title === 'PASSED' || title === 'FAILED' ? `${title} at the ${results.level} level` : title)}${results.status === 'interrupted' ? ` (${esc(results.interruption ?? '')}): ${s['not-run']} selected test(s) did not run; the verdicts are of the tests that ended` : ''}${results.status === 'empty' ? ': no selected test ran' : ''}</div>
<p><b>Spec level</b>: ${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.unsupported} unsupported, ${s.disabled} disabled${s['not-run'] ? `, ${s['not-run']} not run` : ''} · <b>GitLab parity</b>: ${p.pass} pass, ${p.fail} fail, ${p.error} error · clauses covered by the selected tests ${coverage.covered}/${coverage.testable} · the exit code follows the ${esc(results.level)} level</p>
${causes.length ? `<h2>Root causes (${causes.length})</h2><ul>${causes.map((g) => `<li><code>${esc(causeLine(g))}</code> — ${[...g.failing, ...g.setUp].slice(0, 8).map((id) => `<a href="#${anchor(id)}">${esc(id)}</a>`).join(', ')}${g.failing.length + g.setUp.length > 8 ? ', …' : ''}</li>`).join('')}</ul>` : ''}
<h2>Matrix</h2>
<table><thead><tr><th>area / endpoint</th>${verdicts.map((v) => `<th>${v}</th>`).join('')}<th>parity fail</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<p class="muted">Columns are spec verdicts; "parity fail" counts tests that pass the spec where GitLab does more. A number links to its tests.</p>
<h2>Failures and errors (${failing.length})</h2>
${failing.length ? failing.map((t, i) => failureHtml(results, t, i < OPEN_FAILURES)).join('\n') : '<p>None.</p>'}
<h2>Where GitLab does more: parity only (${parityOnly.length})</h2>
${parityOnly.length ? parityOnly.map((t) => failureHtml(results, t, false)).join('\n') : '<p>None.</p>'}
<h2>Not run (${notRun.length + [...disabled.values()].reduce((a, b) => a + b, 0)})</h2>
${notRun.length ? `<table><tbody>${notRun.map((t) => `<tr><td><code>${esc(t.id)}</code></td><td>${t.verdict}</td><td style="text-align:left">${esc(t.reason ?? '')}</td></tr>`).join('')}</tbody></table>` : ''}
${disabled.size ? `<ul>${[...disabled].map(([reason, n]) => `<li>${n} disabled: ${esc(reason)}</li>`).join('')}</ul>` : ''}
${notRun.length + disabled.size === 0 ? '<p>None.</p>' : ''}
<h2>Tests by endpoint</h2>
${lists.join('\n')}
</body></html>
`;
}
