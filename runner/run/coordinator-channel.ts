// How the run's coordinator is reached, by its services' calls (`lending.lease`, typed by the
// services themselves, coordinator.ts): from the worker threads of the process that made the run,
// and from its reporter and watchdog (which may run in another module graph than the one that made
// the run), through a BroadcastChannel named after the run; or directly, from the thread that made it.
import { BroadcastChannel, threadId } from 'node:worker_threads';
import { SERVICES, type CallName, type Coordinator, type CoordinatorClient, type ServiceName } from './coordinator.js';

const channelName = (runId: string) => `gitlab-api-conformance-${runId}`;

/** Serves the coordinator to the run's workers; returns the function that stops serving. */
export function serve(coordinator: Coordinator, runId: string): () => void {
  const channel = new BroadcastChannel(channelName(runId));
  channel.unref();
  channel.onmessage = (event) => {
    const { id, call, args } = (event as MessageEvent).data as { id?: string; call?: string; args?: unknown[] };
    if (id === undefined || call === undefined) return;
    void (async () => {
      try {
        channel.postMessage({ re: id, result: await invoke(coordinator, call, args ?? []) });
      } catch (error) {
        channel.postMessage({ re: id, error: (error as Error).message });
      }
    })();
  };
  return () => channel.close();
}

/** Calls a service's method by its call name; a name that is no service's call is refused. */
function invoke(coordinator: Coordinator, call: string, args: unknown[]): unknown {
  const [service, method] = call.split('.') as [string, string | undefined];
  const target = (SERVICES as readonly string[]).includes(service) ? (coordinator[service as ServiceName] as unknown as Record<string, unknown>) : undefined;
  const fn = method === undefined || method === 'constructor' ? undefined : target?.[method];
  if (typeof fn !== 'function') throw new Error(`no such call: ${call}`);
  return (fn as (...a: unknown[]) => unknown).apply(target, args);
}

/** A client whose every call goes through `call`: each service a proxy that names the call `service.method`. */
function clientOf(call: (name: CallName, args: unknown[]) => Promise<unknown>): CoordinatorClient {
  const service = (name: ServiceName) => new Proxy({}, { get: (_, method: string) => (...args: unknown[]) => call(`${name}.${method}` as CallName, args) });
  return Object.fromEntries(SERVICES.map((name) => [name, service(name)])) as unknown as CoordinatorClient;
}

/** The coordinator of a run made in this very thread. */
export function local(coordinator: Coordinator): CoordinatorClient {
  return clientOf(async (name, args) => invoke(coordinator, name, args));
}

/** This thread's channel to the coordinator of the run it last joined. */
let joined: BroadcastChannel | undefined;
/** Calls of this thread, numbered across its channels: every channel of the run hears every answer. */
let calls = 0;

/** The coordinator of a run made in another thread of this process (the channel to a run joined before is closed). */
export function connect(runId: string): CoordinatorClient {
  joined?.close();
  joined = new BroadcastChannel(channelName(runId));
  joined.unref();
  return client(joined);
}

/** How long the reporter and the watchdog wait for an answer: the coordinator answers them at once, unless it is gone. */
export const REACH_ANSWER_MS = 10_000;

/**
 * The coordinator of a run made in this process, on a channel of the caller's own, which `close`
 * ends: open until then, it keeps the process alive for the answers. A call not answered within
 * `answerMs` fails (a run whose coordinator is gone must still end and write its reports).
 */
export function reach(runId: string, answerMs = REACH_ANSWER_MS): { coordinator: CoordinatorClient; close: () => void } {
  const channel = new BroadcastChannel(channelName(runId));
  return { coordinator: client(channel, answerMs), close: () => channel.close() };
}

/** Calls by name over `channel`; with `answerMs`, each fails when no answer comes within it (workers' calls wait as long as a lease takes). */
function client(channel: BroadcastChannel, answerMs?: number): CoordinatorClient {
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  channel.onmessage = (event) => {
    const { re, result, error } = (event as MessageEvent).data as { re?: string; result?: unknown; error?: string };
    const call = re === undefined ? undefined : pending.get(re);
    if (!call) return;
    pending.delete(re!);
    if (error !== undefined) call.reject(new Error(`the run's coordinator: ${error}`));
    else call.resolve(result);
  };
  return clientOf(
    (call, args) =>
      new Promise((resolve, reject) => {
        const id = `${threadId}:${++calls}`;
        const timer =
          answerMs === undefined
            ? undefined
            : setTimeout(() => {
                pending.delete(id);
                reject(new Error(`the run's coordinator did not answer ${call} within ${answerMs / 1000} s`));
              }, answerMs);
        pending.set(id, {
          resolve: (v) => (clearTimeout(timer), resolve(v)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
        channel.postMessage({ id, call, args });
      }),
  );
}
