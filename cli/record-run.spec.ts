// The differential mode end to end (issue #28; docs/differential.md): whole recordings of the bundled
// reference server, made by the real command (`record --sequential`) in a child process against a
// server started here, and compared by the real command (`diff`).
// - Two recordings of the reference server compare equal: no difference (noise apart).
// - The reference server against its spec-only twin: differences, each traced to a variation of
//   reference-server/spec-only/variations.ts through the `X-Reference-Spec-Only` header the twin
//   sets on every answer a variation changed (which the differential does not compare), and every
//   variation shows in at least one difference.
// - No transcript holds a token the run issued (nor any invitation's token).
// The figures (times, sizes, differences, noise, differences per variation) are printed.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { SPEC_ONLY_HEADER, VARIATIONS } from '../reference-server/spec-only/index.js';
import type { ReferenceServerOptions } from '../reference-server/server.js';
import type { Difference, DiffResult } from '../runner/differential/diff.js';
import { readTranscript, type Transcript } from '../runner/differential/transcript.js';
import { cleanUpChildren, cli, fullTarget, issuedTokens, server as startServer, tempDir } from './cli-child.js';

/** One recording takes about 20 s on an idle machine; npm test runs other files beside this one. */
const RECORD_MS = 400_000;

const dir = tempDir('conformance-record-');
afterAll(cleanUpChildren);


interface Recording {
  file: string;
  ms: number;
  bytes: number;
  /** Every token the server issued during the run, the administrator's first. */
  tokens: string[];
}

/** `record --sequential` of the whole suite against a reference server started for it. */
async function record(name: string, options: ReferenceServerOptions = {}): Promise<Recording> {
  const server = await startServer(options);
  const tokens = issuedTokens(server);
  const file = join(dir, `${name}.jsonl`);
  const started = Date.now();
  const run = await cli(['record', '--out', file, '--sequential', '--report-dir', join(dir, `${name}-reports`)], fullTarget(server, tempDir()), { dir, timeoutMs: RECORD_MS });
  expect(run.code, `record ${name}: ${run.stderr.slice(-2000)}`).toBe(0);
  return { file, ms: Date.now() - started, bytes: statSync(file).size, tokens };
}

/** `diff` with its JSON report; the exit code is checked by the caller. */
async function diff(name: string, baseline: Recording, candidate: Recording, noise?: Recording): Promise<{ code: number | null; result: DiffResult; stderr: string }> {
  const reports = join(dir, `${name}-diff`);
  const run = await cli(['diff', baseline.file, candidate.file, ...(noise ? ['--noise', noise.file] : []), '--report-dir', reports, '--format', 'json'], {}, { dir });
  return { code: run.code, result: JSON.parse(readFileSync(join(reports, 'diff.json'), 'utf8')) as DiffResult, stderr: run.stderr };
}

/** No token the run issued, and no invitation's token, is in the transcript (the spec-only twin shows no invitation token at all). */
function expectNoToken(recording: Recording, showsInvitationTokens = true): void {
  const text = readFileSync(recording.file, 'utf8');
  expect(recording.tokens.length, 'tokens the run was issued').toBeGreaterThan(20);
  for (const token of recording.tokens) expect(text.includes(token), `token ${token.slice(0, 8)}… in ${recording.file}`).toBe(false);
  const inviteTokens = [...text.matchAll(/"invite_token":"([^"]*)"/g)].map((m) => m[1]);
  if (showsInvitationTokens) expect(inviteTokens.length, 'invitation tokens the answers carried').toBeGreaterThan(0);
  expect(inviteTokens.filter((t) => t !== '[REDACTED]')).toEqual([]);
}

const figures = (r: Recording) => `${(r.bytes / 1e6).toFixed(1)} MB in ${(r.ms / 1000).toFixed(1)} s`;

let reference: Recording | undefined;
let again: Recording | undefined;

test('two recordings of the reference server compare equal', { timeout: 3 * RECORD_MS }, async () => {
  reference = await record('reference');
  again = await record('reference-again');
  const { code, result, stderr } = await diff('twice', reference, again);
  console.log(
    `differential: two recordings of the reference server (${figures(reference)}; ${figures(again)}): ${result.summary.tests} tests, ` +
      `${result.summary.comparedExchanges} exchanges compared, ${result.summary.differences} difference(s), ${result.summary.noise} noise`,
  );
  const shown = result.differences.slice(0, 10).map((d) => `${d.test} #${d.index} ${d.locus} ${d.kind}: ${JSON.stringify(d.baseline)} → ${JSON.stringify(d.candidate)}`);
  expect(result.summary.differences, `differences between two recordings of one target:\n${shown.join('\n')}`).toBe(0);
  expect(result.summary.tests).toBeGreaterThan(500);
  expect(result.summary.comparedExchanges).toBeGreaterThan(2000);
  expect(code, stderr).toBe(0);
  expectNoToken(reference);
  expectNoToken(again);
});

/** The variations the twin named on an answer, each with what it changed (`request`, `status`, `body`, `header:<name>`). */
function marksOf(transcript: Transcript, test: string, index: number): Map<string, Set<string>> {
  const value = transcript.tests.get(test)?.exchanges[index]?.response.headers[SPEC_ONLY_HEADER];
  const marks = new Map<string, Set<string>>();
  for (const entry of typeof value === 'string' ? value.split(', ') : []) {
    const [name, parts] = entry.split('=');
    marks.set(name, new Set(parts.split('|')));
  }
  return marks;
}

/**
 * The variations that explain a difference: one that changed that very answer where the difference
 * is (its status; the header by name; the body, or the status, which brings its own body; or the
 * request, whose effects reach anything), or one that changed the parameters of an earlier request
 * of the test (what it made differs from then on); a step that is missing or other (the test went
 * another way) is explained by any variation earlier in the test.
 */
function explain(d: Difference, twin: Transcript): string[] {
  const found = new Set<string>();
  if (d.candidateIndex !== null) {
    for (const [name, parts] of marksOf(twin, d.test, d.candidateIndex)) {
      const where = d.kind === 'status' ? parts.has('status') : d.locus.startsWith('header:') ? parts.has(d.locus) : d.locus.startsWith('body:') && (parts.has('body') || parts.has('status'));
      if (parts.has('request') || where) found.add(name);
    }
  }
  const before = d.candidateIndex ?? twin.tests.get(d.test)?.exchanges.length ?? 0;
  for (let i = 0; i < before; i++) {
    for (const [name, parts] of marksOf(twin, d.test, i)) if (parts.has('request') || d.kind === 'request-changed' || d.kind === 'exchange-missing') found.add(name);
  }
  return [...found];
}

test('the reference server against its spec-only twin: every difference is a variation\'s, and every variation shows', { timeout: 3 * RECORD_MS }, async () => {
  reference ??= await record('reference');
  const twin = await record('spec-only', { specOnly: true });
  // The second recording of the reference server, when the test above made it, is the noise.
  const { code, result, stderr } = await diff('spec-only', reference, twin, again);
  const transcript = readTranscript(twin.file);
  const byVariation = new Map<string, number>();
  const unexplained: Difference[] = [];
  for (const d of result.differences) {
    const causes = explain(d, transcript);
    if (causes.length === 0) unexplained.push(d);
    for (const name of causes) byVariation.set(name, (byVariation.get(name) ?? 0) + 1);
  }
  console.log(
    `differential: reference server against its spec-only twin (${figures(twin)}): ${result.summary.differences} difference(s) in ${result.summary.differingTests} test(s), ` +
      `${result.summary.uncovered} in tests whose verdicts are alike, ${result.summary.noise} noise; by variation: ` +
      [...byVariation].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`).join(', '),
  );
  const shown = unexplained.slice(0, 10).map((d) => `${d.test} #${d.candidateIndex} ${d.method} ${d.endpoint} ${d.locus} ${d.kind}: ${JSON.stringify(d.baseline)} → ${JSON.stringify(d.candidate)}`);
  expect(unexplained.length, `differences no variation explains:\n${shown.join('\n')}`).toBe(0);
  expect(result.summary.differences).toBeGreaterThan(1000);
  expect(VARIATIONS.map((v) => v.name).filter((name) => !byVariation.has(name)), 'variations that show in no difference').toEqual([]);
  expect(code, stderr).toBe(1);
  expectNoToken(twin, false);
});
