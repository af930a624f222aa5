// The run's coordinator: the one place where the state that test files share lives, in the process
// that made the run. Test files run in worker threads of that process; they reach it by its methods'
// names through a BroadcastChannel named after the run, or directly when the run was made in their
// own thread (coordination/channel.ts); the command's reporter and watchdog reach it the same way.
// It is a facade over small services, each with its own state (coordination/):
// - the lending policy (lending.ts): users lent by domain, the seatless users as a shelf of their own;
// - the shelves of kept sources of test-scoped fixtures (shelf.ts);
// - the run-scoped fixtures: the first file to ask builds one, the others wait for its value or its
//   failure (run-fixtures.ts, fixture.ts);
// - named locks (a fixture group that one test at a time may change; locks.ts);
// - the phases of instance settings, kept in step with the run's ledger and the setting's lease on the
//   target (setting-phases.ts);
// - what the run did: requests per file and purpose, and the bound on requests in flight (tallies.ts).
// Whatever waits, waits on one wait list (wait-list.ts).
import { Locks } from './coordination/locks.js';
import { RunFixtures, type FixtureFailure, type RunFixtureState } from './coordination/run-fixtures.js';
import { SettingPhases, type PhaseTurn } from './coordination/setting-phases.js';
import { Shelves } from './coordination/shelf.js';
import { Tallies, type Purpose } from './coordination/tallies.js';
import type { Ledger, SettingRestore } from './ledger.js';
import { Lending, type Lease, type LentUser, type Settlement, type SourceKey, type SourceRef } from './lending.js';
import type { TargetLease } from './target-lease.js';

/** What the run's report takes of the coordinator at the end. */
export interface RunTally {
  failures: FixtureFailure[];
  requests: Map<string, Record<Purpose, number>>;
  highestInFlight: number;
}

export class Coordinator {
  private readonly lending = new Lending();
  private readonly shelves = new Shelves();
  private readonly fixtures = new RunFixtures();
  private readonly locks = new Locks();
  private readonly settings: SettingPhases;
  private readonly tallies: Tallies;

  /** `ledger`: the run's, where settings the run changes are listed until they are put back. */
  constructor(maxInFlight: number, ledger?: Ledger) {
    this.settings = new SettingPhases(ledger);
    this.tallies = new Tallies(maxInFlight);
  }

  /** The counters of requests in flight, shared with every worker's client (core/in-flight.ts). */
  get inFlight(): SharedArrayBuffer {
    return this.tallies.inFlight;
  }

  // ---- users lent (lending.ts) ------------------------------------------------------------------

  adopt(user: LentUser, seatless = false): void {
    this.lending.adopt(user, seatless);
  }
  registerSource(source: { kind: 'group' | 'project'; id: number; fullPath?: string }, parent: SourceKey | undefined, owner: string): SourceKey {
    return this.lending.registerSource(source, parent, owner);
  }
  resolve(ref: SourceRef): SourceKey | undefined {
    return this.lending.resolve(ref);
  }
  lease(holder: string, sources: SourceKey[], patient = false, seatless = false): Lease {
    return this.lending.lease(holder, sources, patient, seatless);
  }
  released(ms: number, since: number): Promise<void> {
    return this.lending.released(ms, since);
  }
  use(holder: string, sources: SourceKey[]): void {
    this.lending.use(holder, sources);
  }
  holdNew(holder: string, user: LentUser, sources: SourceKey[]): void {
    this.lending.holdNew(holder, user, sources);
  }
  tookBack(userId: number, sources: SourceKey[], ok: boolean): void {
    this.lending.tookBack(userId, sources, ok);
  }
  settle(settlement: Settlement): void {
    this.lending.settle(settlement);
  }
  drop(owner: string): void {
    this.lending.drop(owner);
  }

  // ---- kept sources (shelf.ts) ------------------------------------------------------------------

  /** A kept source of the test-scoped fixture `name`, or `build` one; waits while all `most` made are in use. */
  shelfTurn(name: string, most?: number): Promise<{ kept: unknown } | { build: true }> {
    return this.shelves.shelf(name).nextTurn(most);
  }
  keep(name: string, value: unknown): void {
    this.shelves.shelf(name).put(value);
  }
  unmade(name: string): void {
    this.shelves.shelf(name).gone();
  }

  // ---- run fixtures (run-fixtures.ts) and locks (locks.ts) --------------------------------------

  runFixture(name: string): Promise<RunFixtureState> | RunFixtureState {
    return this.fixtures.state(name);
  }
  publish(name: string, state: { value: unknown } | { failure: FixtureFailure }): void {
    this.fixtures.publish(name, state);
  }
  fixtureFailed(failure: FixtureFailure): void {
    this.fixtures.failed(failure);
  }
  lock(name: string): Promise<void> | void {
    return this.locks.lock(name);
  }
  unlock(name: string): void {
    this.locks.unlock(name);
  }

  // ---- instance settings (setting-phases.ts) ---------------------------------------------------

  enterPhase(name: string, value: string): Promise<PhaseTurn> {
    return this.settings.enter(name, value);
  }
  leaseTaken(name: string, lease: TargetLease): void {
    this.settings.leaseTaken(name, lease);
  }
  leaseRefused(name: string, reason: string): void {
    this.settings.leaseRefused(name, reason);
  }
  settingFound(name: string, previous: string, restore: SettingRestore): void {
    this.settings.found(name, previous, restore);
  }
  settingSet(name: string, ok: boolean): void {
    this.settings.set(name, ok);
  }

  // ---- what the run did (tallies.ts) ------------------------------------------------------------

  count(file: string, counts: Partial<Record<Purpose, number>>): void {
    this.tallies.count(file, counts);
  }
  inFlightBuffer(): SharedArrayBuffer {
    return this.tallies.inFlight;
  }
  tally(): RunTally {
    return { failures: this.fixtures.failures, requests: this.tallies.requests, highestInFlight: this.tallies.highestInFlight() };
  }
}

/** What a worker holds: the coordinator's methods, asynchronous. */
export type CoordinatorClient = { [K in keyof Coordinator as Coordinator[K] extends (...args: never[]) => unknown ? K : never]: Coordinator[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };
