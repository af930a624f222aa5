// The suite's check that no test compares a list another test of its file may change meanwhile (they
// run at once): with CONFORMANCE_MARK_SHARED_LISTS=true, every request a test that does not run
// `alone` sends about a source of a shared fixture (file or run scope, not `alone`) carries
// SHARED_LIST_HEADER with the test's id. The bundled reference server's neighbours mode
// (reference-server/neighbours.ts) notes which tests change which lists; before it answers a read of
// a list another test changed, it changes it once more itself, as that test could have just then. A
// target ignores the header. A test that fails there compares what a neighbour changes: it must take
// a source of its own, or run alone.
import type { SourceKind } from '../core/vocabulary.js';

export const SHARED_LIST_HEADER = 'X-Conformance-Shared-List';

/** The names a fixture value's sources go by in a URL: `group:<id>` and `group:<full path>`. */
export function sourceRefs(value: unknown, out = new Set<string>()): Set<string> {
  const plain = value !== null && typeof value === 'object' && (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype);
  if (!plain) return out;
  const v = value as { kind?: unknown; id?: unknown; fullPath?: unknown };
  if ((v.kind === 'group' || v.kind === 'project') && typeof v.id === 'number' && typeof v.fullPath === 'string') {
    out.add(`${v.kind}:${v.id}`);
    out.add(`${v.kind}:${v.fullPath}`);
  }
  for (const inner of Object.values(value)) sourceRefs(inner, out);
  return out;
}

/** The header, naming test `id`, for a request about one of the `shared` sources (`/api/v4/groups/:id/…`, `/api/v4/projects/:id/…`). */
export function sharedListMark(shared: ReadonlySet<string>, id: string): (method: string, url: string) => Record<string, string> | undefined {
  return (_method, url) => {
    const match = /^\/api\/v4\/(groups|projects)\/([^/?]+)\//.exec(url);
    if (!match) return undefined;
    const kind: SourceKind = match[1] === 'groups' ? 'group' : 'project';
    return shared.has(`${kind}:${decodeURIComponent(match[2])}`) ? { [SHARED_LIST_HEADER]: id } : undefined;
  };
}
