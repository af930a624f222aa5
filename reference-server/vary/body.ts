// What the vary layer does to a JSON answer: lists whose order GitLab leaves open in another order
// (lists.ts), unknown fields added to every object, timestamps at another precision, keys in another
// order, and strings escaped otherwise. Each choice is the seed's, for the route and the place in
// the answer (random.ts), so the same seed answers the same request the same way.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hash, pick } from './random.js';
import { OPEN_NESTED_LISTS, openOrderOf, wholeList, type OpenOrder } from './lists.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A row's identity for a shuffle: its id, else its whole text. */
const identity = (row: unknown) => (isObject(row) && (typeof row.id === 'number' || typeof row.id === 'string') ? String(row.id) : JSON.stringify(row));

/** The rows sorted by the seed's draw for each (a shuffle that does not depend on where a row was). */
function shuffled<T>(rows: readonly T[], seed: number, where: string): T[] {
  return rows
    .map((row) => ({ row, draw: hash(seed, 'row', where, identity(row)) }))
    .sort((a, b) => a.draw - b.draw)
    .map((r) => r.row);
}

/** A list in an order GitLab could give it: runs of equal key shuffled, or (whole lists) sorted by key, ties shuffled. */
function reorder(rows: readonly unknown[], order: OpenOrder, seed: number, where: string, whole: boolean): unknown[] {
  const key = (row: unknown) => (isObject(row) ? order.key(row) : '');
  if (!order.serverAgrees) {
    if (!whole) return [...rows];
    const draws = new Map(rows.map((row) => [row, hash(seed, 'row', where, identity(row))]));
    return [...rows].sort((a, b) => {
      const x = key(a);
      const y = key(b);
      return x < y ? -1 : x > y ? 1 : draws.get(a)! - draws.get(b)!;
    });
  }
  const out: unknown[] = [];
  for (let start = 0; start < rows.length; ) {
    let end = start + 1;
    while (end < rows.length && key(rows[end]) === key(rows[start])) end++;
    out.push(...shuffled(rows.slice(start, end), seed, where));
    start = end;
  }
  return out;
}

/**
 * Values of keys that are maps of data, not entities: an extra key there would be an extra error
 * (`message` of a validation error or of an invitation result, lib/api/helpers.rb render_validation_error!),
 * an extra queued user (`queued_users`, username to text: schemas/member-add-result.schema.json) or an extra commit trailer (lib/api/entities/commit.rb `trailers`, `extended_trailers`).
 */
const DATA_MAPS = new Set(['message', 'queued_users', 'trailers', 'extended_trailers']);

/** The spec gives these "timestamp with milliseconds" (api-spec.md, Blame range): they keep three digits. */
const MILLISECOND_FIELDS = new Set(['authored_date', 'committed_date']);

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/;

/**
 * A timestamp at the seed's precision: whole seconds, milliseconds or microseconds, always UTC with
 * `Z` (the spec's "ISO 8601 UTC … sometimes with .sss milliseconds"). GitLab writes them with
 * ActiveSupport's `as_json` (`xmlschema(ActiveSupport::JSON::Encoding.time_precision)`, activesupport
 * lib/active_support/time_with_zone.rb), whose precision is one setting for the whole application,
 * so one precision for every field (truncated, as a coarser clock would read: the order of two
 * times never turns round); the stored times here have milliseconds. Dates (`YYYY-MM-DD`) stay dates.
 */
function timestamp(value: string, key: string, seed: number): string {
  // Only fields named as GitLab names times (`…_at`, `…_date`): a file line or a message stays as written.
  const match = /_(at|date)$/.test(key) ? TIMESTAMP.exec(value) : null;
  if (!match) return value;
  const digits = MILLISECOND_FIELDS.has(key) ? 3 : pick([0, 3, 6], seed, 'precision');
  const fraction = (match[2] ?? '').padEnd(digits, '0').slice(0, digits);
  return `${match[1]}${digits > 0 ? `.${fraction}` : ''}Z`;
}

/** Values of every JSON type for unknown fields. */
const EXTRA_VALUES: ((draw: number) => unknown)[] = [
  (draw) => `vary-${draw.toString(36)}`,
  (draw) => draw % 100_000,
  (draw) => (draw % 10_000) / 7,
  (draw) => draw % 2 === 0,
  () => null,
  (draw) => ({ x_vary_nested: draw % 97, x_vary_list: ['a', draw % 5] }),
  (draw) => [draw % 3, `vary-${draw % 11}`, null],
  () => '',
  () => [],
  () => ({}),
];

/**
 * Unknown fields a client must ignore: TARGET-CONTRACT.md §4 ("Responses may carry fields that the
 * schemas do not name (GitLab adds fields over time)"). Named `x_vary_<n>`, which no GitLab entity uses.
 */
function extraFields(seed: number, where: string): [string, unknown][] {
  const count = 1 + (hash(seed, 'extra count', where) % 2);
  return Array.from({ length: count }, (_, i) => {
    const draw = hash(seed, 'extra', where, i);
    return [`x_vary_${i}${draw % 1000}`, EXTRA_VALUES[draw % EXTRA_VALUES.length](draw)];
  });
}

/** Every object of the answer decorated: timestamps, unknown fields (not in data maps), keys in the seed's order. */
function decorate(value: unknown, seed: number, where: string, key: string, dataMap: boolean): unknown {
  if (typeof value === 'string') return timestamp(value, key, seed);
  if (Array.isArray(value)) {
    const items = OPEN_NESTED_LISTS.has(key) ? shuffled(value, seed, where) : value;
    return items.map((item) => decorate(item, seed, `${where}/*`, key, false));
  }
  if (!isObject(value)) return value;
  const entries: [string, unknown][] = Object.entries(value).map(([k, v]) => [k, decorate(v, seed, `${where}/${k}`, k, DATA_MAPS.has(k))]);
  if (!dataMap) entries.push(...extraFields(seed, where));
  // RFC 8259 §4: "An object is an unordered collection of zero or more name/value pairs".
  entries.sort(([a], [b]) => hash(seed, 'key', where, a) - hash(seed, 'key', where, b));
  return Object.fromEntries(entries);
}

/**
 * RFC 8259 §7: any character may be written as a `\u` escape, and `/` as `\/`. Rails escapes
 * `<`, `>` and `&` (ActiveSupport::JSON::Encoding.escape_html_entities_in_json); others escape every
 * character beyond ASCII. The characters escaped here appear only inside strings of JSON text.
 */
const ESCAPES: ((json: string) => string)[] = [
  (json) => json,
  (json) => json.replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  (json) => json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/\//g, '\\/'),
];

/** The answer's JSON text, varied; text that is no JSON is returned as it is. */
export function varyJson(request: FastifyRequest, reply: FastifyReply, payload: string, seed: number, route: string): string {
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return payload;
  }
  const where = `${request.method} ${route}`;
  const order = Array.isArray(body) && reply.statusCode < 300 ? openOrderOf(request, route) : undefined;
  if (order) body = reorder(body as unknown[], order, seed, where, wholeList(reply));
  const json = JSON.stringify(decorate(body, seed, where, '', false));
  return pick(ESCAPES, seed, 'escape')(json);
}
