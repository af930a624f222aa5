// The shape of the clause catalog: every testable statement of the spec (and of GitLab's code where
// the spec says "not shown") gets a stable id, a level and the sentence it stands for. Each area
// declares its clauses in suites/<area>/clauses.ts and registers them with its area (core/area.ts).

export type Level = 'must' | 'should' | 'may';

export interface Clause {
  /** Stable id, "<area>.<topic>.<rule>", e.g. "files.get.blob-id". Never reuse a retired id. */
  id: string;
  level: Level;
  /** The statement, close to the spec's own words. */
  text: string;
  /** Where it comes from: a spec section, or a path in GitLab's source where the spec says "not shown". */
  source: string;
  /** Set when the statement cannot be checked from outside; the reason. */
  untestable?: string;
}

/** An area's clause list (core/area.ts checks the ids when the area is defined). */
export function defineClauses(clauses: Clause[]): Clause[] {
  return clauses;
}
