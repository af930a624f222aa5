// A vitest pool whose worker threads outlive a run, for the seeded-fault check (cli/fault-check.ts).
// vitest 4 ends a run's workers with the run (a runner is kept only for a task already queued), so
// each of the check's ~300 runs of the suite would start a thread and load vitest and the suite into
// it again: about 1 s of CPU a run, most of a run's cost. Here one thread per project serves every
// run: it is started once, and the start and stop that vitest asks of each run's runner are answered
// here, as a thread already started. Each run's test files are loaded anew (vitest invalidates the
// files it runs); the modules they import stay loaded, as between the files of one run (isolate:
// false), and the runner's state follows the run it is handed (runner/run/current-run.ts).
// The thread keeps the configuration of its first start: a run's test-name filter goes on its
// specifications (TestSpecification's testNamePattern), not on the configuration.
import { ThreadsPoolWorker, type PoolOptions, type PoolRunnerInitializer, type PoolWorker, type WorkerRequest } from 'vitest/node';

type Listener = (arg: unknown) => void;

interface Thread {
  worker: ThreadsPoolWorker;
  /** Its runtime answered the first start without error: later starts are answered here. */
  ready: boolean;
}

export interface KeptThreads extends PoolRunnerInitializer {
  /** Ends the threads (after vitest.close(), which ends only the runners). */
  close(): Promise<void>;
}

export function keptThreads(): KeptThreads {
  const threads = new Map<string, Thread>();
  return {
    name: 'kept-threads',
    createPoolWorker: (options) => new KeptThread(options, threads),
    async close() {
      const all = [...threads.values()];
      threads.clear();
      await Promise.all(all.map((t) => t.worker.stop()));
    },
  };
}

/** One run's view of its project's thread: the listeners it adds are taken off again when the run stops it. */
class KeptThread implements PoolWorker {
  readonly name = 'kept-threads';
  private thread: Thread | undefined;
  private listeners: [string, Listener][] = [];

  constructor(
    private readonly options: PoolOptions,
    private readonly threads: Map<string, Thread>,
  ) {}

  async start(): Promise<void> {
    const key = this.options.project.name;
    let thread = this.threads.get(key);
    if (!thread) {
      const made: Thread = { worker: new ThreadsPoolWorker(this.options), ready: false };
      await made.worker.start();
      made.worker.on('message', (message: { __vitest_worker_response__?: boolean; type?: string; error?: unknown }) => {
        if (message?.__vitest_worker_response__ && message.type === 'started') made.ready = message.error === undefined;
      });
      // A thread that died is started anew by the next run.
      made.worker.on('exit', () => {
        if (this.threads.get(key) === made) this.threads.delete(key);
      });
      this.threads.set(key, made);
      thread = made;
    }
    this.thread = thread;
  }

  async stop(): Promise<void> {
    for (const [event, listener] of this.listeners) this.thread?.worker.off(event, listener);
    this.listeners = [];
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
    if (message.type === 'start' && thread.ready) return this.answer('started');
    if (message.type === 'stop') return this.answer('stopped');
    thread.worker.send(message);
  }

  deserialize(data: unknown): unknown {
    return data;
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
