// The assertions of the suite. Each failure says what the spec wanted and what the target did (the
// request, status, body excerpt, schema errors with JSON pointers); the test wrapper adds which
// clauses the test checks. Checks of GitLab parity (exact texts, GitLab-only behaviour) go through
// `parity`, which records a note on the test's log instead of failing the spec verdict.
import { isDeepStrictEqual } from 'node:util';
import { validateAgainst, type SchemaIssue } from '../../schemas/registry.js';
import type { Exchange, TestLog } from './exchange.js';
import { causeOf } from './cause.js';
import { ConformanceFailure, HarnessError } from './errors.js';
import { redact } from './redact.js';

const EXCERPT = 600;

function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
}

export function describeExchange(exchange: Exchange | undefined): string {
  if (!exchange) return '';
  const sent = exchange.requestBody === undefined ? '' : `\n  sent:     ${show(exchange.requestBody)}`;
  const type = exchange.headers['content-type'] ?? 'no content-type';
  const body = exchange.body === undefined ? '(empty body)' : show(exchange.body);
  return `\n  request:  ${exchange.method} ${exchange.url} as ${exchange.actor}${sent}\n  response: ${exchange.status} (${type}) ${body}`;
}

/** Throws a ConformanceFailure showing the exchange (the test wrapper adds the clauses, and the last exchange when none is named). */
export function fail(what: string, detail: string, exchange?: Exchange): never {
  throw new ConformanceFailure(redact(`${what}\n  ${detail}${describeExchange(exchange)}`), exchange !== undefined, exchange && causeOf(exchange, redact(what.replace(/^expected /, '')), false));
}

/**
 * A request that builds the test's own state, not what it checks: it must succeed (any 2xx, or
 * `status` when the test depends on one) and `usable` says whether the body holds what the test
 * reads of it. Otherwise the test cannot be checked: verdict `error`, "set-up: …", with the exchange
 * and its root cause; the check of that endpoint is another test's.
 */
export function expectSetUp(exchange: Exchange, what: string, options: { status?: number[]; usable?: (body: unknown) => boolean } = {}): void {
  const ok = options.status ? options.status.includes(exchange.status) : exchange.status >= 200 && exchange.status < 300;
  const wanted = options.status ? `HTTP ${options.status.join(' or ')}` : 'a success (2xx)';
  if (ok && (options.usable?.(exchange.body) ?? true)) return;
  const why = ok ? `the answer lacks what the test reads of it` : `wanted ${wanted}, got HTTP ${exchange.status}`;
  const error = new HarnessError(redact(`set-up: ${what} did not succeed: ${why}${describeExchange(exchange)}`));
  error.rootCause = causeOf(exchange, ok ? 'a usable body' : wanted, true);
  throw error;
}

/**
 * A check of GitLab parity: what GitLab's code does beyond the spec (an exact message, the order of
 * its checks, a GitLab-only field). `gitlab` cites where GitLab does it. A failure becomes a note on
 * the test's log (the exchange's, or `log`): it fails the parity verdict, not the spec verdict.
 * Without a log to write on (a check outside a test), it fails as any check does.
 */
export function parity(on: Exchange | { log?: TestLog } | undefined, gitlab: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    const log = on?.log;
    if (!(error instanceof ConformanceFailure) || !log) throw error;
    log.parity.push({ text: error.message, gitlab });
  }
}

function formatIssues(schema: string, issues: SchemaIssue[]): string {
  const lines = issues.slice(0, 12).map((i) => `    ${i.pointer || '(root)'}: ${i.message} (value: ${show(i.value)})`);
  const more = issues.length > 12 ? `\n    … and ${issues.length - 12} more` : '';
  return `schema "${schema}" rejected the body:\n${lines.join('\n')}${more}`;
}

/** The status must be one of `expected`; `why` explains a tolerance (e.g. where GitLab and the docs differ). */
export function expectStatus(exchange: Exchange, expected: number | number[], why?: string): void {
  const allowed = Array.isArray(expected) ? expected : [expected];
  if (!allowed.includes(exchange.status)) {
    fail(
      `expected HTTP ${allowed.join(' or ')}${why ? ` (${why})` : ''}`,
      `got HTTP ${exchange.status}`,
      exchange,
    );
  }
}

/** The body must validate against the named schema (or an array of it with `list`). */
export function expectSchema(exchange: Exchange, schema: string, options: { list?: boolean } = {}): void {
  const issues = validateAgainst(schema, exchange.body, options);
  if (issues.length > 0) fail(`expected ${options.list ? `an array of ${schema}` : `a body matching ${schema}`}`, formatIssues(schema, issues), exchange);
}

/** Status and schema of a success answer, in one sentence. */
export function expectOk(exchange: Exchange, status: number | number[], schema?: string, options: { list?: boolean } = {}): void {
  expectStatus(exchange, status);
  if (schema) expectSchema(exchange, schema, options);
}

/**
 * An error answer: the status, GitLab's error shape, and, when given, the text of `message` or
 * `error` (a RegExp matches a string message; an exact string must be equal). The text is a
 * parity check: `gitlab` cites where GitLab writes it.
 */
export function expectError(
  exchange: Exchange,
  status: number | number[],
  text?: { message?: string | RegExp; error?: string | RegExp; either?: string | RegExp; gitlab?: string },
): void {
  expectStatus(exchange, status);
  if (exchange.method === 'HEAD') return; // HEAD answers carry no body
  // GitLab renders every API error as {"message": …} or {"error": …} (lib/api/helpers.rb render_api_error!, Grape's error formatter).
  expectSchema(exchange, 'error');
  if (text === undefined) return;
  // The exact words are GitLab's (lib/api/helpers.rb and the endpoint's own calls), not the spec's.
  parity(exchange, text.gitlab ?? 'lib/api/helpers.rb (GitLab error texts)', () => {
    const body = exchange.body as { message?: unknown; error?: unknown };
    if (text.either !== undefined && ![body.message, body.error].some((v) => matches(v, text.either!))) {
      fail('expected the error text', `wanted "message" or "error" to be ${show(String(text.either))}`, exchange);
    }
    for (const [key, actual, wanted] of [['message', body.message, text.message], ['error', body.error, text.error]] as const) {
      if (wanted !== undefined && !matches(actual, wanted)) {
        fail(`expected the error body's "${key}"`, `wanted ${wanted instanceof RegExp ? String(wanted) : show(wanted)}, got ${show(actual)}`, exchange);
      }
    }
  });
}

/** A model validation error: 400 with `{"message":{"<field>":["<reason>", …]}}`, each reason a non-empty text. */
export function expectValidationError(exchange: Exchange, field: string): void {
  expectError(exchange, 400);
  const message = (exchange.body as { message?: unknown } | undefined)?.message;
  const texts = message !== null && typeof message === 'object' ? (message as Record<string, unknown>)[field] : undefined;
  if (!(Array.isArray(texts) && texts.length > 0 && texts.every((t) => typeof t === 'string' && t.trim() !== ''))) {
    fail(`expected a validation error on "${field}": {"message":{"${field}":["…"]}}`, `got ${show(exchange.body)}`, exchange);
  }
}

function matches(actual: unknown, wanted: string | RegExp): boolean {
  if (typeof actual !== 'string') return false;
  return wanted instanceof RegExp ? wanted.test(actual) : actual === wanted;
}

export function expectEqual<T>(actual: T, expected: T, what: string, exchange?: Exchange): void {
  if (!isDeepStrictEqual(actual, expected)) fail(`expected ${what}`, `wanted ${show(expected)}\n  got    ${show(actual)}`, exchange);
}

/**
 * The fields `expected` names, each deep-equal (one named with `undefined` must be absent); fields it
 * does not name are not looked at: a target may answer with fields nobody named (TARGET-CONTRACT.md §4).
 */
export function expectFields(actual: unknown, expected: Record<string, unknown>, what: string, exchange?: Exchange): void {
  const named = actual !== null && typeof actual === 'object' && !Array.isArray(actual) ? Object.fromEntries(Object.keys(expected).map((key) => [key, (actual as Record<string, unknown>)[key]])) : actual;
  expectEqual(named, expected, what, exchange);
}

export function expectTrue(condition: boolean, what: string, detail = '', exchange?: Exchange): void {
  if (!condition) fail(`expected ${what}`, detail || 'it was not so', exchange);
}

/** A header must be present and, when given, equal to `value`. */
export function expectHeader(exchange: Exchange, name: string, value?: string): string {
  const actual = exchange.headers[name.toLowerCase()];
  if (actual === undefined) fail(`expected header ${name}`, `it is missing; headers were: ${Object.keys(exchange.headers).join(', ')}`, exchange);
  if (value !== undefined && actual !== value) fail(`expected header ${name}`, `wanted ${show(value)}, got ${show(actual)}`, exchange);
  return actual;
}
