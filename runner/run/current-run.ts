// The run of this test worker: its context, handed over by the global setup through vitest's
// provide/inject, and a client of its coordinator (coordinator-channel.ts). With CONFORMANCE_SERVER=in-worker
// the run is made here, with a reference server of its own (mutation testing needs the server's code
// to run in the thread where the mutant is switched on), and its coordinator is this thread's.
import { inject } from 'vitest';
import type { Catalog } from '../core/area.js';
import { bindInFlight } from '../core/in-flight.js';
import { registerRunSecrets } from './context.js';
import { connect, local } from './coordinator-channel.js';
import type { Run } from './frame.js';

/** The worker's run; an in-worker run's `abandon` ends it and its server once it is made. */
interface Making {
  runId?: string;
  run: Promise<Run>;
  abandon?: () => Promise<void>;
}
let making: Making | undefined;

/**
 * The run; awaited by every test before it starts. A worker that outlives a run (the seeded-fault
 * check hands each of its runs of the suite a new one, through the same workers) joins the new one.
 * `catalog`: the registered areas, for a run made in the worker (the first call makes it).
 */
export function currentRun(catalog?: Catalog): Promise<Run> {
  if (process.env.CONFORMANCE_SERVER === 'in-worker') {
    if (!making) {
      const made: Partial<Making> = {};
      made.run = (async () => {
        const { createRun } = await import('./lifecycle.js');
        const { run, coordinator, abandon } = await createRun({ unrefServer: true, catalog });
        made.abandon = abandon;
        bindInFlight(coordinator.tallies.inFlight());
        return { context: run, coordinator: local(coordinator) };
      })();
      making = made as Making;
    }
    return making.run;
  }
  const context = inject('conformance');
  if (making?.runId !== context.runId) {
    making = {
      runId: context.runId,
      run: (async () => {
        // Made in the main process: this worker learns the run's tokens here, to mask them in what it reports.
        registerRunSecrets(context);
        const coordinator = connect(context.runId);
        bindInFlight(await coordinator.tallies.inFlight());
        return { context, coordinator };
      })(),
    };
  }
  return making.run;
}

/**
 * With CONFORMANCE_SERVER=in-worker: a new run, with a new reference server, for the test file about
 * to start; the last file's run and server are dropped, not cleaned up. A mutation run's thread
 * serves one test file after another (bench/mutation-setup.ts), and each file meets a server no
 * earlier file, or mutant, has touched.
 */
export async function freshInWorkerRun(catalog: Catalog): Promise<Run> {
  await endInWorkerRun();
  return currentRun(catalog);
}

/**
 * Drops this worker's in-worker run, made by freshInWorkerRun: its server stops and its ledger goes
 * (nothing on the server is removed: the server goes with the run). Called when the file it was made
 * for ends, so that the last file of a thread leaves no ledger behind either.
 */
export async function endInWorkerRun(): Promise<void> {
  const last = making;
  making = undefined;
  await last?.abandon?.();
}
