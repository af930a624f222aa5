// What the run did, for its report: requests per test file and purpose, and the bound on requests
// in flight against the target, a counter in shared memory that every worker's client takes a slot
// of (core/in-flight.ts) and the command's watchdog reads.

/** Request purposes the bench counts: what the test checks, and the harness's own. */
export const PURPOSES = ['checked', 'setup', 'take-back', 'reset', 'clean-up'] as const;
export type Purpose = (typeof PURPOSES)[number];

export class Tallies {
  /** [requests in flight, the bound, the highest seen, requests that got no answer at all] */
  readonly inFlight = new SharedArrayBuffer(16);
  readonly requests = new Map<string, Record<Purpose, number>>();

  constructor(maxInFlight: number) {
    Atomics.store(new Int32Array(this.inFlight), 1, maxInFlight);
  }

  count(file: string, counts: Partial<Record<Purpose, number>>): void {
    const row = this.requests.get(file) ?? (Object.fromEntries(PURPOSES.map((p) => [p, 0])) as Record<Purpose, number>);
    for (const [purpose, n] of Object.entries(counts) as [Purpose, number][]) row[purpose] += n;
    this.requests.set(file, row);
  }

  /** The highest number of requests in flight at once so far. */
  highestInFlight(): number {
    return Atomics.load(new Int32Array(this.inFlight), 2);
  }
}
