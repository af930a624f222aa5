// The lease on the target (target-lease.ts) against the reference server: one holder of runs that try
// at once, a holder named to those that wait in vain, an expired lease taken over once, a group that
// is no lease never deleted, and a release that leaves a lease taken over meanwhile.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../reference-server/server.js';
import { Client, DEFAULT_MAX_ANSWER_BYTES } from '../core/client.js';
import { acquireLease, leaseDescription, leasePath, releaseLease, type TargetLease } from './target-lease.js';

let server: ReferenceServer;
let admin: Client;

beforeAll(async () => {
  server = await startReferenceServer();
  admin = new Client(server.url, server.adminToken, 'admin', { timeoutMs: 10_000, maxBytes: DEFAULT_MAX_ANSWER_BYTES });
});
afterAll(() => server.close());

const usersAt = (path: string) => [...server.store.users.values()].filter((u) => u.username === path);
/** A user as a lease's holder (or someone else) would have made it. */
const userAt = (path: string, name: string) => server.store.createUser({ username: path, name, email: `${path}@example.com`, confirmed: true });

describe('a lease on the target', () => {
  test('of five runs that try at once, one holds it; the others are refused with the holder named, and get it once it is released', async () => {
    const answers = await Promise.all(['r1', 'r2', 'r3', 'r4', 'r5'].map((run) => acquireLease(admin, 'setting_a', run, { waitMs: 0 })));
    const held = answers.filter((a): a is { lease: TargetLease } => 'lease' in a);
    expect(held).toHaveLength(1);
    const { lease } = held[0];
    expect(usersAt(leasePath('setting_a')).map((u) => [u.id, u.name])).toEqual([[lease.id, leaseDescription(lease.holder, lease.until)]]);
    for (const a of answers.filter((a) => 'refused' in a)) expect(a).toEqual({ refused: `instance setting setting_a is held by run ${lease.holder} until ${lease.until}` });
    const waiting = acquireLease(admin, 'setting_a', 'r6', { waitMs: 10_000 });
    expect(await releaseLease(admin, lease)).toBe(true);
    expect(await waiting).toMatchObject({ lease: { holder: 'r6' } });
  });

  test('a lease past its end is taken over by exactly one of the runs that find it so', async () => {
    const path = leasePath('setting_b');
    const old = userAt(path, leaseDescription('killed', '2026-01-01T00:00:00.000Z'));
    const answers = await Promise.all(['t1', 't2', 't3'].map((run) => acquireLease(admin, 'setting_b', run, { waitMs: 0 })));
    expect(answers.filter((a) => 'lease' in a)).toHaveLength(1);
    expect(server.store.users.has(old.id)).toBe(false);
    expect(usersAt(path)).toHaveLength(1);
  });

  test('a user of that username who is no lease is never deleted: the lease is refused, saying so', async () => {
    const path = leasePath('setting_c');
    const foreign = userAt(path, 'somebody else');
    expect(await acquireLease(admin, 'setting_c', 'u1', { waitMs: 0 })).toEqual({ refused: `instance setting setting_c cannot be leased: the username ${path} is taken by user id ${foreign.id}, which is no lease of this suite` });
    expect(server.store.users.has(foreign.id)).toBe(true);
  });

  test('a holder past its end whose lease another run took over releases nothing of that run', async () => {
    const first = await acquireLease(admin, 'setting_d', 'v1', { waitMs: 0, ttlMs: -1 });
    if (!('lease' in first)) throw new Error('no lease');
    const second = await acquireLease(admin, 'setting_d', 'v2', { waitMs: 0 });
    expect(second).toMatchObject({ lease: { holder: 'v2' } });
    expect(await releaseLease(admin, first.lease)).toBe(true);
    expect(usersAt(leasePath('setting_d')).map((u) => u.name)).toEqual([expect.stringContaining('held by run v2 until')]);
  });
});
