// report.html: one self-contained page (no script, no network) with the per-area and per-endpoint
// matrix and, for every failure, the requests it made: method, URL, actor, status, the headers that
// matter, a body excerpt, and a cURL line that reproduces it (with a token placeholder).
import type { Evidence } from '../run/conformance.js';
import { byAreaAndEndpoint, VERDICTS, type Results, type TestRecord } from './results.js';

const esc = (text: string) => text.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[ch]!);

const HEADERS_THAT_MATTER = /^(content-type|location|retry-after|link|x-total|x-total-pages|x-page|x-per-page|x-next-page|x-prev-page|x-[a-z]+-(blob-id|commit-id|content-sha256|encoding|file-name|file-path|last-commit-id|ref|size|execute-filemode))$/;

export function curlLine(baseUrl: string, e: Evidence): string {
  const parts = [`curl -sS -X ${e.method}`, `'${baseUrl}${e.url}'`];
  if (e.actor !== 'anonymous') parts.push(`-H "PRIVATE-TOKEN: $TOKEN"`);
  if (e.requestBody !== undefined) parts.push(`-H 'Content-Type: application/json'`, `--data '${JSON.stringify(e.requestBody).replace(/'/g, "'\\''")}'`);
  if (e.method === 'HEAD') parts.push('--head');
  return parts.join(' ');
}

function exchangeHtml(baseUrl: string, e: Evidence): string {
  const headers = Object.entries(e.headers).filter(([name]) => HEADERS_THAT_MATTER.test(name));
  const body = e.body === undefined ? '(empty body)' : typeof e.body === 'string' ? e.body : JSON.stringify(e.body, null, 2);
  return `<div class="exchange">
  <div><b>${esc(e.method)}</b> <code>${esc(e.url)}</code> as <i>${esc(e.actor)}</i> → <b class="status s${String(e.status)[0]}">${e.status}</b> <span class="muted">${e.durationMs} ms${e.retries ? `, ${e.retries} retr${e.retries === 1 ? 'y' : 'ies'}` : ''}</span></div>
  ${e.requestBody === undefined ? '' : `<div class="muted">sent</div><pre>${esc(JSON.stringify(e.requestBody, null, 2).slice(0, 2000))}</pre>`}
  ${headers.length ? `<div class="muted">headers</div><pre>${esc(headers.map(([k, v]) => `${k}: ${v}`).join('\n'))}</pre>` : ''}
  <div class="muted">body</div><pre>${esc(body.slice(0, 2000))}${body.length > 2000 ? '…' : ''}</pre>
  <div class="muted">reproduce</div><pre class="curl">${esc(curlLine(baseUrl, e))}</pre>
</div>`;
}

function failureHtml(results: Results, t: TestRecord): string {
  const expected = t.expected ? `<p class="expected">expected failure: ${esc(t.expected.reason)}${t.expected.link ? ` (<a href="${esc(t.expected.link)}">link</a>)` : ''}</p>` : '';
  return `<section class="failure ${t.verdict}" id="${esc(t.id)}">
  <h3><span class="badge ${t.verdict}">${t.verdict}</span> ${esc(t.id)}</h3>
  <p>${esc(t.title)}<br><code>${esc(t.endpoint)}</code> · clauses ${t.clauses.map((c) => `<code>${esc(c)}</code>`).join(' ')} · <span class="muted">${esc(t.file)}</span></p>
  ${expected}
  <pre class="reason">${esc(t.reason ?? '')}</pre>
  ${(t.evidence ?? []).map((e) => exchangeHtml(results.target.url, e)).join('\n')}
</section>`;
}

export function reportHtml(results: Results, coverage: { covered: number; testable: number }): string {
  const s = results.summary;
  const rows: string[] = [];
  for (const [area, endpoints] of byAreaAndEndpoint(results)) {
    const all = [...endpoints.values()].flat();
    const cells = (tests: TestRecord[]) => VERDICTS.map((v) => {
      const n = tests.filter((t) => t.verdict === v).length;
      return `<td class="${n ? v : 'zero'}">${n || '·'}</td>`;
    }).join('');
    rows.push(`<tr class="area"><th>${esc(area)}</th>${cells(all)}</tr>`);
    for (const [endpoint, tests] of endpoints) rows.push(`<tr><td><code>${esc(endpoint)}</code></td>${cells(tests)}</tr>`);
  }
  const failing = results.tests.filter((t) => t.verdict === 'fail' || t.verdict === 'error');
  const skipped = results.tests.filter((t) => t.verdict === 'unsupported' || t.verdict === 'disabled');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GitLab API conformance — ${esc(results.target.url)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#1f1f1f;padding:0 16px}
h1{font-size:22px;margin-bottom:4px} h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd}
.muted{color:#6b6b6b;font-size:12px} code{font-family:ui-monospace,monospace;font-size:12.5px}
table{border-collapse:collapse;width:100%} th,td{padding:4px 8px;border-bottom:1px solid #eee;text-align:right}
th:first-child,td:first-child{text-align:left} tr.area th{background:#f5f5f5;padding-top:8px}
td.pass{color:#1a7f37;font-weight:600} td.fail,td.error{background:#ffebe9;color:#cf222e;font-weight:700}
td.unsupported,td.disabled{color:#9a6700} td.zero{color:#bbb}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;color:#fff}
.badge.fail{background:#cf222e}.badge.error{background:#8250df}
.summary span{margin-right:14px;font-weight:600} .ok{color:#1a7f37} .bad{color:#cf222e}
pre{background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:2px 0 8px}
pre.reason{background:#fff8f7;border-left:3px solid #cf222e} pre.curl{background:#1f2328;color:#e6edf3}
.exchange{border:1px solid #e5e5e5;border-radius:6px;padding:8px;margin:8px 0}
.status.s2{color:#1a7f37}.status.s4,.status.s5{color:#cf222e} .expected{color:#9a6700}
</style></head><body>
<h1>GitLab API conformance</h1>
<div class="muted">${esc(results.suite.name)} ${esc(results.suite.version)} · target <code>${esc(results.target.url)}</code> (GitLab ${esc(results.target.version)}${results.target.referenceServer ? ', bundled reference server' : ''}) · ${esc(results.generatedAt)} · capabilities: ${esc(results.capabilities.join(', ') || 'none')}</div>
<p class="summary"><span class="${s.fail + s.error ? 'bad' : 'ok'}">${s.fail + s.error ? 'FAILED' : 'PASSED'}</span><span>${s.pass} pass</span><span>${s.fail} fail</span><span>${s.error} error</span><span>${s.unsupported} unsupported</span><span>${s.disabled} disabled</span><span>clauses covered ${coverage.covered}/${coverage.testable}</span></p>
<h2>Matrix</h2>
<table><thead><tr><th>area / endpoint</th>${VERDICTS.map((v) => `<th>${v}</th>`).join('')}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<h2>Failures (${failing.length})</h2>
${failing.length ? failing.map((t) => failureHtml(results, t)).join('\n') : '<p>None.</p>'}
<h2>Not run (${skipped.length})</h2>
${skipped.length ? `<table><tbody>${skipped.map((t) => `<tr><td><code>${esc(t.id)}</code></td><td>${t.verdict}</td><td style="text-align:left">${esc(t.reason ?? '')}</td></tr>`).join('')}</tbody></table>` : '<p>None.</p>'}
</body></html>
`;
}
