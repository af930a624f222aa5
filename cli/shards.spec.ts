// --shard's split: by the files' measured durations, the same in every job, each file in one shard.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CATALOG } from '../suites/areas.js';
import { assignShards, defaultDurationMs, parseShard, shardLoads } from '../runner/run/shard.js';
import { loadDurations, testFilesOf } from './shards.js';

const spread = (loads: number[]) => Math.max(...loads) - Math.min(...loads);

/** vitest's own --shard: the files in the order of a hash of their paths, cut into runs of equal count. */
function byCount(files: string[], count: number): string[][] {
  const hashed = [...files].sort((a, b) => {
    const [ha, hb] = [a, b].map((f) => createHash('sha1').update(`/${f}`).digest('hex'));
    return ha < hb ? -1 : ha > hb ? 1 : 0;
  });
  const base = Math.floor(files.length / count);
  const rest = files.length % count;
  const shards: string[][] = [];
  for (let i = 0, at = 0; i < count; at += base + (i < rest ? 1 : 0), i++) shards.push(hashed.slice(at, at + base + (i < rest ? 1 : 0)));
  return shards;
}

describe('shards balanced by measured durations', () => {
  const durations = loadDurations();
  const files = testFilesOf(CATALOG.areaNames);

  test('the table measures the suite\'s files: every one it names exists', () => {
    expect(Object.keys(durations).length).toBeGreaterThan(files.length / 2);
    expect(Object.keys(durations).filter((f) => !files.includes(f))).toEqual([]);
  });

  test('on the measured table, the shards\' summed durations differ by less than the largest file, and less than a split by count', () => {
    const largest = Math.max(...files.map((f) => durations[f] ?? 0));
    for (const count of [2, 3, 4, 5]) {
      const shards = assignShards(files, durations, count);
      expect(shards.flat().sort(), 'each file in exactly one shard').toEqual(files);
      const loads = shardLoads(shards, durations);
      expect(spread(loads), `${count} shards: ${loads.join(', ')} ms`).toBeLessThan(largest);
      expect(Math.max(...loads), `${count} shards`).toBeLessThan(Math.max(...shardLoads(byCount(files, count), durations)));
    }
  });

  test('any table: each file in one shard, the same split whatever order the files come in, loads within the largest file of each other', () => {
    const table = fc.uniqueArray(fc.tuple(fc.stringMatching(/^suites\/[a-z]{1,6}\/[a-z]{1,6}\.test\.ts$/), fc.integer({ min: 1, max: 60_000 })), { minLength: 1, maxLength: 60, selector: ([name]) => name });
    fc.assert(
      fc.property(table, fc.integer({ min: 1, max: 8 }), fc.integer(), (entries, count, seed) => {
        const durations = Object.fromEntries(entries);
        const names = entries.map(([name]) => name);
        const shuffled = [...names].sort((a, b) => (createHash('md5').update(`${seed}${a}`).digest('hex') < createHash('md5').update(`${seed}${b}`).digest('hex') ? -1 : 1));
        const shards = assignShards(names, durations, count);
        expect(shards).toHaveLength(count);
        expect(shards.flat().sort()).toEqual([...names].sort());
        expect(assignShards(shuffled, durations, count)).toEqual(shards);
        expect(spread(shardLoads(shards, durations))).toBeLessThanOrEqual(Math.max(...Object.values(durations)));
      }),
    );
  });

  test('a file the table has no figure for counts as its median', () => {
    const table = { 'a.test.ts': 100, 'b.test.ts': 300, 'c.test.ts': 9000 };
    expect(defaultDurationMs(table)).toBe(300);
    expect(shardLoads([['a.test.ts', 'new.test.ts']], table)).toEqual([400]);
    expect(defaultDurationMs({})).toBeGreaterThan(0);
  });

  test('--shard I/N is checked', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(() => parseShard('half')).toThrow(/--shard must look like 1\/3/);
    expect(() => parseShard('4/3')).toThrow(/there is no shard 4 of 3/);
  });
});
