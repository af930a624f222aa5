// The run of this test worker: handed over by the global setup through vitest's provide/inject, or,
// with CONFORMANCE_SERVER=in-worker, made here with a reference server of its own (mutation testing
// needs the server's code to run in the thread where the mutant is switched on).
import { inject } from 'vitest';
import { registerRunSecrets, type RunContext } from './context.js';

let cached: RunContext | undefined;
let making: Promise<RunContext> | undefined;

/** The run; awaited by every file's world and every test. */
export async function ensureRunContext(): Promise<RunContext> {
  if (cached) return cached;
  if (process.env.CONFORMANCE_SERVER === 'in-worker') {
    making ??= import('./lifecycle.js').then(({ createRun }) => createRun({ unrefServer: true })).then(({ run }) => run);
    cached = await making;
  } else {
    cached = inject('conformance');
    // Made in the main process: this worker learns the run's tokens here, to mask them in what it reports.
    registerRunSecrets(cached);
  }
  return cached;
}
