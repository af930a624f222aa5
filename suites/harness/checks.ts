// The assertions of the suite. Each failure says what the spec wanted, what the target did (the
// request, status, body excerpt, schema errors with JSON pointers) and which clauses the test checks.
import { isDeepStrictEqual } from 'node:util';
import { validateAgainst, type SchemaIssue } from '../../schemas/registry.js';
import type { Exchange } from './client.js';
import { ConformanceFailure } from './errors.js';
import { redact } from './redact.js';
import { currentTest } from './current-test.js';

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

/** Throws a ConformanceFailure naming the running test's clauses and the exchange. */
export function fail(what: string, detail: string, exchange?: Exchange): never {
  const test = currentTest();
  const clauses = test ? ` [clauses: ${test.clauses.join(', ')}]` : '';
  const last = exchange ?? test?.evidence[test.evidence.length - 1];
  throw new ConformanceFailure(redact(`${what}${clauses}\n  ${detail}${describeExchange(last)}`));
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
 * `error`. A RegExp matches a string message; an exact string must be equal.
 */
export function expectError(
  exchange: Exchange,
  status: number | number[],
  text?: { message?: string | RegExp; error?: string | RegExp; either?: string | RegExp },
): void {
  expectStatus(exchange, status);
  if (exchange.method === 'HEAD') return; // HEAD answers carry no body
  expectSchema(exchange, 'error');
  const body = exchange.body as { message?: unknown; error?: unknown };
  const checks: [string, unknown, string | RegExp | undefined][] = [
    ['message', body.message, text?.message],
    ['error', body.error, text?.error],
  ];
  if (text?.either !== undefined) {
    const found = [body.message, body.error].some((v) => matches(v, text.either!));
    if (!found) fail('expected the error text', `wanted "message" or "error" to be ${show(String(text.either))}`, exchange);
  }
  for (const [key, actual, wanted] of checks) {
    if (wanted !== undefined && !matches(actual, wanted)) {
      fail(`expected the error body's "${key}"`, `wanted ${wanted instanceof RegExp ? String(wanted) : show(wanted)}, got ${show(actual)}`, exchange);
    }
  }
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
