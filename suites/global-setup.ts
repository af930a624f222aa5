// vitest global setup of the conformance projects: makes the run (runner/run/lifecycle.ts) once and
// hands it to the test files; the teardown removes what the run created and stops the bundled server.
import type { TestProject } from 'vitest/node';
import type { RunContext } from '../runner/run/context.js';
import type { RunMaker } from '../runner/run/lifecycle.js';

/**
 * Every conformance project (the main one and each setting phase that runs after it, vitest.config.ts)
 * uses this setup; they share one run: one server, one set of actors, one ledger, torn down by the last.
 */
interface SharedRun {
  run: Promise<{ run: RunContext; teardown: () => Promise<unknown> }>;
  users: number;
}
/** The maker a command handed in (offerRunMaker, lifecycle.ts); else the run's modules are imported here, through vite. */
const shared = globalThis as { conformanceRun?: SharedRun; conformanceRunMaker?: RunMaker };

const importedMaker = async (): Promise<RunMaker> => {
  const [{ CATALOG }, { runMaker }] = await Promise.all([import('./areas.js'), import('../runner/run/lifecycle.js')]);
  return runMaker(CATALOG);
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Collecting the tests (`list`) declares them without a run: no server, no actors, nothing to remove.
  if (project.getProvidedContext().conformanceCollectOnly) return async () => {};
  // Imported only by the setup that makes the run: each project loads its setup through its own
  // module graph, and the second would load the reference server and the areas again for nothing.
  shared.conformanceRun ??= {
    run: (shared.conformanceRunMaker ? Promise.resolve(shared.conformanceRunMaker) : importedMaker()).then((make) => make(project.getProvidedContext().conformanceSettings)),
    users: 0,
  };
  const current = shared.conformanceRun;
  current.users++;
  const { run, teardown } = await current.run.catch((error: unknown) => {
    shared.conformanceRun = undefined;
    throw error;
  });
  project.provide('conformance', run);
  return async () => {
    if (--current.users > 0) return;
    shared.conformanceRun = undefined;
    await teardown();
  };
}
