// The tests an interrupted run did not get to: vitest declares a file's tests only when a worker loads
// the file, so a run cut short knows nothing of the files it had not started (whole areas could be
// missing from its tables and its totals). Here those files are loaded again without a run (as
// `list` does: no target, no global setup), so that every selected test is in the reports, `not-run`.
import type { TestModule, Vitest } from 'vitest/node';
import { CATALOG } from '../suites/areas.js';
import type { TestMeta } from '../runner/run/conformance.js';
import { conformanceProjects, type Config } from '../runner/run/config.js';
import type { UnloadedTest } from '../runner/report/reporter.js';
import { withoutVitestSignalHandlers } from './own-signals.js';
import type { Home } from './home.js';

/**
 * What every vitest of the conformance projects is made with: this process runs its compiled copy,
 * or its sources under tsx, so the config and the modules it imports load as they are (the copy's
 * config with the copy), not bundled again by vite.
 */
export const conformanceVitest = (home: Home) =>
  ({ root: home.root, config: home.vitestConfig, configLoader: 'native', mode: 'cli', project: conformanceProjects(CATALOG), watch: false }) as const;

/**
 * A vitest that only collects the conformance tests (no target, no global setup's run), as `list`
 * and an interrupted run's listing use it; without vitest's signal handlers, which exit the process.
 */
export async function collectingVitest(home: Home, config: Config): Promise<Vitest> {
  const { createVitest } = await import('vitest/node');
  return withoutVitestSignalHandlers(() =>
    createVitest('test', {
      ...conformanceVitest(home),
      reporters: [],
      provide: { conformanceSettings: { ...config, targetUrl: undefined }, conformanceCollectOnly: true },
    }),
  );
}

/**
 * The conformance test files of `filters` (a shard's are its files) that none of `loaded` declared a test of, their tests collected.
 * `unstarted`: the run's own vitest, when its run never started: its global setup is told to make
 * nothing (`conformanceCollectOnly`) and it collects the files itself, instead of a second instance.
 */
export async function unloadedTests(home: Home, config: Config, loaded: ReadonlyArray<TestModule>, options: { filters: string[]; grep?: string; unstarted?: Vitest }): Promise<UnloadedTest[]> {
  const seen = new Set(loaded.filter((m) => [...m.children.allTests()].length > 0).map((m) => `${m.project.name}\0${m.moduleId}`));
  if (options.unstarted) for (const project of options.unstarted.projects) project.provide('conformanceCollectOnly', true);
  const collector = options.unstarted ?? (await collectingVitest(home, config));
  const pattern = options.grep === undefined ? undefined : new RegExp(options.grep);
  const out: UnloadedTest[] = [];
  try {
    const all = await collector.globTestSpecifications(options.filters);
    const specs = all.filter((s) => !seen.has(`${s.project.name}\0${s.moduleId}`));
    if (specs.length === 0) return [];
    const { testModules } = await collector.collectTests(specs);
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const meta = test.meta().conformance as TestMeta | undefined;
        if (!meta) continue;
        const notSelected =
          config.endpoints.length > 0 && !config.endpoints.includes(meta.endpoint) ? `endpoint ${meta.endpoint} is not selected (CONFORMANCE_ENDPOINTS)`
          : pattern && !pattern.test(`${meta.id}: ${meta.title}`) ? 'not selected (--grep or shard)'
          : undefined;
        out.push({ meta, file: module.relativeModuleId, ...(notSelected ? { notSelected } : {}) });
      }
    }
  } finally {
    if (!options.unstarted) await collector.close();
  }
  return out;
}
