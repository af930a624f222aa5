// The shards of one run (--shard I/N, each in its own CI job) joined back into the run's results:
// every test record of every shard, the counts and the status recomputed as one run's, the fixture,
// set-up and request tallies added up. The reports are then written from it as a run's are
// (writeReports), with clause coverage over the whole catalogue (clause-coverage.ts).
import { buildResults, type FixtureReport, type Results } from './results.js';

/** Why the directories cannot be joined: one line, for the command to print (exit 2). */
export class MergeRefusal extends Error {}

/** What must be alike in every shard of one run: a difference means shards of different runs. */
function identity(r: Results): { what: string; value: string }[] {
  // Shards that each started the bundled reference server have one each, on its own port.
  const target = r.target.referenceServer ? `the bundled reference server (GitLab ${r.target.version})` : `${r.target.url} (GitLab ${r.target.version})`;
  return [
    { what: 'run', value: r.shard!.run },
    { what: 'suite version', value: r.suite.version },
    { what: 'target', value: target },
    { what: 'level', value: r.level },
    { what: 'capabilities', value: r.capabilities.join(',') || 'none' },
    { what: 'selection', value: JSON.stringify({ areas: r.settings.areas, endpoints: r.settings.endpoints, disabled: r.settings.disabledTests }) },
    { what: 'shard count', value: String(r.shard!.count) },
  ];
}

/**
 * The run the shards make together. `shards[i].name` says where a shard was read from, for the
 * messages. Refuses (MergeRefusal) results that are not a shard's, shards of different runs,
 * suite versions, targets, levels or counts, a shard given twice, and a run with a shard missing.
 */
export function mergeShards(shards: { name: string; results: Results }[]): Results {
  if (shards.length === 0) throw new MergeRefusal('no report directory given');
  const notShard = shards.find((s) => s.results.shard === undefined);
  if (notShard) throw new MergeRefusal(`${notShard.name} is not a shard's report (its run had no --shard)`);
  const [first] = shards;
  const reference = identity(first.results);
  for (const shard of shards.slice(1)) {
    identity(shard.results).forEach(({ what, value }, i) => {
      // Shards started without --run-id each carry their own run's id.
      const hint = what === 'run' ? ' (the shards of one run take one --run-id)' : '';
      if (value !== reference[i].value) throw new MergeRefusal(`${first.name} and ${shard.name} are of different runs: ${what} ${reference[i].value} against ${value}${hint}`);
    });
  }
  const { run, count } = first.results.shard!;
  const byIndex = new Map<number, string>();
  for (const { name, results } of shards) {
    const seen = byIndex.get(results.shard!.index);
    if (seen !== undefined) throw new MergeRefusal(`${seen} and ${name} are both shard ${results.shard!.index} of ${count} of run ${run}`);
    byIndex.set(results.shard!.index, name);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new MergeRefusal(`shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${count} of run ${run} ${missing.length > 1 ? 'are' : 'is'} missing: give ${missing.length > 1 ? 'their' : 'its'} report director${missing.length > 1 ? 'ies' : 'y'} too`);

  const ordered = [...shards].sort((a, b) => a.results.shard!.index - b.results.shard!.index).map((s) => s.results);
  const tests = ordered.flatMap((r) => r.tests);
  const interrupted = ordered.find((r) => r.status === 'interrupted');
  const merged: Results = {
    ...buildResults(tests, undefined, first.results.settings, first.results.level, interrupted ? `shard ${interrupted.shard!.index}: ${interrupted.interruption}` : undefined),
    target: first.results.target,
    capabilities: first.results.capabilities,
    merged: { run, shards: count },
  };
  // The latest shard's end is the run's.
  merged.generatedAt = ordered.map((r) => r.generatedAt).sort().at(-1)!;
  const files = ordered.flatMap((r) => r.files ?? []);
  if (files.length > 0) merged.files = files.sort((a, b) => b.durationMs - a.durationMs);
  const fixtures: FixtureReport[] = ordered.flatMap((r) => r.fixtures ?? []);
  if (fixtures.length > 0) merged.fixtures = fixtures;
  const lacking = new Map<string, { need: string; endpoint: string; tests: number }>();
  for (const l of ordered.flatMap((r) => r.lackingSetup ?? [])) {
    const entry = lacking.get(l.need) ?? { ...l, tests: 0 };
    entry.tests += l.tests;
    lacking.set(l.need, entry);
  }
  if (lacking.size > 0) merged.lackingSetup = [...lacking.values()];
  const requests = ordered.map((r) => r.requests).filter((r) => r !== undefined);
  if (requests.length > 0) {
    const total: Record<string, number> = {};
    for (const r of requests) for (const [purpose, n] of Object.entries(r.total)) total[purpose] = (total[purpose] ?? 0) + n;
    // The most in flight in any one shard: shards of separate jobs may or may not have overlapped.
    merged.requests = { files: requests.flatMap((r) => r.files).sort((a, b) => a.file.localeCompare(b.file)), total, highestInFlight: Math.max(...requests.map((r) => r.highestInFlight)) };
  }
  const pending = ordered.flatMap((r) => r.cleanUp?.pending ?? []);
  if (pending.length > 0) merged.cleanUp = { pending };
  // Each shard applied the baseline to its own tests: an entry is unexpected or stale in the shard that ran its test.
  const baselines = ordered.map((r) => r.baseline).filter((b) => b !== undefined);
  if (baselines.length > 0) {
    merged.baseline = { file: baselines[0].file, unexpectedFailures: baselines.flatMap((b) => b.unexpectedFailures), stale: baselines.flatMap((b) => b.stale) };
  }
  return merged;
}
