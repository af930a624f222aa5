// What the run did, for its report: requests per test file and purpose, and the bound on requests
// in flight against the target, a counter in shared memory that every worker's client takes a slot
// of (core/in-flight.ts) and the command's watchdog reads.
import type { FixtureFailure } from './run-fixtures.js';

/** Request purposes the bench counts: what the test checks, and the harness's own. */
export const PURPOSES = ['checked', 'setup', 'take-back', 'reset', 'clean-up'] as const;
export type Purpose = (typeof PURPOSES)[number];

/** What the run's report takes of the coordinator at the end. */
export interface RunTally {
  failures: FixtureFailure[];
  requests: Map<string, Record<Purpose, number>>;
  highestInFlight: number;
}

export class Tallies {
  /** [requests in flight, the bound, the highest seen, requests that got no answer at all] */
  private readonly counters = new SharedArrayBuffer(16);
  private readonly requests = new Map<string, Record<Purpose, number>>();

  /** `failures`: the fixtures that could not be built (run-fixtures.ts), for the tally. */
  constructor(
    maxInFlight: number,
    private readonly failures: () => FixtureFailure[],
  ) {
    Atomics.store(new Int32Array(this.counters), 1, maxInFlight);
  }

  /** The counters of requests in flight, shared with every worker's client (core/in-flight.ts) and the command's watchdog. */
  inFlight(): SharedArrayBuffer {
    return this.counters;
  }

  count(file: string, counts: Partial<Record<Purpose, number>>): void {
    const row = this.requests.get(file) ?? (Object.fromEntries(PURPOSES.map((p) => [p, 0])) as Record<Purpose, number>);
    for (const [purpose, n] of Object.entries(counts) as [Purpose, number][]) row[purpose] += n;
    this.requests.set(file, row);
  }

  /** What the run did so far: the fixtures that could not be built, the requests per file, the most in flight at once. */
  tally(): RunTally {
    return { failures: this.failures(), requests: this.requests, highestInFlight: Atomics.load(new Int32Array(this.counters), 2) };
  }
}
