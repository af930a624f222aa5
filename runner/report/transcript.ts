// The run's transcript (docs/transcript-format.md, version 1): a JSON Lines file with a header, then
// for each test a `test` line (its verdicts, clauses and the symbols of the run's objects it met) and
// an `exchange` line per request it made, in the order sent. Tokens are masked in every line.
// `gitlab-api-conformance record` writes it; `diff` compares two (runner/differential/).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CollectionIdKinds } from '../core/area.js';
import { REDACTED, redactValue } from '../core/redact.js';
import type { Config } from '../run/config.js';
import type { Evidence, Outcome, TestMeta } from '../run/conformance.js';
import type { RunContext } from '../run/context.js';
import { SUITE_VERSION, type TestRecord } from './results.js';

export const TRANSCRIPT_FORMAT = 'gitlab-api-conformance-transcript';
export const TRANSCRIPT_VERSION = 1;

/** Headers that say nothing about the API: left out of a transcript. */
const DROPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * Fields whose string value is a secret the target made: an invitation's `invite_token` (whoever holds
 * it can accept the invitation), a new token's `token`. Masked whatever their shape; the differential
 * compares their presence and type only.
 */
const SECRET_FIELD = /(?:^|_)token$/i;

function maskSecretFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecretFields);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, SECRET_FIELD.test(key) && typeof inner === 'string' ? REDACTED : maskSecretFields(inner)]));
}

interface RecordedTest {
  record: TestRecord;
  meta: TestMeta;
  outcome: Outcome | undefined;
}

function exchangeLine(test: string, position: number, e: Evidence & { bodyEncoding?: string }) {
  const [path, query = ''] = e.url.split('?');
  const headers = Object.fromEntries(Object.entries(e.headers).filter(([name]) => !DROPPED_HEADERS.has(name)));
  const bodyEncoding = e.bodyEncoding ?? (e.body === undefined ? 'none' : typeof e.body === 'string' ? 'text' : 'json');
  return {
    type: 'exchange',
    test,
    index: e.index ?? position,
    actor: e.actor,
    request: {
      method: e.method,
      path,
      query: maskSecretFields(Object.fromEntries(new URLSearchParams(query))),
      headers: e.sentAs ? { 'content-type': e.sentAs === 'form' ? 'application/x-www-form-urlencoded' : 'application/json' } : {},
      ...(e.requestBody !== undefined ? { body: maskSecretFields(e.requestBody) } : {}),
    },
    response: { status: e.status, headers, ...(e.body !== undefined ? { body: bodyEncoding === 'json' ? maskSecretFields(e.body) : e.body } : {}), bodyEncoding },
    durationMs: e.durationMs,
  };
}

/** Writes the transcript of the run's tests to `path`; `collections`: the registered areas' collections and the kind of id each names (Catalog.collectionIdKinds). */
export function writeTranscript(path: string, run: RunContext | undefined, config: Config, tests: RecordedTest[], collections: CollectionIdKinds): void {
  const lines: unknown[] = [
    {
      type: 'header',
      format: TRANSCRIPT_FORMAT,
      version: TRANSCRIPT_VERSION,
      recordedAt: new Date().toISOString(),
      runId: run?.runId ?? 'unknown',
      prefix: run?.prefix ?? 'unknown',
      target: { origin: run ? new URL(run.targetUrl).origin : 'unknown', version: run?.version ?? 'unknown', referenceServer: run?.referenceServer ?? false },
      suite: { version: SUITE_VERSION },
      level: config.level,
      capabilities: run?.settings.capabilities ?? config.capabilities,
      selection: { areas: config.areas, endpoints: config.endpoints, disabled: config.disabledTests },
      sequential: config.sequential,
      collections,
    },
  ];
  for (const { record, outcome } of [...tests].sort((a, b) => a.record.id.localeCompare(b.record.id))) {
    lines.push({
      type: 'test',
      id: record.id,
      area: record.area,
      endpoint: record.endpoint,
      kind: record.kind,
      clauses: record.clauses,
      verdict: record.verdict,
      parity: record.parity,
      reason: record.reason,
      symbols: outcome?.symbols ?? [],
      ...(outcome?.startedAt ? { startedAt: outcome.startedAt } : {}),
    });
    for (const [position, exchange] of (outcome?.transcript ?? []).entries()) lines.push(exchangeLine(record.id, position, exchange));
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.map((line) => JSON.stringify(redactValue(line))).join('\n') + '\n');
}
