// The catalogue of seeded faults: wrong statuses, missing or mistyped fields, ignored parameters,
// wrong defaults, broken rules and data leaks, over the registered areas and the cross-cutting
// behaviour. Each area declares its faults in reference-server/faults/<area>.ts and registers them
// with its routes (reference-server/areas.ts, which makes CATALOGUE from them); the catalogue is the registered areas' faults, in
// their order, then the cross-cutting ones (faults/cross-cutting.ts). Each fault names the clauses
// (suites/<area>/clauses.ts) its wrong behaviour breaks, by meaning, and `level: 'parity'` when it
// breaks only GitLab-parity behaviour. `npm run faults` switches each on in turn, runs the suite
// files of its area, and checks that a test naming one of those clauses fails at the fault's level
// (and that nothing fails with no fault on).
import { crossCuttingFaults } from './cross-cutting.js';
import type { AreaFaults, SeededFault } from './types.js';

/** The seeded faults of a server with these areas: theirs, then the cross-cutting ones. */
export function catalogueOf(areas: readonly AreaFaults[]): SeededFault[] {
  return [...areas.flatMap((a) => a.faults), ...crossCuttingFaults.map((f) => ({ ...f, area: 'cross-cutting' as const }))];
}
