// The one way the coordinator's services wait (lending, shelves, run fixtures, locks, setting phases):
// a list of waiters, woken all at once or the longest waiting first, each wake carrying a value.
// Everything it serves runs in the coordinator's one thread, so plain promises do; a library
// (async-mutex, p-queue) would bring a mutex or a queue of work, not a condition to wait on with a
// value and a time limit, and the services would still keep their own lists beside it.

export class WaitList<T = void> {
  /** In the order they came: a Set iterates in insertion order. */
  private readonly waiters = new Set<(value: T) => void>();

  get size(): number {
    return this.waiters.size;
  }

  /** Resolves at the next wake, with its value; after `ms` (when given) with `timeout` instead. */
  wait(ms?: number, timeout?: T): Promise<T> {
    return new Promise((resolve) => {
      const wake = (value: T) => {
        clearTimeout(timer);
        resolve(value);
      };
      const timer =
        ms === undefined
          ? undefined
          : setTimeout(() => {
              this.waiters.delete(wake);
              resolve(timeout as T);
            }, ms);
      this.waiters.add(wake);
    });
  }

  /** Wakes every waiter (those that wait again after it wait for the next wake). */
  wakeAll(...value: [T] extends [void] ? [] : [T]): void {
    const all = [...this.waiters];
    this.waiters.clear();
    for (const wake of all) wake(value[0] as T);
  }

  /** Wakes the longest waiting; false when nobody waits. */
  wakeOne(...value: [T] extends [void] ? [] : [T]): boolean {
    const first = this.waiters.values().next();
    if (first.done) return false;
    this.waiters.delete(first.value);
    first.value(value[0] as T);
    return true;
  }
}
