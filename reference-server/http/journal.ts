// The request journal: every API request the server answered (not its own /-/reference/ endpoints),
// with its method, path, query, body, who sent it, the status and the time, for a test to assert on
// what a client did (as WireMock's /__admin/requests and verify()). Secrets are masked before they
// are kept: any key naming a token, password or secret (private_token, invite_token, password, …) and
// the credentials of a URL (a mirror's https://user:pass@host). The journal is a ring of the latest
// JOURNAL_CAPACITY requests, each string in a body cut to STRING_LIMIT characters, so it stays small
// over a long run. Read at GET /-/reference/requests (reference-server/reference-endpoints.ts), server.requests(), and
// emptied by reset.
import type { FastifyInstance } from 'fastify';
import type { Store } from '../state/store.js';
import { presentedToken } from './auth.js';

export const JOURNAL_CAPACITY = 10_000;
const STRING_LIMIT = 2_000;
const MASK = '[MASKED]';
const SECRET_KEY = /token|password|secret/i;
const URL_CREDENTIALS = /(\/\/)[^/@\s]+@/g;

/** What answered a request other than a route of the server (a stub), by request. */
export const answeredBy = new WeakMap<object, string>();

export interface JournalEntry {
  /** Counts from 1 since the start; not reset. */
  seq: number;
  /** When the request came, ISO 8601. */
  time: string;
  method: string;
  /** The path as sent (percent-encoding kept), without the query. */
  path: string;
  query: Record<string, unknown>;
  body: unknown;
  /** The username of the token's owner; null without a token or with an unknown one. */
  user: string | null;
  status: number;
  durationMs: number;
  /** The server's route that answered (`/api/v4/projects/:id`), a stub (`stub GET /api/v4/…`), or null: not modelled here. */
  route: string | null;
}

export interface JournalFilter {
  method?: string;
  /** A prefix of the path, or a glob where `*` is one segment's part and `**` anything. */
  path?: string;
  /** Entries from this time on (an ISO 8601 time or a Date). */
  since?: string | Date;
}

export function mask(value: unknown, key = ''): unknown {
  if (SECRET_KEY.test(key) && value !== undefined && value !== null && value !== '') return MASK;
  if (typeof value === 'string') {
    const masked = value.replace(URL_CREDENTIALS, '$1*****@');
    return masked.length > STRING_LIMIT ? `${masked.slice(0, STRING_LIMIT)}… (${masked.length} characters)` : masked;
  }
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  if (Array.isArray(value)) return value.map((item) => mask(item, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v, k)]));
  return value;
}

function queryOf(search: string): Record<string, unknown> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const seen = query[key];
    query[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return mask(query) as Record<string, unknown>;
}

function pathMatcher(pattern: string): (path: string) => boolean {
  if (!pattern.includes('*')) return (path) => path.startsWith(pattern);
  const source = pattern
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const glob = new RegExp(`^${source}$`);
  return (path) => glob.test(path);
}

/** Throws a message for a filter it cannot apply (an unknown time). */
export function matcher(filter: JournalFilter): (entry: JournalEntry) => boolean {
  const since = filter.since === undefined ? undefined : new Date(filter.since).getTime();
  if (since !== undefined && Number.isNaN(since)) throw new Error(`since must be an ISO 8601 time, got "${String(filter.since)}"`);
  const method = filter.method?.toUpperCase();
  const path = filter.path === undefined ? undefined : pathMatcher(filter.path);
  return (entry) => {
    if (method !== undefined && entry.method !== method) return false;
    if (since !== undefined && Date.parse(entry.time) < since) return false;
    if (path === undefined) return true;
    let decoded = entry.path;
    try {
      decoded = decodeURIComponent(entry.path);
    } catch {
      // A path with a stray % stays as sent.
    }
    return path(entry.path) || path(decoded);
  };
}

export class Journal {
  private readonly ring: JournalEntry[] = [];
  private next = 0;
  private seq = 0;

  constructor(readonly capacity = JOURNAL_CAPACITY) {}

  add(entry: Omit<JournalEntry, 'seq'>): JournalEntry {
    const kept = { seq: ++this.seq, ...entry };
    if (this.ring.length < this.capacity) this.ring.push(kept);
    else this.ring[this.next] = kept;
    this.next = (this.next + 1) % this.capacity;
    return kept;
  }

  /** The entries kept, oldest first, that match `filter`. */
  entries(filter: JournalFilter = {}): JournalEntry[] {
    const ordered = this.ring.length < this.capacity ? this.ring : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    return ordered.filter(matcher(filter));
  }

  clear(): void {
    this.ring.length = 0;
    this.next = 0;
  }
}

/** Journals every request `app` answers; `onEntry` sees each entry as it is kept. */
export function installJournal(app: FastifyInstance, store: Store, journal: Journal, onEntry?: (entry: JournalEntry) => void): void {
  const arrived = new WeakMap<object, number>();
  app.addHook('onRequest', (request, _reply, done) => {
    arrived.set(request, Date.now());
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const url = request.originalUrl;
    const queryAt = url.indexOf('?');
    const token = presentedToken(request);
    const record = token === undefined ? undefined : store.tokens.get(token);
    const durationMs = Math.round(reply.elapsedTime * 10) / 10;
    const entry = journal.add({
      time: new Date(arrived.get(request) ?? Date.now() - durationMs).toISOString(),
      method: request.method,
      path: queryAt === -1 ? url : url.slice(0, queryAt),
      query: queryAt === -1 ? {} : queryOf(url.slice(queryAt + 1)),
      body: mask(request.body ?? null),
      user: (record && store.users.get(record.userId)?.username) ?? null,
      status: reply.statusCode,
      durationMs,
      route: answeredBy.get(request) ?? (request.is404 ? null : (request.routeOptions.url ?? null)),
    });
    onEntry?.(entry);
    done();
  });
}

/** One line for --log: `GET /api/v4/projects?page=2 200 root 3.1 ms`, the query masked. */
export function logLine(entry: JournalEntry): string {
  const query = new URLSearchParams(Object.entries(entry.query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((item): [string, string] => [k, String(item)]))).toString();
  const unmodelled = entry.route === null ? ' (not modelled here)' : '';
  return `${entry.time} ${entry.method} ${entry.path}${query ? `?${query}` : ''} ${entry.status}${unmodelled} ${entry.user ?? '-'} ${entry.durationMs} ms`;
}
