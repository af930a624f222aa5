// The lending policy of a run, in one place: which user a test or a fixture may have, and which
// kept source it may reuse. It is plain state (no HTTP): the run's coordinator holds the one
// instance and the test workers ask it; they make the requests it decides on (taking a user back,
// resetting a source) and tell it what their requests did.
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

export type SourceKey = `${'group' | 'project'}:${number}`;

export interface LentUser {
  id: number;
  username: string;
  name: string;
  email: string;
  tokens: { api: string } & Partial<Record<string, string>>;
}

/** A group or project as a request names it: by id or by full path. */
export type SourceRef = { kind: 'group' | 'project'; ref: string };

/** What a holder's requests did, as the worker saw them: sources by reference, resolved here. */
export interface Settlement {
  holder: string;
  /** The sources its requests touched a lent user in, and whether the user asked for access there. */
  touched: { userId: number; source: SourceRef; requested: boolean }[];
  /** Shares made: [source, the group it was shared with]. */
  links: [SourceRef, SourceRef][];
  /** The fixture instance whose world keeps its users where it touched them. */
  pin?: string;
  /** Seatless users it could not take out again (they may hold a seat now): spent for the run. */
  failedSeatless?: number[];
}

/** How a lease ends: the user as it is, or taken back from these sources first; a new user; or wait for a holder to settle (`joined`: the asker was not waiting yet). */
export type Lease = { user: LentUser; takeBack?: { source: SourceKey; requested: boolean }[] } | { make: true } | { wait: true; joined: boolean };

interface Mark {
  sources: Map<SourceKey, boolean>;
  /** The fixture instance whose world holds the user here; undefined: reclaimable. */
  pin?: string;
}

interface PoolEntry {
  user: LentUser;
  seatless: boolean;
  /** Seatless users are lent to one holder in the whole run at a time. */
  heldBy?: string;
  spent: boolean;
}

export class Lending {
  private readonly pool = new Map<number, PoolEntry>();
  /** userId → domain → holder. */
  private readonly held = new Map<number, Map<string, string>>();
  /** holder → the users it holds: never lent to it twice, whatever its domains. */
  private readonly holders = new Map<string, Set<number>>();
  /** userId → domain → mark. */
  private readonly marks = new Map<number, Map<string, Mark>>();
  /** Union-find of domains joined by shares. */
  private readonly parent = new Map<string, string>();
  private readonly sources = new Map<SourceKey, string>();
  private readonly aliases = new Map<string, SourceKey>();
  /** Domain → the holder or fixture instance that made it (dropped with it). */
  private readonly owner = new Map<string, string>();
  /** Shelves of test-scoped fixtures, by fixture name: the sources kept for their next test, and how many are made. */
  private readonly kept = new Map<string, { kept: unknown[]; made: number }>();
  /** Holders waiting for a lease, with the holders they wait for: a circle of waiters would wait for ever. */
  private readonly waiters = new Map<string, string[]>();
  /** Sources a holder has to itself until it settles (those of its test-scoped fixtures). */
  private readonly inUse = new Map<SourceKey, string>();

  constructor(pool: LentUser[] = [], seatless: LentUser[] = []) {
    for (const user of pool) this.adopt(user);
    for (const user of seatless) this.adopt(user, true);
  }

  // ---- sources and domains ----------------------------------------------------------------

  /**
   * A source the run made or uses: inside `parent` (a known group) it is in the parent's domain,
   * else it starts a domain of its own, made by `owner` (dropped with it).
   */
  registerSource(source: { kind: 'group' | 'project'; id: number; fullPath?: string }, parent: SourceKey | undefined, owner: string): SourceKey {
    const key: SourceKey = `${source.kind}:${source.id}`;
    const parentDomain = parent && this.sources.get(parent);
    const domain = parentDomain ?? key;
    this.sources.set(key, domain);
    if (!parentDomain && !this.owner.has(domain)) this.owner.set(domain, owner);
    if (source.fullPath) this.aliases.set(`${source.kind}:${source.fullPath.toLowerCase()}`, key);
    return key;
  }

  /** The key of a source named in a request: by id or by full path; undefined when unknown. */
  resolve({ kind, ref }: SourceRef): SourceKey | undefined {
    if (/^\d+$/.test(ref)) return this.sources.has(`${kind}:${Number(ref)}`) ? `${kind}:${Number(ref)}` : undefined;
    return this.aliases.get(`${kind}:${ref.toLowerCase()}`);
  }

  domainOf(source: SourceKey): string | undefined {
    const domain = this.sources.get(source);
    return domain === undefined ? undefined : this.find(domain);
  }

  /** A share: members of one source are members of the other from now on. */
  link(a: SourceKey, b: SourceKey): void {
    const [da, db] = [this.domainOf(a), this.domainOf(b)];
    if (da === undefined || db === undefined || da === db) return;
    this.parent.set(db, da);
    // A joined domain is no longer one holder's to drop: it lives to the end of the run.
    this.owner.delete(da);
    this.owner.delete(db);
    for (const byDomain of this.marks.values()) {
      const moved = byDomain.get(db);
      if (moved === undefined) continue;
      byDomain.delete(db);
      const there = byDomain.get(da);
      if (there === undefined) byDomain.set(da, moved);
      else {
        for (const [source, requested] of moved.sources) there.sources.set(source, requested || (there.sources.get(source) ?? false));
        there.pin ??= moved.pin;
      }
    }
    for (const byDomain of this.held.values()) {
      const holder = byDomain.get(db);
      if (holder === undefined) continue;
      byDomain.delete(db);
      if (!byDomain.has(da)) byDomain.set(da, holder);
    }
  }

  private find(domain: string): string {
    let d = domain;
    while (this.parent.has(d)) d = this.parent.get(d)!;
    return d;
  }

  private domains(sources: SourceKey[]): string[] {
    return [...new Set(sources.map((s) => this.domainOf(s)).filter((d): d is string => d !== undefined))];
  }

  // ---- users --------------------------------------------------------------------------------

  /** A user joins the pool: one made during the run holds a seat like the pool's; a `seatless` one holds none. */
  adopt(user: LentUser, seatless = false): void {
    this.pool.set(user.id, { user, seatless, spent: false });
  }

  /**
   * A pool user for `holder`, new to the domains of `sources` (the sources of its fixtures): free
   * there, else one to take back there first (tookBack), else, while the asker is `patient` and a
   * holder that is not waiting itself has one there that it will give back, `wait`; else `make` (a
   * new user, then holdNew). New users are thus made only when waiting could not end. A `seatless`
   * lease is of the seatless pool (leaseSeatless).
   */
  lease(holder: string, sources: SourceKey[], patient = false, seatless = false): Lease {
    if (seatless) return this.leaseSeatless(holder, sources, patient);
    const domains = this.domains(sources);
    const mine = this.holders.get(holder);
    const usable = [...this.pool.values()].filter((e) => !e.seatless && !e.spent && !mine?.has(e.user.id) && domains.every((d) => !this.held.get(e.user.id)?.has(d)));
    const clean = usable.find((e) => domains.every((d) => !this.marks.get(e.user.id)?.has(d)));
    if (clean) {
      this.hold(holder, clean.user.id, domains);
      return { user: clean.user };
    }
    // Holders that have to themselves a source the user would be taken back from.
    const using = (e: PoolEntry) =>
      domains.flatMap((d) => [...(this.marks.get(e.user.id)?.get(d)?.sources.keys() ?? [])].map((source) => this.inUse.get(source))).filter((h) => h !== undefined && h !== holder);
    const reclaimable = usable.find((e) => using(e).length === 0 && domains.every((d) => this.marks.get(e.user.id)?.get(d)?.pin === undefined));
    if (!reclaimable) {
      const givers = [...this.pool.values()]
        .filter((e) => !e.seatless && !e.spent && !mine?.has(e.user.id))
        .flatMap((e) => [...domains.map((d) => this.held.get(e.user.id)?.get(d)), ...using(e)])
        .filter((h): h is string => h !== undefined && h !== holder);
      return this.waitOrMake(holder, patient, givers);
    }
    this.hold(holder, reclaimable.user.id, domains);
    const takeBack = domains.flatMap((d) => [...(this.marks.get(reclaimable.user.id)?.get(d)?.sources ?? [])].map(([source, requested]) => ({ source, requested })));
    return { user: reclaimable.user, takeBack };
  }

  /** `holder` has `sources` to itself until it settles: no take-back for another holder touches them. */
  use(holder: string, sources: SourceKey[]): void {
    for (const source of sources) this.inUse.set(source, holder);
  }

  /** Holds a user just made for `holder` in the domains of `sources`. */
  holdNew(holder: string, user: LentUser, sources: SourceKey[]): void {
    this.adopt(user);
    this.hold(holder, user.id, this.domains(sources));
  }

  /**
   * The take-back a lease asked for is done: the user is clean in those domains (`ok`), or it could
   * not be taken back (a step answered otherwise), and its marks there are pinned for the run:
   * nobody gets it there again.
   */
  tookBack(userId: number, sources: SourceKey[], ok: boolean): void {
    for (const d of this.domains(sources)) {
      if (ok) this.marks.get(userId)?.delete(d);
      else {
        const mark = this.marks.get(userId)?.get(d);
        if (mark) mark.pin = 'stuck';
      }
    }
  }

  /**
   * A seatless user for `holder` (no membership anywhere), never touched in the domains of `sources`;
   * `wait` while one such is held by a holder that is not waiting itself (and the asker is
   * `patient`); else `make`.
   */
  private leaseSeatless(holder: string, sources: SourceKey[], patient: boolean): Lease {
    const domains = this.domains(sources);
    const fits = [...this.pool.values()].filter((e) => e.seatless && !e.spent && domains.every((d) => !this.marks.get(e.user.id)?.has(d)));
    const entry = fits.find((e) => e.heldBy === undefined);
    if (!entry) return this.waitOrMake(holder, patient, fits.map((e) => e.heldBy!).filter((h) => h !== holder));
    entry.heldBy = holder;
    this.waiters.delete(holder);
    return { user: entry.user };
  }

  /**
   * `wait` for `givers` (the holder joins the waiters) when it is patient and one of them, or one
   * they wait for in turn, is not waiting: it will give a user back. Else `make` (it leaves them).
   */
  private waitOrMake(holder: string, patient: boolean, givers: string[]): Lease {
    if (!patient || !this.progresses(givers, holder)) {
      this.waiters.delete(holder);
      return { make: true };
    }
    const joined = !this.waiters.has(holder);
    this.waiters.set(holder, givers);
    return { wait: true, joined };
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

  private hold(holder: string, userId: number, domains: string[]): void {
    this.waiters.delete(holder);
    this.holders.set(holder, (this.holders.get(holder) ?? new Set()).add(userId));
    const byDomain = this.held.get(userId) ?? new Map<string, string>();
    for (const d of domains) byDomain.set(d, holder);
    this.held.set(userId, byDomain);
  }

  /**
   * The holder is done: its users are free again, marked where its requests touched them (pinned for
   * `pin`, a fixture instance whose world keeps them); the shares it made join domains.
   */
  settle({ holder, touched, links, pin, failedSeatless = [] }: Settlement): void {
    for (const [a, b] of links) {
      const [ka, kb] = [this.resolve(a), this.resolve(b)];
      if (ka && kb) this.link(ka, kb);
    }
    this.holders.delete(holder);
    this.waiters.delete(holder);
    for (const [source, user] of this.inUse) if (user === holder) this.inUse.delete(source);
    for (const byDomain of this.held.values()) for (const [d, h] of byDomain) if (h === holder) byDomain.delete(d);
    for (const t of touched) {
      const source = this.resolve(t.source);
      const domain = source && this.domainOf(source);
      if (domain === undefined || !this.pool.has(t.userId)) continue;
      const byDomain = this.marks.get(t.userId) ?? new Map<string, Mark>();
      const mark: Mark = byDomain.get(domain) ?? { sources: new Map() };
      mark.sources.set(source!, t.requested || (mark.sources.get(source!) ?? false));
      if (pin !== undefined && mark.pin === undefined) mark.pin = pin;
      byDomain.set(domain, mark);
      this.marks.set(t.userId, byDomain);
    }
    for (const entry of this.pool.values()) {
      if (entry.heldBy === holder) entry.heldBy = undefined;
      if (failedSeatless.includes(entry.user.id)) entry.spent = true;
    }
  }

  /**
   * A fixture instance, a test or a fixture's build is gone: the domains it made are dropped (no
   * one uses them again: their marks go too), and its pins elsewhere become reclaimable marks.
   */
  drop(owner: string): void {
    const gone = new Set([...this.owner].filter(([, o]) => o === owner).map(([d]) => d));
    for (const d of gone) this.owner.delete(d);
    for (const byDomain of this.marks.values()) {
      for (const [d, mark] of byDomain) {
        if (gone.has(this.find(d))) byDomain.delete(d);
        else if (mark.pin === owner) mark.pin = undefined;
      }
    }
  }

  // ---- kept sources ---------------------------------------------------------------------------

  /**
   * A kept source of the test-scoped fixture `name`, taken off its shelf (`kept`); else `build` a new
   * one while fewer than `most` are made; else `wait` for one to come back.
   */
  takeKept(name: string, most = Infinity): { kept: unknown } | { build: true } | { wait: true } {
    const shelf = this.shelf(name);
    if (shelf.kept.length > 0) return { kept: shelf.kept.shift() };
    if (shelf.made >= most) return { wait: true };
    shelf.made++;
    return { build: true };
  }

  /** Puts a source back on the shelf of fixture `name` for a later test (after its reset, which the taker makes). */
  keep(name: string, value: unknown): void {
    this.shelf(name).kept.push(value);
  }

  /** A source of fixture `name` is gone for good (its build or its reset failed): another may be built. */
  unmade(name: string): void {
    this.shelf(name).made--;
  }

  private shelf(name: string): { kept: unknown[]; made: number } {
    const shelf = this.kept.get(name) ?? { kept: [], made: 0 };
    this.kept.set(name, shelf);
    return shelf;
  }
}
