// vitest's logger, made with each Vitest instance, adds SIGINT and SIGTERM handlers that exit the
// process a moment later (vitest's cli-api chunk, Logger.addCleanupListeners): a run would then die
// without its clean-up and reports when the signal comes while vitest starts. The command handles
// signals itself (cli/cli.ts); the instances it makes are made without those handlers.
const SIGNALS = new Set<string | symbol>(['SIGINT', 'SIGTERM']);

/** `make()`, during which no SIGINT or SIGTERM handler is added with `process.once`. */
export async function withoutVitestSignalHandlers<T>(make: () => Promise<T>): Promise<T> {
  const once = process.once;
  process.once = function (this: NodeJS.Process, event: string | symbol, listener: (...args: unknown[]) => void) {
    return SIGNALS.has(event) ? this : once.call(this, event, listener);
  } as typeof process.once;
  try {
    return await make();
  } finally {
    process.once = once;
  }
}
