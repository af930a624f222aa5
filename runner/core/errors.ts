// The two ways a test can end badly. A ConformanceFailure means the target did not do what the
// spec says (verdict `fail`); a HarnessError means the suite could not make the check at all
// (provisioning failed, the target did not answer; verdict `error`). Reporters tell them apart by name.
// Either may carry the root cause (cause.ts) that the reports group tests by.
import type { Cause } from './cause.js';

export class ConformanceFailure extends Error {
  override name = 'ConformanceFailure';
  constructor(
    message: string,
    /** Whether the message already shows the request and answer it is about. */
    readonly showsExchange = false,
    readonly rootCause?: Cause,
  ) {
    super(message);
  }
}

/** A setting or argument the suite cannot run with (exit code 2). */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export class HarnessError extends Error {
  override name = 'HarnessError';
  /** The answer that kept the suite from checking, when one did. */
  rootCause?: Cause;
}
