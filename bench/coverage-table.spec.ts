// Checks docs/gitlab-spec-coverage.json against the suite and docs/gitlab-spec-coverage.md against
// the JSON (issue #17): every test id the JSON names is a test the suite declares, every example says
// either which tests check it or why none does, and the markdown is what bench/coverage-table.ts
// makes of the JSON. Prints the coverage figures.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../suites/areas.js';
import { formsByKind, type Area } from '../runner/core/area.js';
import { COVERAGE_MD, NOT_CHECKABLE, NOT_YET_TESTED, printFigures, readCoverage, renderCoverage, ROOT, statusOf, type CoverageExample } from './coverage-table.js';

const SUITES = join(ROOT, 'suites');

/** The test files of the suite: suites/<area>/*.test.ts, the exclusive ones included. */
function testFiles(): string[] {
  return readdirSync(SUITES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'common')
    .flatMap((d) => readdirSync(join(SUITES, d.name)).filter((f) => f.endsWith('.test.ts')).map((f) => join(SUITES, d.name, f)));
}

interface DeclaredTest {
  file: string;
  /** The endpoint form the test runs against, e.g. "GET /groups/:id/members". */
  form: string;
  /** The test's body, comments left out: what it sends. */
  body: string;
}

/**
 * A case factory of the suite (`export function <name>Case(suite, …)` in an area's helpers.ts or in
 * suites/common/): its test's spec (case, only) and body, as the factory writes them.
 */
function caseFactory(name: string): { spec: string; body: string } {
  const files = readdirSync(SUITES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(SUITES, d.name)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => join(SUITES, d.name, f)));
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const start = source.indexOf(`export function ${name}`);
    if (start < 0) continue;
    const end = source.indexOf('\n}\n', start);
    const [spec, ...body] = source.slice(start, end < 0 ? undefined : end).split(/\basync\s*\(/);
    return { spec, body: body.join('async (') };
  }
  throw new Error(`no case factory ${name} in suites/`);
}

const withoutComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/**
 * The ids the suite declares, read from the sources the way runner/run/conformance.ts makes
 * them: `<prefix>.<endpoint>[.<kind>].<case>`, with a kind when the endpoint has a group and a
 * project form, for each kind unless the test names one with `only`. The endpoint of a test is the
 * `endpoint([<area>, ]'<key>')` it is called on, directly or through a variable; the area is the one
 * the identifier is imported as (from `<dir>/area.js`), else (an area kit's endpoint, or none
 * imported) the test file's own directory.
 */
function declaredTestIds(files = testFiles()): Map<string, DeclaredTest> {
  const byName = new Map<string, Area>(AREAS.map((a) => [a.name, a]));
  const ids = new Map<string, DeclaredTest>();
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const dir = dirname(file);
    const areaOf = (identifier: string | undefined): Area => {
      const imported = identifier === undefined ? null : new RegExp(`import\\s*\\{[^}]*\\b${identifier}\\b[^}]*\\}\\s*from\\s*'([^']+)/area\\.js'`).exec(source);
      const name = imported !== null ? relative(SUITES, resolve(dir, imported[1])) : relative(SUITES, dir);
      const area = byName.get(name);
      if (area === undefined) throw new Error(`${relative(ROOT, file)}: no registered area for ${identifier ?? 'its folder'} (${name})`);
      return area;
    };
    const suites = new Map<string, { area: Area; key: string }>();
    for (const m of source.matchAll(/\bconst\s+(\w+)\s*=\s*endpoint\(\s*(?:(\w+)\s*,\s*)?'([\w-]+)'\s*(?:,[^)]*)?\)/g)) suites.set(m[1], { area: areaOf(m[2]), key: m[3] });
    const declare = (target: { area: Area; key: string }, spec: string, body: string) => {
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
        ids.set(id, { file: relative(ROOT, file), form: formsByKind(forms).find(([k]) => k === kind)![1], body: withoutComments(body) });
      }
    };
    const calls = [...source.matchAll(/(?:\bendpoint\(\s*(?:(\w+)\s*,\s*)?'([\w-]+)'\s*(?:,[^)]*)?\)|\b(\w+))\.test\(\s*\{/g)];
    for (const [n, call] of calls.entries()) {
      const target = call[2] !== undefined ? { area: areaOf(call[1]), key: call[2] } : suites.get(call[3]);
      if (target === undefined) continue; // some other .test( (a RegExp's)
      // The spec object: from the call to the test body, before the next call.
      const end = n + 1 < calls.length ? calls[n + 1].index : source.length;
      const [spec, ...body] = source.slice(call.index, end).split(/\basync\s*\(/);
      declare(target, spec, body.join('async ('));
    }
    // A case a factory adds (`subgroupAndRolesCase(suite, { … })` at the start of a line): the
    // factory's spec, and its body with what the call hands it (up to the line that ends the call).
    for (const call of source.matchAll(/^(\w+Case)\(\s*(\w+)\s*,/gm)) {
      const target = suites.get(call[2]);
      if (target === undefined) continue;
      const ends = /^\S.*\);[ \t]*$/gm;
      ends.lastIndex = call.index;
      const end = ends.exec(source);
      const factory = caseFactory(call[1]);
      declare(target, factory.spec, `${factory.body}\n${source.slice(call.index, end ? end.index + end[0].length : undefined)}`);
    }
  }
  return ids;
}

const doc = readCoverage();

const FILE_WRITE = ['branch', 'commit_message', 'content', 'author_email', 'author_name', 'encoding', 'execute_filemode', 'start_branch', 'last_commit_id'];
const MIRROR_WRITE = ['enabled', 'keep_divergent_refs', 'only_protected_branches', 'mirror_branch_regex', 'auth_method', 'host_keys'];
/** The request parameters of each endpoint form (the spec's parameter tables; page and per_page on its paginated lists), the path parameters aside. */
const PARAMETERS: [RegExp, string[]][] = [
  [/^(GET|HEAD) \/projects\/:id\/repository\/files\/:file_path$/, ['ref']],
  [/^(GET|HEAD) \/projects\/:id\/repository\/files\/:file_path\/blame$/, ['ref', 'range']],
  [/^(GET|HEAD) \/projects\/:id\/repository\/files\/:file_path\/raw$/, ['ref', 'lfs']],
  [/^(POST|PUT) \/projects\/:id\/repository\/files\/:file_path$/, FILE_WRITE],
  [/^DELETE \/projects\/:id\/repository\/files\/:file_path$/, FILE_WRITE.filter((p) => !['content', 'encoding', 'execute_filemode'].includes(p))],
  [/^POST \/projects\/:id\/remote_mirrors$/, ['url', ...MIRROR_WRITE]],
  [/^PUT \/projects\/:id\/remote_mirrors\/:mirror_id$/, MIRROR_WRITE],
  [/^POST \/(groups|projects)\/:id\/invitations$/, ['email', 'user_id', 'access_level', 'expires_at', 'invite_source', 'member_role_id']],
  [/^GET \/(groups|projects)\/:id\/invitations$/, ['query', 'page', 'per_page']],
  [/^PUT \/(groups|projects)\/:id\/invitations\/:email$/, ['access_level', 'expires_at']],
  [/^GET \/(groups|projects)\/:id\/members$/, ['query', 'user_ids', 'skip_users', 'show_seat_info', 'page', 'per_page']],
  [/^GET \/(groups|projects)\/:id\/members\/all$/, ['query', 'user_ids', 'show_seat_info', 'state', 'page', 'per_page']],
  [/^GET \/groups\/:id\/billable_members$/, ['search', 'sort', 'page', 'per_page']],
  [/^POST \/(groups|projects)\/:id\/members$/, ['user_id', 'username', 'access_level', 'expires_at', 'invite_source', 'member_role_id']],
  [/^PUT \/(groups|projects)\/:id\/members\/:user_id$/, ['access_level', 'expires_at', 'member_role_id']],
  [/^DELETE \/(groups|projects)\/:id\/members\/:user_id$/, ['skip_subresources', 'unassign_issuables']],
  [/^PUT \/groups\/:id\/members\/:user_id\/state$/, ['state']],
];
/** Names a test's helpers give parameters (suites/repository-files/helpers.ts writeBody); others are spelled as sent or in camelCase. */
const SPELLINGS: Record<string, string[]> = { execute_filemode: ['executable'], commit_message: ['message'] };

/**
 * The parameters an example's words name for its endpoint form ("with search and sort params",
 * "finds all members with no query string specified": GitLab sends query=''), leaving out the path
 * (":user_id"), the body's media type ("with json encoding") and parameters named as absent ("when
 * access_level is not given", "without content").
 */
function namedParameters(e: CoverageExample): string[] {
  const text = `${e.context} ${e.example}`.replace(/\S*\/\S*/g, ' ').replace(/\b(json|form) encoding\b/gi, ' ');
  const params = PARAMETERS.filter(([form]) => form.test(e.endpoint ?? '')).flatMap(([, names]) => names);
  return params.filter((p) => {
    const word = p.replace(/_/g, '[_ ]');
    if (!new RegExp(`\\b${word}\\b`, 'i').test(text)) return false;
    const absent = new RegExp(`\\b(without|no|missing)\\b[a-z ]*\\b${word}\\b(?![a-z ]*specified)|\\b${word}\\b[a-z ]*\\b(not given|is missing|not provided)\\b`, 'i');
    return !absent.test(text);
  });
}

/** The test's body sends the parameter: a key (`query:`, `'range[start]'`, `'host_keys[]'`), a shorthand (`{ query }`) or `query=` in a path. */
function sends(body: string, parameter: string): boolean {
  const camel = parameter.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return [parameter, camel, ...(SPELLINGS[parameter] ?? [])].some((name) => new RegExp(`\\b${name}\\s*:|['"\`]${name}['"\`[]|\\b${name}=|[{,]\\s*${name}\\s*[,}]`).test(body));
}

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

  it('maps an example that names a request parameter to a test that sends it', () => {
    const declared = declaredTestIds();
    const unsent: string[] = [];
    doc.examples.forEach((e, i) => {
      const tests = e.tests ?? [];
      if (tests.length === 0) return;
      for (const parameter of namedParameters(e)) {
        if (!tests.some((id) => sends(declared.get(id)?.body ?? '', parameter))) unsent.push(`#${i} ${e.endpoint} "${e.example}" names ${parameter}; ${tests.join(', ')} send none`);
      }
    });
    expect(unsent).toEqual([]);
  });

  it('maps an example to tests of its endpoint form, or says in a note how another endpoint\'s test checks it', () => {
    const declared = declaredTestIds();
    const elsewhere = doc.examples.flatMap((e, i) => (e.note === undefined ? (e.tests ?? []).filter((id) => declared.get(id)?.form !== e.endpoint).map((id) => `#${i} ${e.endpoint}: ${id} runs ${declared.get(id)?.form}`) : []));
    expect(elsewhere).toEqual([]);
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
