// diff.html: one self-contained page (no script, no stylesheet or font from elsewhere) for a person to
// read. The counts per area and kind; then per area, endpoint form and test, one collapsible
// <details> per exchange with its differences and both sides as normalized, the differing headers and
// body fields highlighted; the noise apart, at the end. Every text is HTML-escaped and token-masked.
import { DIFFERENCE_KINDS } from './compare.js';
import type { AlignedStep, Step } from './compare.js';
import type { Difference, DiffResult, ExchangeDiff, SourceInfo, TestDiff } from './diff.js';
import { pointerToken } from './normalize.js';
import { maskTokens, maskTokenShapes } from './secrets.js';
import { coverageText, grouped, KIND_TITLES, placeOf, showValue, verdictsText } from './text-reports.js';

export const escapeHtml = (text: string) => text.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[ch]!);
const esc = (text: string) => escapeHtml(maskTokens(text));

/** Bodies longer than this (as JSON) are shown cut, with a note. */
const BODY_CHARS = 60_000;

/** Pretty JSON as HTML, every value at a pointer in `marks` (with its key) inside <mark>. */
export function jsonHtml(value: unknown, marks: ReadonlySet<string>, pointer = '', indent = ''): string {
  const inner = indent + '  ';
  const wrap = (p: string, html: string) => (marks.has(p) ? `<mark>${html}</mark>` : html);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item, i) => `${inner}${wrap(`${pointer}/${i}`, jsonHtml(item, marks, `${pointer}/${i}`, inner))}`);
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const items = entries.map(([key, v]) => {
      const p = `${pointer}/${pointerToken(key)}`;
      return `${inner}${wrap(p, `${esc(JSON.stringify(key))}: ${jsonHtml(v, marks, p, inner)}`)}`;
    });
    return `{\n${items.join(',\n')}\n${indent}}`;
  }
  return esc(JSON.stringify(value) ?? String(value));
}

function bodyHtml(step: Step, marks: ReadonlySet<string>): string {
  const e = step.exchange;
  if (e.bodyEncoding === 'none') return '<span class="muted">(no body)</span>';
  const whole = marks.has('') ? (html: string) => `<mark>${html}</mark>` : (html: string) => html;
  if (e.bodyEncoding !== 'json') return whole(`<span class="muted">${e.bodyEncoding}</span>\n${esc(String(e.body).slice(0, BODY_CHARS))}`);
  const size = JSON.stringify(e.body)?.length ?? 0;
  if (size > BODY_CHARS) return whole(`${esc(JSON.stringify(e.body).slice(0, BODY_CHARS))}…\n<span class="muted">(${size} characters; cut)</span>`);
  return whole(jsonHtml(e.body, marks));
}

function sideHtml(title: string, step: Step | undefined, differences: Difference[]): string {
  if (!step) return `<div class="side"><h5>${title}</h5><p class="muted">no such exchange</p></div>`;
  const e = step.exchange;
  const headerMarks = new Set(differences.filter((d) => d.header !== undefined).map((d) => d.header!));
  const bodyMarks = new Set(differences.filter((d) => d.locus.startsWith('body:')).map((d) => d.pointer ?? ''));
  // As normalized, not URL-encoded again: the tokens stay readable.
  const query = Object.entries(e.query)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k}=${x}`))
    .join('&');
  const headers = Object.entries(e.headers)
    .map(([name, value]) => {
      const line = esc(`${name}: ${value}`);
      return headerMarks.has(name) ? `<mark>${line}</mark>` : line;
    })
    .join('\n');
  const statusMark = differences.some((d) => d.kind === 'status');
  return `<div class="side"><h5>${title} <span class="muted">#${e.index}${step.repeats > 1 ? `, sent ${step.repeats} times (the last answer shown)` : ''}</span></h5>
<pre>${esc(`${e.actor}: ${e.method} ${e.path}${query ? `?${query}` : ''}`)}${e.requestBody === undefined ? '' : `\n${esc(JSON.stringify(e.requestBody, null, 2))}`}</pre>
<pre>${statusMark ? `<mark>${e.status}</mark>` : e.status}\n${headers}</pre>
<pre>${bodyHtml(step, bodyMarks)}</pre></div>`;
}

function differencesTable(list: Difference[], noise = false): string {
  const rows = list.map((d) => `<tr><td>${esc(d.kind)}</td><td><code>${esc(placeOf(d))}</code></td><td><code>${esc(showValue(d.baseline, 400))}</code></td><td><code>${esc(showValue(d.candidate, 400))}</code></td></tr>`);
  return `<table class="diffs${noise ? ' noise' : ''}"><thead><tr><th>kind</th><th>where</th><th>baseline</th><th>candidate</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function exchangeHtml(e: ExchangeDiff, noise: boolean): string {
  const list = noise ? e.noise : e.differences;
  const step: AlignedStep = e.step;
  const first = list[0];
  if (first.kind === 'test-missing') return `<p>${esc(`Only in the ${first.baseline !== undefined ? 'baseline' : 'candidate'}: ${showValue(first.baseline ?? first.candidate)}.`)}</p>`;
  const summary = `#${first.index ?? '–'}${first.candidateIndex !== first.index ? ` / #${first.candidateIndex ?? '–'}` : ''} ${first.method} ${first.path} — ${first.endpoint}: ${list.length} ${noise ? 'noise' : 'difference'}${list.length === 1 ? '' : 's'} (${[...new Set(list.map((d) => d.kind))].join(', ')})`;
  // Noise is listed, not shown: its exchanges are in the differences' sections when they matter.
  const sides = noise ? '' : `<div class="sides">${sideHtml('baseline', step.baseline, list)}${sideHtml('candidate', step.candidate, list)}</div>`;
  return `<details><summary>${esc(summary)}</summary>
${differencesTable(list, noise)}
${sides}
</details>`;
}

function testHtml(t: TestDiff, noise: boolean): string {
  const exchanges = t.exchanges.filter((e) => (noise ? e.noise : e.differences).length > 0);
  return `<section class="test" id="${esc((noise ? 'noise-' : '') + t.id)}"><h4><code>${esc(t.id)}</code> <span class="badge ${t.covered ?? 'news'}">${esc(coverageText(t.covered))}</span></h4>
<p class="muted">clauses ${t.clauses.map((c) => `<code>${esc(c)}</code>`).join(' ') || 'none'} · verdicts (spec/parity): baseline ${esc(verdictsText(t.verdicts.baseline))}, candidate ${esc(verdictsText(t.verdicts.candidate))}</p>
${exchanges.map((e) => exchangeHtml(e, noise)).join('\n')}
</section>`;
}

const sourceHtml = (role: string, s: SourceInfo) =>
  `<tr><th>${role}</th><td><code>${esc(s.file)}</code></td><td>GitLab ${esc(s.target.version)}${s.target.referenceServer ? ' (reference server)' : ''}</td><td><code>${esc(s.target.origin)}</code></td><td>${esc(s.recordedAt)}</td><td>${s.tests} tests, ${s.exchanges} exchanges</td></tr>`;

export function diffHtml(result: DiffResult): string {
  const s = result.summary;
  const areas = Object.keys(s.byArea).sort();
  const countRow = (name: string, counts: Record<string, number>) =>
    `<tr><th>${esc(name)}</th>${DIFFERENCE_KINDS.map((k) => `<td class="${counts[k] ? 'n' : 'zero'}">${counts[k] || '·'}</td>`).join('')}<td>${DIFFERENCE_KINDS.reduce((n, k) => n + counts[k], 0)}</td></tr>`;
  const sections: string[] = [];
  for (const [area, endpoints] of grouped(result.tests.filter((t) => t.differences > 0))) {
    sections.push(`<h2>${esc(area)}</h2>`);
    for (const [endpoint, tests] of endpoints) sections.push(`<h3><code>${esc(endpoint)}</code></h3>`, ...tests.map((t) => testHtml(t, false)));
  }
  const noisy = result.tests.filter((t) => t.noise > 0);
  return maskTokenShapes(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Differential report — ${esc(result.candidate.target.version)} against ${esc(result.baseline.target.version)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1280px;color:#1f1f1f;padding:0 16px}
h1{font-size:22px;margin-bottom:4px} h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd} h3{font-size:15px} h4{font-size:14px;margin:14px 0 2px}
h5{margin:4px 0;font-size:13px} .muted{color:#6b6b6b;font-size:12px} code{font-family:ui-monospace,monospace;font-size:12.5px}
table{border-collapse:collapse} th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left} td.zero{color:#bbb} td.n{font-weight:700;color:#cf222e}
table.diffs{width:100%;margin:6px 0} table.diffs td{text-align:left;word-break:break-word} table.noise{color:#6b6b6b}
details{border:1px solid #e5e5e5;border-radius:6px;padding:6px 8px;margin:6px 0} summary{cursor:pointer;font-family:ui-monospace,monospace;font-size:12.5px}
.sides{display:flex;gap:10px} .side{flex:1;min-width:0}
pre{background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:2px 0 6px;font-size:12px}
mark{background:#fff1a8;outline:1px solid #e3b341}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;color:#fff;font-weight:400}
.badge.news{background:#cf222e}.badge.spec{background:#6e7781}.badge.parity{background:#9a6700}
.summary span{margin-right:14px;font-weight:600} .ok{color:#1a7f37} .bad{color:#cf222e}
</style></head><body>
<h1>Differential report</h1>
<table>${sourceHtml('baseline', result.baseline)}${sourceHtml('candidate', result.candidate)}${result.noiseSources.map((n) => sourceHtml('noise', n)).join('')}</table>
<p class="summary"><span class="${s.differences ? 'bad' : 'ok'}">${s.differences} difference${s.differences === 1 ? '' : 's'}</span><span>${s.differingTests} test(s) differ</span><span>${s.knockOn} knock-on (after a write that went otherwise on the same source)</span><span>${s.uncovered} not covered by a verdict</span><span>${s.noise} noise (apart)</span><span>${s.tests} tests, ${s.comparedExchanges} exchanges compared</span></p>
${result.warnings.map((w) => `<p class="bad">${esc(w)}</p>`).join('\n')}
${s.differences ? `<table><thead><tr><th>area</th>${DIFFERENCE_KINDS.map((k) => `<th>${KIND_TITLES[k]}</th>`).join('')}<th>total</th></tr></thead><tbody>${areas.map((a) => countRow(a, s.byArea[a])).join('')}${countRow('total', s.byKind)}</tbody></table>` : '<p>Nothing differs beyond noise.</p>'}
${sections.join('\n')}
<h2>Noise (${s.noise}, not counted)</h2>
<p class="muted">What also differs between the baseline and a second recording of its target, at the same test, exchange, place and kind.</p>
${noisy.length ? noisy.map((t) => testHtml(t, true)).join('\n') : '<p>None.</p>'}
</body></html>
`);
}
