// One request and its answer as the suite saw it (an Exchange), and what one test leaves behind while
// it runs (its TestLog): the exchanges its clients made (its evidence) and the GitLab-parity notes
// its checks recorded. A test owns its log and hands it to its clients, so no module state ties a
// request to a test and tests may run concurrently.

export interface Exchange {
  actor: string;
  method: string;
  /** Path and query under the target, e.g. /api/v4/projects/1/repository/files/a%2Eb?ref=main */
  url: string;
  requestBody?: unknown;
  /** How the body was sent: JSON or form fields. */
  sentAs?: 'json' | 'form';
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The raw response bytes (for /raw and non-JSON answers). */
  bytes: Buffer;
  durationMs: number;
  retries: number;
  /** Its place among the requests of its test, given when it was sent (transcripts align on it). */
  index?: number;
  /** The log of the test that made the request (not enumerable: never serialised). */
  readonly log?: TestLog;
  /** The token it was sent with (not enumerable: never serialised), for telling whose request it was. */
  readonly token?: string;
}

/** Why a request was sent: what a test checks, or the harness's own work around it. */
export type Purpose = 'checked' | 'setup' | 'take-back' | 'reset' | 'clean-up';

/** Where a client's exchanges go besides the test's evidence: the trail of the test or fixture that sent them. */
export interface Recorder {
  record(exchange: Exchange, purpose: Purpose): void;
  /** Headers to add to a request sent for `purpose` (the suite's shared-list mark, runner/run/shared-lists.ts). */
  headersFor?(method: string, url: string, purpose: Purpose): Record<string, string> | undefined;
}

/** The two verdict levels (README: "Two levels"): what the spec asks, and what GitLab's code does beyond it. */
export const LEVELS = ['spec', 'parity'] as const;
export type VerdictLevel = (typeof LEVELS)[number];

export interface ParityNote {
  /** What GitLab does that the target did not, with the failure text. */
  text: string;
  /** Where GitLab does it: a path in GitLab's source or a request spec. */
  gitlab: string;
}

export class TestLog {
  readonly exchanges: Exchange[] = [];
  readonly parity: ParityNote[] = [];
  /** Requests sent so far (an exchange's index). */
  sent = 0;
}
