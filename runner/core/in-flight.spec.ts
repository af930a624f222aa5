import { afterAll, expect, test } from 'vitest';
import { bindInFlight, giveSlot, takeSlot } from './in-flight.js';

/** The shared counters a coordinator hands out (in flight, bound, highest, unanswered), with this bound (0: none). */
function counters(bound: number): Int32Array {
  const shared = new Int32Array(new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT));
  shared[1] = bound;
  return shared;
}

test('the bound holds under many requests at once, and every waiting request gets its turn', async () => {
  const shared = counters(3);
  bindInFlight(shared.buffer as SharedArrayBuffer);
  let inFlight = 0;
  let most = 0;
  const request = async () => {
    await takeSlot();
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight--;
    giveSlot();
  };
  await Promise.all(Array.from({ length: 60 }, request));
  expect(most).toBe(3);
  expect(shared[0]).toBe(0);
  expect(shared[2]).toBe(3);
});

test('with a bound of one (a sequential run), the requests of a thread get the slot in the order they asked', async () => {
  const shared = counters(1);
  bindInFlight(shared.buffer as SharedArrayBuffer);
  const served: number[] = [];
  await Promise.all(
    Array.from({ length: 25 }, async (_, i) => {
      await takeSlot();
      served.push(i);
      await new Promise((resolve) => setTimeout(resolve, 1));
      giveSlot();
    }),
  );
  expect(served).toEqual(Array.from({ length: 25 }, (_, i) => i));
  expect(shared[0]).toBe(0);
  expect(shared[2], 'never more than one in flight').toBe(1);
});

// The unit specs share their worker threads: later files find the clients unbounded again.
afterAll(() => bindInFlight(counters(0).buffer as SharedArrayBuffer));
