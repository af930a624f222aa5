// The one place that keeps secrets out of output: every writer (failure messages, evidence,
// reports, logs) passes its text through `redact`. The run hands in every token it issues or holds
// (`registerSecret`, and `registerSecretsIn` for what a request sends or an answer carries: the
// credentials of a URL, the value of a `…token` field); anything shaped like a secret is masked too,
// handed in or not: GitLab tokens, the value of a field or parameter named `…token`, the credentials
// of a URL (`scheme://user:password@`), also when a faulty target echoes them. A worker's registered
// secrets are not known to the reporters (another process): the shapes are what masks there.

/** The secrets handed in, each with its place in the order they came (the order they are masked in). */
const known = new Map<string, number>();
/**
 * The known secrets by a hash of their last SHORTEST characters (their ends differ where their
 * beginnings may not: `glpat-`): a text is searched for those it holds in one pass, however many
 * there are (a process that makes hundreds of runs, as the seeded-fault check does, knows tens of thousands).
 */
const byEnd = new Map<number, string[]>();
/**
 * Secrets that a replacement could make appear where the text had none: those that could overlap a
 * `[REDACTED]` put in before them. Checked whatever the text holds.
 */
const overlapping: string[] = [];
const SHORTEST = 6;

/** GitLab token forms: personal, project/group, OAuth, feed, deploy, runner, CI job tokens. */
const TOKEN_PATTERN = /\b(?:glpat|gloas|gldt|glrt|glcbt|glptt|glft|glimt|glagent|glsoat|glffct|gltst)-[A-Za-z0-9_.-]{8,}/g;

/**
 * A field or parameter named `token` or `…_token` (`invite_token`, `private_token`, `access_token`)
 * and a value of 6 characters or more: quoted or not, JSON-escaped inside a string or not (`=` for a
 * query). A JSON literal (null, a number, true/false) and the cURL placeholder $TOKEN are kept.
 */
const TOKEN_FIELD = /(\b(?:[a-z]+_)*token\\?["']?\s*[:=]\s*(\\?["'])?)(?!\$TOKEN\b|null\b|true\b|false\b|\d+[,}\s])([^\s"'\\&,}<>]{6,})/gi;

/** The credentials of a URL: `scheme://user@`, `scheme://user:password@` (mirror URLs, clone URLs). */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'\\<>]+)@/gi;

export const REDACTED = '[REDACTED]';

export function registerSecret(secret: string | undefined): void {
  if (!secret || secret.length < SHORTEST || known.has(secret)) return;
  known.set(secret, known.size);
  const key = windowHash(secret, secret.length - SHORTEST);
  byEnd.set(key, [...(byEnd.get(key) ?? []), secret]);
  if (/[[\]]/.test(secret) || REDACTED.includes(secret)) overlapping.push(secret);
}

/**
 * The known secrets that may occur in `text` as they are masked one after another, in the order they
 * were registered: those it holds, and those that could overlap a mask. (Text that a mask leaves is
 * text of `text`, so no other secret can appear.)
 */
function secretsIn(text: string): string[] {
  const found = new Set<string>(overlapping);
  for (let i = 0; byEnd.size > 0 && i + SHORTEST <= text.length; i++) {
    const ending = byEnd.get(windowHash(text, i));
    if (ending) for (const secret of ending) if (text.startsWith(secret, i + SHORTEST - secret.length)) found.add(secret);
  }
  return [...found].sort((a, b) => known.get(a)! - known.get(b)!);
}

/** A small-integer hash of the SHORTEST characters of `text` from `at`. */
function windowHash(text: string, at: number): number {
  let hash = 0;
  for (let i = at; i < at + SHORTEST; i++) hash = (hash * 31 + text.charCodeAt(i)) & 0x3fffffff;
  return hash;
}

/** What a URL's credentials keep: GitLab's mask (`*****`), and the user `git` of SSH URLs, which GitLab shows (no secret). */
function maskUserinfo(userinfo: string): string {
  const at = userinfo.indexOf(':');
  const [user, password] = at < 0 ? [userinfo, undefined] : [userinfo.slice(0, at), userinfo.slice(at + 1)];
  const keep = (part: string) => /^\**$/.test(part) || part === REDACTED;
  const shownUser = keep(user) || user === 'git' ? user : REDACTED;
  return password === undefined ? shownUser : `${shownUser}:${keep(password) ? password : REDACTED}`;
}

/** Registers the secrets inside a value a request sends or an answer carries: URL credentials, `…token` fields. */
export function registerSecretsIn(value: unknown, key = ''): void {
  if (typeof value === 'string') {
    if (/(?:^|_)token$/i.test(key)) registerSecret(value);
    for (const [, , userinfo] of value.matchAll(URL_USERINFO)) {
      const at = userinfo.indexOf(':');
      for (const part of at < 0 ? [userinfo] : [userinfo.slice(0, at), userinfo.slice(at + 1)]) if (!/^\**$/.test(part) && part !== 'git') registerSecret(part);
    }
  } else if (Array.isArray(value)) {
    for (const inner of value) registerSecretsIn(inner, key);
  } else if (value !== null && typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) registerSecretsIn(inner, name);
  }
}

export function redact(text: string): string {
  let out = text.replace(TOKEN_PATTERN, REDACTED);
  for (const secret of secretsIn(out)) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  out = out.replace(URL_USERINFO, (_all, scheme: string, userinfo: string) => `${scheme}${maskUserinfo(userinfo)}@`);
  out = out.replace(TOKEN_FIELD, `$1${REDACTED}`);
  // Header and query forms, whatever the token looks like.
  // (The cURL lines of the HTML report carry the placeholder $TOKEN, which is not a secret.)
  out = out.replace(/(private[-_]token["']?\s*[:=]\s*["']?)(?!\$TOKEN\b)[^\s"'&,}]+/gi, `$1${REDACTED}`);
  out = out.replace(/(authorization["']?\s*[:=]\s*["']?(?:bearer|basic)\s+)[^\s"',}]+/gi, `$1${REDACTED}`);
  return out;
}

/** A field named `token` or `…_token`, `…-token` (`invite_token`, `private-token`): its value is a secret, as TOKEN_FIELD takes it in a text. */
const TOKEN_KEY = /(?:^|[_-])token$/i;

/**
 * A JSON-like value with every string in it redacted, one by one, and the value of a `…token` field
 * (6 characters or more, not the placeholder $TOKEN) masked whole; keys stay as they are. Never the
 * value's JSON text: a secret that equals a key (`verdict`) would rename that key in every record.
 * Read as JSON.stringify reads it (toJSON first: a Date is its text, a Buffer its bytes).
 */
export function redactValue<T>(value: T): T {
  return redactInside(value ?? null, '') as T;
}

function redactInside(value: unknown, key: string): unknown {
  const plain = value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON(): unknown }).toJSON() : value;
  if (typeof plain === 'string') {
    if (TOKEN_KEY.test(key) && plain.length >= 6 && plain !== '$TOKEN') return REDACTED;
    return redact(/^authorization$/i.test(key) ? plain.replace(/^((?:bearer|basic)\s+)\S+/i, `$1${REDACTED}`) : plain);
  }
  if (Array.isArray(plain)) return plain.map((inner) => redactInside(inner, key));
  if (plain !== null && typeof plain === 'object') return Object.fromEntries(Object.entries(plain).map(([name, inner]) => [name, redactInside(inner, name)]));
  return plain;
}
