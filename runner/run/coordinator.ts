// The run's coordinator: the one place where the state that test files share lives, in the process
// that made the run. Test files run in worker threads of that process; they reach it through a
// BroadcastChannel named after the run (`connect`), or directly when the run was made in their own
// thread (`local`). It holds:
// - the lending policy (lending.ts, which it extends): users and kept sources;
// - the run-scoped fixtures: the first file to ask builds one, the others wait for its value or its
//   failure (fixture.ts);
// - named locks (a fixture group that one test at a time may change);
// - holds of instance settings: tests that need a setting at one value hold it together, a test
//   that needs another value waits until they are done (holdSetting); a value nobody waits to change
//   lingers until the run's teardown puts the old one back: the run's ledger says what to put back
//   while a setting differs from its value before the run, so `sweep` can after a killed run too;
// - the bound on requests in flight against the target: a counter in shared memory that every
//   worker's client takes a slot of (in-flight.ts);
// - what the run did: requests per file and purpose, fixtures that could not be built.
import { BroadcastChannel, threadId } from 'node:worker_threads';
import type { Ledger, SettingRestore } from './ledger.js';
import { Lending, type Lease } from './lending.js';

/** Why a fixture could not be built, once for the run's report. */
export interface FixtureFailure {
  fixture: string;
  scope: string;
  /** The set-up endpoint beyond the target contract that failed (its dependents are unsupported), if that was the cause. */
  lacking?: { need: string; endpoint: string };
  message: string;
}

interface SettingHold {
  value: string;
  holders: number;
  /** The value it had before the first holder set it (JSON), to put back when the holds are over. */
  previous?: string;
  /** The administrator's request that puts `previous` back. */
  restore?: SettingRestore;
  /** The ledger lists it: its value differs from `previous`, or may. */
  inLedger?: boolean;
  /** The value in place while a holder of another value, come after the last one left, sets its own. */
  lingered?: string;
  ready: boolean;
  /** The last holder is putting the old value back. */
  leaving?: boolean;
  onReady: ((ok: boolean) => void)[];
  waiting: (() => void)[];
}

export type RunFixtureState = { build: true } | { value: unknown } | { failure: FixtureFailure };

/** Request purposes the bench counts: what the test checks, and the harness's own. */
export const PURPOSES = ['checked', 'setup', 'take-back', 'reset', 'clean-up'] as const;
export type Purpose = (typeof PURPOSES)[number];

/** The run's coordinator: the lending policy, and what else the test files share. */
export class Coordinator extends Lending {
  readonly inFlight: SharedArrayBuffer;
  private readonly runFixtures = new Map<string, { state: RunFixtureState; waiting: ((s: RunFixtureState) => void)[] }>();
  private readonly locks = new Map<string, (() => void)[]>();
  readonly requests = new Map<string, Record<Purpose, number>>();
  readonly failures: FixtureFailure[] = [];
  /** Askers waiting for a holder to give users back. */
  private readonly waiting = new Set<() => void>();
  private readonly settingHolds = new Map<string, SettingHold>();
  /** Tests waiting for a kept source of a shelf whose sources are all in use. */
  private readonly shelfWaiters: (() => void)[] = [];

  /** `ledger`: the run's, where settings the run changes are listed until they are put back. */
  constructor(
    maxInFlight: number,
    private readonly ledger?: Ledger,
  ) {
    super();
    // [requests in flight, the bound, the highest seen, requests that got no answer at all]
    this.inFlight = new SharedArrayBuffer(16);
    Atomics.store(new Int32Array(this.inFlight), 1, maxInFlight);
  }

  override settle(settlement: Parameters<Lending['settle']>[0]): void {
    super.settle(settlement);
    this.wakeAll();
  }

  // A holder that starts to wait wakes the others: those that now wait only on waiting holders make a user.
  override lease(...args: Parameters<Lending['lease']>): Lease {
    const lease = super.lease(...args);
    if ('wait' in lease && lease.joined) this.wakeAll();
    return lease;
  }

  /** Lending.takeKept, waiting while all `most` sources of the shelf are in use. */
  async shelfTurn(name: string, most?: number): Promise<{ kept: unknown } | { build: true }> {
    for (;;) {
      const turn = this.takeKept(name, most);
      if (!('wait' in turn)) return turn;
      await new Promise<void>((resolve) => this.shelfWaiters.push(resolve));
    }
  }

  override keep(name: string, value: unknown): void {
    super.keep(name, value);
    for (const wake of this.shelfWaiters.splice(0)) wake();
  }

  override unmade(name: string): void {
    super.unmade(name);
    for (const wake of this.shelfWaiters.splice(0)) wake();
  }

  private wakeAll(): void {
    for (const wake of this.waiting) wake();
    this.waiting.clear();
  }

  /** Resolves when a holder next gives its users back, or after `ms`. */
  released(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.waiting.delete(wake) && resolve(), ms);
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiting.add(wake);
    });
  }

  /** The state of a run-scoped fixture: the first caller is told to build it, later ones wait for its end. */
  runFixture(name: string): Promise<RunFixtureState> | RunFixtureState {
    const entry = this.runFixtures.get(name);
    if (!entry) {
      this.runFixtures.set(name, { state: { build: true }, waiting: [] });
      return { build: true };
    }
    if (!('build' in entry.state)) return entry.state;
    return new Promise((resolve) => entry.waiting.push(resolve));
  }

  publish(name: string, state: { value: unknown } | { failure: FixtureFailure }): void {
    const entry = this.runFixtures.get(name)!;
    entry.state = state;
    for (const resolve of entry.waiting.splice(0)) resolve(state);
    if ('failure' in state) this.failures.push(state.failure);
  }

  fixtureFailed(failure: FixtureFailure): void {
    if (!this.failures.some((f) => f.fixture === failure.fixture && f.message === failure.message)) this.failures.push(failure);
  }

  /** Waits until no other holder has the lock `name`. */
  lock(name: string): Promise<void> | void {
    const queue = this.locks.get(name);
    if (!queue) {
      this.locks.set(name, []);
      return;
    }
    return new Promise((resolve) => queue.push(resolve));
  }

  unlock(name: string): void {
    const next = this.locks.get(name)?.shift();
    if (next) next();
    else this.locks.delete(name);
  }

  /**
   * Joins the holders of instance setting `name` at `value` (a JSON text). `set`: the caller sets it
   * and reports with settingSet; `held`: it is at that value; `retry`: the one who was setting it
   * failed. A holder of another value waits, and so does everyone who comes after it. With no holder
   * left and nobody waiting, the value lingers: the next holder of it holds it without a request, and
   * the run's teardown puts the old value back (the ledger lists it). Holders lease their users before
   * they hold a setting: one that waited for a user while holding it could wait on a test that waits
   * for the setting.
   */
  async holdSetting(name: string, value: string): Promise<'set' | 'held' | 'retry'> {
    for (;;) {
      const hold = this.settingHolds.get(name);
      if (!hold) {
        this.settingHolds.set(name, { value, holders: 1, ready: false, onReady: [], waiting: [] });
        return 'set';
      }
      if (hold.holders === 0 && hold.ready && !hold.leaving) {
        hold.holders = 1;
        if (hold.value === value) return 'held';
        Object.assign(hold, { lingered: hold.value, value, ready: false });
        return 'set';
      }
      if (hold.value === value && hold.waiting.length === 0 && !hold.leaving) {
        hold.holders++;
        if (hold.ready) return 'held';
        return new Promise((resolve) => hold.onReady.push((ok) => resolve(ok ? 'held' : 'retry')));
      }
      await new Promise<void>((resolve) => hold.waiting.push(resolve));
    }
  }

  /**
   * The holder told to set the setting found it at `previous`, which `restore` puts back. Called before
   * it writes its own value: from then until the value before the run is back, the ledger lists it.
   */
  settingFound(name: string, previous: string, restore: SettingRestore): void {
    const hold = this.settingHolds.get(name)!;
    // A hold that took over a lingering value keeps the value from before the run.
    if (hold.previous === undefined) Object.assign(hold, { previous, restore });
    this.note(hold, name);
  }

  /** The holder told to set the setting did (`ok`), or could not: it lets go, and a value that lingered before stays in place. */
  settingSet(name: string, ok: boolean): void {
    const hold = this.settingHolds.get(name)!;
    if (ok) {
      Object.assign(hold, { ready: true, lingered: undefined });
    } else if (hold.lingered !== undefined) {
      Object.assign(hold, { value: hold.lingered, lingered: undefined, holders: 0, ready: true });
      this.note(hold, name);
    } else {
      // The value is unknown now: the ledger keeps what puts the old one back.
      this.settingHolds.delete(name);
    }
    for (const wake of hold.onReady.splice(0)) wake(ok);
    if (!ok) for (const wake of hold.waiting.splice(0)) wake();
  }

  /**
   * A holder is done. When it was the last and a holder of another value waits, it is handed the
   * request that puts the old value back (none when the value is that already), and calls
   * settingRestored when it has sent it; with nobody waiting the value lingers.
   */
  leaveSetting(name: string): { last: true; restore?: SettingRestore } | { last: false } {
    const hold = this.settingHolds.get(name)!;
    if (--hold.holders > 0 || hold.waiting.length === 0) return { last: false };
    hold.leaving = true;
    return { last: true, restore: this.restoreOf(hold) };
  }

  /** The last holder has put the old value back (`ok`), or tried: the ledger still lists it then, for the teardown. */
  settingRestored(name: string, ok = true): void {
    const hold = this.settingHolds.get(name)!;
    if (ok && hold.inLedger) this.ledger?.markRestored(name, hold.restore!);
    this.settingHolds.delete(name);
    for (const wake of hold.waiting.splice(0)) wake();
  }

  /** The request that puts a hold's setting back to its value before the run, when it has another now. */
  private restoreOf(hold: SettingHold): SettingRestore | undefined {
    return hold.previous !== hold.value ? hold.restore : undefined;
  }

  /** Keeps the ledger in step with a hold: it lists the setting while the value differs from the one before the run. */
  private note(hold: SettingHold, name: string): void {
    const differs = this.restoreOf(hold) !== undefined;
    if (differs && !hold.inLedger) this.ledger?.recordSetting(name, hold.restore!);
    else if (!differs && hold.inLedger) this.ledger?.markRestored(name, hold.restore!);
    hold.inLedger = differs;
  }

  count(file: string, counts: Partial<Record<Purpose, number>>): void {
    const row = this.requests.get(file) ?? (Object.fromEntries(PURPOSES.map((p) => [p, 0])) as Record<Purpose, number>);
    for (const [purpose, n] of Object.entries(counts) as [Purpose, number][]) row[purpose] += n;
    this.requests.set(file, row);
  }

  inFlightBuffer(): SharedArrayBuffer {
    return this.inFlight;
  }

  /** The highest number of requests in flight at once so far. */
  highestInFlight(): number {
    return Atomics.load(new Int32Array(this.inFlight), 2);
  }
}

const kept = globalThis as { conformanceCoordinator?: Coordinator };

/** The coordinator of the run made in this process, for the reporters (which run where the run was made). */
export function runCoordinator(): Coordinator | undefined {
  return kept.conformanceCoordinator;
}

/** Keeps the run's coordinator for the reporters. */
export function keepCoordinator(coordinator: Coordinator): void {
  kept.conformanceCoordinator = coordinator;
}

/** What a worker holds: the coordinator's methods, asynchronous. */
export type CoordinatorClient = { [K in keyof Coordinator as Coordinator[K] extends (...args: never[]) => unknown ? K : never]: Coordinator[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };

const channelName = (runId: string) => `gitlab-api-conformance-${runId}`;

/** Serves the coordinator to the run's workers; returns the function that stops serving. */
export function serve(coordinator: Coordinator, runId: string): () => void {
  const channel = new BroadcastChannel(channelName(runId));
  channel.unref();
  channel.onmessage = (event) => {
    const { id, method, args } = (event as MessageEvent).data as { id?: string; method?: string; args?: unknown[] };
    if (id === undefined || method === undefined) return;
    void (async () => {
      try {
        const fn = (coordinator as unknown as Record<string, (...a: unknown[]) => unknown>)[method];
        channel.postMessage({ re: id, result: await fn.apply(coordinator, args ?? []) });
      } catch (error) {
        channel.postMessage({ re: id, error: (error as Error).message });
      }
    })();
  };
  return () => channel.close();
}

/** The coordinator of a run made in this very thread. */
export function local(coordinator: Coordinator): CoordinatorClient {
  return new Proxy({} as CoordinatorClient, {
    get: (_, method: string) => async (...args: unknown[]) => (coordinator as unknown as Record<string, (...a: unknown[]) => unknown>)[method].apply(coordinator, args),
  });
}

/** This thread's channel to the coordinator of the run it last joined. */
let joined: BroadcastChannel | undefined;

/** The coordinator of a run made in another thread of this process (the channel to a run joined before is closed). */
export function connect(runId: string): CoordinatorClient {
  joined?.close();
  const channel = new BroadcastChannel(channelName(runId));
  joined = channel;
  channel.unref();
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let n = 0;
  channel.onmessage = (event) => {
    const { re, result, error } = (event as MessageEvent).data as { re?: string; result?: unknown; error?: string };
    const call = re === undefined ? undefined : pending.get(re);
    if (!call) return;
    pending.delete(re!);
    if (error !== undefined) call.reject(new Error(`the run's coordinator: ${error}`));
    else call.resolve(result);
  };
  return new Proxy({} as CoordinatorClient, {
    get:
      (_, method: string) =>
      (...args: unknown[]) =>
        new Promise((resolve, reject) => {
          const id = `${threadId}:${++n}`;
          pending.set(id, { resolve, reject });
          channel.postMessage({ id, method, args });
        }),
  });
}
