// Reads and checks a transcript (docs/transcript-format.md): a JSON Lines file, optionally gzipped, with
// a header, then per test a `test` line and its `exchange` lines. Every problem is reported with the
// file and line it is on; at most MAX_PROBLEMS are listed. Token-shaped strings are masked as each line
// is read (secrets.ts), so nothing later can print one.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { CREDENTIAL_HEADERS, maskTokens, REDACTED } from './secrets.js';

const TRANSCRIPT_FORMAT = 'gitlab-api-conformance-transcript';
/** The format versions this reader understands. */
export const READABLE_VERSIONS: readonly number[] = [1];

const VERDICT_NAMES = ['pass', 'fail', 'error', 'unsupported', 'disabled', 'not-run'] as const;
export type VerdictName = (typeof VERDICT_NAMES)[number];
const BODY_ENCODINGS = ['json', 'text', 'base64', 'none'] as const;
export type BodyEncoding = (typeof BODY_ENCODINGS)[number];

export interface TranscriptHeader {
  type: 'header';
  format: string;
  version: number;
  recordedAt: string;
  runId: string;
  /** The run prefix, `cnf-<runId>`: every object the run makes carries it (with `_` for `-` in usernames). */
  prefix: string;
  target: { origin: string; version: string; referenceServer?: boolean };
  suite: { version: string };
  level: string;
  capabilities: string[];
  /** What the run was asked to run (areas, endpoint forms, disabled tests, …): two transcripts compare only when these are equal. */
  selection: Record<string, unknown>;
  /** Whether the run was recorded one test at a time (recorders since 2026-11-28; `record` does so unless --concurrent). */
  sequential?: boolean;
  /**
   * The registered areas' collections and the kind of id the path segment after each names
   * (`{"members":"user","remote_mirrors":"mirror"}`; recorders since 2026-11-28): the normalization
   * reads ids in paths by them (normalize.ts).
   */
  collections?: Record<string, string>;
}

/** One of the run's own objects a test met, named by its role in the test's world. */
export interface SymbolEntry {
  symbol: string;
  kind: string;
  id: number | null;
  /** The strings that name it: by field (`{ "username": …, "email": … }`) or as a list (named by position). */
  values: string[] | Record<string, string>;
}

export interface TestLine {
  type: 'test';
  id: string;
  area: string;
  /** The endpoint form the test checks, e.g. "POST /groups/:id/members". */
  endpoint: string;
  kind: string | null;
  clauses: string[];
  verdict: VerdictName;
  parity: VerdictName;
  reason: string | null;
  symbols: SymbolEntry[];
  /** When the test started in its run (recorders since 2026-11-28): `diff` orders tests by it. */
  startedAt?: string;
}

export type HeaderValue = string | string[];

export interface ExchangeLine {
  type: 'exchange';
  test: string;
  index: number;
  actor: string;
  request: { method: string; path: string; query?: Record<string, HeaderValue>; headers?: Record<string, HeaderValue>; body?: unknown };
  response: { status: number; headers: Record<string, HeaderValue>; body?: unknown; bodyEncoding: BodyEncoding };
  durationMs?: number;
}

export interface TranscriptTest {
  line: TestLine;
  /** Where its `test` line is in the file. */
  lineNo: number;
  /** Ordered by index. */
  exchanges: ExchangeLine[];
}

export interface Transcript {
  file: string;
  header: TranscriptHeader;
  /** In file order. */
  tests: Map<string, TranscriptTest>;
  /** Token-shaped strings the reader masked (a recorder should have masked them already). */
  masked: number;
}

/** The transcript cannot be read or is not valid. `version` is set when the only problem is a format version this reader does not know. */
export class TranscriptError extends Error {
  constructor(
    message: string,
    readonly version?: number,
  ) {
    super(message);
    this.name = 'TranscriptError';
  }
}

const MAX_PROBLEMS = 10;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isHeaderBag = (v: unknown) => isObject(v) && Object.values(v).every((x) => isString(x) || isStringList(x));

/** The problems of one line, as "field: what is wrong". */
type Check = (line: Json) => string[];

function need(line: Json, field: string, ok: (v: unknown) => boolean, what: string): string[] {
  return ok(line[field]) ? [] : [`"${field}" must be ${what}, got ${JSON.stringify(line[field]) ?? 'nothing'}`];
}

const checkHeader: Check = (l) => [
  ...need(l, 'recordedAt', isString, 'a timestamp'),
  ...need(l, 'runId', isString, 'a string'),
  ...need(l, 'prefix', (v) => isString(v) && v.length >= 3, 'the run prefix'),
  ...need(l, 'target', (v) => isObject(v) && isString(v.origin) && isString(v.version), 'an object with origin and version'),
  ...need(l, 'suite', (v) => isObject(v) && isString(v.version), 'an object with version'),
  ...need(l, 'level', isString, 'a string'),
  ...need(l, 'capabilities', isStringList, 'a list of strings'),
  ...need(l, 'selection', isObject, 'an object'),
  ...need(l, 'collections', (v) => v === undefined || (isObject(v) && Object.values(v).every(isString)), 'an object of collection → id kind'),
];

const isVerdict = (v: unknown) => (VERDICT_NAMES as readonly unknown[]).includes(v);
const isSymbol = (s: unknown) =>
  isObject(s) && isString(s.symbol) && isString(s.kind) && (s.id === null || Number.isInteger(s.id)) && (isStringList(s.values) || (isObject(s.values) && Object.values(s.values).every(isString)));

const checkTest: Check = (l) => [
  ...need(l, 'id', (v) => isString(v) && v !== '', 'a test id'),
  ...need(l, 'area', isString, 'an area name'),
  ...need(l, 'endpoint', isString, 'an endpoint form'),
  ...need(l, 'kind', (v) => v === null || isString(v), 'a kind or null'),
  ...need(l, 'clauses', isStringList, 'a list of clause ids'),
  ...need(l, 'verdict', isVerdict, `one of ${VERDICT_NAMES.join(', ')}`),
  ...need(l, 'parity', isVerdict, `one of ${VERDICT_NAMES.join(', ')}`),
  ...need(l, 'reason', (v) => v === null || isString(v), 'a string or null'),
  ...need(l, 'symbols', (v) => Array.isArray(v) && v.every(isSymbol), 'a list of { symbol, kind, id, values }'),
  ...(l.startedAt === undefined ? [] : need(l, 'startedAt', (v) => isString(v) && !Number.isNaN(Date.parse(v)), 'an ISO 8601 timestamp')),
];

const checkExchange: Check = (l) => {
  const problems = [
    ...need(l, 'test', isString, 'a test id'),
    ...need(l, 'index', (v) => Number.isInteger(v) && (v as number) >= 0, 'an index (0, 1, …)'),
    ...need(l, 'actor', isString, 'an actor'),
    ...need(l, 'request', (v) => isObject(v) && isString(v.method) && isString(v.path) && (v.query === undefined || isHeaderBag(v.query)) && (v.headers === undefined || isHeaderBag(v.headers)), 'an object with method, path (and query, headers as string maps)'),
    ...need(l, 'response', (v) => isObject(v) && Number.isInteger(v.status) && isHeaderBag(v.headers) && (BODY_ENCODINGS as readonly unknown[]).includes(v.bodyEncoding), `an object with status, headers and bodyEncoding (${BODY_ENCODINGS.join(', ')})`),
  ];
  if (problems.length === 0) {
    const response = l.response as Json;
    const encoding = response.bodyEncoding as BodyEncoding;
    const fits = encoding === 'none' ? response.body === undefined : encoding === 'json' ? Object.hasOwn(response, 'body') : isString(response.body);
    if (!fits) problems.push(`"response.body" does not fit bodyEncoding ${encoding}`);
  }
  return problems;
};

/** Credentials a request header may still carry are masked whatever their shape. */
function maskCredentialHeaders(exchange: ExchangeLine): number {
  let masked = 0;
  const headers = exchange.request.headers ?? {};
  for (const name of Object.keys(headers)) {
    if (CREDENTIAL_HEADERS.test(name) && headers[name] !== REDACTED) {
      headers[name] = REDACTED;
      masked++;
    }
  }
  return masked;
}

/** The header line alone: enough to compare format versions before reading the rest. */
function readTranscriptHeader(file: string, text: string): TranscriptHeader {
  const end = text.indexOf('\n');
  const first = end === -1 ? text : text.slice(0, end);
  let line: unknown;
  try {
    line = JSON.parse(maskTokens(first));
  } catch {
    throw new TranscriptError(`${file}:1: not a transcript: the first line is not JSON`);
  }
  if (!isObject(line) || line.type !== 'header' || line.format !== TRANSCRIPT_FORMAT) {
    throw new TranscriptError(`${file}:1: not a transcript: the first line must be {"type":"header","format":"${TRANSCRIPT_FORMAT}",…}`);
  }
  if (!Number.isInteger(line.version)) throw new TranscriptError(`${file}:1: "version" must be an integer`);
  const version = line.version as number;
  if (!READABLE_VERSIONS.includes(version)) {
    throw new TranscriptError(`${file}: format version ${version}; this tool reads version ${READABLE_VERSIONS.join(', ')}`, version);
  }
  const problems = checkHeader(line);
  if (problems.length) throw new TranscriptError(problems.slice(0, MAX_PROBLEMS).map((p) => `${file}:1: ${p}`).join('\n'));
  return line as unknown as TranscriptHeader;
}

function readText(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new TranscriptError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      throw new TranscriptError(`${file}: a damaged gzip file`);
    }
  }
  return bytes.toString('utf8');
}

/** Reads `file` (plain or gzipped JSON Lines); throws a TranscriptError that lists what is wrong, line by line. */
export function readTranscript(file: string): Transcript {
  const text = readText(file);
  const header = readTranscriptHeader(file, text);
  const tests = new Map<string, TranscriptTest>();
  const problems: string[] = [];
  const problem = (lineNo: number, text: string) => problems.push(`${file}:${lineNo}: ${text}`);
  let masked = 0;
  let current: TranscriptTest | undefined;
  const lines = text.split('\n');
  for (let i = 1; i < lines.length && problems.length < MAX_PROBLEMS; i++) {
    const raw = lines[i].replace(/\r$/, '');
    if (raw.trim() === '') continue;
    const lineNo = i + 1;
    const safe = maskTokens(raw);
    if (safe !== raw) masked++;
    let line: unknown;
    try {
      line = JSON.parse(safe);
    } catch (error) {
      problem(lineNo, `not JSON (${(error as Error).message})`);
      continue;
    }
    if (!isObject(line)) {
      problem(lineNo, 'not a JSON object');
      continue;
    }
    if (line.type === 'test') {
      const found = checkTest(line);
      if (found.length) {
        found.forEach((p) => problem(lineNo, p));
        current = undefined;
        continue;
      }
      const test = line as unknown as TestLine;
      if (tests.has(test.id)) problem(lineNo, `test ${test.id} appears a second time`);
      current = { line: test, lineNo, exchanges: [] };
      tests.set(test.id, current);
    } else if (line.type === 'exchange') {
      const found = checkExchange(line);
      if (found.length) {
        found.forEach((p) => problem(lineNo, p));
        continue;
      }
      const exchange = line as unknown as ExchangeLine;
      if (!tests.has(exchange.test)) {
        problem(lineNo, `exchange of test ${exchange.test}, which no earlier "test" line declares`);
      } else if (current?.line.id !== exchange.test) {
        problem(lineNo, `exchange of test ${exchange.test} after the lines of another test (a test's lines must be contiguous)`);
      } else if (current.exchanges.some((e) => e.index === exchange.index)) {
        problem(lineNo, `test ${exchange.test} has a second exchange with index ${exchange.index}`);
      } else {
        masked += maskCredentialHeaders(exchange);
        current.exchanges.push(exchange);
      }
    } else if (line.type === 'header') {
      problem(lineNo, 'a second header line');
    } else {
      problem(lineNo, `unknown line type ${JSON.stringify(line.type)} (expected "test" or "exchange")`);
    }
  }
  for (const test of tests.values()) {
    test.exchanges.sort((a, b) => a.index - b.index);
    const gap = test.exchanges.findIndex((e, i) => e.index !== i);
    if (gap !== -1 && problems.length < MAX_PROBLEMS) problem(test.lineNo, `test ${test.line.id} has no exchange with index ${gap} (its indexes must run 0, 1, 2, …)`);
  }
  if (problems.length) {
    const more = problems.length >= MAX_PROBLEMS ? `\n(stopped after ${MAX_PROBLEMS} problems)` : '';
    throw new TranscriptError(`${file} is not a valid transcript:\n${problems.join('\n')}${more}`);
  }
  return { file, header, tests, masked };
}
