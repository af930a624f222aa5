// The one place that keeps tokens out of output: every writer (failure messages, evidence,
// reports, logs) passes its text through `redact`. The run hands in every token it issues or holds
// (`registerSecret`); anything that looks like a GitLab token is masked too, handed in or not.

const known = new Set<string>();

/** GitLab token forms: personal, project/group, OAuth, feed, deploy, runner, CI job tokens. */
const TOKEN_PATTERN = /\b(?:glpat|gloas|gldt|glrt|glcbt|glptt|glft|glimt|glagent|glsoat|glffct|gltst)-[A-Za-z0-9_.-]{8,}/g;

export const REDACTED = '[REDACTED]';

export function registerSecret(secret: string | undefined): void {
  if (secret && secret.length >= 6) known.add(secret);
}

export function redact(text: string): string {
  let out = text.replace(TOKEN_PATTERN, REDACTED);
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  // Header and query forms, whatever the token looks like.
  // (The cURL lines of the HTML report carry the placeholder $TOKEN, which is not a secret.)
  out = out.replace(/(private[-_]token["']?\s*[:=]\s*["']?)(?!\$TOKEN\b)[^\s"'&,}]+/gi, `$1${REDACTED}`);
  out = out.replace(/(authorization["']?\s*[:=]\s*["']?(?:bearer|basic)\s+)[^\s"',}]+/gi, `$1${REDACTED}`);
  return out;
}

/** Redacts every string inside a JSON-like value. */
export function redactValue<T>(value: T): T {
  return JSON.parse(redact(JSON.stringify(value ?? null))) as T;
}
