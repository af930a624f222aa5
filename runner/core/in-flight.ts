// The bound on requests in flight against the target, shared by every thread of the run: counters
// in shared memory (in flight now, the bound, the highest seen, and the requests that got no answer
// at all, which the command's watchdog reads) that the run's coordinator makes and hands to each worker. A client takes a slot before it sends and gives it back when the
// answer is in; with no slot free it waits, without blocking its thread, until one is given back.

let slots: Int32Array | undefined;

/** This thread's clients take their slots from `buffer` (the coordinator's) from now on. */
export function bindInFlight(buffer: SharedArrayBuffer): void {
  slots = new Int32Array(buffer);
}

export async function takeSlot(): Promise<void> {
  if (!slots) return;
  for (;;) {
    const now = Atomics.load(slots, 0);
    const bound = Atomics.load(slots, 1);
    if (bound <= 0 || now < bound) {
      if (Atomics.compareExchange(slots, 0, now, now + 1) !== now) continue;
      let highest = Atomics.load(slots, 2);
      while (highest < now + 1 && Atomics.compareExchange(slots, 2, highest, now + 1) !== highest) highest = Atomics.load(slots, 2);
      return;
    }
    // Woken when the count changes (a slot given back), or after a while in any case.
    const wait = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number, t: number): { async: boolean; value: Promise<string> | string } }).waitAsync(slots, 0, now, 1000);
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
  // Every waiter is woken, not just one: those that find the slot taken wait again in the order they
  // came, whoever took it. Waking one reorders them when a newcomer takes the slot first, which made
  // two sequential recordings of one target differ (who gets which pool user).
  Atomics.notify(slots, 0);
}
