// A frame is one holder of the run's objects while it works: a test, or the build of a fixture. It
// keeps the trail of every request made for it (the test's own, and the set-up made on its behalf),
// the users it leased, the set-up endpoints beyond the contract it declared, and the sources of its
// fixtures. A test works with it through its kit, a fixture's build through its context (both a
// SetupContext, fixture.ts), which the helpers they call are handed. When the frame closes, the trail
// tells the lending policy what happened to each leased user (lending.ts).
import { Names } from './names.js';
import type { RoleGrantingWrite } from '../core/area.js';
import { Client, type Exchange } from '../core/client.js';
import { HarnessError } from '../core/errors.js';
import type { Purpose, Recorder, TestLog } from '../core/exchange.js';
import { registerSecret } from '../core/redact.js';
import { SETUP_NEEDS, type SetupNeed } from '../core/setup-needs.js';
import { sourcePath } from '../core/vocabulary.js';
import type { ActorInfo, RunContext } from './context.js';
import type { CoordinatorClient } from './coordinator.js';
import type { Lease, SourceKey, SourceRef } from './lending.js';
import { Maker } from './maker.js';
import { Symbols } from './symbols.js';

export interface Run {
  context: RunContext;
  coordinator: CoordinatorClient;
}

/**
 * How long a lease waits at most for a user that another holder will give back, before a new user is
 * made. Holders that wait only on each other are found at once (lending.ts); this bounds a wait that
 * goes round through something the policy does not see, well inside a test's deadline (BODY_DEADLINE_MS).
 */
const LEASE_PATIENCE_MS = 30_000;

export interface FrameOptions {
  /** Who holds what it leases: the test, or the fixture being built. */
  holder: string;
  /** Who owns the domains it makes (dropped with it): the test, or the fixture instance; the holder by default. */
  owner?: string;
  /** The set-up endpoints beyond the target contract it may use. */
  needs?: Iterable<SetupNeed>;
  /** For the names it makes: unique in the run, the same in every run. */
  scope: string;
  /** The test's log, when the frame is a test's. */
  log?: TestLog;
  /** What its administrator's requests are for: set-up, or putting a kept fixture back (reset). */
  purpose?: Purpose;
}

/** One of the run's shelves of users, as a frame leases from it: the seated pool, or the seatless users. */
interface UserShelf {
  /** A lease of this shelf from the lending policy (lending.ts). */
  ask(patient: boolean): Promise<Lease>;
  /** Where the frame keeps the users lent to it (given back when it closes). */
  held: ActorInfo[];
  /** A new user when the shelf has none to lend: `lent` when the policy holds it for the frame as the others, else the frame's own. */
  make(slot: ReturnType<Symbols['slot']>): Promise<{ user: ActorInfo; lent: boolean }>;
}

export class Frame implements Recorder {
  readonly trail: Exchange[] = [];
  readonly counts: Record<Purpose, number> = { checked: 0, setup: 0, 'take-back': 0, reset: 0, 'clean-up': 0 };
  readonly leased: ActorInfo[] = [];
  readonly seatless: ActorInfo[] = [];
  /** Sources of the fixtures it uses: a user it leases is new to their domains. */
  readonly sources: SourceKey[] = [];
  readonly make: Maker;
  readonly admin: Client;
  readonly names: Names;
  /** The run's objects it met, by their role in its world (a test's transcript names them so). */
  readonly symbols = new Symbols();

  /** Who holds what it leases: the test, or the fixture being built. */
  readonly holder: string;
  /** Who owns the domains it makes (dropped with it): the test, or the fixture instance. */
  readonly owner: string;
  /** The set-up endpoints beyond the target contract it may use. */
  readonly needs: ReadonlySet<SetupNeed>;
  /** The test's log, when the frame is a test's. */
  readonly log?: TestLog;

  constructor(
    readonly run: Run,
    { holder, owner = holder, needs = [], scope, log, purpose = 'setup' }: FrameOptions,
  ) {
    const { context } = run;
    this.holder = holder;
    this.owner = owner;
    this.needs = new Set(needs);
    this.log = log;
    this.names = new Names(context.prefix, scope);
    this.admin = new Client(context.targetUrl, context.adminToken, `admin (${purpose})`, { timeoutMs: context.settings.requestTimeoutMs, maxBytes: context.settings.maxAnswerBytes }).recordingTo(this, purpose);
    this.make = new Maker(this);
  }

  /** A test's checked requests go out with these headers (the shared-list mark, shared-lists.ts). */
  markChecked?: (method: string, url: string) => Record<string, string> | undefined;

  headersFor(method: string, url: string, purpose: Purpose): Record<string, string> | undefined {
    return purpose === 'checked' ? this.markChecked?.(method, url) : undefined;
  }

  record(exchange: Exchange, purpose: Purpose): void {
    this.counts[purpose]++;
    // What the clean-up and take-backs send puts users back where they were: no trace for the lending policy.
    if (purpose !== 'clean-up' && purpose !== 'take-back') this.trail.push(exchange);
  }

  /** Throws unless the frame declared `need` (a set-up endpoint beyond the target contract). */
  mayUse(need: SetupNeed): void {
    if (!this.needs.has(need)) {
      throw new HarnessError(`${this.holder} uses ${SETUP_NEEDS[need].endpoint} (set-up beyond the target contract: "${need}") without declaring it in its needs`);
    }
  }

  // ---- leases --------------------------------------------------------------------------------

  /**
   * A user new to the domains of this frame's fixtures: one of the run's pool, taken back first when
   * the pool has none left there, else a new one. It comes back when the frame closes, marked where
   * the frame's requests touched it.
   */
  lease(): Promise<ActorInfo> {
    const { lending } = this.run.coordinator;
    return this.fromShelf({
      ask: (patient) => lending.lease(this.holder, this.sources, patient),
      held: this.leased,
      make: async (slot) => {
        const user = await this.make.seatedUser(undefined, slot);
        await lending.holdNew(this.holder, user, this.sources);
        return { user, lent: true };
      },
    });
  }

  /**
   * A user who holds no seat anywhere, for the promotion-approval tests: one of the run's seatless
   * pool, taken out again of whatever the frame's requests gave it when the frame closes (spent for
   * the run when that fails); a new user when none is left.
   */
  leaseSeatless(): Promise<ActorInfo> {
    return this.fromShelf({
      ask: (patient) => this.run.coordinator.lending.leaseSeatless(this.holder, this.sources, patient),
      held: this.seatless,
      // A new seatless user is the frame's own: nobody else will ask for it.
      make: async (slot) => ({ user: await this.make.user(undefined, undefined, { slot }), lent: false }),
    });
  }

  private async fromShelf(shelf: UserShelf): Promise<ActorInfo> {
    const { lending } = this.run.coordinator;
    // Its place in the test's numbering, taken now: users asked for at once are numbered in that order.
    const slot = this.symbols.slot();
    // Users are few and worth waiting a while for: another test or fixture may give one back soon.
    const patience = Date.now() + LEASE_PATIENCE_MS;
    for (;;) {
      const lease = await shelf.ask(Date.now() < patience);
      if ('wait' in lease) {
        await lending.released(patience - Date.now(), lease.since);
        continue;
      }
      let user: ActorInfo;
      if ('make' in lease) {
        const made = await shelf.make(slot);
        if (!made.lent) return made.user;
        user = made.user;
      } else {
        user = lease.user as ActorInfo;
        for (const token of Object.values(user.tokens)) registerSecret(token);
        if (lease.takeBack) {
          const ok = await takeBack(this.admin.recordingTo(this, 'take-back'), user, lease.takeBack);
          await lending.tookBack(user.id, lease.takeBack.map((t) => t.source), ok);
          if (!ok) continue;
        }
      }
      shelf.held.push(user);
      slot(user);
      return user;
    }
  }

  // ---- the end ------------------------------------------------------------------------------

  /**
   * Gives back what the frame holds: its seatless users taken out of what they were given, its users
   * back to the pool marked where its requests touched them, and the request counts to the run's
   * tally under `file`. A fixture's build (`keep`) keeps its users, touched or not, in its world: the
   * sources it was built from and those in its value, pinned for the fixture instance `keep.pin` (a
   * user of its value who is a member of nothing there is part of that world too).
   */
  async close(file: string, keep?: { pin: string; sources: SourceKey[] }): Promise<void> {
    const { lending, tallies } = this.run.coordinator;
    const users = [...this.leased, ...this.seatless];
    const { touched, links } = touches(this.trail, users, this.run.context.roleGrantingWrites);
    for (const source of keep?.sources ?? []) {
      const [kind, ref] = source.split(':') as ['group' | 'project', string];
      for (const user of this.leased) touched.push({ userId: user.id, source: { kind, ref }, requested: false });
    }
    const failedSeatless: number[] = [];
    await Promise.all(
      this.seatless.map(async (user) => {
        const from = await Promise.all(
          touched.filter((t) => t.userId === user.id).map(async (t) => ({ source: await lending.resolve(t.source), requested: t.requested })),
        );
        // One take-back a source, however many of the frame's requests touched the user there.
        const known = new Map<SourceKey, boolean>();
        for (const { source, requested } of from) if (source !== undefined) known.set(source, requested || (known.get(source) ?? false));
        if (!(await takeBack(this.admin.recordingTo(this, 'take-back'), user, [...known].map(([source, requested]) => ({ source, requested }))))) failedSeatless.push(user.id);
      }),
    );
    await lending.settle({ holder: this.holder, touched, links, pin: keep?.pin, failedSeatless });
    await tallies.count(file, this.counts);
  }
}

/** The source a request is about, from its path: `/api/v4/groups/:id/…` or `/api/v4/projects/:id/…`. */
export function sourceOfUrl(url: string): SourceRef | undefined {
  const match = /^\/api\/v4\/(groups|projects)\/([^/?]+)/.exec(url);
  if (!match) return undefined;
  return { kind: match[1] === 'groups' ? 'group' : 'project', ref: decodeURIComponent(match[2]) };
}

/**
 * The role-granting write (declared by the areas, core/area.ts) a request to `/api/v4/groups/:id/…`
 * or `/api/v4/projects/:id/…` is, with the path segments after its collection.
 */
function grantOf(path: string, writes: readonly RoleGrantingWrite[]): { write: RoleGrantingWrite; rest: string[] } | undefined {
  const [collection, ...rest] = path.split('/').slice(5);
  const write = writes.find((w) => w.collection === collection);
  return write && { write, rest };
}

/** The values a role-granting write names users with: the path segment after its collection (or after `all/`), and its user parameters in the query and body (any array form). */
function userNames(e: Exchange, { write, rest }: { write: RoleGrantingWrite; rest: string[] }): string[] {
  const query = e.url.split('?')[1] ?? '';
  const params = new Set(write.userParams ?? []);
  const isUserParam = (key: string) => params.has(key.replace(/\[\]$/, ''));
  const names: string[] = [];
  const inPath = rest[0] === 'all' ? rest[1] : rest[0];
  if (inPath) names.push(decodeURIComponent(inPath));
  for (const [key, value] of new URLSearchParams(query)) if (isUserParam(key)) names.push(value);
  let body = e.requestBody;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body) as unknown;
    } catch {
      body = undefined;
    }
  }
  if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body)) if (isUserParam(key)) names.push(...(Array.isArray(value) ? value : [value]).map(String));
  }
  return names.flatMap((n) => n.split(',')).map((n) => n.trim().toLowerCase());
}

/**
 * What a trail did to `users`: a successful write about a group or project touched a user when the
 * user sent it, or when it is one of the areas' role-granting writes (`writes`) and names the user
 * (id, username or address) as a user parameter or in its path; an access request the user sent is
 * noted as such. Shares made link two sources.
 */
export function touches(trail: readonly Exchange[], users: readonly ActorInfo[], writes: readonly RoleGrantingWrite[]) {
  const touched: { userId: number; source: SourceRef; requested: boolean }[] = [];
  const links: [SourceRef, SourceRef][] = [];
  for (const e of trail) {
    if (e.method === 'GET' || e.method === 'HEAD' || e.status < 200 || e.status >= 300) continue;
    const source = sourceOfUrl(e.url);
    if (!source) continue;
    const grant = grantOf(e.url.split('?')[0], writes);
    const names = grant ? userNames(e, grant) : [];
    for (const user of users) {
      const sentBy = e.token !== undefined && Object.values(user.tokens).includes(e.token);
      const named = [String(user.id), user.username.toLowerCase(), user.email.toLowerCase(), ...(user.secondaryEmails ?? [])].some((n) => names.includes(n));
      if (sentBy || named) touched.push({ userId: user.id, source, requested: sentBy && grant?.write.accessRequest === true });
    }
    if (e.method === 'POST' && /^\/api\/v4\/(groups|projects)\/[^/?]+\/share(\?|$)/.test(e.url)) {
      const withGroup = (e.requestBody as { group_id?: unknown } | undefined)?.group_id;
      if (withGroup !== undefined) links.push([source, { kind: 'group', ref: String(withGroup) }]);
    }
  }
  return { touched, links };
}

export { SETUP_NEEDS, type SetupNeed };

/**
 * Takes a user out of sources as the administrator (`admin` records to the frame as take-back):
 * removes its membership and, where it asked for access, its request (gone already: 404), and reads
 * `…/members/all/:user_id` back, which must be 404. False when any step answers otherwise.
 */
async function takeBack(admin: Client, user: { id: number }, from: { source: SourceKey; requested: boolean }[]): Promise<boolean> {
  try {
    const done = await Promise.all(
      from.map(async ({ source, requested }) => {
        const [kind, id] = source.split(':') as ['group' | 'project', string];
        const base = sourcePath({ kind, id: Number(id) });
        if (![200, 202, 204, 404].includes((await admin.delete(`${base}/members/${user.id}`)).status)) return false;
        if (requested && ![200, 204, 404].includes((await admin.delete(`${base}/access_requests/${user.id}`)).status)) return false;
        return (await admin.get(`${base}/members/all/${user.id}`)).status === 404;
      }),
    );
    return done.every(Boolean);
  } catch {
    return false;
  }
}
