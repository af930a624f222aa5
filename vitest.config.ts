// Two projects: `unit` (the suite's own tests: schemas, harness, reference server; *.spec.ts) and
// `conformance` (the conformance suite, suites/<area>/*.test.ts, run against a target).
// Conformance files share workers (isolate: false): they only talk HTTP and each builds its own
// world, so the ~0.3 s per-file isolation cost (shared/MEASUREMENTS.md) buys nothing there.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { CATALOG } from './suites/areas.js';
import { runSettings, TEST_TIMEOUT_MS, TESTS_PER_FILE } from './runner/run/config.js';
import { NameOrder } from './runner/run/name-order.js';
import { ConformanceReporter } from './runner/report/reporter.js';
import { phaseProject, type SettingValue } from './runner/core/instance-setting.js';
import { PlainSummaryReporter } from './runner/report/plain-summary-reporter.js';

/**
 * The longest specs first (the seeded-fault check alone takes minutes), so that the two workers of
 * `npm test` end together: vitest orders files by their last durations, which a fresh clone lacks.
 * Not strictly by duration: with the recordings and the `--vary` runs put earlier, beside the CLI
 * spec, a fresh clone's npm test took 446 s against 406 s in this order (one run each, 2026-11-28;
 * those specs' own durations moved by up to a factor of two with what ran beside them).
 */
const LONGEST_FIRST = ['cli/fault-check.spec.ts', 'cli/interrupts-run.spec.ts', 'cli/fifth-area-run.spec.ts', 'cli/cli.spec.ts', 'cli/profiles-run.spec.ts', 'cli/package.spec.ts', 'cli/without-run.spec.ts', 'cli/vary-run.spec.ts', 'cli/record-run.spec.ts', 'cli/spec-only-run.spec.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

/** The conformance suite's test files: those of every area (the mutation run takes them too, vitest.mutation.config.ts). */
export const CONFORMANCE_FILES = 'suites/*/**/*.test.ts';
export const EXCLUSIVE_FILES = 'suites/*/**/*.exclusive.test.ts';
/** A fixture's build may make users, groups and projects on a slow target. */
export const HOOK_TIMEOUT_MS = 120_000;

/**
 * vitest's module cache on disk (experimental.fsModuleCache, below) for the conformance projects: a
 * command no longer transforms the suite's ~230 modules anew for its workers (about 1.5 of a small
 * run's 6.7 s of CPU). Not for the modules the command's own process loads through vite (the global
 * setup's, environment `__vitest__`): vitest 4.1 hands those back from the cache as a Buffer, and
 * vite's stack-trace source maps then throw on the first error whose stack passes through them
 * (`code.charCodeAt is not a function`, ServerModuleRunner in vitest's cli-api chunk).
 */
const moduleCacheInWorkersOnly: Plugin = {
  name: 'conformance:module-cache-in-workers-only',
  configureVitest({ experimental_defineCacheKeyGenerator }) {
    experimental_defineCacheKeyGenerator(({ environment }) => (environment.name === '__vitest__' ? false : undefined));
  },
};

/** The cache's folder, in the package's own tree; none (no cache) where that cannot be written, as in a read-only global install. */
function moduleCacheDir(): string | undefined {
  const dir = fileURLToPath(new URL('./node_modules/.vitest-module-cache', import.meta.url));
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return dir;
  } catch {
    return undefined;
  }
}
const MODULE_CACHE_DIR = moduleCacheDir();

/**
 * A conformance project: its files under the one global setup that makes the run, sharing workers
 * (isolate: false), the tests of a file at once (the wrapper marks them concurrent unless the run is
 * sequential: they share only fixtures made for sharing, fixture.ts).
 */
const conformanceProject = (name: string, files: { include: string; exclude?: string }, more: { sequence?: { groupOrder: number }; provide?: { conformancePhase: SettingValue } } = {}) => ({
  plugins: [moduleCacheInWorkersOnly],
  test: {
    name,
    include: [files.include],
    ...(files.exclude ? { exclude: [files.exclude] } : {}),
    globalSetup: ['suites/global-setup.ts'],
    pool: 'threads' as const,
    isolate: false,
    maxConcurrency: TESTS_PER_FILE,
    ...more,
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: HOOK_TIMEOUT_MS,
  },
});

/** Specs that run the command as a user does (whole runs, packed tarballs, real clients): `npm test` only. */
const WHOLE_RUN = ['cli/*-run.spec.ts', 'cli/{cli,sweep-safety,fault-check,package}.spec.ts', 'reference-server/clients/**/*.spec.ts', 'reference-server/lifetime.spec.ts'];

// Mode `cli`: the command (cli/) parsed the settings from its flags and the environment
// and hands them in itself (workers, provide, sequencer, reporters). Otherwise (`vitest run`, npm test)
// the settings come from the environment and `.env`, parsed here once for the workers, the global
// setup and the reporters.
export default defineConfig(({ mode }) => {
  const settings = mode === 'cli' ? undefined : runSettings(CATALOG);
  return {
    test: {
      // Conformance tests wait on the target far more than they compute: the number of files at once
      // follows the target, not the cores (CONFORMANCE_CONCURRENCY; runner/run/config.ts).
      ...(settings ? {
        maxWorkers: settings.sequential ? 1 : settings.concurrency,
        provide: { conformanceSettings: settings },
        sequence: { sequencer: settings.sequential ? NameOrder : LongestFirst },
        reporters: ['default', new ConformanceReporter(CATALOG, settings), new PlainSummaryReporter()],
      } : {}),
      // A setting's phase loads every *.exclusive.test.ts file but declares only the tests that need
      // its value: a file with none for that value is no error (vitest's option is root-wide only).
      passWithNoTests: true,
      // Every project inherits it; the conformance projects' plugin keeps the command's own modules out.
      ...(MODULE_CACHE_DIR ? { experimental: { fsModuleCache: true, fsModuleCachePath: MODULE_CACHE_DIR } } : {}),
      projects: [
        {
          // The suite's own specs that start no whole run: `npm run test:fast`.
          test: {
            name: 'unit',
            include: ['{schemas,fixtures,reference-server,runner,cli,suites,bench}/**/*.spec.ts', 'docs/examples/**/*.spec.ts'],
            exclude: WHOLE_RUN,
            // The examples import the package's library entry, as its users do: here, its sources.
            alias: { 'gitlab-api-conformance/reference-server': new URL('./reference-server/index.ts', import.meta.url).pathname },
            // The files share their threads' modules, as the conformance files do: each loading the
            // reference server and the runner anew cost 74 s of CPU against 46 s (40.7 → 26.3 s wall,
            // 2026-11-29; 355 tests, the same passes in three runs with the files shuffled). A spec that
            // changes a module's state puts it back (in-flight.spec.ts's bound, area-registration's environment).
            isolate: false,
            testTimeout: 60_000,
          },
        },
        {
          // The specs that run the real command against reference servers, or drive real clients.
          test: {
            name: 'whole-run',
            include: WHOLE_RUN,
            // As the unit specs: the project alone 297 → 267 s wall, 568 → 513 s of CPU (2026-11-29, one run each).
            isolate: false,
            testTimeout: 60_000,
          },
        },
        conformanceProject('conformance', { include: CONFORMANCE_FILES, exclude: EXCLUSIVE_FILES }),
        // Tests that need an instance setting at a value (requires.setting) live in *.exclusive.test.ts
        // files and run in phases after the rest, one phase per value, one after another: each phase
        // loads those files and runs the tests that need its value (runner/core/instance-setting.ts).
        ...CATALOG.settingPhases.map((phase, i) => conformanceProject(phaseProject(phase), { include: EXCLUSIVE_FILES }, { sequence: { groupOrder: i + 1 }, provide: { conformancePhase: phase } })),
      ],
    },
  };
});
