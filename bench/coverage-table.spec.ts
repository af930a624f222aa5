// Checks docs/gitlab-spec-coverage.json against the suite and docs/gitlab-spec-coverage.md against
// the JSON (issue #17): every test id the JSON names is a test the suite declares, every example says
// either which tests check it or why none does, and the markdown is what bench/coverage-table.ts
// makes of the JSON. Prints the coverage figures.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../suites/areas.js';
import { formsByKind, type Area } from '../suites/harness/core/area.js';
import { COVERAGE_MD, NOT_CHECKABLE, NOT_YET_TESTED, printFigures, readCoverage, renderCoverage, ROOT, statusOf } from './coverage-table.js';

const SUITES = join(ROOT, 'suites');

/** The test files of the suite: suites/<area>/*.test.ts, the exclusive ones included. */
function testFiles(): string[] {
  return readdirSync(SUITES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'harness' && d.name !== 'common')
    .flatMap((d) => readdirSync(join(SUITES, d.name)).filter((f) => f.endsWith('.test.ts')).map((f) => join(SUITES, d.name, f)));
}

/**
 * The ids the suite declares, read from the sources the way suites/harness/run/conformance.ts makes
 * them: `<prefix>.<endpoint>[.<kind>].<case>`, with a kind when the endpoint has a group and a
 * project form, for each kind unless the test names one with `only`. The endpoint of a test is the
 * `endpoint(<area>, '<key>')` it is called on, directly or through a variable; the area is the one
 * the identifier is imported as (from `<dir>/area.js`), else the test file's own directory.
 */
function declaredTestIds(files = testFiles()): Map<string, string> {
  const byName = new Map<string, Area>(AREAS.map((a) => [a.name, a]));
  const ids = new Map<string, string>();
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const dir = dirname(file);
    const areaOf = (identifier: string): Area => {
      const imported = new RegExp(`import\\s*\\{[^}]*\\b${identifier}\\b[^}]*\\}\\s*from\\s*'([^']+)/area\\.js'`).exec(source);
      const name = imported !== null ? relative(SUITES, resolve(dir, imported[1])) : relative(SUITES, dir);
      const area = byName.get(name);
      if (area === undefined) throw new Error(`${relative(ROOT, file)}: no registered area for ${identifier} (${name})`);
      return area;
    };
    const suites = new Map<string, { area: Area; key: string }>();
    for (const m of source.matchAll(/\bconst\s+(\w+)\s*=\s*endpoint\(\s*(\w+)\s*,\s*'([\w-]+)'\s*\)/g)) suites.set(m[1], { area: areaOf(m[2]), key: m[3] });
    const calls = [...source.matchAll(/(?:\bendpoint\(\s*(\w+)\s*,\s*'([\w-]+)'\s*\)|\b(\w+))\.test\(\s*\{/g)];
    for (const [n, call] of calls.entries()) {
      const target = call[1] !== undefined ? { area: areaOf(call[1]), key: call[2] } : suites.get(call[3]);
      if (target === undefined) continue; // some other .test( (a RegExp's)
      // The spec object: from the call to the test body, before the next call.
      const end = n + 1 < calls.length ? calls[n + 1].index : source.length;
      const spec = source.slice(call.index, end).split(/\basync\s*\(/)[0];
      const testCase = /\bcase:\s*'([a-z0-9-]+)'/.exec(spec)?.[1];
      if (testCase === undefined) throw new Error(`${relative(ROOT, file)}: a test of ${target.key} without a literal case`);
      const only = /\bonly:\s*\{\s*kind:\s*'(group|project)'/.exec(spec)?.[1];
      // An extension (a GitLab endpoint beyond the spec's forms) is an endpoint key too.
      const forms = target.area.endpoints[target.key] ?? target.area.extensions?.[target.key];
      if (forms === undefined) throw new Error(`${relative(ROOT, file)}: area ${target.area.name} has no endpoint ${target.key}`);
      const kinds = formsByKind(forms).map(([kind]) => kind);
      for (const kind of kinds) {
        if (only !== undefined && kind !== only) continue;
        const id = kinds.length > 1 ? `${target.area.prefix}.${target.key}.${kind}.${testCase}` : `${target.area.prefix}.${target.key}.${testCase}`;
        ids.set(id, relative(ROOT, file));
      }
    }
  }
  return ids;
}

const doc = readCoverage();

describe('docs/gitlab-spec-coverage.json', () => {
  it('names only tests the suite declares', () => {
    const declared = declaredTestIds();
    // The scan itself must find the suite: every area, every test file.
    for (const area of AREAS) expect([...declared.keys()].some((id) => id.startsWith(`${area.prefix}.`)), `tests of area ${area.name}`).toBe(true);
    const named = new Set([...doc.examples.flatMap((e) => e.tests ?? []), ...doc.version_changes.flatMap((v) => v.tests)]);
    const unknown = [...named].filter((id) => !declared.has(id)).sort();
    expect(unknown, 'test ids in the JSON that no test file declares').toEqual([]);
  });

  it('says for every example which tests check it or why none does', () => {
    const wrong: string[] = [];
    doc.examples.forEach((e, i) => {
      const tested = (e.tests?.length ?? 0) > 0;
      const where = `#${i} ${e.spec}: ${e.example}`;
      if (tested === (e.uncovered !== undefined)) wrong.push(`${where}: exactly one of tests and uncovered`);
      if (e.uncovered !== undefined && !(e.uncovered.startsWith(NOT_CHECKABLE) || e.uncovered === NOT_YET_TESTED || e.uncovered.startsWith(`${NOT_YET_TESTED}: `))) {
        wrong.push(`${where}: uncovered must start with "${NOT_CHECKABLE}" or "${NOT_YET_TESTED}"`);
      }
      if (e.uncovered?.startsWith(NOT_CHECKABLE) && e.checkable_from_outside) wrong.push(`${where}: checkable from outside, yet "${e.uncovered}"`);
      if (e.uncovered?.startsWith(NOT_YET_TESTED) && !e.checkable_from_outside) wrong.push(`${where}: not checkable from outside, yet "not yet tested"`);
      if (e.conflict !== undefined && !tested) wrong.push(`${where}: a conflict names the tests it is about`);
      if (!/^[0-9a-f]{40}$/.test(e.source.commit)) wrong.push(`${where}: source commit ${e.source.commit}`);
      if (e.tests !== undefined && new Set(e.tests).size !== e.tests.length) wrong.push(`${where}: a test named twice`);
    });
    expect(wrong).toEqual([]);
  });

  it('names the GitLab commit every spec file was read at', () => {
    const sources = new Map(doc.parity.sources.map((s) => [s.spec, `${s.repository}@${s.commit}`]));
    const mismatched = doc.examples.filter((e) => sources.get(e.spec) !== `${e.source.repository}@${e.source.commit}`).map((e) => `${e.spec}: ${e.example}`);
    expect(mismatched).toEqual([]);
  });
});

describe('docs/gitlab-spec-coverage.md', () => {
  it('is up to date with the JSON (node --import tsx bench/coverage-table.ts)', () => {
    expect(readFileSync(COVERAGE_MD, 'utf8') === renderCoverage(doc), 'docs/gitlab-spec-coverage.md regenerated from the JSON').toBe(true);
  });

  it('prints the coverage figures', () => {
    const checked = doc.examples.filter((e) => statusOf(e) === 'checked').length;
    expect(checked).toBeGreaterThan(0);
    console.log(`GitLab request-spec coverage (docs/gitlab-spec-coverage.md)\n${printFigures(doc)}`);
  });
});
