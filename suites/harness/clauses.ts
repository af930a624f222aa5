// The shape of the clause catalog: every testable statement of the spec (and of gitlab-facts where
// the spec says "not shown") gets a stable id, a level and the sentence it stands for. Each area
// declares its clauses in suites/<area>/clauses.ts; suites/catalog.ts gathers them.

export type Level = 'must' | 'should' | 'may';

export interface Clause {
  /** Stable id, "<area>.<topic>.<rule>", e.g. "files.get.blob-id". Never reuse a retired id. */
  id: string;
  level: Level;
  /** The statement, close to the spec's own words. */
  text: string;
  /** Where it comes from: a spec section, or gitlab-facts §n where the spec says "not shown". */
  source: string;
  /** Set when the statement cannot be checked from outside; the reason. */
  untestable?: string;
}

export function defineClauses(prefix: string, clauses: Clause[]): Clause[] {
  for (const clause of clauses) {
    if (!clause.id.startsWith(`${prefix}.`)) throw new Error(`clause ${clause.id} must start with "${prefix}."`);
  }
  const ids = clauses.map((c) => c.id);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new Error(`clause ${duplicate} is declared twice`);
  return clauses;
}
