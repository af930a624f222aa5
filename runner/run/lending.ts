// The lending policy of a run, in one place: which user a test or a fixture may have. It is plain
// state (no HTTP): the run's coordinator holds the one instance and the test workers ask it; they
// make the requests it decides on (taking a user back) and tell it what their requests did.
//
// The words:
// - a source is a group or project, known by key (`group:12`, `project:5`: their ids may be equal);
// - a domain is a hierarchy the run made: the group or project at its top (right below the run's
//   root group, or at the top of the instance) and everything inside it. A user's membership
//   anywhere in a domain shows in the domain (inherited, billable, pending lists), so a domain is
//   the unit in which a user is "new". A share joins two domains into one;
// - a holder is a test, or the build of a fixture, that leases users;
// - a mark says that a user may hold something (a membership, an access request) in some sources of
//   a domain: a lent user comes back marked where the holder's requests touched it. A mark of a
//   fixture's build is pinned while the fixture lives: the fixture's world holds that user there.
//
// A pool user is lent to a holder only in domains where it is neither held by another holder nor
// marked; when none is left, one marked there (not pinned) is taken back first (its memberships and
// requests removed and read back gone), and only then a new user is made. A take-back never touches
// a source another holder has to itself (a test-scoped fixture it reads whole, e.g. a kept source's
// member list): a user marked there waits until that holder is done. Domains that a test or a
// fixture made for itself are dropped with it, and their marks with them: nothing is taken back
// from a group nobody will use again.
import { Domains } from './coordination/domains.js';
import { Marks } from './coordination/marks.js';
import { SeatlessUsers } from './coordination/seatless.js';
import { Waiting } from './coordination/waiting.js';

export type { Lease, LentUser, Settlement, SourceKey, SourceRef } from './coordination/lending-words.js';
import type { Lease, LentUser, Settlement, SourceKey, SourceRef } from './coordination/lending-words.js';

/** The lending policy: the seated pool lent by domain, over the run's domains, marks, waiting holders and seatless shelf (coordination/). */
export class Lending {
  private readonly domains = new Domains();
  private readonly marks = new Marks();
  private readonly waiting = new Waiting();
  private readonly seatless = new SeatlessUsers();
  /** The seated pool, in the order adopted: the first that fits is lent first. */
  private readonly pool = new Map<number, LentUser>();
  /** userId → domain → holder. */
  private readonly held = new Map<number, Map<string, string>>();
  /** holder → the users it holds: never lent to it twice, whatever its domains. */
  private readonly holders = new Map<string, Set<number>>();
  /** Sources a holder has to itself until it settles (those of its test-scoped fixtures). */
  private readonly inUse = new Map<SourceKey, string>();

  constructor(pool: LentUser[] = [], seatless: LentUser[] = []) {
    for (const user of pool) this.adopt(user);
    for (const user of seatless) this.adoptSeatless(user);
  }

  registerSource(source: { kind: 'group' | 'project'; id: number; fullPath?: string }, parent: SourceKey | undefined, owner: string): SourceKey {
    return this.domains.register(source, parent, owner);
  }

  resolve(ref: SourceRef): SourceKey | undefined {
    return this.domains.resolve(ref);
  }

  domainOf(source: SourceKey): string | undefined {
    return this.domains.domainOf(source);
  }

  /** A share: members of one source are members of the other from now on. */
  link(a: SourceKey, b: SourceKey): void {
    const joined = this.domains.join(a, b);
    if (!joined) return;
    const [da, db] = joined;
    this.marks.move(db, da);
    for (const byDomain of this.held.values()) {
      const holder = byDomain.get(db);
      if (holder === undefined) continue;
      byDomain.delete(db);
      if (!byDomain.has(da)) byDomain.set(da, holder);
    }
  }

  /** A user joins the seated pool (one made during the run holds a seat like the pool's). */
  adopt(user: LentUser): void {
    this.pool.set(user.id, user);
  }

  /** A user who holds no seat joins the seatless shelf. */
  adoptSeatless(user: LentUser): void {
    this.seatless.adopt(user);
  }

  /**
   * A pool user for `holder`, new to the domains of `sources` (the sources of its fixtures): free
   * there, else one to take back there first (tookBack), else, while the asker is `patient` and a
   * holder that is not waiting itself has one there that it will give back, `wait`; else `make` (a
   * new user, then holdNew). New users are thus made only when waiting could not end.
   */
  lease(holder: string, sources: SourceKey[], patient = false): Lease {
    const domains = this.domains.of(sources);
    const mine = this.holders.get(holder);
    const others = [...this.pool.values()].filter((u) => !mine?.has(u.id));
    const usable = others.filter((u) => domains.every((d) => !this.held.get(u.id)?.has(d)));
    const clean = usable.find((u) => this.marks.cleanIn(u.id, domains));
    if (clean) {
      this.hold(holder, clean.id, domains);
      return { user: clean };
    }
    // Holders that have to themselves a source the user would be taken back from.
    const using = (u: LentUser) => domains.flatMap((d) => [...(this.marks.get(u.id, d)?.sources.keys() ?? [])].map((s) => this.inUse.get(s))).filter((h) => h !== undefined && h !== holder);
    const reclaimable = usable.find((u) => using(u).length === 0 && domains.every((d) => this.marks.get(u.id, d)?.pin === undefined));
    if (!reclaimable) {
      const givers = others.flatMap((u) => [...domains.map((d) => this.held.get(u.id)?.get(d)), ...using(u)]).filter((h): h is string => h !== undefined && h !== holder);
      return this.waiting.waitOrMake(holder, patient, givers);
    }
    this.hold(holder, reclaimable.id, domains);
    const takeBack = domains.flatMap((d) => [...(this.marks.get(reclaimable.id, d)?.sources ?? [])].map(([source, requested]) => ({ source, requested })));
    return { user: reclaimable, takeBack };
  }

  /** A user of the seatless shelf for `holder`, never touched in the domains of `sources`; else wait or make, as `lease`. */
  leaseSeatless(holder: string, sources: SourceKey[], patient = false): Lease {
    const taken = this.seatless.take(holder, (id) => this.marks.cleanIn(id, this.domains.of(sources)));
    if ('givers' in taken) return this.waiting.waitOrMake(holder, patient, taken.givers);
    this.waiting.leave(holder);
    return taken;
  }

  /** `holder` has `sources` to itself until it settles: no take-back for another holder touches them. */
  use(holder: string, sources: SourceKey[]): void {
    for (const source of sources) this.inUse.set(source, holder);
  }

  /** Holds a user just made for `holder` in the domains of `sources`. */
  holdNew(holder: string, user: LentUser, sources: SourceKey[]): void {
    this.adopt(user);
    this.hold(holder, user.id, this.domains.of(sources));
  }

  /**
   * The take-back a lease asked for is done: the user is clean in those domains (`ok`), or it could
   * not be taken back (a step answered otherwise), and its marks there are pinned for the run:
   * nobody gets it there again.
   */
  tookBack(userId: number, sources: SourceKey[], ok: boolean): void {
    this.marks.tookBack(userId, this.domains.of(sources), ok);
  }

  private hold(holder: string, userId: number, domains: string[]): void {
    this.waiting.leave(holder);
    this.holders.set(holder, (this.holders.get(holder) ?? new Set()).add(userId));
    const byDomain = this.held.get(userId) ?? new Map<string, string>();
    for (const d of domains) byDomain.set(d, holder);
    this.held.set(userId, byDomain);
  }

  /**
   * The holder is done: its users are free again, marked where its requests touched them (pinned for
   * `pin`, a fixture instance whose world keeps them); the shares it made join domains. Those waiting
   * for a user are woken.
   */
  settle({ holder, touched, links, pin, failedSeatless = [] }: Settlement): void {
    for (const [a, b] of links) {
      const [ka, kb] = [this.resolve(a), this.resolve(b)];
      if (ka && kb) this.link(ka, kb);
    }
    this.holders.delete(holder);
    this.waiting.leave(holder);
    for (const [source, user] of this.inUse) if (user === holder) this.inUse.delete(source);
    for (const byDomain of this.held.values()) for (const [d, h] of byDomain) if (h === holder) byDomain.delete(d);
    for (const t of touched) {
      const source = this.resolve(t.source);
      const domain = source && this.domainOf(source);
      if (domain !== undefined && (this.pool.has(t.userId) || this.seatless.has(t.userId))) this.marks.touch(t.userId, domain, source!, t.requested, pin);
    }
    this.seatless.settle(holder, failedSeatless);
    this.waiting.wake();
  }

  /** Resolves when a holder next gives its users back, or after `ms`; at once when one did since the lease that said wait (`since`). */
  released(ms: number, since: number): Promise<void> {
    return this.waiting.released(ms, since);
  }

  /**
   * A fixture instance, a test or a fixture's build is gone: the domains it made are dropped (no
   * one uses them again: their marks go too), and its pins elsewhere become reclaimable marks.
   */
  drop(owner: string): void {
    const gone = this.domains.drop(owner);
    this.marks.drop(owner, (d) => gone.has(this.domains.find(d)));
  }
}
