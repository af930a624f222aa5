// The bound on requests in flight against the target, shared by every thread of the run: counters
// in shared memory (in flight now, the bound, the highest seen, and the requests that got no answer
// at all, which the command's watchdog reads) that the run's coordinator makes and hands to each worker. A client takes a slot before it sends and gives it back when the
// answer is in; with no slot free it waits, without blocking its thread, until one is given back.

let slots: Int32Array | undefined;

/**
 * This thread's requests waiting for a slot, in the order they came. Only the first of them waits on
 * the shared counter: with all of them waiting there, every slot given back woke each one, and all
 * but one went back to wait (with a bound of 1, as in a sequential run, a run's set-up of 25 users at
 * once took about 25 wake-ups per request).
 */
const queue: (() => void)[] = [];

/** This thread's clients take their slots from `buffer` (the coordinator's) from now on. */
export function bindInFlight(buffer: SharedArrayBuffer): void {
  slots = new Int32Array(buffer);
}

/** Takes a slot when one is free; the value of the count it saw otherwise (to wait on). */
function tryTake(counters: Int32Array): number | true {
  for (;;) {
    const now = Atomics.load(counters, 0);
    const bound = Atomics.load(counters, 1);
    if (bound > 0 && now >= bound) return now;
    if (Atomics.compareExchange(counters, 0, now, now + 1) !== now) continue;
    let highest = Atomics.load(counters, 2);
    while (highest < now + 1 && Atomics.compareExchange(counters, 2, highest, now + 1) !== highest) highest = Atomics.load(counters, 2);
    return true;
  }
}

export async function takeSlot(): Promise<void> {
  if (!slots || tryTake(slots) === true) return;
  await new Promise<void>((resolve) => {
    queue.push(resolve);
    if (queue.length === 1) void serveQueue();
  });
}

/** Hands slots to this thread's waiting requests, first come first served, as they are given back. */
async function serveQueue(): Promise<void> {
  while (queue.length > 0) {
    const counters = slots;
    const seen = counters ? tryTake(counters) : true;
    if (seen === true) {
      queue.shift()!();
      continue;
    }
    // Woken when the count changes (a slot given back, here or in another thread), or after a while in any case.
    const wait = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number, t: number): { async: boolean; value: Promise<string> | string } }).waitAsync(counters!, 0, seen, 1000);
    if (wait.async) await wait.value;
  }
}

/** A request got no answer at all (refused, reset, timed out): the watchdog then asks whether the target is gone. */
export function noteUnanswered(): void {
  if (slots && slots.length > 3) Atomics.add(slots, 3, 1);
}

export function giveSlot(): void {
  if (!slots) return;
  Atomics.sub(slots, 0, 1);
  // Every thread's first waiter is woken, not just one: one that finds the slot taken waits again,
  // whoever took it. Waking one reordered the threads' requests when a newcomer took the slot first,
  // which made two sequential recordings of one target differ (who gets which pool user).
  Atomics.notify(slots, 0);
}
