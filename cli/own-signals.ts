// The command's signals. A run's process has a listener for SIGINT, SIGTERM and SIGHUP from its first
// line to its end: bin/gitlab-api-conformance.js adds them before it loads anything, they keep the
// first signal that comes while the command loads, and from takeSignals on they pass every signal to
// the run (cli/cli.ts). Nothing removes them: a signal whose last listener goes has its default
// action again, which ends the process, until a listener is added.
//
// Nor does the process end by its event loop running dry: Node then closes its handles, the signal
// watchers among them, and stops its threads before the process is gone (0.1 to 0.3 s of a run, more
// under load); a signal in that time killed a run that had written its reports (exit null, signal
// SIGTERM, instead of 2). It ends by process.exit() once its loop is empty, which keeps them to the end.
//
// vitest's logger, made with each Vitest instance, adds SIGINT and SIGTERM handlers that exit the
// process a moment later (vitest's cli-api chunk, Logger.addCleanupListeners): a run would then die
// without its clean-up and reports. The instances the command makes are made without them.

/** Set up the same way by bin/gitlab-api-conformance.js, which runs before any of the TypeScript. */
const SIGNAL_ROUTE = Symbol.for('gitlab-api-conformance:signal-route');

interface SignalRoute {
  /** The first signal that came before a handler was given. */
  early?: NodeJS.Signals;
  handler?: (signal: NodeJS.Signals) => void;
}

/** The process's route for its signals: the bin's, or (the command started otherwise) set up here. */
function signalRoute(): SignalRoute {
  const global = globalThis as { [SIGNAL_ROUTE]?: SignalRoute };
  if (global[SIGNAL_ROUTE]) return global[SIGNAL_ROUTE];
  const route: SignalRoute = {};
  global[SIGNAL_ROUTE] = route;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, (s: NodeJS.Signals) => (route.handler ? route.handler(s) : (route.early ??= s)));
  // First, to see what the other listeners add (a flush, a last write): the process ends once that is done too.
  process.prependListener('beforeExit', () => {
    const active = process.getActiveResourcesInfo().length;
    queueMicrotask(() => {
      if (process.getActiveResourcesInfo().length <= active) process.exit();
    });
  });
  return route;
}

/** From now to the end of the process, its SIGINT, SIGTERM and SIGHUP go to `handler`; returns the first that came before, if one did. */
export function takeSignals(handler: (signal: NodeJS.Signals) => void): NodeJS.Signals | undefined {
  const route = signalRoute();
  route.handler = handler;
  return route.early;
}

const VITEST_SIGNALS = new Set<string | symbol>(['SIGINT', 'SIGTERM']);

/** `make()`, during which no SIGINT or SIGTERM handler is added with `process.once`. */
export async function withoutVitestSignalHandlers<T>(make: () => Promise<T>): Promise<T> {
  const once = process.once;
  process.once = function (this: NodeJS.Process, event: string | symbol, listener: (...args: unknown[]) => void) {
    return VITEST_SIGNALS.has(event) ? this : once.call(this, event, listener);
  } as typeof process.once;
  try {
    return await make();
  } finally {
    process.once = once;
  }
}
