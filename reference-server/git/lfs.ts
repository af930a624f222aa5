// Git LFS pointers and `.gitattributes` matching (the subset GitLab's LFS transformer honours:
// patterns with `filter=lfs`).

export function lfsPointer(oid: string, size: number): Buffer {
  return Buffer.from(`version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${size}\n`, 'utf8');
}

/** Parses an LFS pointer; undefined when the blob is not one. */
export function parseLfsPointer(content: Buffer): { oid: string; size: number } | undefined {
  if (content.length > 200) return undefined;
  const match = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:([0-9a-f]{64})\nsize (\d+)\n$/.exec(content.toString('utf8'));
  return match ? { oid: match[1], size: Number(match[2]) } : undefined;
}

export function isLfsTracked(gitattributes: string, path: string): boolean {
  let tracked = false;
  for (const raw of gitattributes.split('\n')) {
    const [pattern, ...attrs] = raw.trim().split(/\s+/);
    if (!pattern || pattern.startsWith('#')) continue;
    if (!globMatches(pattern, path)) continue;
    if (attrs.includes('filter=lfs')) tracked = true;
    if (attrs.includes('-filter') || attrs.includes('!filter')) tracked = false;
  }
  return tracked;
}

function globMatches(pattern: string, path: string): boolean {
  const anchored = pattern.includes('/');
  const source = pattern
    .replace(/^\//, '')
    .split('')
    .map((ch) => (ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('')
    .replace(/\[\^\/\]\*\[\^\/\]\*/g, '.*');
  const regex = new RegExp(anchored ? `^${source}$` : `(^|/)${source}$`);
  return regex.test(path);
}
