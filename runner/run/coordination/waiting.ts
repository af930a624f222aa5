// Holders waiting for a user that another holder will give back: whom each waits for, so that
// holders that wait only on each other make a user instead of waiting for ever; and the wait list
// they wait on, woken when a holder gives its users back or another starts to wait.
import type { Lease } from './lending-words.js';
import { WaitList } from './wait-list.js';

export class Waiting {
  /** Waiting holder → the holders it waits for. */
  private readonly waiters = new Map<string, string[]>();
  private readonly list = new WaitList();
  /**
   * Wakes so far. A lease answers `wait` in one call to the coordinator and the asker waits in the
   * next (released): a holder that gives its users back between the two woke nobody, and the asker
   * then slept its whole patience (30 s) when no other wake came (seen: one whole run in three of a
   * bench took 37 s instead of 7). The asker hands back the count its lease saw: changed, it goes on at once.
   */
  private wakes = 0;

  /**
   * `wait` for `givers` (the holder joins the waiters) when it is patient and one of them, or one
   * they wait for in turn, is not waiting: it will give a user back. Else `make` (it leaves them).
   */
  waitOrMake(holder: string, patient: boolean, givers: string[]): Lease {
    if (!patient || !this.progresses(givers, holder)) {
      this.waiters.delete(holder);
      return { make: true };
    }
    const joined = !this.waiters.has(holder);
    this.waiters.set(holder, givers);
    // A holder that starts to wait wakes the others: those that now wait only on waiting holders make a user.
    if (joined) this.wake();
    return { wait: true, joined, since: this.wakes };
  }

  /** The holder waits no more: it has a user, or it is done. */
  leave(holder: string): void {
    this.waiters.delete(holder);
  }

  /**
   * Resolves when a holder next gives its users back (or starts to wait), or after `ms`; at once when
   * one did since the lease that said `wait` (`since`, its count of wakes).
   */
  released(ms: number, since: number): Promise<void> {
    if (since !== this.wakes) return Promise.resolve();
    return this.list.wait(ms);
  }

  /** A holder gave its users back (or started to wait). */
  wake(): void {
    this.wakes++;
    this.list.wakeAll();
  }

  /** Whether a holder reachable from `givers` through waiting holders (not through `asker`) is at work. */
  private progresses(givers: string[], asker: string): boolean {
    const seen = new Set([asker]);
    const queue = [...givers];
    for (let h = queue.shift(); h !== undefined; h = queue.shift()) {
      if (seen.has(h)) continue;
      seen.add(h);
      const theirs = this.waiters.get(h);
      if (theirs === undefined) return true;
      queue.push(...theirs);
    }
    return false;
  }
}
