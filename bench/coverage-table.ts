// The GitLab request-spec coverage table (issue #17): reads docs/gitlab-spec-coverage.json (one
// entry per example of GitLab's request specs for the four areas, with the suite's tests that check
// it or why none does) and writes docs/gitlab-spec-coverage.md from it. Run after editing the JSON:
//   node --import tsx bench/coverage-table.ts
// bench/coverage-table.spec.ts checks that the markdown is up to date and that every test id the
// JSON names is a test the suite declares.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = resolve(import.meta.dirname, '..');
export const COVERAGE_JSON = join(ROOT, 'docs', 'gitlab-spec-coverage.json');
export const COVERAGE_MD = join(ROOT, 'docs', 'gitlab-spec-coverage.md');

export const NOT_CHECKABLE = 'not checkable from outside: ';
export const NOT_YET_TESTED = 'not yet tested';

export interface CoverageExample {
  spec: string;
  context: string;
  example: string;
  endpoint: string | null;
  kind: 'group' | 'project' | null;
  topic: string;
  source: { repository: string; commit: string };
  /** The research's verdict: the behaviour can be observed over the REST API of a running instance. */
  checkable_from_outside: boolean;
  /** The suite's tests that fail when the example's behaviour is broken. */
  tests?: string[];
  /** Why no test checks it: "not checkable from outside: …" or "not yet tested[: …]". */
  uncovered?: string;
  /** What the tests leave out or accept besides GitLab's answer. */
  note?: string;
  /** The tests check the behaviour but expect another answer than this GitLab spec: not counted as checked. */
  conflict?: string;
}

export interface VersionChange {
  topic: string;
  gitlab: string;
  suite: string;
  tests: string[];
}

export interface CoverageDoc {
  title: string;
  issue: number;
  about: string;
  rules: string[];
  parity: {
    follows: string;
    sources: { spec: string; repository: string; commit: string }[];
    shared_examples: string[];
    caveats: string[];
  };
  suite_run: string;
  version_changes: VersionChange[];
  examples: CoverageExample[];
}

export type Status = 'checked' | 'conflict' | 'not-yet-tested' | 'not-checkable' | 'checked-beyond';

/** Where an example stands: checked (and checkable), a conflicting test, not yet tested, not checkable, or checked though the research marks it not checkable. */
export function statusOf(e: CoverageExample): Status {
  const tested = (e.tests?.length ?? 0) > 0;
  if (e.conflict !== undefined) return 'conflict';
  if (tested) return e.checkable_from_outside ? 'checked' : 'checked-beyond';
  return e.checkable_from_outside ? 'not-yet-tested' : 'not-checkable';
}

export interface Figures {
  label: string;
  examples: number;
  checkable: number;
  checked: number;
  /** checked / checkable, in per cent, one decimal. */
  percent: number;
  notYetTested: number;
  conflicts: number;
  /** Examples the research marks not checkable from outside that the suite checks anyway. */
  beyond: number;
}

export function figuresOf(label: string, examples: CoverageExample[]): Figures {
  const count = (status: Status) => examples.filter((e) => statusOf(e) === status).length;
  const checkable = examples.filter((e) => e.checkable_from_outside).length;
  const checked = count('checked');
  return {
    label,
    examples: examples.length,
    checkable,
    checked,
    percent: checkable === 0 ? 0 : Math.round((checked / checkable) * 1000) / 10,
    notYetTested: count('not-yet-tested'),
    conflicts: count('conflict'),
    beyond: count('checked-beyond'),
  };
}

/** The spec files in the order of the sources, then any other in the order met. */
export function specsOf(doc: CoverageDoc): string[] {
  const specs = doc.parity.sources.map((s) => s.spec);
  for (const e of doc.examples) if (!specs.includes(e.spec)) specs.push(e.spec);
  return specs.filter((s) => doc.examples.some((e) => e.spec === s));
}

/** The area a spec file belongs to, named as the suite names its areas. */
export function areaOfSpec(spec: string): string {
  if (spec.endsWith('/files_spec.rb')) return 'repository-files';
  if (spec.endsWith('/remote_mirrors_spec.rb')) return 'remote-mirrors';
  if (spec.endsWith('/invitations_spec.rb')) return 'invitations';
  if (spec.endsWith('/members_spec.rb')) return 'members';
  // The service, model, validator and policy sources beyond the request specs (issue #51).
  if (/^(ee\/)?(app|spec)\/services\/(files|commits|branches\/validate_new)|^spec\/lib\/api\/validations\/validators\/(file_path|git_ref)/.test(spec)) return 'repository-files';
  if (/^(ee\/)?(app|spec)\/(services\/remote_mirrors\/|models\/remote_mirror)|validators\/untrusted_regexp/.test(spec)) return 'remote-mirrors';
  if (/^(ee\/)?(app|spec)\/services\/(ee\/)?members\/invite|validators\/email_or_email_list/.test(spec)) return 'invitations';
  if (/^(ee\/)?(app|spec)\/(services\/(ee\/)?members\/|services\/billable_members\/|services\/gitlab_subscriptions\/member_management\/|finders\/ee\/\w*members|models\/(ee\/)?(group_|project_)?member|validators\/future_date|policies\/(ee\/)?\w*member|finders\/\w*members)|^spec\/lib\/api\/validations\//.test(spec)) return 'members';
  return 'other';
}

export function coverageFigures(doc: CoverageDoc): { bySpec: Figures[]; byArea: Figures[]; total: Figures } {
  const bySpec = specsOf(doc).map((spec) => figuresOf(spec, doc.examples.filter((e) => e.spec === spec)));
  const areas = [...new Set(doc.examples.map((e) => areaOfSpec(e.spec)))];
  const byArea = areas.map((area) => figuresOf(area, doc.examples.filter((e) => areaOfSpec(e.spec) === area)));
  return { bySpec, byArea, total: figuresOf('total', doc.examples) };
}

// ---- markdown ------------------------------------------------------------------------------

const cell = (text: string) => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;
const short = (commit: string) => commit.slice(0, 8);

function figuresRow(f: Figures, label: string): string {
  return `| ${label} | ${f.examples} | ${f.checkable} | ${f.checked} | ${f.percent.toFixed(1)}% | ${f.notYetTested} | ${f.conflicts} | ${f.beyond} |`;
}

const FIGURES_HEAD = [
  '| | examples | checkable from outside | checked by a test | % of checkable | not yet tested | conflicting test | checked though marked not checkable |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
];

function anchorOf(spec: string): string {
  return spec.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');
}

function describeExample(e: CoverageExample): string {
  return `${e.context} › ${e.example}`;
}

function coverageCell(e: CoverageExample): string {
  const parts: string[] = [];
  if (e.tests !== undefined && e.tests.length > 0) parts.push(e.tests.map(code).join(', '));
  if (e.uncovered !== undefined) parts.push(e.uncovered);
  if (e.conflict !== undefined) parts.push(`**conflict:** ${e.conflict}`);
  if (e.note !== undefined) parts.push(`(${e.note})`);
  return cell(parts.join(' '));
}

const MARK: Record<Status, string> = {
  checked: '✓',
  'checked-beyond': '✓*',
  conflict: '≠',
  'not-yet-tested': '–',
  'not-checkable': '·',
};

/** The whole of docs/gitlab-spec-coverage.md, from the JSON alone. */
export function renderCoverage(doc: CoverageDoc): string {
  const out: string[] = [];
  const { bySpec, byArea, total } = coverageFigures(doc);
  out.push(`# ${doc.title}`, '');
  out.push('<!-- Generated by bench/coverage-table.ts from docs/gitlab-spec-coverage.json: edit the JSON, then run `node --import tsx bench/coverage-table.ts`. -->', '');
  out.push(`Issue #${doc.issue}. ${doc.about}`, '');
  for (const rule of doc.rules) out.push(`- ${rule}`);
  out.push('');

  out.push('## GitLab versions read', '');
  out.push(doc.parity.follows, '');
  out.push('| spec | repository | commit |', '|---|---|---|');
  for (const s of doc.parity.sources) out.push(`| ${code(s.spec)} | ${s.repository} | ${code(s.commit)} |`);
  out.push('', 'Shared examples expanded into the examples that use them:', '');
  for (const s of doc.parity.shared_examples) out.push(`- ${s}`);
  out.push('');
  for (const c of doc.parity.caveats) out.push(`- ${c}`);
  out.push('', `Test ids: ${doc.suite_run}.`, '');

  out.push('## Summary', '');
  out.push('Per spec file. "Checked by a test" counts the checkable examples with at least one test and no conflict; the percentage is of the checkable ones.', '');
  out.push(...FIGURES_HEAD);
  for (const f of bySpec) out.push(figuresRow(f, `[${code(f.label)}](#${anchorOf(f.label)})`));
  out.push(figuresRow(total, '**total**'), '');
  out.push('Per area:', '');
  out.push(...FIGURES_HEAD);
  for (const f of byArea) out.push(figuresRow(f, f.label));
  out.push(figuresRow(total, '**total**'), '');

  out.push('## Where GitLab changed between versions', '');
  out.push('Where GitLab answered differently in other versions, the spec level accepts both answers and the parity level names the version it follows.', '');
  for (const v of doc.version_changes) {
    out.push(`### ${v.topic}`, '');
    out.push(`- GitLab: ${v.gitlab}`);
    out.push(`- Suite: ${v.suite}`);
    if (v.tests.length > 0) out.push(`- Tests: ${v.tests.map(code).join(', ')}`);
    out.push('');
  }

  const conflicts = doc.examples.map((e, i) => ({ e, i })).filter(({ e }) => e.conflict !== undefined);
  out.push('## Tests that disagree with this GitLab spec', '');
  if (conflicts.length === 0) out.push('None.', '');
  else {
    out.push('| # | spec | example | tests | conflict |', '|---:|---|---|---|---|');
    for (const { e, i } of conflicts) {
      out.push(`| ${i} | ${code(e.spec)} | ${cell(describeExample(e))} | ${e.tests!.map(code).join(', ')} | ${cell(e.conflict!)} |`);
    }
    out.push('');
  }

  out.push('## Examples', '');
  out.push('Per spec file and endpoint, in the order of the JSON (# is the index of the example there). ✓ checked by a test; ✓* checked though the research marks it not checkable from outside; ≠ the test expects another answer; – not yet tested; · not checkable from outside.', '');
  for (const spec of specsOf(doc)) {
    const source = doc.parity.sources.find((s) => s.spec === spec);
    const f = bySpec.find((x) => x.label === spec)!;
    out.push(`### ${spec}`, '');
    if (source !== undefined) out.push(`Read at ${source.repository}@${short(source.commit)}. ${f.checked} of ${f.checkable} checkable examples checked (${f.percent.toFixed(1)}%).`, '');
    const rows = doc.examples.map((e, i) => ({ e, i })).filter(({ e }) => e.spec === spec);
    const endpoints = [...new Set(rows.map(({ e }) => e.endpoint ?? '(no request)'))];
    for (const endpoint of endpoints) {
      out.push(`#### ${endpoint}`, '');
      out.push('| # | | kind | example | tests, or why none |', '|---:|---|---|---|---|');
      for (const { e, i } of rows.filter(({ e }) => (e.endpoint ?? '(no request)') === endpoint)) {
        out.push(`| ${i} | ${MARK[statusOf(e)]} | ${e.kind ?? ''} | ${cell(describeExample(e))} | ${coverageCell(e)} |`);
      }
      out.push('');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function readCoverage(path = COVERAGE_JSON): CoverageDoc {
  return JSON.parse(readFileSync(path, 'utf8')) as CoverageDoc;
}

export function printFigures(doc: CoverageDoc): string {
  const { bySpec, byArea, total } = coverageFigures(doc);
  const line = (f: Figures) =>
    `${f.label.padEnd(42)} ${String(f.examples).padStart(4)} ${String(f.checkable).padStart(4)} ${String(f.checked).padStart(4)} ${`${f.percent.toFixed(1)}%`.padStart(6)}  nyt ${f.notYetTested}, conflict ${f.conflicts}, beyond ${f.beyond}`;
  return [`${'spec file / area'.padEnd(42)} exam chkb chkd      %`, ...bySpec.map(line), ...byArea.map(line), line(total)].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const doc = readCoverage();
  writeFileSync(COVERAGE_MD, renderCoverage(doc));
  console.log(printFigures(doc));
  console.log(`written ${COVERAGE_MD}`);
}
