// The two ways a test can end badly. A ConformanceFailure means the target did not do what the
// spec says (verdict `fail`); a HarnessError means the suite could not make the check at all
// (provisioning failed, the target did not answer; verdict `error`). Reporters tell them apart by name.

export class ConformanceFailure extends Error {
  override name = 'ConformanceFailure';
  constructor(
    message: string,
    /** Whether the message already shows the request and answer it is about. */
    readonly showsExchange = false,
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
}
