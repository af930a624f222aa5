// A vitest pool whose worker threads outlive their runners, for the command (cli/cli.ts), the
// seeded-fault check (cli/fault-check.ts) and the mutation run (vitest.mutation.config.ts). vitest 4
// ends a runner's thread when the runner is done (a runner is kept only for a task of its own project already queued), so the setting phases, each a
// project of its own that runs after the others (vitest.config.ts), started threads of their own and
// loaded vitest and the suite into them again (about 0.8 s of CPU a thread, four in a whole run), and
// each of the fault check's ~300 runs did so for every project. Here a thread that a runner is done
// with waits for the next runner, of any project, until the pool is closed: the start and stop vitest
// asks of a runner are answered here, as a thread already started, or passed on when the thread was
// last started for another project or configuration (the runtime then takes the new one: the
// project's name and serialized config come with the start). A runner's test files are loaded anew
// (vitest invalidates the files it runs); the modules they import stay loaded, as between the files of one
// run (isolate: false), and the runner's state follows the run it is handed (runner/run/current-run.ts).
// A fault-check run's test-name filter goes on its specifications (TestSpecification's
// testNamePattern), so its runs share one configuration; StrykerJS sets its filter on the project's
// configuration, so each of its runs starts the runtime again, in the same thread.
import { ThreadsPoolWorker, type PoolOptions, type PoolRunnerInitializer, type PoolWorker, type WorkerRequest } from 'vitest/node';

type Listener = (arg: unknown) => void;

interface Thread {
  worker: ThreadsPoolWorker;
  /**
   * The project and configuration its runtime last answered a start for without error: later starts
   * with the same are answered here.
   */
  startedFor: string | undefined;
  /** Those of the start passed on and not yet answered. */
  starting: string | undefined;
  /** A runner holds it. */
  busy: boolean;
  /** The runners it has served. */
  runners: number;
  /** Its runner was answered its stop and is about to let it go: settled when it has. */
  releasing: { done: Promise<void>; settle: () => void } | undefined;
}

export interface KeptThreads extends PoolRunnerInitializer {
  /**
   * From now on a runner's stop ends its thread, as vitest's own pool does: after an interruption,
   * so that no test goes on against the target while the run is cleaned up.
   */
  endWithRunners(): void;
  /** Ends the threads (after vitest.close(), which ends only the runners). */
  close(): Promise<void>;
}

/** `runnersPerThread`: a thread serves at most this many runners, then ends (what a run may leave in it is then bounded). */
export function keptThreads(options: { runnersPerThread?: number } = {}): KeptThreads {
  const threads: Thread[] = [];
  const state = { ending: false, runnersPerThread: options.runnersPerThread ?? Infinity };
  return {
    name: 'kept-threads',
    createPoolWorker: (poolOptions) => new KeptThread(poolOptions, threads, state),
    endWithRunners() {
      state.ending = true;
    },
    async close() {
      const all = threads.splice(0);
      await Promise.all(all.map((t) => t.worker.stop()));
    },
  };
}

/**
 * What a start hands the thread's runtime: the project and its configuration, which a caller may
 * change between runs (StrykerJS sets a run's test-name filter on it, a RegExp, which JSON would write as `{}`).
 */
const startKey = (project: string, config: unknown) => `${project}\n${JSON.stringify(config, (_, value: unknown) => (value instanceof RegExp ? String(value) : value))}`;

/** One runner's view of a thread: the listeners it adds are taken off again when the runner stops it. */
class KeptThread implements PoolWorker {
  readonly name = 'kept-threads';
  private thread: Thread | undefined;
  private listeners: [string, Listener][] = [];

  constructor(
    private readonly options: PoolOptions,
    private readonly threads: Thread[],
    private readonly state: { ending: boolean; runnersPerThread: number },
  ) {}

  async start(): Promise<void> {
    const key = startKey(this.options.project.name, this.options.project.serializedConfig);
    // vitest starts the next runner before the last one has let its thread go: wait for that one
    // rather than start a thread more.
    const releasing = this.threads.flatMap((t) => (t.releasing ? [t.releasing.done] : []));
    if (this.threads.every((t) => t.busy) && releasing.length > 0) await Promise.race(releasing);
    const free = this.threads.filter((t) => !t.busy);
    let thread = free.find((t) => t.startedFor === key) ?? free[0];
    if (!thread) {
      const made: Thread = { worker: new ThreadsPoolWorker(this.options), startedFor: undefined, starting: undefined, busy: false, runners: 0, releasing: undefined };
      await made.worker.start();
      made.worker.on('message', (message: { __vitest_worker_response__?: boolean; type?: string; error?: unknown }) => {
        if (!message?.__vitest_worker_response__ || message.type !== 'started') return;
        made.startedFor = message.error === undefined ? made.starting : undefined;
        made.starting = undefined;
      });
      // A thread that died is started anew by a later runner.
      made.worker.on('exit', () => {
        const i = this.threads.indexOf(made);
        if (i >= 0) this.threads.splice(i, 1);
      });
      this.threads.push(made);
      thread = made;
    }
    thread.busy = true;
    thread.runners++;
    this.thread = thread;
  }

  async stop(): Promise<void> {
    const thread = this.thread;
    for (const [event, listener] of this.listeners) thread?.worker.off(event, listener);
    this.listeners = [];
    if (!thread) return;
    thread.busy = false;
    thread.releasing?.settle();
    thread.releasing = undefined;
    if (this.ends(thread)) {
      const i = this.threads.indexOf(thread);
      if (i >= 0) this.threads.splice(i, 1);
      await thread.worker.stop();
    }
  }

  on(event: string, listener: Listener): void {
    this.listeners.push([event, listener]);
    this.current().worker.on(event, listener);
  }

  off(event: string, listener: Listener): void {
    this.listeners = this.listeners.filter(([e, l]) => e !== event || l !== listener);
    this.current().worker.off(event, listener);
  }

  send(message: WorkerRequest): void {
    const thread = this.current();
    const key = message.type === 'start' ? startKey(this.options.project.name, message.context.config) : undefined;
    if (message.type === 'start' && thread.startedFor === key) return this.answer('started');
    if (message.type === 'start') thread.starting = key;
    if (message.type === 'stop' && !this.ends(thread)) {
      if (!thread.releasing) {
        let settle = () => {};
        const done = new Promise<void>((resolve) => (settle = resolve));
        thread.releasing = { done, settle };
      }
      return this.answer('stopped');
    }
    thread.worker.send(message);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  /** Whether the thread ends with its runner: after an interruption, or when it has served its share. */
  private ends(thread: Thread): boolean {
    return this.state.ending || thread.runners >= this.state.runnersPerThread;
  }

  /** Answers the runner as the thread's runtime would. */
  private answer(type: 'started' | 'stopped'): void {
    const response = { __vitest_worker_response__: true, type };
    const listeners = this.listeners.filter(([event]) => event === 'message').map(([, listener]) => listener);
    queueMicrotask(() => {
      for (const listener of listeners) listener(response);
    });
  }

  private current(): Thread {
    if (!this.thread) throw new Error('kept-threads: the worker was not started');
    return this.thread;
  }
}
