// A shelf: things lent to one taker at a time, taken off and put back (kept sources of a
// test-scoped fixture between their tests; the seatless users between their holders), with how many
// exist, so that a bounded one makes no more and its takers wait for one to come back.
import { WaitList } from './wait-list.js';

export type Turn<T> = { kept: T } | { build: true } | { wait: true };

export class Shelf<T> {
  private readonly items: T[] = [];
  /** How many exist, on the shelf or taken (those counted by `turn`). */
  private made = 0;
  private readonly changed = new WaitList();

  /** `order`: where a thing put back goes (by default at the end: the one kept longest goes first). */
  constructor(private readonly order?: (a: T, b: T) => number) {}

  /** The first thing on the shelf that `fits`, taken off it. */
  take(fits: (item: T) => boolean = () => true): T | undefined {
    const at = this.items.findIndex(fits);
    return at < 0 ? undefined : this.items.splice(at, 1)[0];
  }

  /** A thing off the shelf; else `build` one (counted) while fewer than `most` exist; else `wait`. */
  turn(most = Infinity): Turn<T> {
    if (this.items.length > 0) return { kept: this.items.shift()! };
    if (this.made >= most) return { wait: true };
    this.made++;
    return { build: true };
  }

  /** A turn, waiting while all `most` are taken. */
  async nextTurn(most?: number): Promise<Exclude<Turn<T>, { wait: true }>> {
    for (;;) {
      const turn = this.turn(most);
      if (!('wait' in turn)) return turn;
      await this.changed.wait();
    }
  }

  /** Puts a thing (back) on the shelf for a later taker. */
  put(item: T): void {
    const at = this.order ? this.items.findIndex((other) => this.order!(item, other) < 0) : -1;
    if (at < 0) this.items.push(item);
    else this.items.splice(at, 0, item);
    this.changed.wakeAll();
  }

  /** A thing built by a turn is gone for good: another may be built. */
  gone(): void {
    this.made--;
    this.changed.wakeAll();
  }
}

/** The shelves of test-scoped fixtures with `reset`, by fixture and kind: their sources kept for the next test. */
export class Shelves {
  private readonly shelves = new Map<string, Shelf<unknown>>();

  /** A kept source of the test-scoped fixture `name`, or `build` one; waits while all `most` made are in use. */
  turn(name: string, most?: number): Promise<{ kept: unknown } | { build: true }> {
    return this.shelf(name).nextTurn(most);
  }

  keep(name: string, value: unknown): void {
    this.shelf(name).put(value);
  }

  /** A source built for `name` is gone: another may be built. */
  gone(name: string): void {
    this.shelf(name).gone();
  }

  private shelf(name: string): Shelf<unknown> {
    const shelf = this.shelves.get(name) ?? new Shelf<unknown>();
    this.shelves.set(name, shelf);
    return shelf;
  }
}
