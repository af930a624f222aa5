// Many runs, one target (issue #50): runs started together against one reference server, in one
// folder as a user starts them, each give every test the verdict it gets alone; and the instance
// setting the setting phases change has one holder at a time, through a lease on the target itself
// (runner/run/target-lease.ts). Each run is the real command in a child process.
import { readFileSync } from 'node:fs';
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

const userAt = (s: ReferenceServer, username: string) => [...s.store.users.values()].find((u) => u.username === username);
/** A lease user as another run would have made it. */
const leaseUser = (s: ReferenceServer, username: string, name: string) => s.store.createUser({ username, name, email: `${username}@example.com`, confirmed: true });

describe('runs side by side in one folder against one server', () => {
  test(
    'three shards of a run and two unrelated whole runs started together: each test gets the verdict of a whole run, the merged shards give the whole run\'s reports, and nothing is left',
    { timeout: RUN_MS },
    async () => {
      const s = await server();
      const dir = tempDir('conformance-concurrent-');
      // One file at a time each: five runs share 2 cores.
      const env = { ...fullTarget(s, dir), CONFORMANCE_CONCURRENCY: '1' };
      const names = ['whole-a', 'whole-b', 'shard-1', 'shard-2', 'shard-3'];
      const runs = await Promise.all(
        names.map((name) => {
          // The shards of one run take one --run-id (as CI's pipeline id), so that `merge` joins them.
          const shard = name.startsWith('shard-') ? ['--shard', `${name.slice(-1)}/3`, '--run-id', 'pipeline-7'] : [];
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
      // Merged, the shards are the whole run: every test's verdict, and the clause coverage over the whole catalogue.
      const merged = await cli(['merge', ...['shard-3', 'shard-1', 'shard-2'].map((n) => join(dir, n)), '--out', join(dir, 'merged')], {}, { dir });
      expect(merged.code, merged.stderr.slice(-2000)).toBe(0);
      const joined = resultsIn(join(dir, 'merged'), merged);
      expect(joined.merged).toEqual({ run: 'pipeline-7', shards: 3 });
      expect(verdicts(joined)).toEqual(verdicts(a));
      const clauses = (name: string) => JSON.parse(readFileSync(join(dir, name, 'clauses.json'), 'utf8')) as unknown;
      expect(clauses('merged')).toEqual(clauses('whole-a'));
      expect(leftovers(s)).toEqual([]);
      expect(s.store.settings.enableMemberPromotionManagement).toBe(false);
    },
  );
});

describe('leases on the target', () => {
  /**
   * The invitations tests of promotion approval (six in the setting's phases, two in the main one that
   * read the setting) and
   * the members tests of the LDAP group of the fixture manifest that change or read its synced member (two).
   */
  const selection = ['--area', 'invitations,members', '--grep', '^(invitations\\.create\\.(group|project)\\.(promotion|queued)|members\\.override-(set\\.(set|non-owner)|remove\\.clears))'];
  const FIXTURE_LEASE = leasePath('fixture-ldap');

  test('a run that cannot get a lease in time reports the tests that need it unsupported, naming the holder, and leaves the lease and the setting alone', { timeout: RUN_MS }, async () => {
    const s = await server();
    const dir = tempDir('conformance-lease-held-');
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const held = [LEASE, FIXTURE_LEASE].map((path) => leaseUser(s, path, leaseDescription('spec-holder', until)));
    const run = await cli(['--report-dir', join(dir, 'reports'), ...selection], { ...fullTarget(s, dir), CONFORMANCE_LEASE_WAIT_S: '1' }, { dir });
    const results = resultsIn(join(dir, 'reports'), run);
    const ran = results.tests.filter((t) => t.verdict !== 'disabled');
    // The phases' tests, and the two of the main phase that read the setting twice and compare.
    const setting = ran.filter((t) => t.id.startsWith('invitations.'));
    const ldap = ran.filter((t) => t.id.startsWith('members.override-'));
    expect([setting.length, ldap.length]).toEqual([8, 3]);
    for (const t of setting) expect([t.id, t.verdict, t.reason]).toEqual([t.id, 'unsupported', `instance setting ${SETTING} is held by run spec-holder until ${until}`]);
    for (const t of ldap) expect([t.id, t.verdict, t.reason]).toEqual([t.id, 'unsupported', `fixture "ldap-group" is held by run spec-holder until ${until}`]);
    expect(results.summary).toMatchObject({ pass: 0, fail: 0, error: 0, unsupported: 11 });
    // Nothing checked (exit 5), never a failure.
    expect(run.code).toBe(5);
    expect([userAt(s, LEASE)?.id, userAt(s, FIXTURE_LEASE)?.id]).toEqual(held.map((u) => u.id));
    expect(s.store.settings.enableMemberPromotionManagement).toBe(false);
    expect(leftovers(s).filter((o) => !held.some((u) => o === `user ${u.username}`))).toEqual([]);
  });

  test('a lease past its end (its holder was killed) is taken over: the tests run, and the run releases the lease at its end', { timeout: RUN_MS }, async () => {
    const s = await server();
    const dir = tempDir('conformance-lease-expired-');
    const killed = [LEASE, FIXTURE_LEASE].map((path) => leaseUser(s, path, leaseDescription('killed-run', '2026-01-01T00:00:00.000Z')));
    const takenBy = new Set<string>();
    // The leases as the run holds them, seen while its tests run.
    const watch = setInterval(() => {
      for (const path of [LEASE, FIXTURE_LEASE]) {
        const now = userAt(s, path);
        if (now && !killed.some((u) => u.id === now.id)) takenBy.add(`${path}: ${now.name}`);
      }
    }, 10);
    const run = await cli(['--report-dir', join(dir, 'reports'), ...selection], { ...fullTarget(s, dir), CONFORMANCE_LEASE_WAIT_S: '1' }, { dir }).finally(() => clearInterval(watch));
    const results = resultsIn(join(dir, 'reports'), run);
    expect(results.summary).toMatchObject({ pass: 11, fail: 0, error: 0, unsupported: 0 });
    for (const path of [LEASE, FIXTURE_LEASE]) expect([...takenBy].some((seen) => new RegExp(`^${path}: gitlab-api-conformance lease held by run (?!killed-run)\\S+ until \\d+$`).test(seen)), `${path} taken over`).toBe(true);
    for (const u of killed) expect(s.store.users.has(u.id)).toBe(false);
    expect([userAt(s, LEASE), userAt(s, FIXTURE_LEASE)]).toEqual([undefined, undefined]);
    expect(leftovers(s)).toEqual([]);
  });
});
