// `npm run mutation`: StrykerJS on a copy of the project into which the mutation marks
// (bench/mutation-marks.json) are put back as Stryker comments, so that the route code in the
// repository carries no mutation bookkeeping; then a second pass tries every survivor against the
// whole suite (recheckSurvivors). The reports come back to reports/mutation/. With `--recheck`, only
// the second pass runs, on the survivors of reports/mutation/mutation.json (the code unchanged since).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadMarks, withMarks } from './mutation-marks.js';

const ROOT = resolve(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', '.git', 'reports', '.stryker-tmp', '.conformance']);
const work = mkdtempSync(join(tmpdir(), 'conformance-mutation-'));
try {
  cpSync(ROOT, work, { recursive: true, filter: (src) => !SKIP.has(src.slice(ROOT.length + 1).split('/')[0]) });
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
  // Stryker's incremental mode: the results of the last run, so that only what changed since is tested again.
  const incremental = join('reports', 'mutation', 'stryker-incremental.json');
  if (existsSync(join(ROOT, incremental))) cpSync(join(ROOT, incremental), join(work, incremental));
  const marks = loadMarks();
  for (const file of new Set(marks.map((m) => m.file))) {
    const path = join(work, file);
    writeFileSync(path, withMarks(file, readFileSync(path, 'utf8'), marks));
  }
  console.error(`mutation: ${marks.length} marks put back into a copy of the project at ${work}`);
  const reportPath = join(work, 'reports', 'mutation', 'mutation.json');
  const recheckOnly = process.argv.includes('--recheck');
  if (recheckOnly) cpSync(join(ROOT, 'reports', 'mutation', 'mutation.json'), reportPath);
  const stryker = recheckOnly ? { status: 0 } : spawnSync('npx', ['stryker', 'run'], { cwd: work, stdio: 'inherit' });
  if (stryker.status === 0 && existsSync(reportPath)) recheckSurvivors(reportPath);
  // Stryker writes no report when its first run of the suite fails (it says why above).
  if (existsSync(join(work, 'reports', 'mutation'))) cpSync(join(work, 'reports', 'mutation'), join(ROOT, 'reports', 'mutation'), { recursive: true });
  process.exitCode = stryker.status ?? 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  statusReason?: string;
  killedBy?: string[];
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
type Report = { files: Record<string, { mutants: Mutant[] }> } & { testFiles?: Record<string, { tests: { id: string; name: string }[] }> };

/**
 * A second pass: every survivor is tried again against the whole suite. Stryker's perTest coverage
 * tries a mutant only on the tests that ran its code, and a shared fixture runs its code once, in
 * the test that first asked for it: a mutant in that code is then tried on that test alone, though a
 * later test that reads the fixture would catch it. A survivor killed here counts as killed, with
 * the test that killed it in its statusReason; one that survives this pass survives.
 */
function recheckSurvivors(reportPath: string): void {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
  const survivors = Object.entries(report.files).flatMap(([file, { mutants }]) => mutants.filter((m) => m.status === 'Survived').map((m) => ({ file, m })));
  if (survivors.length === 0) return;
  // Stryker's ranges count lines from 1 and columns from 0; its report counts both from 1.
  const ranges = [...new Set(survivors.map(({ file, m }) => `${file}:${m.location.start.line}:${m.location.start.column - 1}-${m.location.end.line}:${m.location.end.column - 1}`))];
  const recheckPath = join('reports', 'mutation-recheck', 'mutation.json');
  const config = JSON.parse(readFileSync(join(work, 'stryker.config.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(
    join(work, 'stryker.recheck.json'),
    JSON.stringify({ ...config, mutate: ranges, coverageAnalysis: 'all', ignoreStatic: false, incremental: false, reporters: ['progress', 'json'], jsonReporter: { fileName: recheckPath } }),
  );
  console.error(`mutation: ${survivors.length} survivors tried again against every test`);
  const again = spawnSync('npx', ['stryker', 'run', 'stryker.recheck.json'], { cwd: work, stdio: 'inherit' });
  if (again.status !== 0 || !existsSync(join(work, recheckPath))) {
    console.error('mutation: the second pass did not finish; the survivors stand as the first pass left them');
    return;
  }
  const recheck = JSON.parse(readFileSync(join(work, recheckPath), 'utf8')) as Report;
  const testName = new Map(Object.values(recheck.testFiles ?? {}).flatMap((f) => f.tests.map((t) => [t.id, t.name] as const)));
  const same = (a: Mutant, b: Mutant) => a.mutatorName === b.mutatorName && a.replacement === b.replacement && JSON.stringify(a.location) === JSON.stringify(b.location);
  let killed = 0;
  for (const { file, m } of survivors) {
    const found = recheck.files[file]?.mutants.find((r) => same(r, m));
    if (!found || !['Killed', 'Timeout'].includes(found.status)) continue;
    const by = (found.killedBy ?? []).map((id) => testName.get(id) ?? id).join(', ');
    Object.assign(m, { status: found.status, killedBy: found.killedBy, statusReason: `killed in the second pass, against every test${by ? ` (by ${by})` : ''}: perTest coverage had not tried it on that test` });
    killed++;
  }
  writeFileSync(reportPath, JSON.stringify(report));
  console.error(`mutation: the second pass killed ${killed} of ${survivors.length} survivors`);
}
