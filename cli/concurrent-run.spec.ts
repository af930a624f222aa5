// Many runs, one target (issue #50): runs started together against one reference server, in one
// folder as a user starts them, each give every test the verdict it gets alone; and the instance
// setting the setting phases change has one holder at a time, through a lease on the target itself
// (runner/run/target-lease.ts). Each run is the real command in a child process.
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ReferenceServer } from '../reference-server/server.js';
import type { Results } from '../runner/report/results.js';
import { leaseDescription, leasePath } from '../runner/run/target-lease.js';
import { cleanUpChildren, cli, fullTarget, leftovers, resultsIn, server, tempDir } from './cli-child.js';

afterAll(cleanUpChildren);

const RUN_MS = 300_000;
const SETTING = 'enable_member_promotion_management';
const LEASE = leasePath(SETTING);

/** Every test's verdict at both levels, by id. */
const verdicts = (results: Results) => new Map(results.tests.map((t) => [t.id, `${t.verdict}/${t.parity}`]));

const groupAt = (s: ReferenceServer, path: string) => [...s.store.groups.values()].find((g) => g.path === path && g.parentId === null);

describe('runs side by side in one folder against one server', () => {
  test(
    'three shards of a run and two unrelated whole runs started together: each test gets the verdict of a whole run, and nothing is left',
    { timeout: RUN_MS },
    async () => {
      const s = await server();
      const dir = tempDir('conformance-concurrent-');
      // One file at a time each: five runs share 2 cores.
      const env = { ...fullTarget(s, dir), CONFORMANCE_CONCURRENCY: '1' };
      const names = ['whole-a', 'whole-b', 'shard-1', 'shard-2', 'shard-3'];
      const runs = await Promise.all(
        names.map((name) => {
          const shard = name.startsWith('shard-') ? ['--shard', `${name.slice(-1)}/3`] : [];
          return cli(['--report-dir', join(dir, name), ...shard], env, { dir, timeoutMs: RUN_MS - 10_000 });
        }),
      );
      const [a, b, ...shards] = runs.map((run, i) => resultsIn(join(dir, names[i]), run));
      // The whole runs pass, every test at both levels: what a whole run gives each test.
      for (const [name, results] of [['whole-a', a], ['whole-b', b]] as const) {
        const bad = results.tests.filter((t) => t.verdict !== 'pass' || t.parity !== 'pass').map((t) => `${t.id}: ${t.verdict}/${t.parity} ${(t.reason ?? '').split('\n')[0]}`);
        expect(bad, `${name} beside the other runs`).toEqual([]);
      }
      expect(verdicts(b)).toEqual(verdicts(a));
      // The shards hold the catalogue between them, each test once, with the whole run's verdict.
      const sharded = new Map<string, string>();
      for (const [i, results] of shards.entries()) {
        for (const [id, verdict] of verdicts(results)) {
          expect(sharded.has(id), `${id} in more than one shard`).toBe(false);
          sharded.set(id, verdict);
        }
        expect(runs[i + 2].code, `shard ${i + 1}/3's exit code:\n${runs[i + 2].stderr.slice(-2000)}`).toBe(0);
      }
      const differing = [...verdicts(a)].filter(([id, verdict]) => sharded.get(id) !== verdict).map(([id, verdict]) => `${id}: whole run ${verdict}, shard ${sharded.get(id) ?? 'absent'}`);
      expect(differing).toEqual([]);
      expect(leftovers(s)).toEqual([]);
      expect(s.store.settings.enableMemberPromotionManagement).toBe(false);
    },
  );
});

describe("the setting's lease on the target", () => {
  /** The invitations tests of promotion approval: six in the setting's phases, two in the main one. */
  const selection = ['--area', 'invitations', '--grep', 'promotion'];

  test('a run that cannot get the lease in time reports the tests of the setting unsupported, naming the holder, and leaves the lease and the setting alone', { timeout: RUN_MS }, async () => {
    const s = await server();
    const dir = tempDir('conformance-lease-held-');
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const held = s.store.createGroup({ name: LEASE, path: LEASE, parentId: null, visibility: 'private', description: leaseDescription('spec-holder', until) });
    const run = await cli(['--report-dir', join(dir, 'reports'), ...selection], { ...fullTarget(s, dir), CONFORMANCE_LEASE_WAIT_S: '1' }, { dir });
    const results = resultsIn(join(dir, 'reports'), run);
    const phased = results.tests.filter((t) => t.verdict !== 'disabled' && t.file.includes('.exclusive.'));
    expect(phased.length).toBe(6);
    for (const t of phased) expect([t.id, t.verdict, t.reason]).toEqual([t.id, 'unsupported', `instance setting ${SETTING} is held by run spec-holder until ${until}`]);
    expect(results.summary).toMatchObject({ pass: 2, fail: 0, error: 0, unsupported: 6 });
    expect(run.code).toBe(0);
    expect(groupAt(s, LEASE)?.id).toBe(held.id);
    expect(s.store.settings.enableMemberPromotionManagement).toBe(false);
    expect(leftovers(s).filter((o) => o !== `group ${LEASE}`)).toEqual([]);
  });

  test('a lease past its end (its holder was killed) is taken over: the tests run, and the run releases the lease at its end', { timeout: RUN_MS }, async () => {
    const s = await server();
    const dir = tempDir('conformance-lease-expired-');
    const killed = s.store.createGroup({ name: LEASE, path: LEASE, parentId: null, visibility: 'private', description: leaseDescription('killed-run', '2026-01-01T00:00:00.000Z') });
    let takenBy: string | undefined;
    // The lease as the run holds it, seen while its phases run.
    const watch = setInterval(() => {
      const now = groupAt(s, LEASE);
      if (now && now.id !== killed.id) takenBy ??= now.description;
    }, 20);
    const run = await cli(['--report-dir', join(dir, 'reports'), ...selection], { ...fullTarget(s, dir), CONFORMANCE_LEASE_WAIT_S: '1' }, { dir }).finally(() => clearInterval(watch));
    const results = resultsIn(join(dir, 'reports'), run);
    expect(results.summary).toMatchObject({ pass: 8, fail: 0, error: 0, unsupported: 0 });
    expect(takenBy).toMatch(/^gitlab-api-conformance lease: held by run \S+ until \S+$/);
    expect(takenBy).not.toContain('killed-run');
    expect(s.store.groups.has(killed.id)).toBe(false);
    expect(groupAt(s, LEASE)).toBeUndefined();
    expect(leftovers(s)).toEqual([]);
  });
});
