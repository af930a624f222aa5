import { afterAll, expect, test } from 'vitest';
import { bindInFlight, giveSlot, takeSlot } from './in-flight.js';

test('the bound holds under many requests at once, and every waiting request gets its turn', async () => {
  const buffer = new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT);
  const counters = new Int32Array(buffer);
  counters[1] = 3;
  bindInFlight(buffer);
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
  expect(counters[0]).toBe(0);
  expect(counters[2]).toBe(3);
});

test('with a bound of one (a sequential run), the requests of a thread get the slot in the order they asked', async () => {
  const buffer = new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT);
  new Int32Array(buffer)[1] = 1;
  bindInFlight(buffer);
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
  expect(new Int32Array(buffer)[0]).toBe(0);
});

// The unit specs share their worker threads: later files find the clients unbounded again.
afterAll(() => bindInFlight(new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT)));
