// The run's coordinator: the one place where the state that test files share lives, in the process
// that made the run. Test files run in worker threads of that process; they reach its services by
// name (`coordinator.lending.lease(…)`) through a BroadcastChannel named after the run, or directly
// when the run was made in their own thread (coordinator-channel.ts); the command's reporter and
// watchdog reach it the same way. Each service has its own state (coordination/):
// - lending: the lending policy (lending.ts): users lent by domain, the seatless users a shelf of their own;
// - shelves: the kept sources of test-scoped fixtures (shelf.ts);
// - fixtures: the run-scoped fixtures: the first file to ask builds one, the others wait for its
//   value or its failure (run-fixtures.ts, fixture.ts);
// - locks: named locks (a fixture group that one test at a time may change; locks.ts);
// - settings: the phases of instance settings, kept in step with the run's ledger and the setting's
//   lease on the target (setting-phases.ts);
// - tallies: what the run did: requests per file and purpose, and the bound on requests in flight (tallies.ts).
// Whatever waits, waits on one wait list (wait-list.ts).
import { Locks } from './coordination/locks.js';
import { RunFixtures } from './coordination/run-fixtures.js';
import { SettingPhases } from './coordination/setting-phases.js';
import { Shelves } from './coordination/shelf.js';
import { Tallies } from './coordination/tallies.js';
import type { Ledger } from './ledger.js';
import { Lending } from './lending.js';

export type { RunTally } from './coordination/tallies.js';

export class Coordinator {
  readonly lending = new Lending();
  readonly shelves = new Shelves();
  readonly fixtures = new RunFixtures();
  readonly locks = new Locks();
  readonly settings: SettingPhases;
  readonly tallies: Tallies;

  /** `ledger`: the run's, where settings the run changes are listed until they are put back. */
  constructor(maxInFlight: number, ledger?: Ledger) {
    this.settings = new SettingPhases(ledger);
    this.tallies = new Tallies(maxInFlight, () => this.fixtures.failures);
  }
}

/** The coordinator's services, as a worker names them in its calls. */
export const SERVICES = ['lending', 'shelves', 'fixtures', 'locks', 'settings', 'tallies'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** A service as a worker holds it: its methods, asynchronous. */
type Remote<S> = { [K in keyof S as S[K] extends (...args: never[]) => unknown ? K : never]: S[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };

/** What a worker holds: the coordinator's services. */
export type CoordinatorClient = { readonly [N in ServiceName]: Remote<Coordinator[N]> };

/** A call's name in a message, `service.method`: derived from the services' types. */
export type CallName = { [N in ServiceName]: `${N}.${keyof Remote<Coordinator[N]> & string}` }[ServiceName];
