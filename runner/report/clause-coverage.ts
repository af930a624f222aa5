// Clause coverage: each catalog clause with the tests that name it, per kind of source (group,
// project) with how many passed there. Gaps are testable clauses of the areas that ran with no test.
import type { Clause } from '../core/clauses.js';
import type { TestRecord } from './results.js';

export interface ClauseEntry {
  id: string;
  level: string;
  text: string;
  source: string;
  tests: string[];
  /** The kinds of source its selected tests ran on, with the verdicts there. */
  kinds: Record<string, { tests: number; passed: number }>;
  untestable?: string;
}

export type Coverage = ReturnType<typeof clauseCoverage>;

/** A test the run selected: not turned off, and not cut short by an interruption. */
export const selected = (r: Pick<TestRecord, 'verdict'>) => r.verdict !== 'disabled' && r.verdict !== 'not-run';

/**
 * `gaps` checks the catalog (every testable clause of the loaded areas is named by a declared test);
 * `covered`/`testable` count only what was selected: clauses of the areas with a selected test, and
 * those of them with one.
 */
export function clauseCoverage(catalog: Clause[], records: TestRecord[]) {
  const byClause = new Map<string, TestRecord[]>();
  for (const r of records) for (const c of r.clauses) byClause.set(c, [...(byClause.get(c) ?? []), r]);
  const prefixes = new Set(records.flatMap((r) => r.clauses.map((c) => c.split('.')[0])));
  const selectedPrefixes = new Set(records.filter(selected).flatMap((r) => r.clauses.map((c) => c.split('.')[0])));
  const clauses: ClauseEntry[] = catalog.map((c) => {
    const tests = byClause.get(c.id) ?? [];
    const kinds: ClauseEntry['kinds'] = {};
    for (const t of tests.filter(selected)) {
      const k = (kinds[t.kind] ??= { tests: 0, passed: 0 });
      k.tests++;
      if (t.verdict === 'pass') k.passed++;
    }
    return { id: c.id, level: c.level, text: c.text, source: c.source, tests: tests.map((t) => t.id).sort(), kinds, ...(c.untestable ? { untestable: c.untestable } : {}) };
  });
  const relevant = clauses.filter((c) => prefixes.has(c.id.split('.')[0]) && !c.untestable);
  const gaps = relevant.filter((c) => c.tests.length === 0).map((c) => c.id);
  // Clauses that hold for groups and projects alike (their tests ran on both kinds), and whether
  // every test of them passed on each kind.
  const bothKinds = relevant.filter((c) => c.kinds.group && c.kinds.project);
  const passingOnEach = bothKinds.filter((c) => c.kinds.group.passed === c.kinds.group.tests && c.kinds.project.passed === c.kinds.project.tests).length;
  const isSelected = new Set(records.filter(selected).map((r) => r.id));
  const testable = relevant.filter((c) => selectedPrefixes.has(c.id.split('.')[0]));
  const covered = testable.filter((c) => c.tests.some((t) => isSelected.has(t))).length;
  return { clauses, gaps, bothKinds: bothKinds.length, passingOnEach, testable: testable.length, covered };
}
