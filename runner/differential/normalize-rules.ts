// The rules of normalization (normalize.ts): the tokens that hide the run's prefix, the target's
// origin and the time; the kinds of ids, entities and headers; and the run's tables of what the whole
// transcript met (e-mail hashes, SSH keys, contents). Each names what it hides and why that hides no
// difference between GitLab versions.
import { createHash } from 'node:crypto';
import type { CollectionIdKinds } from '../core/area.js';
import { escapeRegExp } from '../core/regexp.js';
import type { ExchangeLine, Transcript, TranscriptHeader } from './transcript.js';

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One of `words` (longest first), not where a letter or digit adjoins it; undefined for none. */
export function wordsPattern(words: string[], flags: string): RegExp | undefined {
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
export function hostToken(text: string, host: string): string {
  return host && text.includes(host) ? text.split(host).join('<host>') : text;
}

export const prefixPatterns = new Map<string, RegExp>();

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
export const BOT_USERNAME = /\b(group|project)_(\d+)_bot_[0-9a-f]{32}\b/g;

export const TIMESTAMP = /(?<![\d.:])(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])([T ])([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2}| UTC)?(?![\d])/g;
export const DATE = /(?<![\d.:])(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?![\d:T])/g;
export const HTTP_DATE = /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT\b/g;

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
export const SSH_KEY = /\b(ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp(?:256|384|521)|sk-[a-z0-9@.-]+)[ \t]+(AAAA[A-Za-z0-9+/ ]*={0,3})/g;

/** A key blob (RFC 4253): length-prefixed fields to its last byte, the first one its type. */
export function isKeyBlob(type: string, bytes: Buffer): boolean {
  let at = 0;
  while (at + 4 <= bytes.length) at += 4 + bytes.readUInt32BE(at);
  return at === bytes.length && bytes.length > 4 + type.length && bytes.subarray(4, 4 + bytes.readUInt32BE(0)).toString('latin1') === type;
}

/** The blob as written at the start of `text` (`+` perhaps written as a space): the longest start that is the canonical Base64 of a key of that type. */
export function keyBlob(type: string, text: string): { written: string; blob: string } | undefined {
  const words = text.split(' ');
  for (let n = words.length; n > 0; n--) {
    const blob = words.slice(0, n).join('+');
    const bytes = Buffer.from(blob, 'base64');
    if (bytes.toString('base64') === blob && isKeyBlob(type, bytes)) return { written: words.slice(0, n).join(' '), blob };
  }
  return undefined;
}

export const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** A commit id, a git blob id, a SHA-256 or an MD5 in hex, inside a text. */
export const HASH_ANYWHERE = /\b(?:[0-9a-f]{64}|[0-9a-f]{40}|[0-9a-f]{32})\b/g;
/** An SSH key's SHA-256 fingerprint, its MD5 fingerprint, or a key blob, inside a text. */
export const KEY_TEXT_ANYWHERE = /SHA256:[A-Za-z0-9+/]{43}|\b(?:[0-9a-f]{2}:){15}[0-9a-f]{2}\b|AAAA[A-Za-z0-9+/]+={0,3}/g;

/** Keys whose value is a commit id (a request's or an answer's). */
export const COMMIT_KEYS = new Set(['commit_id', 'last_commit_id', 'start_sha', 'sha', 'parent_ids', 'ref']);
/** Headers with a commit id: `X-Gitlab-Commit-Id`, `X-Gitlab-Last-Commit-Id` (whatever the prefix). */
export const COMMIT_HEADER = /^x-[a-z0-9]+-(?:last-)?commit-id$/;

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
export function sourceKindOf(object: Json | undefined): string | undefined {
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
export const API_COLLECTIONS: CollectionIdKinds = { groups: 'group', projects: 'project', users: 'user' };

/**
 * The areas' collections as transcripts recorded before their header named them (`collections`,
 * since 2026-11-28) were normalized: the four areas of that time, frozen. A newer transcript's
 * header carries what the registered areas declare (core/area.ts `collectionIdKinds`).
 */
export const UNDECLARED_COLLECTIONS: CollectionIdKinds = { members: 'user', billable_members: 'user', access_requests: 'user', remote_mirrors: 'mirror' };

/** The collections of a transcript whose next path segment is an id of a kind: `/groups/5`, `/members/31`. */
export const collectionsOf = (header: TranscriptHeader): CollectionIdKinds => ({ ...(header.collections ?? UNDECLARED_COLLECTIONS), ...API_COLLECTIONS });

/** The kind of the numeric path segment at `i` (`…/members/:member_id/approve` names a membership; `…/members/all/:user_id` a user). */
export function segmentKind(segments: string[], i: number, collections: CollectionIdKinds): string | undefined {
  const previous = segments[i - 1] === 'all' ? segments[i - 2] : segments[i - 1];
  if (previous === 'members' && segments[i + 1] === 'approve') return 'member';
  return Object.hasOwn(collections, previous ?? '') ? collections[previous] : undefined;
}

/** The spec's form of a path segment (client.ts `segment`: `/` and `.` encoded), and encodeURIComponent's. */
export const encodings = (value: string) => [...new Set([value, encodeURIComponent(value), encodeURIComponent(value).replace(/\./g, '%2E')])];

/**
 * Secrets made at random: the string value of a field named `token` or `*_token` (`invite_token`, an
 * invitation's acceptance token) becomes `<secret>`, the recorder's `[REDACTED]` too. Hides: a random
 * value, which a report should not show anyway. Never a version difference: whether the field is
 * there, and its type, are kept.
 */
export const SECRET_KEYS = /(?:^|_)token$/;

// ---- per-request headers -------------------------------------------------------------------

/**
 * Headers whose value is per request and says nothing about the API: `x-request-id`, `x-runtime`,
 * the rate limiter's counters (`ratelimit-observed`, `-remaining`, `-reset`, `-resettime`, also with
 * `x-`), a CDN's or load balancer's trace (`cf-ray`, `gitlab-lb`, `gitlab-sv`). Their presence and
 * name are still compared (a header that appears or goes is a difference); only the value becomes
 * `<per-request>`.
 */
export const PER_REQUEST_HEADERS = /^(x-request-id|x-runtime|(x-)?ratelimit-(observed|remaining|reset|resettime)|cf-ray|gitlab-lb|gitlab-sv)$/;

/**
 * Headers the bundled reference server adds about itself (`x-reference-spec-only`: the spec-only
 * variations that changed an answer) are not compared: no GitLab sends them, and a check that traces
 * differences to their cause reads them from the transcript.
 */
export const REFERENCE_SERVER_HEADER = /^x-reference-/i;

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
export function contentsOf(exchange: ExchangeLine): Buffer[] {
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
export function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (isObject(value)) for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

/** The valid SSH public keys written in a text, in order: their canonical blobs. */
export function keysIn(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(SSH_KEY)) {
    const key = keyBlob(m[1], m[2]);
    if (key) found.push(key.blob);
  }
  return found;
}

export const gitBlobIdOf = (content: Buffer) => createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');

/** An e-mail address inside a text (as avatar URLs and messages write it). */
export const EMAIL_IN_TEXT = /[^\s"'<>@/:,;]+@[A-Za-z0-9.-]+/g;

/** The MD5 and SHA-256 of an e-mail address as avatar URLs hash it (trimmed, lower case), with their tokens. */
export function emailHashes(email: string, label: string): [string, string][] {
  const normal = email.trim().toLowerCase();
  return [
    [createHash('md5').update(normal).digest('hex'), `<md5(${label})>`],
    [createHash('sha256').update(normal).digest('hex'), `<sha256(${label})>`],
  ];
}

/** A key's blob in Base64 and its fingerprints (SHA-256 unpadded, as `ssh-keygen -l` and GitLab show it; MD5 `aa:bb:…`), with their tokens. */
export function keyTexts(bytes: Buffer, label: string): [string, string][] {
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

export const runTablesOf = new WeakMap<Transcript, RunTables>();

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
