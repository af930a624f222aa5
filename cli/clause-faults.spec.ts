// Every clause an area declares is one the suite can be shown to check: a seeded fault of the
// reference server breaks it (reference-server/faults/), so that `npm run faults` proves a test
// catches it; a clause that cannot be checked from outside says why in `untestable` and needs none.
// The clauses that had no fault when this check came in are listed in clauses-without-fault.json:
// the list may only shrink (a clause given a fault, or gone, comes off it), and a clause of a new
// area is never on it, so a new area comes with a fault for each of its clauses.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CATALOGUE } from '../reference-server/areas.js';
import { CATALOG } from '../suites/areas.js';

const KNOWN_GAPS = JSON.parse(readFileSync(join(import.meta.dirname, 'clauses-without-fault.json'), 'utf8')) as Record<string, string[]>;
const broken = new Set(CATALOGUE.flatMap((f) => f.clauses));

describe('seeded faults for the areas\' clauses', () => {
  test('each testable clause of each area is broken by a seeded fault', () => {
    const missing = Object.fromEntries(
      CATALOG.areas
        .map((area) => [area.name, area.clauses.filter((c) => !c.untestable && !broken.has(c.id) && !(KNOWN_GAPS[area.name] ?? []).includes(c.id)).map((c) => c.id)] as const)
        .filter(([, ids]) => ids.length > 0),
    );
    expect(missing, 'clauses no seeded fault names: add one that breaks each (the area\'s faults, reference-server/), or say in the clause why it is untestable').toEqual({});
  });

  test('the clauses listed without a fault still are clauses of their area without one', () => {
    const stale = Object.entries(KNOWN_GAPS).flatMap(([name, ids]) => {
      const area = CATALOG.areas.find((a) => a.name === name);
      return ids.filter((id) => !area?.clauseIds.has(id) || broken.has(id)).map((id) => `${name}: ${id}`);
    });
    expect(stale, 'take these off cli/clauses-without-fault.json: a fault names them now, or they are gone').toEqual([]);
  });
});
