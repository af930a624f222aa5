// vitest global setup of the conformance projects: makes the run (runner/run/lifecycle.ts) once and
// hands it to the test files; the teardown removes what the run created and stops the bundled server.
// A command (cli/) makes the run itself and provides it: the setup then makes none.
import type { TestProject } from 'vitest/node';
import type { RunContext } from '../runner/run/context.js';

/**
 * Every conformance project (the main one and each setting phase that runs after it, vitest.config.ts)
 * uses this setup; they share one run: one server, one set of actors, one ledger, torn down by the last.
 */
interface SharedRun {
  run: Promise<{ run: RunContext; teardown: () => Promise<unknown> }>;
  users: number;
}
const shared = globalThis as { conformanceRun?: SharedRun };

const makeRun = async (project: TestProject): Promise<{ run: RunContext; teardown: () => Promise<unknown> }> => {
  const [{ CATALOG }, { createRun }] = await Promise.all([import('./areas.js'), import('../runner/run/lifecycle.js')]);
  return createRun({ catalog: CATALOG, config: project.getProvidedContext().conformanceSettings });
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Collecting the tests (`list`) declares them without a run: no server, no actors, nothing to remove.
  if (project.getProvidedContext().conformanceCollectOnly) return async () => {};
  // The command made the run and handed it in: it cleans it up too.
  if (project.getProvidedContext().conformance !== undefined) return async () => {};
  // Imported only by the setup that makes the run: each project loads its setup through its own
  // module graph, and the second would load the reference server and the areas again for nothing.
  shared.conformanceRun ??= {
    run: makeRun(project),
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
