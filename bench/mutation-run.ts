// `npm run mutation`: StrykerJS on a copy of the project into which the mutation marks
// (bench/mutation-marks.json) are put back as Stryker comments, so that the route code in the
// repository carries no mutation bookkeeping. The reports come back to reports/mutation/.
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
  const stryker = spawnSync('npx', ['stryker', 'run'], { cwd: work, stdio: 'inherit' });
  // Stryker writes no report when its first run of the suite fails (it says why above).
  if (existsSync(join(work, 'reports', 'mutation'))) cpSync(join(work, 'reports', 'mutation'), join(ROOT, 'reports', 'mutation'), { recursive: true });
  process.exitCode = stryker.status ?? 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
