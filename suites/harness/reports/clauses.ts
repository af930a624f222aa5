// Clause coverage: each catalog clause with the tests that name it. Gaps are testable clauses of
// the areas that ran with no test at all.
import { CATALOG } from '../../catalog.js';
import type { TestRecord } from './results.js';

export interface ClauseEntry {
  id: string;
  level: string;
  text: string;
  tests: string[];
  untestable?: string;
}

export function clauseCoverage(records: TestRecord[]) {
  const byClause = new Map<string, string[]>();
  for (const r of records) for (const c of r.clauses) byClause.set(c, [...(byClause.get(c) ?? []), r.id]);
  const prefixes = new Set(records.flatMap((r) => r.clauses.map((c) => c.split('.')[0])));
  const clauses: ClauseEntry[] = CATALOG.map((c) => ({
    id: c.id,
    level: c.level,
    text: c.text,
    tests: (byClause.get(c.id) ?? []).sort(),
    ...(c.untestable ? { untestable: c.untestable } : {}),
  }));
  const relevant = clauses.filter((c) => prefixes.has(c.id.split('.')[0]) && !c.untestable);
  const gaps = relevant.filter((c) => c.tests.length === 0).map((c) => c.id);
  return { clauses, gaps, testable: relevant.length, covered: relevant.length - gaps.length };
}
