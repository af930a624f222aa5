// Normalization: what two runs of one target answer differently only because they are two runs (the
// ids and names of the run's own objects, the run prefix, the target's address, the time, per-request
// headers) is replaced by a token that says what it is, so that two runs of one target compare equal.
// Each rule is one named function or table below, with what it hides and why that hides no
// difference between GitLab versions; docs/differential.md lists them for readers of a report.
//
// Tokens are written `<…>`: `<user:owner>`, `<group#1>` (a symbol of the test's table), `<mirror~2>`
// (the second object of that kind the test met that its table does not list), `<user:owner.email>` (a
// value naming a symbol), `<prefix>`, `<origin>`, `<time:…>`, `<date>`, `<commit~1>`.
import { createHash } from 'node:crypto';
import type { BodyEncoding, ExchangeLine, HeaderValue, SymbolEntry, TranscriptHeader, TranscriptTest } from './transcript.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One exchange as the diff compares it. */
export interface NormalizedExchange {
  index: number;
  actor: string;
  method: string;
  /** The request path with its ids and names replaced (query apart). */
  path: string;
  query: Record<string, string | string[]>;
  requestBody?: unknown;
  status: number;
  headers: Record<string, string>;
  bodyEncoding: BodyEncoding;
  body?: unknown;
  /** RFC 6901 pointers into `body` of the ids that were JSON numbers before they became tokens (so a number turned string is still seen). */
  numericIds: ReadonlySet<string>;
}

/** RFC 6901: one reference token. */
export const pointerToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One of `words` (longest first), not where a letter or digit adjoins it; undefined for none. */
function wordsPattern(words: string[], flags: string): RegExp | undefined {
  if (words.length === 0) return undefined;
  const alternatives = [...words].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`(?<![A-Za-z0-9])(?:${alternatives.join('|')})(?![A-Za-z0-9])`, flags);
}

// ---- rules on text ---------------------------------------------------------------------------

/**
 * The target's origin (`http://127.0.0.1:41234`) becomes `<origin>`, then its host[:port] alone
 * (as in `git@host:…`) `<host>`. Hides: where the target was reached. Never a version difference: a
 * version changes paths, not the address it was reached at (the rest of every URL is kept).
 */
export function originToken(text: string, origin: string): string {
  if (!text.includes(origin)) return text;
  return text.split(origin).join('<origin>');
}

export function hostToken(text: string, host: string): string {
  return host && text.includes(host) ? text.split(host).join('<host>') : text;
}

/**
 * The run prefix `cnf-<run id>` becomes `<prefix>`, its form in usernames `cnf_<run id>` `<prefix_>`,
 * and the run id alone `<run-id>`. Hides: which run made an object whose symbol the test's table does
 * not list (names the tests derive from the prefix). Never a version difference: the prefix is the
 * suite's choice, the same for every target; what follows it is kept.
 */
export function runPrefixToken(text: string, prefix: string, runId: string): string {
  if (!text.includes(runId)) return text;
  return text.split(prefix).join('<prefix>').split(prefix.replace(/-/g, '_')).join('<prefix_>').split(runId).join('<run-id>');
}

const TIMESTAMP = /(?<![\d.:])(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])([T ])([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2}| UTC)?(?![\d])/g;
const DATE = /(?<![\d.:])(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?![\d:T])/g;
const HTTP_DATE = /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT\b/g;

/**
 * A timestamp becomes `<time:LAYOUT>`, where LAYOUT keeps the separator, the number of fraction
 * digits and the zone as written (`<time:YYYY-MM-DDThh:mm:ss.sssZ>`, `<time:YYYY-MM-DDThh:mm:ssZ>`,
 * `<time:YYYY-MM-DDThh:mm:ss.sss+01:00>`); a date `YYYY-MM-DD` becomes `<date>`; an HTTP date
 * (`Wed, 26 Nov 2026 20:00:00 GMT`) `<http-date>`. Hides: the instant, which depends on when the run
 * ran. Never a version difference in form: a date that became a timestamp, another precision or
 * zone, null for a time, all still differ. What it does hide: an instant that moved for another
 * reason (an expiry a day later); the tests' clauses check the expiries they set.
 */
export function timestampKind(text: string): string {
  return text
    .replace(TIMESTAMP, (...m: string[]) => `<time:YYYY-MM-DD${m[4]}hh:mm:ss${m[8] ? `.${'s'.repeat(m[8].length - 1)}` : ''}${m[9] ?? ''}>`)
    .replace(DATE, '<date>')
    .replace(HTTP_DATE, '<http-date>');
}

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const SHA_ANYWHERE = /\b(?:[0-9a-f]{64}|[0-9a-f]{40})\b/g;

/** Keys whose value is a commit id (a request's or an answer's). */
const COMMIT_KEYS = new Set(['commit_id', 'last_commit_id', 'start_sha', 'sha', 'parent_ids', 'ref']);
/** Headers with a commit id: `X-Gitlab-Commit-Id`, `X-Gitlab-Last-Commit-Id` (whatever the prefix). */
const COMMIT_HEADER = /^x-[a-z0-9]+-(?:last-)?commit-id$/;

// ---- ids by position ------------------------------------------------------------------------

/**
 * What an object is, from its fields, so that its `id` is read as the right kind (a group and a
 * project, a user and a membership may have equal ids). GitLab's entities: Member and BillableMember
 * (username: a user; their id is the user's), Invitation and PendingMember (a membership row: their
 * id is the member's), Membership (source_id), remote mirror, commit, project, group.
 */
export function entityOf(object: Json): string | undefined {
  const has = (key: string) => Object.hasOwn(object, key);
  if (has('invite_email') || (has('approved') && has('invited')) || (has('source_id') && has('source_full_name'))) return 'member';
  if (has('parent_ids') || has('committed_date') || has('authored_date')) return 'commit';
  if (has('url') && (has('update_status') || has('only_protected_branches') || has('keep_divergent_refs'))) return 'mirror';
  if (has('path_with_namespace') || has('name_with_namespace')) return 'project';
  if (has('full_path') || has('full_name')) return 'group';
  if (has('username')) return 'user';
  return undefined;
}

/** A Membership's source: by `source_type` (Namespace, Project) or by the kind of its members page URL. */
function sourceKindOf(object: Json | undefined): string | undefined {
  if (!object) return undefined;
  if (object.source_type === 'Namespace' || object.source_type === 'Group') return 'group';
  if (object.source_type === 'Project') return 'project';
  if (typeof object.source_members_url === 'string') {
    if (/\/-\/group_members\b/.test(object.source_members_url)) return 'group';
    if (/\/-\/project_members\b/.test(object.source_members_url)) return 'project';
  }
  return undefined;
}

/**
 * The kind of object an id-bearing position names, or undefined when the position bears no id: `id`
 * (the kind of its object, `fallback` for a request's own parameters), `source_id`, `user_id`,
 * `*_user_id`, `*_by_id`, `group_id`, `namespace_id`, `project_id`, `member_id`, `parent_id` and
 * every other `*_id` / `*_ids` (named by what precedes `_id`).
 */
export function idKindOf(key: string | undefined, parent: Json | undefined, fallback: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  const name = key.replace(/\[\]$/, '');
  if (name === 'id') return (parent && entityOf(parent)) ?? fallback ?? 'id';
  if (name === 'source_id') return sourceKindOf(parent) ?? 'source';
  if (name === 'parent_id') return (parent && entityOf(parent)) ?? 'parent';
  if (/(?:^|_)user_ids?$/.test(name) || /_by_id$/.test(name)) return 'user';
  if (/(?:^|_)group_ids?$/.test(name) || name === 'namespace_id') return 'group';
  if (/(?:^|_)project_ids?$/.test(name)) return 'project';
  const other = /^(.+)_ids?$/.exec(name);
  return other ? other[1] : undefined;
}

/** The collections of the API whose next path segment is an id of a kind: `/groups/5`, `/members/31`. */
const COLLECTION_KIND: Record<string, string> = {
  groups: 'group',
  projects: 'project',
  users: 'user',
  members: 'user',
  billable_members: 'user',
  access_requests: 'user',
  remote_mirrors: 'mirror',
};

/** The kind of the numeric path segment at `i` (`…/members/:member_id/approve` names a membership; `…/members/all/:user_id` a user). */
function segmentKind(segments: string[], i: number): string | undefined {
  const previous = segments[i - 1] === 'all' ? segments[i - 2] : segments[i - 1];
  if (previous === 'members' && segments[i + 1] === 'approve') return 'member';
  return COLLECTION_KIND[previous ?? ''];
}

/** The spec's form of a path segment (client.ts `segment`: `/` and `.` encoded), and encodeURIComponent's. */
const encodings = (value: string) => [...new Set([value, encodeURIComponent(value), encodeURIComponent(value).replace(/\./g, '%2E')])];

// ---- per-request headers -------------------------------------------------------------------

/**
 * Headers whose value is per request and says nothing about the API: `x-request-id`, `x-runtime`,
 * the rate limiter's counters (`ratelimit-observed`, `-remaining`, `-reset`, `-resettime`, also with
 * `x-`), a CDN's or load balancer's trace (`cf-ray`, `gitlab-lb`, `gitlab-sv`). Their presence and
 * name are still compared (a header that appears or goes is a difference); only the value becomes
 * `<per-request>`.
 */
export const PER_REQUEST_HEADERS = /^(x-request-id|x-runtime|(x-)?ratelimit-(observed|remaining|reset|resettime)|cf-ray|gitlab-lb|gitlab-sv)$/;

/** `x-gitlab-meta`: its `correlation_id` is per request (the rest, e.g. its `version`, is kept). */
export function correlationId(value: string): string {
  return value.replace(/("correlation_id"\s*:\s*")[^"]*"/, '$1<per-request>"');
}

/**
 * `etag`: the hash of the content, which embeds the run's ids and names, becomes `<etag>`; a weak
 * tag stays weak (`W/<etag>`). The content itself is compared as the body.
 */
export function etagKind(value: string): string {
  return value.startsWith('W/') ? 'W/<etag>' : '<etag>';
}

/**
 * `content-length`: the length of a body whose ids and names are as long as the run made them
 * becomes `<length>`; `0` is kept (an empty answer stays different from a non-empty one). The body is
 * compared itself, so a length a version changes shows as a body difference.
 */
export function contentLengthKind(value: string): string {
  return value.trim() === '0' ? '0' : '<length>';
}

/** `set-cookie`: each cookie's value (a session) becomes `<value>`; its name and attributes are kept. */
export function cookieValues(value: string): string {
  return value
    .split('\n')
    .map((cookie) => cookie.replace(/^([^=;]+)=[^;]*/, '$1=<value>'))
    .join('\n');
}

// ---- one test ------------------------------------------------------------------------------

interface ValueLabel {
  value: string;
  label: string;
}

/** Applies every rule to the exchanges of one test, with the test's symbol table. */
export class TestNormalizer {
  private readonly origin: string;
  private readonly host: string;
  private readonly prefix: string;
  private readonly runId: string;
  /** kind → id → symbol */
  private readonly symbols = new Map<string, Map<number, string>>();
  /** kind → raw id → `<kind~n>`, numbered in the order the test meets them. */
  private readonly ordinals = new Map<string, Map<string, string>>();
  private readonly commits = new Map<string, string>();
  private exactPattern: RegExp | undefined;
  private exactLabels = new Map<string, string>();
  private foldedPattern: RegExp | undefined;
  /** Lower-cased value → label, for the values that carry the run prefix. */
  private readonly foldedLabels = new Map<string, string>();

  constructor(header: TranscriptHeader, test: TranscriptTest) {
    this.origin = header.target.origin.replace(/\/+$/, '');
    this.host = URL.canParse(this.origin) ? new URL(this.origin).host : '';
    this.prefix = header.prefix;
    this.runId = header.runId || header.prefix;
    for (const entry of test.line.symbols) {
      if (entry.id === null) continue;
      const byId = this.symbols.get(entry.kind) ?? new Map<number, string>();
      if (!byId.has(entry.id)) byId.set(entry.id, entry.symbol);
      this.symbols.set(entry.kind, byId);
    }
    const emails = this.scan(test.exchanges);
    this.buildValues(test.line.symbols, emails);
  }

  /**
   * One pass over the test's raw exchanges, in order, for what the rules need to know in advance: the
   * commit ids in commit positions (numbered in order of appearance), and the e-mail addresses that
   * carry the run prefix (whose hashes avatars show).
   */
  private scan(exchanges: ExchangeLine[]): Set<string> {
    const emails = new Set<string>();
    const prefixes = [this.prefix, this.prefix.replace(/-/g, '_')];
    const noteSha = (value: unknown) => {
      if (typeof value === 'string' && SHA.test(value) && !this.commits.has(value)) this.commits.set(value, `<commit~${this.commits.size + 1}>`);
    };
    const walk = (value: unknown, key: string | undefined, parent: Json | undefined) => {
      if (Array.isArray(value)) value.forEach((item) => walk(item, key, parent));
      else if (isObject(value)) for (const [k, v] of Object.entries(value)) walk(v, k, value);
      else if (typeof value === 'string') {
        if (key !== undefined && (COMMIT_KEYS.has(key) || (key === 'id' && parent && entityOf(parent) === 'commit'))) noteSha(value);
        if (value.includes('@') && prefixes.some((p) => value.includes(p))) for (const m of value.match(/[^\s"'<>@/:,;]+@[A-Za-z0-9.-]+/g) ?? []) emails.add(m);
      }
    };
    for (const exchange of exchanges) {
      walk(exchange.request.query, undefined, undefined);
      walk(exchange.request.body, undefined, undefined);
      for (const [name, value] of Object.entries(exchange.response.headers)) if (COMMIT_HEADER.test(name.toLowerCase())) noteSha(String(value));
      walk(exchange.response.body, undefined, undefined);
    }
    return emails;
  }

  /**
   * Symbol values: every string of the table (usernames, names, e-mails, paths, full paths) becomes
   * `<symbol.field>` (`<user:owner.username>`; `<symbol.N>` for a list of values) wherever it occurs,
   * longest first, not inside a longer word (a value is not replaced where a letter or digit adjoins
   * it), as sent (and URL-encoded). The MD5 and SHA-256 of an e-mail's address (the avatar URL's
   * hash) become `<md5(…)>`, `<sha256(…)>`, also for e-mails with the run prefix the table does not
   * list. A value that carries the run prefix is also found in another case, and says so:
   * `<…:lowercase>`, `<…:other-case>` (other values only as written: `root` is not `Root`).
   * Hides: which of two equal runs' objects it was. Never a version difference: each field keeps its
   * own label, so a username shown where the name was still differs, and so does a change of case.
   */
  private buildValues(entries: SymbolEntry[], emails: Set<string>): void {
    const all: ValueLabel[] = [];
    const add = (value: string, label: string) => {
      if (value.length < 3) return;
      for (const form of encodings(value)) all.push({ value: form, label });
    };
    const hashes = (email: string, label: string) => {
      const normal = email.trim().toLowerCase();
      add(createHash('md5').update(normal).digest('hex'), `md5(${label})`);
      add(createHash('sha256').update(normal).digest('hex'), `sha256(${label})`);
    };
    for (const entry of entries) {
      const named = Array.isArray(entry.values) ? entry.values.map((v, i) => [String(i), v] as const) : Object.entries(entry.values);
      for (const [field, value] of named) {
        const label = `${entry.symbol}.${field}`;
        add(value, label);
        if (/^[^\s@]+@[^\s@]+$/.test(value)) {
          emails.delete(value);
          hashes(value, label);
        }
      }
    }
    for (const email of emails) hashes(email, runPrefixToken(email, this.prefix, this.runId));
    // Longest first; the first label of a value wins (the table's order).
    all.sort((a, b) => b.value.length - a.value.length);
    const exact = new Map<string, string>();
    for (const { value, label } of all) if (!exact.has(value)) exact.set(value, label);
    this.exactLabels = exact;
    this.exactPattern = wordsPattern([...exact.keys()], 'g');
    const prefixed = [...exact.keys()].filter((v) => v.includes(this.runId));
    for (const value of prefixed) if (!this.foldedLabels.has(value.toLowerCase())) this.foldedLabels.set(value.toLowerCase(), exact.get(value)!);
    this.foldedPattern = wordsPattern(prefixed, 'gi');
  }

  private symbolValues(text: string): string {
    let out = this.exactPattern ? text.replace(this.exactPattern, (found) => `<${this.exactLabels.get(found)}>`) : text;
    if (this.foldedPattern) {
      out = out.replace(this.foldedPattern, (found) => `<${this.foldedLabels.get(found.toLowerCase())}:${found === found.toLowerCase() ? 'lowercase' : 'other-case'}>`);
    }
    return out;
  }

  /**
   * Commit ids: a commit id met in a commit position (`commit_id`, `last_commit_id`, `id` of a commit,
   * `parent_ids`, a `ref` given as a commit id, the `X-…-Commit-Id` headers) becomes `<commit~n>`
   * wherever it occurs, numbered in the order the test meets them; `short_id`, its first characters,
   * `<commit~n:short>`. Hides: the hash, which covers the commit's time. Never a version difference:
   * which commit an answer names (the same as another answer's, or not) is kept. Blob ids and
   * content hashes depend on the content alone and are kept.
   */
  private commitIds(text: string): string {
    if (this.commits.size === 0) return text;
    return text.replace(SHA_ANYWHERE, (sha) => this.commits.get(sha) ?? sha);
  }

  private shortCommitId(text: string): string {
    if (!/^[0-9a-f]{7,39}$/.test(text)) return text;
    for (const [sha, token] of this.commits) if (sha.startsWith(text)) return `${token.slice(0, -1)}:short>`;
    return text;
  }

  /** Every text rule, in order: origin and host, symbol values and hashes, the run prefix, commit ids, times. */
  text(text: string): string {
    let out = hostToken(originToken(text, this.origin), this.host);
    out = this.symbolValues(out);
    out = runPrefixToken(out, this.prefix, this.runId);
    out = this.commitIds(out);
    return timestampKind(out);
  }

  /**
   * Ids: a number (or a string of digits, or a comma list of them) in an id-bearing position
   * (idKindOf; path segments after `groups`, `projects`, `members`, …) becomes the symbol the table
   * gives that id among objects of that kind (`<group#1>`; a group and a project of equal ids stay
   * apart), or else `<kind~n>`, numbered in the order the test meets them (`<mirror~1>`, `<user~2>`).
   * Hides: the number, which a sequence of the target handed out. Never a version difference: which
   * object a position names, and whether two positions name the same one, are kept; so is the JSON
   * type (`numericIds`).
   */
  private idToken(kind: string, raw: string): string {
    const symbol = /^\d+$/.test(raw) ? this.symbols.get(kind)?.get(Number(raw)) : undefined;
    if (symbol !== undefined) return `<${symbol}>`;
    const table = this.ordinals.get(kind) ?? new Map<string, string>();
    this.ordinals.set(kind, table);
    let token = table.get(raw);
    if (token === undefined) {
      token = `<${kind}~${table.size + 1}>`;
      table.set(raw, token);
    }
    return token;
  }

  private idList(kind: string, text: string): string | undefined {
    if (!/^\s*\d+(\s*,\s*\d+)*\s*$/.test(text)) return undefined;
    return text
      .split(',')
      .map((part) => this.idToken(kind, part.trim()))
      .join(',');
  }

  /** A JSON value: ids by position, `short_id`, keys and strings by the text rules. `fallback` is the kind of a request's own `id`. */
  json(value: unknown, pointer: string, key: string | undefined, parent: Json | undefined, numericIds: Set<string>, fallback?: string): unknown {
    if (Array.isArray(value)) return value.map((item, i) => this.json(item, `${pointer}/${i}`, key, parent, numericIds, fallback));
    if (isObject(value)) {
      const out: Json = {};
      for (const [k, v] of Object.entries(value)) {
        const name = this.text(k);
        out[name] = this.json(v, `${pointer}/${pointerToken(name)}`, k, value, numericIds, pointer === '' ? fallback : undefined);
      }
      return out;
    }
    const kind = idKindOf(key, parent, fallback);
    if (typeof value === 'number' && kind !== undefined && Number.isInteger(value) && kind !== 'commit') {
      numericIds.add(pointer);
      return this.idToken(kind, String(value));
    }
    if (typeof value === 'string') {
      const ids = kind !== undefined && kind !== 'commit' ? this.idList(kind, value) : undefined;
      if (ids !== undefined) return ids;
      return key === 'short_id' ? this.shortCommitId(value) : this.text(value);
    }
    return value;
  }

  /** A request path: ids after the collections that name them, every other segment by the text rules (as sent, still encoded). */
  path(raw: string): { path: string; sourceKind?: string } {
    const [path, query] = raw.split(/\?(.*)/s);
    const segments = path.split('/');
    let sourceKind: string | undefined;
    const out = segments.map((segment, i) => {
      const kind = /^\d+$/.test(segment) ? segmentKind(segments, i) : undefined;
      if ((segments[i - 1] === 'groups' || segments[i - 1] === 'projects') && sourceKind === undefined) sourceKind = COLLECTION_KIND[segments[i - 1]];
      return kind ? this.idToken(kind, segment) : this.text(segment);
    });
    const normalized = out.join('/');
    return { path: query === undefined ? normalized : `${normalized}?${this.queryString(query, sourceKind)}`, sourceKind };
  }

  private queryString(query: string, sourceKind: string | undefined): string {
    return query
      .split('&')
      .map((pair) => {
        const [name, value] = pair.split(/=(.*)/s);
        if (value === undefined) return this.text(name);
        const key = decodeURIComponent(name);
        const kind = idKindOf(key, undefined, sourceKind);
        const decoded = (() => {
          try {
            return decodeURIComponent(value.replace(/\+/g, ' '));
          } catch {
            return value;
          }
        })();
        return `${name}=${(kind !== undefined && this.idList(kind, decoded)) || this.text(value)}`;
      })
      .join('&');
  }

  /** URLs of the API inside a header (`link`, `location`): their paths and query by the path rule, the rest by the text rules. */
  private apiUrls(text: string): string {
    return text
      .split(/(\/api\/v4\/[^\s<>"',;]*)/)
      .map((part, i) => (i % 2 === 1 ? this.path(part).path : this.text(part)))
      .join('');
  }

  private header(name: string, value: string): string {
    if (PER_REQUEST_HEADERS.test(name)) return '<per-request>';
    if (name === 'x-gitlab-meta') return this.text(correlationId(value));
    if (name === 'etag') return etagKind(value);
    if (name === 'content-length') return contentLengthKind(value);
    if (name === 'set-cookie') return this.text(cookieValues(value));
    if (name === 'link' || name === 'location' || name === 'content-location') return this.apiUrls(value);
    return this.text(value);
  }

  exchange(exchange: ExchangeLine): NormalizedExchange {
    const { request, response } = exchange;
    const { path, sourceKind } = this.path(request.path);
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.query ?? {})) {
      const kind = idKindOf(name, undefined, sourceKind);
      const one = (v: string) => (kind !== undefined && this.idList(kind, v)) || this.text(v);
      query[this.text(name)] = Array.isArray(value) ? value.map(one) : one(value);
    }
    const ignored = new Set<string>();
    const requestBody = request.body === undefined ? undefined : typeof request.body === 'string' ? this.formOrText(request.body, sourceKind) : this.json(request.body, '', undefined, undefined, ignored, sourceKind);
    const headers: Record<string, string> = {};
    for (const name of Object.keys(response.headers).sort()) {
      const value: HeaderValue = response.headers[name];
      headers[name.toLowerCase()] = this.header(name.toLowerCase(), Array.isArray(value) ? value.join('\n') : value);
    }
    const numericIds = new Set<string>();
    const body =
      response.bodyEncoding === 'json'
        ? this.json(response.body, '', undefined, undefined, numericIds)
        : response.bodyEncoding === 'text'
          ? this.text(response.body as string)
          : response.body;
    const out: NormalizedExchange = { index: exchange.index, actor: this.text(exchange.actor), method: request.method.toUpperCase(), path, query, status: response.status, headers, bodyEncoding: response.bodyEncoding, numericIds };
    if (requestBody !== undefined) out.requestBody = requestBody;
    if (body !== undefined) out.body = body;
    return out;
  }

  /** A request body sent as a string: form fields (`a=1&b=2`) by the query rule, anything else by the text rules. */
  private formOrText(body: string, sourceKind: string | undefined): string {
    return /^[\w.%[\]-]+=[^&]*(&[\w.%[\]-]+=[^&]*)*$/.test(body) ? this.queryString(body, sourceKind) : this.text(body);
  }
}

/** The test's exchanges, normalized in index order (ordinals are numbered in that order). */
export function normalizeTest(header: TranscriptHeader, test: TranscriptTest): NormalizedExchange[] {
  const normalizer = new TestNormalizer(header, test);
  return test.exchanges.map((exchange) => normalizer.exchange(exchange));
}
