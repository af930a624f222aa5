// The comparison of one test's normalized exchanges on two sides: alignment, then status, headers and
// body by JSON pointer (RFC 6901).
//
// Alignment. Exchanges pair by index when both sides sent the same requests (the usual case). When the
// requests differ, they are aligned on their requests (a longest common subsequence of method, path,
// query, body and actor), and requests left between two aligned ones pair up in order (a
// `request-changed` difference) or stay alone (`exchange-missing`). A request repeated back to back
// (a test polling for an answer GitLab completes in the background) is one step: its last answer is
// compared, and how many times each side sent it is shown beside the step, not counted: it follows the
// target's timing.
//
// Arrays are compared element by element, in order: GitLab's lists have an order (by id, by access
// level, by name), and a client that reads the first element sees a reordering. Two arrays with the
// same elements in another order are one `order-changed` difference at the array, instead of one per
// element. A list whose order follows values that differ from run to run (a random name) shows up
// between two baselines, as noise.
import type { NormalizedExchange } from './normalize.js';
import { pointerToken } from './normalize.js';

export const DIFFERENCE_KINDS = [
  'status',
  'header',
  'body-field-added',
  'body-field-removed',
  'value-changed',
  'type-changed',
  'order-changed',
  'request-changed',
  'exchange-missing',
  'test-missing',
] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

/** One difference inside an exchange, before the test's context is added. */
export interface RawDifference {
  kind: DifferenceKind;
  /** `status`, `header:<name>`, `body:<pointer>`, `request:<pointer>` or `exchange`. */
  locus: string;
  header?: string;
  /** RFC 6901 pointer into the response body (`body:` loci) or into `{actor, method, path, query, body}` (`request:` loci). */
  pointer?: string;
  /** The side's value; absent when the side has none. */
  baseline?: unknown;
  candidate?: unknown;
}

/** A step of a test: one request, or the same request sent several times back to back. */
export interface Step {
  /** The exchange compared: the last of the repeats. */
  exchange: NormalizedExchange;
  repeats: number;
  signature: string;
}

export interface AlignedStep {
  baseline?: Step;
  candidate?: Step;
  differences: RawDifference[];
}

const signatureOf = (e: NormalizedExchange) => JSON.stringify([e.actor, e.method, e.path, e.query, e.requestBody ?? null]);

export function stepsOf(exchanges: NormalizedExchange[]): Step[] {
  const steps: Step[] = [];
  for (const exchange of exchanges) {
    const signature = signatureOf(exchange);
    const last = steps.at(-1);
    if (last && last.signature === signature) {
      last.exchange = exchange;
      last.repeats++;
    } else steps.push({ exchange, repeats: 1, signature });
  }
  return steps;
}

/** Pairs of positions in `a` and `b` of a longest common subsequence of equal signatures. */
function commonSubsequence(a: string[], b: string[]): [number, number][] {
  const table = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (table[i + 1][j] >= table[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

/** The steps of two sides in pairs (a side is absent where the other has a step it lacks). */
export function align(a: Step[], b: Step[]): { baseline?: Step; candidate?: Step }[] {
  if (a.length === b.length && a.every((step, i) => step.signature === b[i].signature)) return a.map((step, i) => ({ baseline: step, candidate: b[i] }));
  const anchors = [...commonSubsequence(a.map((s) => s.signature), b.map((s) => s.signature)), [a.length, b.length] as [number, number]];
  const out: { baseline?: Step; candidate?: Step }[] = [];
  let i = 0;
  let j = 0;
  for (const [ai, bj] of anchors) {
    // The steps between two anchors: paired in order, the rest alone.
    while (i < ai && j < bj) out.push({ baseline: a[i++], candidate: b[j++] });
    while (i < ai) out.push({ baseline: a[i++] });
    while (j < bj) out.push({ candidate: b[j++] });
    if (ai < a.length) out.push({ baseline: a[i++], candidate: b[j++] });
  }
  return out;
}

type Emit = (kind: DifferenceKind, pointer: string, baseline: unknown, candidate: unknown) => void;

const typeOf = (value: unknown, pointer: string, numericIds: ReadonlySet<string>) =>
  numericIds.has(pointer) ? 'number' : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** JSON with object keys sorted: equal for equal values, whatever the order of their keys. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Differences of two JSON values, by pointer. Key order inside an object is not a difference (JSON objects have none). */
export function compareJson(a: unknown, b: unknown, emit: Emit, pointer = '', aIds: ReadonlySet<string> = new Set(), bIds: ReadonlySet<string> = new Set()): void {
  if (a === undefined && b === undefined) return;
  if (a === undefined) return emit('body-field-added', pointer, undefined, b);
  if (b === undefined) return emit('body-field-removed', pointer, a, undefined);
  const type = typeOf(a, pointer, aIds);
  if (type !== typeOf(b, pointer, bIds)) return emit('type-changed', pointer, a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length === b.length && a.length > 1) {
      const ca = a.map(canonical);
      const cb = b.map(canonical);
      if (ca.some((c, i) => c !== cb[i]) && [...ca].sort().join('\n') === [...cb].sort().join('\n')) return emit('order-changed', pointer, a, b);
    }
    for (let i = 0; i < Math.max(a.length, b.length); i++) compareJson(a[i], b[i], emit, `${pointer}/${i}`, aIds, bIds);
    return;
  }
  if (type === 'object') {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
      compareJson(Object.hasOwn(ao, key) ? ao[key] : undefined, Object.hasOwn(bo, key) ? bo[key] : undefined, emit, `${pointer}/${pointerToken(key)}`, aIds, bIds);
    }
    return;
  }
  if (a !== b) emit('value-changed', pointer, a, b);
}

/** Only the keys that are set: a side without a value has no key. */
function raw(kind: DifferenceKind, locus: string, extra: Partial<RawDifference>, baseline: unknown, candidate: unknown): RawDifference {
  const out: RawDifference = { kind, locus, ...extra };
  if (baseline !== undefined) out.baseline = baseline;
  if (candidate !== undefined) out.candidate = candidate;
  return out;
}

const requestOf = (e: NormalizedExchange) => ({ actor: e.actor, method: e.method, path: e.path, query: e.query, body: e.requestBody });

/** The differences of two aligned exchanges: request, status, headers, body. */
function compareExchanges(a: NormalizedExchange, b: NormalizedExchange): RawDifference[] {
  const out: RawDifference[] = [];
  if (signatureOf(a) !== signatureOf(b)) {
    compareJson(requestOf(a), requestOf(b), (_kind, pointer, x, y) => out.push(raw('request-changed', `request:${pointer}`, { pointer }, x, y)));
  }
  if (a.status !== b.status) out.push(raw('status', 'status', {}, a.status, b.status));
  for (const name of [...new Set([...Object.keys(a.headers), ...Object.keys(b.headers)])].sort()) {
    if (a.headers[name] !== b.headers[name]) out.push(raw('header', `header:${name}`, { header: name }, a.headers[name], b.headers[name]));
  }
  const body = (kind: DifferenceKind, pointer: string, x: unknown, y: unknown) => out.push(raw(kind, `body:${pointer}`, { pointer }, x, y));
  if (a.bodyEncoding !== b.bodyEncoding) {
    if (a.bodyEncoding === 'none') body('body-field-added', '', undefined, b.body);
    else if (b.bodyEncoding === 'none') body('body-field-removed', '', a.body, undefined);
    else body('type-changed', '', a.body, b.body);
  } else if (a.bodyEncoding === 'json') {
    compareJson(a.body, b.body, body, '', a.numericIds, b.numericIds);
  } else if (a.body !== b.body) {
    body('value-changed', '', a.body, b.body);
  }
  return out;
}

/** Both sides' steps of one test, aligned, each pair with its differences (an unpaired step is `exchange-missing`). */
export function compareSteps(a: NormalizedExchange[], b: NormalizedExchange[]): AlignedStep[] {
  return align(stepsOf(a), stepsOf(b)).map(({ baseline, candidate }) => {
    if (baseline && candidate) return { baseline, candidate, differences: compareExchanges(baseline.exchange, candidate.exchange) };
    const present = (baseline ?? candidate)!.exchange;
    const summary = `${present.method} ${present.path} → ${present.status}`;
    return { baseline, candidate, differences: [raw('exchange-missing', 'exchange', {}, baseline ? summary : undefined, candidate ? summary : undefined)] };
  });
}
