// `npm run conformance`: runs the conformance project through vitest's node API (not by parsing
// its output), then prints the per-area verdict table from results.json.
// Exit codes: 0 every applicable test passed; 1 some failed or errored; 2 the run could not be made.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startVitest } from 'vitest/node';
import { ConfigError, loadConfig } from './config.js';
import type { Results, Verdict } from './reporter.js';

async function main(): Promise<number> {
  let reportDir: string;
  try {
    reportDir = loadConfig().reportDir;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`conformance: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const resultsPath = join(reportDir, 'results.json');
  rmSync(resultsPath, { force: true });

  const vitest = await startVitest('test', [], { project: ['conformance'], watch: false, run: true });
  const setupFailed = (vitest?.state.getUnhandledErrors() ?? []).length > 0 || !existsSync(resultsPath);
  await vitest?.close();
  if (setupFailed) {
    console.error('conformance: the run could not be made (see the error above: configuration, target or admin token)');
    return 2;
  }
  const results = JSON.parse(readFileSync(resultsPath, 'utf8')) as Results;
  printTable(results);
  return results.summary.fail + results.summary.error > 0 ? 1 : 0;
}

function printTable(results: Results): void {
  const verdicts: Verdict[] = ['pass', 'fail', 'error', 'unsupported', 'disabled'];
  const areas = [...new Set(results.tests.map((t) => t.area))].sort();
  const rows = areas.map((area) => [area, ...verdicts.map((v) => String(results.tests.filter((t) => t.area === area && t.verdict === v).length))]);
  rows.push(['total', ...verdicts.map((v) => String(results.summary[v]))]);
  const header = ['area', ...verdicts];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\nTarget ${results.target.url} (GitLab ${results.target.version})`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

process.exitCode = await main();
