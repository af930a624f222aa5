// The `diff` subcommand and the transcript reader: exit codes 0/1/2 with their reasons, the reports it
// writes, line-numbered problems, and no token in anything it prints or writes.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { runDiff } from './command.js';
import { changeExchange, headerLine, RUN_A, RUN_B, runLines, writeTranscript, type Line } from './hand-made.js';
import { escapeHtml, jsonHtml } from './html.js';
import { readTranscript, TranscriptError } from './transcript.js';

const dir = mkdtempSync(join(tmpdir(), 'differential-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const file = (lines: Line[]) => writeTranscript(dir, `f${++files}.jsonl`, lines);
const A = file(runLines(RUN_A));
const B = file(runLines(RUN_B));

function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const reports = join(dir, `reports-${++files}`);
  const code = runDiff([...args, ...(args.includes('--report-dir') ? [] : ['--report-dir', reports])], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n'), reports };
}

describe('exit codes', () => {
  test('0 when nothing differs, with the three reports written', () => {
    const run = cli(A, B);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain('0 difference(s) in 0 test(s)');
    for (const name of ['diff.json', 'diff.md', 'diff.html']) expect(existsSync(join(run.reports, name)), name).toBe(true);
    const json = JSON.parse(readFileSync(join(run.reports, 'diff.json'), 'utf8')) as { format: string; version: number; summary: { differences: number } };
    expect(json).toMatchObject({ format: 'gitlab-api-conformance-diff', version: 1, summary: { differences: 0 } });
  });

  test('1 when something differs; --format writes only the reports asked for', () => {
    const candidate = file(changeExchange(runLines(RUN_B), 'mirrors.create.basic', 0, (e) => ((e.response.body as Record<string, unknown>).enabled = true)));
    const run = cli(A, candidate, '--format', 'md');
    expect(run.code).toBe(1);
    expect(run.out).toContain('1 difference(s) in 1 test(s), 1 not covered by a verdict');
    expect(run.out).toMatch(/remote-mirrors\s+0\s+0\s+0\s+0\s+1/);
    expect(run.out).toContain('mirrors.create.basic (not covered by a verdict)');
    expect(existsSync(join(run.reports, 'diff.json'))).toBe(false);
    const markdown = readFileSync(join(run.reports, 'diff.md'), 'utf8');
    expect(markdown).toContain('**value-changed** `body /enabled`: `false` → `true`');
    expect(markdown).toContain('#### `POST /projects/:id/remote_mirrors`');
  });

  test('0 when what differs is noise; the noise is counted apart', () => {
    const noisy = (lines: Line[], value: string) => changeExchange(lines, 'mirrors.create.basic', 0, (e) => (e.response.headers['x-served-by'] = value));
    const run = cli(file(noisy(runLines(RUN_A), 'one')), file(noisy(runLines(RUN_B), 'three')), '--noise', file(noisy(runLines({ ...RUN_A, runId: '2611262011aa99' }), 'two')));
    expect(run.code).toBe(0);
    expect(run.out).toContain('0 difference(s) in 0 test(s), 0 not covered by a verdict; 1 noise, apart');
  });

  test('2 when the format versions differ, naming both', () => {
    const v2 = file([{ ...headerLine(RUN_B), version: 2 }]);
    const run = cli(A, v2);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`${A} is format version 1, ${v2} is format version 2 (this tool reads version 1)`);
  });

  test('2 when the selections of tests differ, naming the tests on one side only', () => {
    const lines = runLines(RUN_B).filter((l) => (l as { id?: string; test?: string }).id !== 'files.get.blame' && (l as { test?: string }).test !== 'files.get.blame');
    const run = cli(A, file([{ ...headerLine(RUN_B), selection: { areas: ['members', 'remote-mirrors', 'invitations'], endpoints: [], disabled: [] } }, ...lines.slice(1)]));
    expect(run.code).toBe(2);
    expect(run.err).toContain('the selections of tests differ');
    expect(run.err).toMatch(/tests only in \S+: files\.get\.blame; only in \S+: none/);
  });

  test('2 for a file that is no transcript, or not a valid one, with the line', () => {
    const plain = join(dir, 'plain.txt');
    writeFileSync(plain, 'hello\n');
    expect(cli(A, plain)).toMatchObject({ code: 2, err: expect.stringContaining(`${plain}:1: not a transcript`) });
    expect(cli(A, join(dir, 'missing.jsonl'))).toMatchObject({ code: 2, err: expect.stringContaining('cannot be read (ENOENT)') });
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, readFileSync(B, 'utf8').replace(/\n/, '\n{oops\n'));
    expect(cli(A, broken)).toMatchObject({ code: 2, err: expect.stringContaining(`${broken}:2: not JSON`) });
  });

  test('2 for wrong arguments', () => {
    expect(cli(A)).toMatchObject({ code: 2, err: expect.stringContaining('diff takes two transcripts') });
    expect(cli(A, B, '--format', 'pdf')).toMatchObject({ code: 2, err: expect.stringContaining('--format takes json, markdown, html or none') });
    expect(cli(A, B, '--bogus')).toMatchObject({ code: 2, err: expect.stringContaining("Unknown option '--bogus'") });
    expect(cli('--help')).toMatchObject({ code: 0, out: expect.stringContaining('Exit codes: 0 nothing differs beyond noise') });
  });
});

describe('the reader', () => {
  const problems = (lines: Line[]) => {
    try {
      readTranscript(file(lines));
      return '';
    } catch (error) {
      expect(error).toBeInstanceOf(TranscriptError);
      return (error as Error).message;
    }
  };
  const [header, testLine, first, second] = runLines(RUN_A) as Record<string, unknown>[];

  test('every problem names its line', () => {
    expect(problems([header, first])).toMatch(/:2: exchange of test members\.list\.group\.basic, which no earlier "test" line declares/);
    expect(problems([header, testLine, first, first])).toMatch(/:4: test members\.list\.group\.basic has a second exchange with index 0/);
    expect(problems([header, testLine, second])).toMatch(/:2: test members\.list\.group\.basic has no exchange with index 0/);
    expect(problems([header, { ...testLine, verdict: 'maybe' }])).toMatch(/:2: "verdict" must be one of pass, fail, error, unsupported, disabled, not-run, got "maybe"/);
    expect(problems([header, testLine, { ...first, response: { status: 200, headers: {}, bodyEncoding: 'text' } }])).toMatch(/:3: "response.body" does not fit bodyEncoding text/);
    expect(problems([header, { type: 'note' }])).toMatch(/:2: unknown line type "note"/);
    expect(problems([{ ...header, prefix: undefined }])).toMatch(/:1: "prefix" must be the run prefix/);
    expect(problems([header, testLine, { ...testLine, id: 'other' }, { ...first }])).toMatch(/:4: exchange of test members\.list\.group\.basic after the lines of another test/);
  });

  test('a gzipped transcript reads as the plain one', () => {
    const gz = join(dir, 'a.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(A)));
    expect(readTranscript(gz).tests.size).toBe(readTranscript(A).tests.size);
    expect(cli(gz, B).code).toBe(0);
  });
});

describe('no token in anything the tool prints or writes', () => {
  const TOKEN = 'glpat-Zx9vQ2mN4bT7wK1pL8sD';
  const OTHER = 'gldt-abcdefghijklmnop1234';

  test('a token left in a transcript (a body, a header, a credential header) is masked on reading and never printed', () => {
    const leaky = (lines: Line[], value: string) =>
      changeExchange(lines, 'mirrors.create.basic', 0, (e) => {
        (e.response.body as Record<string, unknown>).last_error = `push failed: ${value}`;
        e.response.headers['x-token-echo'] = value;
        e.request.headers = { 'private-token': 'not-shaped-like-one-at-all', authorization: `Bearer ${value}` };
      });
    const run = cli(file(leaky(runLines(RUN_A), TOKEN)), file(leaky(runLines(RUN_B), OTHER)), '--noise', file(leaky(runLines(RUN_A), 'glrt-0000000000000000000000')));
    const written = ['diff.json', 'diff.md', 'diff.html'].map((name) => readFileSync(join(run.reports, name), 'utf8'));
    for (const text of [run.out, run.err, ...written]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(OTHER);
      expect(text).not.toContain('not-shaped-like-one-at-all');
      expect(text).not.toMatch(/\bgl[a-z]{1,4}-[A-Za-z0-9_-]{16,}/);
    }
    expect(run.out).toContain('line(s) held a token-shaped string or a credential header, masked on reading');
  });
});

describe('the HTML page', () => {
  test('escapes every hostile string: values, keys, test ids, paths', () => {
    const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
    const lines = (p: typeof RUN_A, value: string) =>
      changeExchange(runLines(p), 'mirrors.create.basic', 2, (e) => {
        (e.response.body as Record<string, unknown>).url = value;
        (e.response.body as Record<string, unknown>)[hostile] = 1;
        e.response.headers['x-evil'] = value;
        // A credential's name before a value: masking it must not take the markup after it.
        e.request.query = { private_token: '[REDACTED]' };
      });
    const run = cli(file(lines(RUN_A, 'https://example.com/a.git')), file(lines(RUN_B, hostile)), '--format', 'html');
    expect(run.code).toBe(1);
    const html = readFileSync(join(run.reports, 'diff.html'), 'utf8');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<details><summary>#2 GET /api/v4/projects/&lt;project#1&gt;/remote_mirrors/&lt;mirror~1&gt; — ');
    expect(html).toContain(': 2 differences (header, value-changed)</summary>');
    expect(html).toContain('<mark>x-evil: &lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;</mark>');
    expect(html).not.toMatch(/<link|<script|src="http|href="http/);
    for (const tag of ['pre', 'details', 'div', 'table', 'section']) expect(html.split(`<${tag}`).length, tag).toBe(html.split(`</${tag}>`).length);
    expect(html).toContain('?private_token=[REDACTED]</pre>');
  });

  test('the differing pointers of a body are highlighted, with their keys', () => {
    const html = jsonHtml({ a: 1, b: [{ c: '<x>' }, 2] }, new Set(['/b/0/c', '/a']));
    expect(html).toBe('{\n  <mark>&quot;a&quot;: 1</mark>,\n  &quot;b&quot;: [\n    {\n      <mark>&quot;c&quot;: &quot;&lt;x&gt;&quot;</mark>\n    },\n    2\n  ]\n}');
    expect(escapeHtml(`<a href='x'>&</a>`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;');
  });
});
