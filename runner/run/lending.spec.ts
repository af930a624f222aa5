// The lending policy (lending.ts) without a target: which user a holder gets where, when one is
// taken back first, and what a share, a fixture's pin and a dropped domain change. Kept sources:
// coordination/shelf.spec.ts.
import { describe, expect, test } from 'vitest';
import { Lending, type LentUser, type SourceKey } from './lending.js';

const user = (id: number): LentUser => ({ id, username: `u${id}`, name: `U ${id}`, email: `u${id}@example.com`, tokens: { api: `t${id}` } });

/** A lending policy with pool users 1..n and the sources it is asked about. */
function policy(n: number, seatless: number[] = []) {
  const lending = new Lending(
    Array.from({ length: n }, (_, i) => user(i + 1)),
    seatless.map(user),
  );
  const a = lending.registerSource({ kind: 'group', id: 1, fullPath: 'root/a' }, undefined, 'file-a');
  const aProject = lending.registerSource({ kind: 'project', id: 1, fullPath: 'root/a/p' }, a, 'file-a');
  const b = lending.registerSource({ kind: 'group', id: 2, fullPath: 'root/b' }, undefined, 'file-b');
  return { lending, a, aProject, b };
}

const leased = (lease: ReturnType<Lending['lease']>) => ('user' in lease ? lease.user.id : 'make');

/** The holder is done, having touched users in sources (named by key). */
function settle(lending: Lending, holder: string, touched: { userId: number; source: SourceKey; requested: boolean }[], pin?: string, failedSeatless?: number[]) {
  const ref = (key: SourceKey) => ({ kind: key.split(':')[0] as 'group' | 'project', ref: key.split(':')[1] });
  lending.settle({ holder, touched: touched.map((t) => ({ ...t, source: ref(t.source) })), links: [], pin, failedSeatless });
}

describe('lending users', () => {
  test('a user is lent once per domain at a time: again in another domain, not in a source inside one it is held in', () => {
    const { lending, a, aProject, b } = policy(2);
    expect(leased(lending.lease('t1', [a]))).toBe(1);
    expect(leased(lending.lease('t2', [aProject]))).toBe(2);
    expect(leased(lending.lease('t3', [b]))).toBe(1);
    expect(leased(lending.lease('t4', [a]))).toBe('make');
  });

  test('a holder never gets the same user twice, whatever its domains', () => {
    const { lending } = policy(2);
    expect([leased(lending.lease('build', [])), leased(lending.lease('build', [])), leased(lending.lease('build', []))]).toEqual([1, 2, 'make']);
  });

  test('a user comes back marked where it was touched: others first, then it is taken back from exactly those sources', () => {
    const { lending, a, aProject, b } = policy(2);
    lending.lease('t1', [a]);
    settle(lending, 't1', [{ userId: 1, source: aProject, requested: true }]);
    expect(leased(lending.lease('t2', [a]))).toBe(2);
    settle(lending, 't2', [{ userId: 2, source: a, requested: false }]);
    // Marked in a's domain only: free elsewhere.
    expect(leased(lending.lease('t3', [b]))).toBe(1);
    lending.settle({ holder: 't3', touched: [], links: [] });
    const again = lending.lease('t4', [a]);
    expect(again).toEqual({ user: user(1), takeBack: [{ source: aProject, requested: true }] });
    lending.tookBack(1, [aProject], true);
    lending.settle({ holder: 't4', touched: [], links: [] });
    expect(lending.lease('t5', [a])).toEqual({ user: user(1) });
  });

  test('no take-back touches a source another holder has to itself: the asker waits for it, or makes a user', () => {
    const { lending, a, aProject } = policy(1);
    lending.lease('t1', [aProject]);
    settle(lending, 't1', [{ userId: 1, source: aProject, requested: false }]);
    // t2 holds the project (a kept source it reads whole); t3 leases in the same domain.
    lending.use('t2', [aProject]);
    expect(lending.lease('t3', [a], true)).toEqual({ wait: true, joined: true, since: expect.any(Number) });
    expect(leased(lending.lease('t3', [a]))).toBe('make');
    // The holder of the project itself may have the user taken back from it.
    expect(lending.lease('t2', [aProject])).toEqual({ user: user(1), takeBack: [{ source: aProject, requested: false }] });
    lending.tookBack(1, [aProject], true);
    lending.settle({ holder: 't2', touched: [], links: [] });
    lending.settle({ holder: 't3', touched: [], links: [] });
    settle(lending, 't4', [{ userId: 1, source: aProject, requested: false }]);
    // Once the holder is done, the take-back is open again.
    expect(lending.lease('t5', [a])).toEqual({ user: user(1), takeBack: [{ source: aProject, requested: false }] });
  });

  test('a user that could not be taken back is never lent in that domain again', () => {
    const { lending, a } = policy(1);
    lending.lease('t1', [a]);
    settle(lending, 't1', [{ userId: 1, source: a, requested: false }]);
    expect('takeBack' in lending.lease('t2', [a])).toBe(true);
    lending.tookBack(1, [a], false);
    lending.settle({ holder: 't2', touched: [], links: [] });
    expect(leased(lending.lease('t3', [a]))).toBe('make');
  });

  test('a fixture\'s users are pinned in its world while it lives, then reclaimable; the domains it made go with it', () => {
    const { lending, a, b } = policy(1);
    lending.lease('build', []);
    settle(lending, 'build', [{ userId: 1, source: a, requested: false }, { userId: 1, source: b, requested: false }], 'file-a');
    expect(leased(lending.lease('t1', [a]))).toBe('make');
    expect(leased(lending.lease('t2', [b]))).toBe('make');
    lending.settle({ holder: 't1', touched: [], links: [] });
    lending.settle({ holder: 't2', touched: [], links: [] });
    lending.drop('file-a');
    // a's domain is gone, with the mark there; the pin in b's is now an ordinary mark.
    expect(lending.lease('t3', [a])).toEqual({ user: user(1) });
    lending.settle({ holder: 't3', touched: [], links: [] });
    expect(lending.lease('t4', [b])).toEqual({ user: user(1), takeBack: [{ source: b, requested: false }] });
  });

  test('a share joins two domains: a user held or marked in one is so in the other', () => {
    const { lending, a, b } = policy(2);
    lending.lease('t1', [a]);
    settle(lending, 't1', [{ userId: 1, source: a, requested: false }]);
    lending.link(b, a);
    expect(leased(lending.lease('t2', [b]))).toBe(2);
    expect(lending.domainOf(a)).toBe(lending.domainOf(b));
  });

  test('sources are known by id and by full path, and a group and a project with one id are two sources', () => {
    const { lending } = policy(1);
    expect(lending.resolve({ kind: 'group', ref: '1' })).toBe('group:1');
    expect(lending.resolve({ kind: 'project', ref: '1' })).toBe('project:1');
    expect(lending.resolve({ kind: 'project', ref: 'ROOT/a/P' })).toBe('project:1');
    expect(lending.resolve({ kind: 'group', ref: '9' })).toBeUndefined();
    expect(lending.domainOf('project:1' as SourceKey)).toBe('group:1');
  });
});

describe('lending seatless users', () => {
  test('one holder at a time in the whole run; never where it was touched; spent when it could not be taken out', () => {
    const { lending, a, b } = policy(0, [7, 8]);
    expect(leased(lending.leaseSeatless('t1', [a]))).toBe(7);
    expect(leased(lending.leaseSeatless('t2', [b]))).toBe(8);
    expect(leased(lending.leaseSeatless('t3', [b]))).toBe('make');
    settle(lending, 't1', [{ userId: 7, source: a, requested: false }]);
    settle(lending, 't2', [], undefined, [8]);
    expect(leased(lending.leaseSeatless('t4', [a]))).toBe('make');
    expect(leased(lending.leaseSeatless('t5', [b]))).toBe(7);
  });

  test('a patient asker waits while a holder that is not waiting has one', () => {
    const { lending, a } = policy(0, [7]);
    expect(leased(lending.leaseSeatless('t1', [a], true))).toBe(7);
    expect(lending.leaseSeatless('t2', [a], true)).toEqual({ wait: true, joined: true, since: expect.any(Number) });
    settle(lending, 't1', []);
    expect(leased(lending.leaseSeatless('t2', [a], true))).toBe(7);
  });
});

describe('waiting for a user', () => {
  test('a patient asker waits for a holder that will give one back, and makes a user when it is not patient', () => {
    const { lending, a } = policy(1);
    expect(leased(lending.lease('t1', [a], true))).toBe(1);
    expect(lending.lease('t2', [a], true)).toEqual({ wait: true, joined: true, since: expect.any(Number) });
    expect(lending.lease('t2', [a], true)).toEqual({ wait: true, joined: false, since: expect.any(Number) });
    expect(leased(lending.lease('t2', [a], false))).toBe('make');
    lending.settle({ holder: 't1', touched: [], links: [] });
    expect(leased(lending.lease('t3', [a], true))).toBe(1);
  });

  test('a holder that gives its users back between the lease that said wait and the wait is not missed', async () => {
    const { lending, a } = policy(1);
    expect(leased(lending.lease('t1', [a], true))).toBe(1);
    const lease = lending.lease('t2', [a], true);
    if (!('wait' in lease)) throw new Error(`expected a wait, got ${JSON.stringify(lease)}`);
    // t1 gives its user back before t2's worker asks to wait (two calls to the coordinator).
    lending.settle({ holder: 't1', touched: [], links: [] });
    const woken = await Promise.race([lending.released(10_000, lease.since).then(() => 'goes on'), new Promise((done) => setTimeout(() => done('still waiting after 200 ms'), 200))]);
    expect(woken).toBe('goes on');
    expect(leased(lending.lease('t2', [a], true))).toBe(1);
    // With nothing given back since, the wait lasts until a wake (or its time).
    const again = lending.lease('t3', [a], true);
    if (!('wait' in again)) throw new Error(`expected a wait, got ${JSON.stringify(again)}`);
    const waited = lending.released(10_000, again.since).then(() => 'woken');
    lending.settle({ holder: 't2', touched: [], links: [] });
    expect(await waited).toBe('woken');
  });

  test('holders that wait only on each other do not wait for ever: the last to ask makes a user', () => {
    const { lending, a } = policy(2);
    expect(leased(lending.lease('t1', [a], true))).toBe(1);
    expect(leased(lending.lease('t2', [a], true))).toBe(2);
    // t1 wants a second user: t2 holds one and is not waiting, so t1 waits.
    expect('wait' in lending.lease('t1', [a], true)).toBe(true);
    // t2 wants one too: the only holder there is t1, which waits (on t2): waiting would never end.
    expect(leased(lending.lease('t2', [a], true))).toBe('make');
  });

  test('a holder waits on waiting holders whose own wait will end', () => {
    const { lending, a, b } = policy(2);
    expect([lending.lease('t1', [a], true), lending.lease('t5', [a], true), lending.lease('t3', [b], true), lending.lease('t6', [b], true)].map(leased)).toEqual([1, 2, 1, 2]);
    // t1 and t5 each want a second user, in b: they wait on t6 and t3, which are at work.
    expect('wait' in lending.lease('t1', [b], true)).toBe(true);
    expect('wait' in lending.lease('t5', [b], true)).toBe(true);
    // In a, both holders wait, but on holders at work: t4 waits too rather than make a user.
    expect('wait' in lending.lease('t4', [a], true)).toBe(true);
  });
});
