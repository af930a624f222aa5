// The suite's check that no test compares a list another test of its file may change meanwhile (they
// run at once): with CONFORMANCE_MARK_SHARED_LISTS=true, every request a test that does not run
// `alone` sends about a source of a shared fixture (file or run scope, not `alone`) carries
// SHARED_LIST_HEADER (contract/shared-list-header.ts) with the test's id. The bundled reference server's neighbours mode
// (reference-server/neighbours.ts) notes which tests change which lists; before it answers a read of
// a list another test changed, it changes it once more itself, as that test could have just then. A
// target ignores the header. A test that fails there compares what a neighbour changes: it must take
// a source of its own, or run alone.
import { SHARED_LIST_HEADER } from '../../contract/shared-list-header.js';
import type { SourceKind } from '../core/vocabulary.js';
import type { HeldSource } from './fixture.js';

/**
 * The header, naming test `id`, for a request about one of `shared` (`/api/v4/groups/:id/…`,
 * `/api/v4/projects/:id/…`, by id or by full path).
 */
export function sharedListMark(shared: readonly HeldSource[], id: string): (method: string, url: string) => Record<string, string> | undefined {
  const refs = new Set(shared.flatMap((s) => [`${s.kind}:${s.id}`, `${s.kind}:${s.fullPath}`]));
  return (_method, url) => {
    const match = /^\/api\/v4\/(groups|projects)\/([^/?]+)\//.exec(url);
    if (!match) return undefined;
    const kind: SourceKind = match[1] === 'groups' ? 'group' : 'project';
    return refs.has(`${kind}:${decodeURIComponent(match[2])}`) ? { [SHARED_LIST_HEADER]: id } : undefined;
  };
}
