// The vary layer's ids. GitLab keeps groups (namespaces) and projects in two tables with two
// sequences (db/structure.sql: namespaces_id_seq, projects_id_seq), so a group and a project often
// share a number; the namespaces sequence is also drawn by every user's personal namespace, and
// members by access requests and invitations, which leaves gaps a client never sees filled.
// Here groups and projects start at the same seed-chosen number, the projects' a few ahead for some
// seeds, and step alike (every project id is then also a group id: which pairs meet depends on the
// seed), or, for other seeds, the groups' sequence skips now and then as user namespaces would take
// numbers; every other sequence starts at its own seed-chosen number and skips a seed-chosen amount
// between ids.
import type { IdKind, IdSource } from '../state/store.js';
import { hash, stream } from './random.js';

/** How far an id sequence may skip between two ids (0: never), per kind. */
const MAX_GAP: Record<IdKind, number> = { user: 3, token: 5, namespace: 0, project: 0, member: 4, mirror: 7, email: 3 };

export function variedIds(seed: number): IdSource {
  const random = stream(hash(seed, 'ids'));
  // Magnitudes from a fresh instance's to a large one's; ids stay far below 2^53.
  const start = () => 1 + Math.floor(random() * [10, 1_000, 100_000, 10_000_000][Math.floor(random() * 4)]);
  const shared = start();
  const next: Record<IdKind, number> = { user: start(), token: start(), namespace: shared, project: shared + (hash(seed, 'project offset') % 8), member: start(), mirror: start(), email: start() };
  const maxGap = { ...MAX_GAP, namespace: hash(seed, 'namespace gaps') % 2 === 0 ? 0 : 2 };
  return (kind) => {
    const id = next[kind];
    next[kind] = id + 1 + Math.floor(random() * (maxGap[kind] + 1));
    return id;
  };
}
