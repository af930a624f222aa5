// The seatless users (members of nothing, for the promotion-approval tests) as one more shelf: each
// lent to one holder in the whole run at a time, never where it was touched before, put back when
// its holder is done, and spent for the run when it could not be taken out of what it was given.
import type { LentUser } from './lending-words.js';
import { Shelf } from './shelf.js';

interface Seatless {
  user: LentUser;
  /** Its place in the pool: the first adopted that fits is lent first. */
  n: number;
}

export class SeatlessUsers {
  private readonly shelf = new Shelf<Seatless>((a, b) => a.n - b.n);
  /** Those lent, with their holder. */
  private readonly out = new Map<number, { entry: Seatless; holder: string }>();
  private readonly known = new Set<number>();

  adopt(user: LentUser): void {
    this.known.add(user.id);
    this.shelf.put({ user, n: this.known.size });
  }

  has(userId: number): boolean {
    return this.known.has(userId);
  }

  /** One that `fits` for `holder`, or the holders of those out that fit (whom it may wait for). */
  take(holder: string, fits: (userId: number) => boolean): { user: LentUser } | { givers: string[] } {
    const entry = this.shelf.take((e) => fits(e.user.id));
    if (!entry) return { givers: [...this.out.values()].filter((o) => fits(o.entry.user.id) && o.holder !== holder).map((o) => o.holder) };
    this.out.set(entry.user.id, { entry, holder });
    return { user: entry.user };
  }

  /** `holder` is done: its seatless users go back on the shelf, but those in `failed`, spent for the run. */
  settle(holder: string, failed: number[]): void {
    for (const [id, { entry, holder: h }] of this.out) {
      if (h !== holder) continue;
      this.out.delete(id);
      if (!failed.includes(id)) this.shelf.put(entry);
    }
  }
}
