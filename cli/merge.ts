// `gitlab-api-conformance merge DIR... [--out DIR]`: the report directories of a run's shards (each
// CI job's --shard I/N, with one --run-id) joined into the run's reports, as one run would have
// written them: results.json, junit.xml, summary.md, report.html and clauses.json, clause coverage
// over the whole catalogue and the root causes across shards. Reads results.json only; sends nothing.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CATALOG } from '../suites/areas.js';
import { ConfigError } from '../runner/core/errors.js';
import { clauseCoverage } from '../runner/report/clause-coverage.js';
import { mergeShards, MergeRefusal } from '../runner/report/merge.js';
import { writeReports } from '../runner/report/reporter.js';
import { chosenSummary, type Results } from '../runner/report/results.js';
import { printEnding, printTable } from '../runner/report/terminal.js';

export const MERGE_HELP = `Usage: gitlab-api-conformance merge DIR... [--out DIR]

Joins the report directories of the shards of one run (--shard I/N with one --run-id, e.g. the
pipeline's id) into the run's reports in --out (default reports): results.json, junit.xml,
summary.md, report.html and clauses.json, the clause coverage over the whole catalogue and the root
causes across shards. Directories of different runs, suite versions, targets or selections are
refused, and so is a run with a shard missing (named). Only results.json is read.

  --out DIR                  where the joined reports go (default reports); not one of the DIRs

Exit codes: as the whole run's: 0 every applicable test passed; 1 some failed or the baseline broke;
2 the directories cannot be joined, or a shard was interrupted; 5 nothing was checked.

Example:
  gitlab-api-conformance merge reports/shard-1 reports/shard-2 reports/shard-3 --out reports`;

function readShard(dir: string): { name: string; results: Results } {
  try {
    return { name: dir, results: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results };
  } catch (error) {
    throw new MergeRefusal(`${dir}: no readable results.json (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

export async function merge(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { out: { type: 'string', default: 'reports' } } });
  if (positionals.length === 0) throw new ConfigError('merge needs the shards\' report directories: merge DIR... [--out DIR]');
  if (positionals.some((dir) => resolve(dir) === resolve(values.out))) throw new ConfigError(`--out ${values.out} is one of the shards' directories: give another`);
  let results: Results;
  try {
    results = mergeShards(positionals.map(readShard));
  } catch (error) {
    if (!(error instanceof MergeRefusal)) throw error;
    console.error(`merge: ${error.message}`);
    return 2;
  }
  const coverage = clauseCoverage(CATALOG.clauses, results.tests);
  writeReports(values.out, results, coverage);
  printTable(results);
  const s = results.summary;
  console.log(`\nmerged ${results.merged!.shards} shards of run ${results.merged!.run}: ${s.total} tests; clauses covered by the selected tests ${coverage.covered}/${coverage.testable}`);
  printEnding(results, values.out);
  // As a whole run checks the catalogue: now that every shard is here, a clause with no test is one.
  const problems = results.status === 'interrupted' ? [] : coverage.gaps.map((id) => `clause ${id} has no test`);
  if (problems.length > 0) console.error(`conformance catalog problems:\n  ${problems.join('\n  ')}`);
  if (results.status === 'interrupted') return 2;
  if (results.status === 'empty') return 5;
  if (results.baseline) {
    const { unexpectedFailures, stale } = results.baseline;
    if (unexpectedFailures.length) console.error(`unexpected failures (not in ${results.baseline.file}): ${unexpectedFailures.join(', ')}`);
    if (stale.length) console.error(`stale baseline entries (these pass now; remove them): ${stale.join(', ')}`);
    return unexpectedFailures.length + stale.length + problems.length > 0 ? 1 : 0;
  }
  const chosen = chosenSummary(results);
  return chosen.fail + chosen.error + problems.length > 0 ? 1 : 0;
}
