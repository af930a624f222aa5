// Named locks: a fixture that tests use one at a time (`alone`) is held by one test, the
// others wait in the order they came.
import { WaitList } from './wait-list.js';

export class Locks {
  /** Lock → those waiting for it; a lock is held while it is listed. */
  private readonly locks = new Map<string, WaitList>();

  /** Waits until no other holder has the lock `name`. */
  lock(name: string): Promise<void> | void {
    const queue = this.locks.get(name);
    if (!queue) {
      this.locks.set(name, new WaitList());
      return;
    }
    return queue.wait();
  }

  /** Hands the lock to the longest waiting, or frees it. */
  unlock(name: string): void {
    if (!this.locks.get(name)?.wakeOne()) this.locks.delete(name);
  }
}
