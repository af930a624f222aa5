// Shards of a run (--shard I/N) balanced by the test files' measured durations, not by their count:
// one file of the suite takes as long as twenty others (invitations/create against members/get), so a
// split by count leaves one job running long after the others. Every job computes the same split
// from the same table (suites/durations.json) and the same selection, with no coordination.
import { ConfigError } from '../core/errors.js';

export interface ShardSpec {
  /** 1-based. */
  index: number;
  count: number;
}

/** `--shard I/N`, checked: 1 ≤ I ≤ N. */
export function parseShard(text: string): ShardSpec {
  const match = /^([1-9]\d*)\/([1-9]\d*)$/.exec(text);
  if (!match) throw new ConfigError(`--shard must look like 1/3, got "${text}"`);
  const [index, count] = [Number(match[1]), Number(match[2])];
  if (index > count) throw new ConfigError(`--shard ${text}: there is no shard ${index} of ${count}`);
  return { index, count };
}

/** The table of measured durations: a test file's path (from the package root) → its milliseconds. */
export type Durations = Record<string, number>;

/**
 * A file the table has no figure for (a new one) counts as the median of those it has: it is
 * placed as an ordinary file until the table is refreshed.
 */
export function defaultDurationMs(durations: Durations): number {
  const known = Object.values(durations).sort((a, b) => a - b);
  if (known.length === 0) return 1000;
  const mid = Math.floor(known.length / 2);
  return known.length % 2 === 1 ? known[mid] : Math.round((known[mid - 1] + known[mid]) / 2);
}

/**
 * The files of each shard: longest first, each onto the shard with the least so far (the first
 * such shard on a tie), ties between files broken by name. Deterministic for a given table and set
 * of files, whatever order the files come in.
 */
export function assignShards(files: string[], durations: Durations, count: number): string[][] {
  const fallback = defaultDurationMs(durations);
  const weight = (file: string) => durations[file] ?? fallback;
  const ordered = [...new Set(files)].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  const shards = Array.from({ length: count }, () => ({ files: [] as string[], ms: 0 }));
  for (const file of ordered) {
    const lightest = shards.reduce((best, shard) => (shard.ms < best.ms ? shard : best));
    lightest.files.push(file);
    lightest.ms += weight(file);
  }
  return shards.map((s) => s.files.sort());
}

/** Each shard's summed duration by the table (what the balance is judged on). */
export function shardLoads(shards: string[][], durations: Durations): number[] {
  const fallback = defaultDurationMs(durations);
  return shards.map((files) => files.reduce((sum, f) => sum + (durations[f] ?? fallback), 0));
}

/** A run's files with their wall times (results.json's `files`), summed per file: a setting phase's file runs once per phase. */
export function durationsOf(files: { file: string; durationMs: number }[]): Durations {
  const out: Durations = {};
  for (const { file, durationMs } of files) out[file] = (out[file] ?? 0) + durationMs;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
