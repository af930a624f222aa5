// Version gating (spec: Versioning): compares "major.minor[.patch]" of GitLab version strings such
// as "17.4.2-ee" or "18.6.0-pre".

function parts(version: string): number[] {
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : [];
}

/** True when `version` is at least `minimum`; an unreadable version is treated as new enough. */
export function versionAtLeast(version: string, minimum: string): boolean {
  const have = parts(version);
  const want = parts(minimum);
  if (have.length === 0 || want.length === 0) return true;
  for (let i = 0; i < 3; i++) {
    if (have[i] !== want[i]) return have[i] > want[i];
  }
  return true;
}
