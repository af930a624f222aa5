// The coordinator's waiting (wait-list.ts) and what waits on it without the lending policy: shelves
// of kept sources (shelf.ts) and named locks (locks.ts). Their waits through the coordinator:
// coordinator.spec.ts.
import { describe, expect, test } from 'vitest';
import { Locks } from './locks.js';
import { Shelf } from './shelf.js';
import { WaitList } from './wait-list.js';

/** Whether a promise has settled by now (after the microtasks queued so far). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('a wait list', () => {
  test('wakes all its waiters with one value, or the longest waiting alone; a waiter with a time limit gets its own value then', async () => {
    const list = new WaitList<string>();
    const [a, b] = [list.wait(), list.wait()];
    expect(list.wakeOne('first')).toBe(true);
    expect(await a).toBe('first');
    expect(await settled(b)).toBe(false);
    const c = list.wait();
    list.wakeAll('all');
    expect([await b, await c]).toEqual(['all', 'all']);
    expect(list.wakeOne('nobody')).toBe(false);
    expect(await list.wait(5, 'timed out')).toBe('timed out');
    expect(list.size).toBe(0);
  });
});

describe('kept sources', () => {
  test('a kept source goes to one taker at a time, in the order kept; with none kept, build', () => {
    const shelf = new Shelf<{ id: number }>();
    shelf.put({ id: 1 });
    shelf.put({ id: 2 });
    expect([shelf.turn(), shelf.turn(), shelf.turn()]).toEqual([{ kept: { id: 1 } }, { kept: { id: 2 } }, { build: true }]);
  });

  test('with `most` made and all in use, wait; one gone for good lets another be built', () => {
    const shelf = new Shelf<{ id: number }>();
    expect(shelf.turn(1)).toEqual({ build: true });
    expect(shelf.turn(1)).toEqual({ wait: true });
    shelf.put({ id: 3 });
    expect(shelf.turn(1)).toEqual({ kept: { id: 3 } });
    shelf.gone();
    expect(shelf.turn(1)).toEqual({ build: true });
  });

  test('a shelf with an order puts a thing back in its place, and is taken from by what fits', () => {
    const shelf = new Shelf<number>((a, b) => a - b);
    for (const n of [1, 2, 3]) shelf.put(n);
    expect([shelf.take((n) => n > 1), shelf.take()]).toEqual([2, 1]);
    shelf.put(1);
    shelf.put(2);
    expect([shelf.take(), shelf.take(), shelf.take(), shelf.take()]).toEqual([1, 2, 3, undefined]);
  });
});

describe('locks', () => {
  test('one holder at a time, handed on in the order they came', async () => {
    const locks = new Locks();
    expect(locks.lock('x')).toBeUndefined();
    const [second, third] = [locks.lock('x'), locks.lock('x')];
    expect(locks.lock('y')).toBeUndefined();
    locks.unlock('x');
    expect(await settled(second!)).toBe(true);
    expect(await settled(third!)).toBe(false);
    locks.unlock('x');
    expect(await settled(third!)).toBe(true);
    locks.unlock('x');
    expect(locks.lock('x')).toBeUndefined();
  });
});
