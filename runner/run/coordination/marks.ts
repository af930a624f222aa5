// Marks (lending.ts has the words): where a lent user came back touched, by user and domain, with
// the sources to take it back from and the fixture instance that pins it there while it lives.
import type { SourceKey } from './lending-words.js';

export interface Mark {
  /** Source → whether the user asked for access there. */
  sources: Map<SourceKey, boolean>;
  /** The fixture instance whose world holds the user here ('stuck': it could not be taken back); undefined: reclaimable. */
  pin?: string;
}

export class Marks {
  /** userId → domain → mark. */
  private readonly marks = new Map<number, Map<string, Mark>>();

  get(userId: number, domain: string): Mark | undefined {
    return this.marks.get(userId)?.get(domain);
  }

  /** Whether the user is marked in none of `domains`. */
  cleanIn(userId: number, domains: string[]): boolean {
    return domains.every((d) => !this.marks.get(userId)?.has(d));
  }

  /** The user was touched in `source` (of `domain`); a mark made for a fixture's build is pinned for it. */
  touch(userId: number, domain: string, source: SourceKey, requested: boolean, pin?: string): void {
    const byDomain = this.marks.get(userId) ?? new Map<string, Mark>();
    const mark: Mark = byDomain.get(domain) ?? { sources: new Map() };
    mark.sources.set(source, requested || (mark.sources.get(source) ?? false));
    if (pin !== undefined && mark.pin === undefined) mark.pin = pin;
    byDomain.set(domain, mark);
    this.marks.set(userId, byDomain);
  }

  /** The user was taken back in `domains` (`ok`): clean there; or could not be: pinned there for the run. */
  tookBack(userId: number, domains: string[], ok: boolean): void {
    for (const d of domains) {
      if (ok) this.marks.get(userId)?.delete(d);
      else {
        const mark = this.marks.get(userId)?.get(d);
        if (mark) mark.pin = 'stuck';
      }
    }
  }

  /** Domain `from` was joined into `into` by a share: its marks are marks there. */
  move(from: string, into: string): void {
    for (const byDomain of this.marks.values()) {
      const moved = byDomain.get(from);
      if (moved === undefined) continue;
      byDomain.delete(from);
      const there = byDomain.get(into);
      if (there === undefined) byDomain.set(into, moved);
      else {
        for (const [source, requested] of moved.sources) there.sources.set(source, requested || (there.sources.get(source) ?? false));
        there.pin ??= moved.pin;
      }
    }
  }

  /** `owner` is gone: marks in the domains it made go (`isGone`, of a mark's domain), its pins elsewhere become reclaimable. */
  drop(owner: string, isGone: (domain: string) => boolean): void {
    for (const byDomain of this.marks.values()) {
      for (const [d, mark] of byDomain) {
        if (isGone(d)) byDomain.delete(d);
        else if (mark.pin === owner) mark.pin = undefined;
      }
    }
  }
}
