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
import type { BodyEncoding, ExchangeLine, HeaderValue, SymbolEntry, Transcript, TranscriptHeader, TranscriptTest } from './transcript.js';

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

/** The origin's host[:port] alone, after `originToken`. */
function hostToken(text: string, host: string): string {
  return host && text.includes(host) ? text.split(host).join('<host>') : text;
}

const prefixPatterns = new Map<string, RegExp>();

/**
 * The run prefix `cnf-<run id>` becomes `<prefix>`, its form in usernames `cnf_<run id>` `<prefix_>`,
 * and the run id alone `<run-id>`; found in another case (a test that sends an address in capitals)
 * they say so: `<PREFIX>`, `<PREFIX_>`, `<RUN-ID>` for all capitals, `<prefix:other-case>` otherwise.
 * Hides: which run made an object whose symbol the test's table does not list (names the tests
 * derive from the prefix). Never a version difference: the prefix is the suite's choice, the same for
 * every target; what follows it is kept, and so is a change of case.
 */
export function runPrefixToken(text: string, prefix: string, runId: string): string {
  if (!text.toLowerCase().includes(runId.toLowerCase())) return text;
  const forms: [string, string][] = [
    [prefix, 'prefix'],
    [prefix.replace(/-/g, '_'), 'prefix_'],
    [runId, 'run-id'],
  ];
  const pattern = prefixPatterns.get(prefix) ?? new RegExp(forms.map(([form]) => escapeRegExp(form)).join('|'), 'gi');
  prefixPatterns.set(prefix, pattern);
  return text.replace(pattern, (found) => {
    const [form, name] = forms.find(([f]) => f.toLowerCase() === found.toLowerCase())!;
    // The run id alone may hold no letter (its random part is hex): its case, which another run's id
    // would show, is not told. The text around it keeps its own.
    if (found === form || name === 'run-id') return `<${name}>`;
    return found === form.toUpperCase() ? `<${name.toUpperCase()}>` : `<${name}:other-case>`;
  });
}

/**
 * The username of a group's or project's access-token bot, `<kind>_<id>_bot_<32 hex>` (GitLab draws the
 * hex at random: app/services/resource_access_tokens/create_service.rb generate_username), keeps its
 * kind and its source's id symbol; the hex becomes `<random-hex>`. Hides: the draw. Never a version
 * difference: a name of another form is kept.
 */
const BOT_USERNAME = /\b(group|project)_(\d+)_bot_[0-9a-f]{32}\b/g;

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

/** An SSH public key as OpenSSH writes it: its type, then its blob in Base64 (whose `+` a form decoder may have turned into spaces). */
const SSH_KEY = /\b(ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp(?:256|384|521)|sk-[a-z0-9@.-]+)[ \t]+(AAAA[A-Za-z0-9+/ ]*={0,3})/g;

/** A key blob (RFC 4253): length-prefixed fields to its last byte, the first one its type. */
function isKeyBlob(type: string, bytes: Buffer): boolean {
  let at = 0;
  while (at + 4 <= bytes.length) at += 4 + bytes.readUInt32BE(at);
  return at === bytes.length && bytes.length > 4 + type.length && bytes.subarray(4, 4 + bytes.readUInt32BE(0)).toString('latin1') === type;
}

/** The blob as written at the start of `text` (`+` perhaps written as a space): the longest start that is the canonical Base64 of a key of that type. */
function keyBlob(type: string, text: string): { written: string; blob: string } | undefined {
  const words = text.split(' ');
  for (let n = words.length; n > 0; n--) {
    const blob = words.slice(0, n).join('+');
    const bytes = Buffer.from(blob, 'base64');
    if (bytes.toString('base64') === blob && isKeyBlob(type, bytes)) return { written: words.slice(0, n).join(' '), blob };
  }
  return undefined;
}

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** A commit id, a git blob id, a SHA-256 or an MD5 in hex, inside a text. */
const HASH_ANYWHERE = /\b(?:[0-9a-f]{64}|[0-9a-f]{40}|[0-9a-f]{32})\b/g;
/** An SSH key's SHA-256 fingerprint, its MD5 fingerprint, or a key blob, inside a text. */
const KEY_TEXT_ANYWHERE = /SHA256:[A-Za-z0-9+/]{43}|\b(?:[0-9a-f]{2}:){15}[0-9a-f]{2}\b|AAAA[A-Za-z0-9+/]+={0,3}/g;

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
 * `*_user_id`, `*_by_id`, `skip_users`, `sudo`, `group_id`, `namespace_id`, `project_id`, `member_id`, `parent_id` and
 * every other `*_id` / `*_ids` (named by what precedes `_id`).
 */
export function idKindOf(key: string | undefined, parent: Json | undefined, fallback: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  const name = key.replace(/\[\]$/, '');
  if (name === 'id') return (parent && entityOf(parent)) ?? fallback ?? 'id';
  if (name === 'source_id') return sourceKindOf(parent) ?? 'source';
  if (name === 'parent_id') return (parent && entityOf(parent)) ?? 'parent';
  // skip_users: the members lists' users to leave out (lib/api/members.rb); sudo: the user a request
  // acts as (lib/api/helpers.rb sudo!), an id or a username: ids without an _id name.
  if (/(?:^|_)user_ids?$/.test(name) || /_by_id$/.test(name) || name === 'skip_users' || name === 'sudo') return 'user';
  if (/(?:^|_)group_ids?$/.test(name) || name === 'namespace_id') return 'group';
  if (/(?:^|_)project_ids?$/.test(name)) return 'project';
  const other = /^(.+)_ids?$/.exec(name);
  return other ? other[1] : undefined;
}

/** The API's own collections whose next path segment is an id of a kind: `/groups/5`, `/users/31`. */
const API_COLLECTIONS: CollectionIdKinds = { groups: 'group', projects: 'project', users: 'user' };

/**
 * The areas' collections as transcripts recorded before their header named them (`collections`,
 * since 2026-11-28) were normalized: the four areas of that time, frozen. A newer transcript's
 * header carries what the registered areas declare (core/area.ts `collectionIdKinds`).
 */
const UNDECLARED_COLLECTIONS: CollectionIdKinds = { members: 'user', billable_members: 'user', access_requests: 'user', remote_mirrors: 'mirror' };

/** The collections of a transcript whose next path segment is an id of a kind: `/groups/5`, `/members/31`. */
export const collectionsOf = (header: TranscriptHeader): CollectionIdKinds => ({ ...(header.collections ?? UNDECLARED_COLLECTIONS), ...API_COLLECTIONS });

/** The kind of the numeric path segment at `i` (`…/members/:member_id/approve` names a membership; `…/members/all/:user_id` a user). */
function segmentKind(segments: string[], i: number, collections: CollectionIdKinds): string | undefined {
  const previous = segments[i - 1] === 'all' ? segments[i - 2] : segments[i - 1];
  if (previous === 'members' && segments[i + 1] === 'approve') return 'member';
  return Object.hasOwn(collections, previous ?? '') ? collections[previous] : undefined;
}

/** The spec's form of a path segment (client.ts `segment`: `/` and `.` encoded), and encodeURIComponent's. */
const encodings = (value: string) => [...new Set([value, encodeURIComponent(value), encodeURIComponent(value).replace(/\./g, '%2E')])];

/**
 * Secrets made at random: the string value of a field named `token` or `*_token` (`invite_token`, an
 * invitation's acceptance token) becomes `<secret>`, the recorder's `[REDACTED]` too. Hides: a random
 * value, which a report should not show anyway. Never a version difference: whether the field is
 * there, and its type, are kept.
 */
const SECRET_KEYS = /(?:^|_)token$/;

// ---- per-request headers -------------------------------------------------------------------

/**
 * Headers whose value is per request and says nothing about the API: `x-request-id`, `x-runtime`,
 * the rate limiter's counters (`ratelimit-observed`, `-remaining`, `-reset`, `-resettime`, also with
 * `x-`), a CDN's or load balancer's trace (`cf-ray`, `gitlab-lb`, `gitlab-sv`). Their presence and
 * name are still compared (a header that appears or goes is a difference); only the value becomes
 * `<per-request>`.
 */
const PER_REQUEST_HEADERS = /^(x-request-id|x-runtime|(x-)?ratelimit-(observed|remaining|reset|resettime)|cf-ray|gitlab-lb|gitlab-sv)$/;

/**
 * Headers the bundled reference server adds about itself (`x-reference-spec-only`: the spec-only
 * variations that changed an answer) are not compared: no GitLab sends them, and a check that traces
 * differences to their cause reads them from the transcript.
 */
const REFERENCE_SERVER_HEADER = /^x-reference-/i;

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

// ---- what the whole run met ---------------------------------------------------------------

/** The contents a test sends or receives: a file's `content` (Base64 decoded), a raw text or binary body. */
function contentsOf(exchange: ExchangeLine): Buffer[] {
  const found: Buffer[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) {
      if (typeof value.content === 'string') found.push(value.encoding === 'base64' ? Buffer.from(value.content, 'base64') : Buffer.from(value.content, 'utf8'));
      Object.values(value).forEach(walk);
    }
  };
  walk(exchange.request.query);
  walk(exchange.request.body);
  walk(exchange.response.body);
  const { body, bodyEncoding } = exchange.response;
  if (typeof body === 'string' && (bodyEncoding === 'text' || bodyEncoding === 'base64')) found.push(Buffer.from(body, bodyEncoding === 'base64' ? 'base64' : 'utf8'));
  return found;
}

/** Every string of a JSON value (keys apart). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (isObject(value)) for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

/** The valid SSH public keys written in a text, in order: their canonical blobs. */
function keysIn(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(SSH_KEY)) {
    const key = keyBlob(m[1], m[2]);
    if (key) found.push(key.blob);
  }
  return found;
}

const gitBlobIdOf = (content: Buffer) => createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');

/** An e-mail address inside a text (as avatar URLs and messages write it). */
const EMAIL_IN_TEXT = /[^\s"'<>@/:,;]+@[A-Za-z0-9.-]+/g;

/** The MD5 and SHA-256 of an e-mail address as avatar URLs hash it (trimmed, lower case), with their tokens. */
function emailHashes(email: string, label: string): [string, string][] {
  const normal = email.trim().toLowerCase();
  return [
    [createHash('md5').update(normal).digest('hex'), `<md5(${label})>`],
    [createHash('sha256').update(normal).digest('hex'), `<sha256(${label})>`],
  ];
}

/** A key's blob in Base64 and its fingerprints (SHA-256 unpadded, as `ssh-keygen -l` and GitLab show it; MD5 `aa:bb:…`), with their tokens. */
function keyTexts(bytes: Buffer, label: string): [string, string][] {
  return [
    [bytes.toString('base64'), `<${label}>`],
    [`SHA256:${createHash('sha256').update(bytes).digest('base64').replace(/=+$/, '')}`, `<fingerprint-sha256(${label})>`],
    [createHash('md5').update(bytes).digest('hex').replace(/(..)(?!$)/g, '$1:'), `<fingerprint-md5(${label})>`],
  ];
}

/**
 * What the whole transcript met, for what one test shows of another's objects (a list that holds
 * another test's mirrors or users, a file another test read): the e-mail addresses that carry the
 * run prefix, the SSH keys every test sent (by the test that first sent one and its number there),
 * and the hashes of every content a test sent or received (by the content itself, its run prefix and
 * the target's origin replaced, so that the same content of two runs has the same label).
 */
export interface RunTables {
  /**
   * Hex hashes → tokens: the MD5 and SHA-256 of each run-prefixed e-mail (`<md5(<prefix_>_…@example.com)>`),
   * the git blob id and SHA-256 of each content (`<blob-id(run-content:…)>`).
   */
  hashes: Map<string, string>;
  /** A key's blob and fingerprints → `<ssh-key#n of <test id>>`, `<fingerprint-sha256(…)>`, from the first test (by id) that sent or received it. */
  keys: Map<string, string>;
}

const runTablesOf = new WeakMap<Transcript, RunTables>();

/** The run's tables of a transcript, made once per transcript (a baseline is compared with several others). */
export function runTables(transcript: Transcript): RunTables {
  const known = runTablesOf.get(transcript);
  if (known) return known;
  const { prefix, runId } = transcript.header;
  const origin = transcript.header.target.origin.replace(/\/+$/, '');
  const prefixes = [prefix, prefix.replace(/-/g, '_')];
  const tables: RunTables = { hashes: new Map(), keys: new Map() };
  /** Run-prefixed e-mail → its label: the address with the run prefix as a token. */
  const emails = new Map<string, string>();
  const noteEmails = (text: string) => {
    if (!text.includes('@') || !prefixes.some((p) => text.includes(p))) return;
    for (const m of text.match(EMAIL_IN_TEXT) ?? []) if (prefixes.some((p) => m.includes(p)) && !emails.has(m)) emails.set(m, runPrefixToken(m, prefix, runId || prefix));
  };
  const noteHash = (hash: string, token: string) => {
    if (!tables.hashes.has(hash)) tables.hashes.set(hash, token);
  };
  // An access-token bot's address is `<username>@noreply.<host>` (Gitlab::Utils::UsernameAndEmailGenerator):
  // the hashes of its avatar follow the random part of the username (BOT_USERNAME).
  const hostname = new URL(origin).hostname;
  const noteBots = (text: string) => {
    for (const m of text.matchAll(BOT_USERNAME)) for (const [hash, token] of emailHashes(`${m[0]}@noreply.${hostname}`, `${m[1]}_${m[2]}_bot_<random-hex>@noreply.<host>`)) noteHash(hash, token);
  };
  for (const test of [...transcript.tests.values()].sort((a, b) => a.line.id.localeCompare(b.line.id))) {
    for (const entry of test.line.symbols) for (const value of Array.isArray(entry.values) ? entry.values : Object.values(entry.values)) noteEmails(value);
    const keys: Buffer[] = [];
    for (const exchange of test.exchanges) {
      for (const text of [...stringsOf(exchange.request.query), ...stringsOf(exchange.request.body), ...stringsOf(exchange.response.body)]) {
        noteEmails(text);
        noteBots(text);
        for (const blob of keysIn(text)) if (!keys.some((k) => k.toString('base64') === blob)) keys.push(Buffer.from(blob, 'base64'));
      }
      for (const content of contentsOf(exchange)) {
        const text = content.toString('utf8');
        // The content as another run would have written it: its run prefix and origin as tokens (binary content as it is).
        const general = Buffer.from(text, 'utf8').equals(content) ? Buffer.from(runPrefixToken(originToken(text, origin), prefix, runId || prefix), 'utf8') : content;
        const label = `run-content:${createHash('sha256').update(general).digest('hex').slice(0, 12)}`;
        noteHash(gitBlobIdOf(content), `<blob-id(${label})>`);
        noteHash(createHash('sha256').update(content).digest('hex'), `<sha256(${label})>`);
      }
    }
    keys.forEach((bytes, i) => {
      const label = `ssh-key#${i + 1} of ${test.line.id}`;
      for (const [text, token] of keyTexts(bytes, label)) if (!tables.keys.has(text)) tables.keys.set(text, token);
    });
  }
  for (const [email, label] of emails) for (const [hash, token] of emailHashes(email, label)) noteHash(hash, token);
  runTablesOf.set(transcript, tables);
  return tables;
}

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
