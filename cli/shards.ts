// The test files of a shard (--shard I/N): the selected areas' files, split by their measured
// durations (suites/durations.json, runner/run/shard.ts). vitest's own --shard splits by count, in
// the order of a hash of the paths; the command hands vitest the shard's files as filters instead.
//
// `npm run durations` measures the table again: a whole run against the bundled reference server,
// its files' wall times (a setting phase's file summed over its phases) written to suites/durations.json.
//   node --import tsx cli/shards.ts [--from results.json]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Results } from '../runner/report/results.js';
import { assignShards, durationsOf, type Durations, type ShardSpec } from '../runner/run/shard.js';

const ROOT = resolve(import.meta.dirname, '..');
export const DURATIONS_FILE = join(ROOT, 'suites', 'durations.json');

/** The measured table; an empty one (every file at the default) when the file is missing. */
export function loadDurations(path = DURATIONS_FILE): Durations {
  if (!existsSync(path)) return {};
  return (JSON.parse(readFileSync(path, 'utf8')) as { files: Durations }).files;
}

/** The conformance test files of the areas, as paths from the package root, in name order. */
export function testFilesOf(areas: Iterable<string>, root = ROOT): string[] {
  const files: string[] = [];
  for (const area of areas) {
    const dir = join(root, 'suites', area);
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (name.endsWith('.test.ts')) files.push(relative(root, join(dir, name)).split('\\').join('/'));
    }
  }
  return files.sort();
}

/** The files of shard `shard` of a run of `areas`. */
export function shardFiles(shard: ShardSpec, areas: Iterable<string>, durations = loadDurations()): string[] {
  return assignShards(testFilesOf(areas), durations, shard.count)[shard.index - 1];
}

/** Writes the table measured by a run's results. */
export function writeDurations(results: Pick<Results, 'files' | 'target' | 'generatedAt'>, path = DURATIONS_FILE): Durations {
  if (!results.files?.length) throw new Error('the results hold no file durations');
  const files = durationsOf(results.files);
  const note = `Each test file's wall time in ms, from a whole run against ${results.target.referenceServer ? 'the bundled reference server' : results.target.url} at ${results.generatedAt}; --shard balances by it. Refresh: npm run durations.`;
  writeFileSync(path, `${JSON.stringify({ note, files }, null, 2)}\n`);
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { from: { type: 'string' } } });
  let from = values.from;
  let work: string | undefined;
  if (from === undefined) {
    work = mkdtempSync(join(tmpdir(), 'conformance-durations-'));
    process.stderr.write('durations: a whole run against the bundled reference server …\n');
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'gitlab-api-conformance.js'), '--report-dir', work], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (run.status !== 0) throw new Error(`the whole run exited ${run.status}: its durations would not be those of a passing run`);
    from = join(work, 'results.json');
  }
  const files = writeDurations(JSON.parse(readFileSync(from, 'utf8')) as Results);
  if (work) rmSync(work, { recursive: true, force: true });
  console.log(`${Object.keys(files).length} files, ${Math.round(Object.values(files).reduce((a, b) => a + b, 0) / 100) / 10} s in all, written to ${relative(ROOT, DURATIONS_FILE)}`);
}
