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
import type { CollectionIdKinds } from '../core/area.js';
import { escapeRegExp } from '../core/regexp.js';
import {
  API_COLLECTIONS,
  BOT_USERNAME,
  collectionsOf,
  COMMIT_HEADER,
  COMMIT_KEYS,
  contentLengthKind,
  contentsOf,
  cookieValues,
  correlationId,
  EMAIL_IN_TEXT,
  emailHashes,
  encodings,
  entityOf,
  etagKind,
  gitBlobIdOf,
  HASH_ANYWHERE,
  hostToken,
  idKindOf,
  isObject,
  KEY_TEXT_ANYWHERE,
  keyBlob,
  keyTexts,
  originToken,
  PER_REQUEST_HEADERS,
  REFERENCE_SERVER_HEADER,
  runPrefixToken,
  SECRET_KEYS,
  segmentKind,
  SHA,
  SSH_KEY,
  timestampKind,
  wordsPattern,
  type Json,
  type RunTables,
} from './normalize-rules.js';
import type { BodyEncoding, ExchangeLine, HeaderValue, SymbolEntry, TranscriptHeader, TranscriptTest } from './transcript.js';


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


// ---- one test ------------------------------------------------------------------------------

interface ValueLabel {
  value: string;
  label: string;
}

/** A URL-encoded text decoded, or as it is when it does not decode. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Applies every rule to the exchanges of one test, with the test's symbol table. */
class TestNormalizer {
  private readonly origin: string;
  private readonly host: string;
  private readonly prefix: string;
  private readonly runId: string;
  /** kind → id → symbol */
  private readonly symbols = new Map<string, Map<number, string>>();
  /** kind → raw id → `<kind~n>`, numbered in the order the test meets them. */
  private readonly ordinals = new Map<string, Map<string, string>>();
  /** Commit ids (`<commit~n>`) and the verified hashes of contents (`<blob-id(content#n)>`, `<sha256(content#n)>`). */
  private readonly hashes = new Map<string, string>();
  private commitCount = 0;
  private readonly contents = new Map<string, number>();
  /** SSH key blobs and their fingerprints → `<ssh-key#n>`, `<fingerprint(ssh-key#n)>`. */
  private readonly keys = new Map<string, string>();
  private keyPattern: RegExp | undefined;
  private exactPattern: RegExp | undefined;
  private exactLabels = new Map<string, string>();
  private foldedPattern: RegExp | undefined;
  /** Lower-cased value → label, for the values that carry the run prefix. */
  private readonly foldedLabels = new Map<string, string>();
  private readonly run: RunTables | undefined;
  /** Collection → the kind of id its next path segment names. */
  private readonly collections: CollectionIdKinds;

  constructor(header: TranscriptHeader, test: TranscriptTest, run?: RunTables) {
    this.run = run;
    this.collections = collectionsOf(header);
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
      if (typeof value === 'string' && SHA.test(value) && !this.hashes.has(value)) this.hashes.set(value, `<commit~${++this.commitCount}>`);
    };
    const walk = (value: unknown, key: string | undefined, parent: Json | undefined, sent: boolean) => {
      if (Array.isArray(value)) value.forEach((item) => walk(item, key, parent, sent));
      else if (isObject(value)) {
        for (const [k, v] of Object.entries(value)) walk(v, k, value, sent);
      } else if (typeof value === 'string') {
        if (key !== undefined && (COMMIT_KEYS.has(key) || (key === 'id' && parent && entityOf(parent) === 'commit'))) noteSha(value);
        if (value.includes('@') && prefixes.some((p) => value.includes(p))) for (const m of value.match(EMAIL_IN_TEXT) ?? []) emails.add(m);
        for (const m of value.matchAll(SSH_KEY)) {
          const key = keyBlob(m[1], m[2]);
          if (key) this.noteKey(key.blob, key.written);
          else if (sent) this.noteMalformedKey(m[2].split(' ')[0]);
        }
      }
    };
    // The body before the headers: a target that leaves out headers (or sends them where another
    // does not) numbers the commits the body names as the other does.
    for (const exchange of exchanges) {
      walk(exchange.request.query, undefined, undefined, true);
      walk(exchange.request.body, undefined, undefined, true);
      walk(exchange.response.body, undefined, undefined, false);
      for (const [name, value] of Object.entries(exchange.response.headers)) if (COMMIT_HEADER.test(name.toLowerCase())) noteSha(String(value));
      for (const content of contentsOf(exchange)) this.noteContent(content);
    }
    if (this.keys.size) this.keyPattern = new RegExp([...this.keys.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
    return emails;
  }

  /**
   * SSH keys: the Base64 blob of every SSH public key the test sends or receives becomes
   * `<ssh-key#n>` (numbered in the order the test meets them; written with spaces for its `+`,
   * `<ssh-key#n:plus-as-space>`), and its fingerprints (`SHA256:…` unpadded, MD5 `aa:bb:…`)
   * `<fingerprint-sha256(ssh-key#n)>`, `<fingerprint-md5(ssh-key#n)>`. Hides: key material the tests
   * make at random. Never a version difference: the key's type is kept, which key an answer names is
   * kept, and only a blob that decodes to a key of its type, and a fingerprint that is right for a
   * key of the test, become tokens.
   */
  private noteKey(blob: string, written: string): void {
    const known = this.keys.get(blob);
    if (known) {
      if (written !== blob && !this.keys.has(written)) this.keys.set(written, `${known.slice(0, -1)}:plus-as-space>`);
      return;
    }
    const n = [...this.keys.values()].filter((t) => /^<ssh-key#\d+>$/.test(t)).length + 1;
    for (const [text, token] of keyTexts(Buffer.from(blob, 'base64'), `ssh-key#${n}`)) this.keys.set(text, token);
    if (written !== blob) this.keys.set(written, `<ssh-key#${n}:plus-as-space>`);
  }

  /**
   * A key the test made broken on purpose: the Base64 after a key type in a request that is no key of
   * that type (trailing bytes, a missing field, a point off the curve …) becomes `<malformed-key#n>`
   * in the test's requests and wherever an answer repeats it (an error message that names it). Hides:
   * the random key material the test broke. Never a version difference: the test sent it, the type
   * before it is kept, and an answer keeps whatever it says beyond the exact blob sent.
   */
  private noteMalformedKey(blob: string): void {
    if (blob.length < 8 || this.keys.has(blob)) return;
    const n = [...this.keys.values()].filter((t) => t.startsWith('<malformed-key#')).length + 1;
    this.keys.set(blob, `<malformed-key#${n}>`);
  }

  /**
   * Hashes of contents: the git blob id and the SHA-256 of every content the test sends or receives
   * (a file's `content`, a raw body) become `<blob-id(content#n)>` and `<sha256(content#n)>` wherever
   * they occur (`blob_id`, `content_sha256`, the `X-…-Blob-Id` headers), the contents numbered in the
   * order the test meets them. Hides: a hash that follows the run's names inside a file (a README
   * holds its project's path). Never a version difference: only a hash that is right for a content
   * of the test becomes a token, and the content itself is compared; a wrong hash stays as it is.
   */
  private noteContent(content: Buffer): void {
    const key = createHash('sha256').update(content).digest('hex');
    if (this.contents.has(key)) return;
    const n = this.contents.size + 1;
    this.contents.set(key, n);
    const blob = gitBlobIdOf(content);
    if (!this.hashes.has(blob)) this.hashes.set(blob, `<blob-id(content#${n})>`);
    if (!this.hashes.has(key)) this.hashes.set(key, `<sha256(content#${n})>`);
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
      for (const [hash, token] of emailHashes(email, label)) add(hash, token.slice(1, -1));
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
   * content hashes are the content's (noteContent).
   */
  private knownHashes(text: string): string {
    if (this.hashes.size === 0 && !this.run) return text;
    return text.replace(HASH_ANYWHERE, (hash) => this.hashes.get(hash) ?? this.run?.hashes.get(hash) ?? hash);
  }

  private shortCommitId(text: string): string {
    if (!/^[0-9a-f]{7,39}$/.test(text)) return text;
    for (const [sha, token] of this.hashes) if (token.startsWith('<commit~') && sha.startsWith(text)) return `${token.slice(0, -1)}:short>`;
    return text;
  }

  /**
   * A file's `content` in base64 (`encoding: base64` beside it) is decoded and its text normalized,
   * shown as `base64("…")`. Hides nothing: only canonical base64 of UTF-8 text is decoded (anything
   * else is kept as sent), and the decoded text is compared.
   */
  private base64Content(value: string): string | undefined {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.toString('base64') !== value) return undefined;
    const text = bytes.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(bytes)) return undefined;
    return `base64(${JSON.stringify(this.text(text))})`;
  }

  /** Every text rule, in order: origin and host, symbol values and their hashes, the run prefix, commit ids and content hashes, SSH keys, bot usernames, times. */
  private text(text: string): string {
    let out = hostToken(originToken(text, this.origin), this.host);
    out = this.symbolValues(out);
    out = runPrefixToken(out, this.prefix, this.runId);
    out = this.knownHashes(out);
    if (this.keyPattern) out = out.replace(this.keyPattern, (found) => this.keys.get(found)!);
    if (this.run?.keys.size) out = out.replace(KEY_TEXT_ANYWHERE, (found) => this.run!.keys.get(found) ?? found);
    out = out.replace(BOT_USERNAME, (_found, kind: string, id: string) => `${kind}_${this.idToken(kind, id)}_bot_<random-hex>`);
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
  private json(value: unknown, pointer: string, key: string | undefined, parent: Json | undefined, numericIds: Set<string>, fallback?: string): unknown {
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
      if (key !== undefined && SECRET_KEYS.test(key)) return '<secret>';
      if (key === 'content' && parent?.encoding === 'base64') return this.base64Content(value) ?? value;
      return key === 'short_id' ? this.shortCommitId(value) : this.apiUrls(value);
    }
    return value;
  }

  /** A request path: ids after the collections that name them, every other segment by the text rules (as sent, still encoded). */
  private path(raw: string): { path: string; sourceKind?: string } {
    const [path, query] = raw.split(/\?(.*)/s);
    const segments = path.split('/');
    let sourceKind: string | undefined;
    const out = segments.map((segment, i) => {
      const kind = /^\d+$/.test(segment) ? segmentKind(segments, i, this.collections) : undefined;
      if ((segments[i - 1] === 'groups' || segments[i - 1] === 'projects') && sourceKind === undefined) sourceKind = API_COLLECTIONS[segments[i - 1]];
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
        const kind = idKindOf(decoded(name), undefined, sourceKind);
        return `${name}=${(kind !== undefined && this.idList(kind, decoded(value))) || this.text(value)}`;
      })
      .join('&');
  }

  /**
   * URLs and paths of the API inside a header (`link`, `location`) or any text (a message that repeats
   * the path it refuses): their paths and query by the path rule, the rest by the text rules.
   */
  private apiUrls(text: string): string {
    if (!text.includes('/api/v4/')) return this.text(text);
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
    // The types of a request's ids are the test's own: not kept.
    const requestIds = new Set<string>();
    const requestBody = request.body === undefined ? undefined : typeof request.body === 'string' ? this.formOrText(request.body, sourceKind) : this.json(request.body, '', undefined, undefined, requestIds, sourceKind);
    // The body before the headers, as in `scan`: the ids a body names are numbered alike whether or not headers name them too.
    const numericIds = new Set<string>();
    const body =
      response.bodyEncoding === 'json'
        ? this.json(response.body, '', undefined, undefined, numericIds)
        : response.bodyEncoding === 'text'
          ? this.apiUrls(response.body as string)
          : response.body;
    const headers: Record<string, string> = {};
    for (const name of Object.keys(response.headers).sort()) {
      if (REFERENCE_SERVER_HEADER.test(name)) continue;
      const value: HeaderValue = response.headers[name];
      headers[name.toLowerCase()] = this.header(name.toLowerCase(), Array.isArray(value) ? value.join('\n') : value);
    }
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
export function normalizeTest(header: TranscriptHeader, test: TranscriptTest, run?: RunTables): NormalizedExchange[] {
  const normalizer = new TestNormalizer(header, test, run);
  return test.exchanges.map((exchange) => normalizer.exchange(exchange));
}

export { contentLengthKind, cookieValues, correlationId, entityOf, etagKind, idKindOf, originToken, runPrefixToken, runTables, timestampKind, type RunTables } from './normalize-rules.js';
