// The conformance suite as StrykerJS runs it (`npm run mutation`): the suite's files in one project,
// and those of the tests that need an instance setting at a value in a project per value (as in
// npm test); every file starts its own reference server inside the test worker (CONFORMANCE_SERVER=in-worker), so that
// the mutated server code runs in the thread where Stryker switches mutants on. The reference server
// is GitLab-shaped in its details too, so the suite runs at the parity level here: a mutant that
// changes a message text or the order of checks is caught by the parity assertions, which the
// default spec level reports without failing.
// The tests of a file run one after another here (a sequential run, as the wrapper reads it):
// Stryker's perTest coverage notes which tests reach a mutant between the start and the end of each
// test, so tests that overlap would mix what they reach, and a mutant could then be tried only on
// tests that do not kill it.
// One thread serves RUNS_PER_THREAD of the runs Stryker asks of its runner process (one per mutant):
// vitest 4 ends a run's threads with the run, and a new thread loaded vitest, the suite and the
// server's modules again for every file of every mutant (about 0.8 s each). The modules stay loaded
// (isolate: false); each file still gets a reference server and a run of its own
// (bench/mutation-setup.ts). Then the thread ends, with whatever the mutants it served left running
// in it.
import { defineConfig, type Plugin } from 'vitest/config';
import { keptThreads } from './cli/kept-threads.js';
import { CATALOG } from './suites/areas.js';
import { loadConfig } from './runner/run/config.js';
import { CONFORMANCE_FILES, EXCLUSIVE_FILES, HOOK_TIMEOUT_MS } from './vitest.config.js';
import { phaseProject, type SettingValue } from './runner/core/instance-setting.js';

const RUNS_PER_THREAD = 50;

/** Stryker's runner asks vitest for its `threads` pool; this puts the kept threads in its place once the configuration is resolved. */
const threadsKeptAcrossRuns: Plugin = {
  name: 'conformance:threads-kept-across-runs',
  configureVitest({ vitest, project }) {
    const pool = keptThreads({ runnersPerThread: RUNS_PER_THREAD });
    Object.assign(project.config, { pool: pool.name, poolRunner: pool });
    vitest.onClose(() => pool.close());
  },
};

/** What every project of the mutation run shares: the in-worker runs, at the parity level, one test at a time. */
const mutationProject = (name: string, files: { include: string; exclude?: string }, phase?: SettingValue) => ({
  extends: true as const,
  test: {
    name,
    include: [files.include],
    ...(files.exclude ? { exclude: [files.exclude] } : {}),
    setupFiles: ['bench/mutation-setup.ts'],
    isolate: false,
    env: { CONFORMANCE_SERVER: 'in-worker', CONFORMANCE_LEVEL: 'parity', CONFORMANCE_REPORT_DIR: 'reports/mutation-run' },
    provide: { conformanceSettings: { ...loadConfig(process.env, '.env', CATALOG), sequential: true }, ...(phase ? { conformancePhase: phase } : {}) },
    testTimeout: 60_000,
    hookTimeout: HOOK_TIMEOUT_MS,
  },
});

export default defineConfig({
  plugins: [threadsKeptAcrossRuns],
  test: {
    // The tests that need an instance setting at a value run in a project per value, as in npm test
    // (vitest.config.ts); each file has its reference server, so the phases need no order here.
    projects: [
      mutationProject('mutation', { include: CONFORMANCE_FILES, exclude: EXCLUSIVE_FILES }),
      ...CATALOG.settingPhases.map((phase) => mutationProject(`mutation-${phaseProject(phase)}`, { include: EXCLUSIVE_FILES }, phase)),
    ],
  },
});
