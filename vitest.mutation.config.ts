// The conformance suite as StrykerJS runs it (`npm run mutation`): one flat project whose test files
// each start their own reference server inside the test worker (CONFORMANCE_SERVER=in-worker), so that
// the mutated server code runs in the thread where Stryker switches mutants on. The reference server
// is GitLab-shaped in its details too, so the suite runs at the parity level here: a mutant that
// changes a message text or the order of checks is caught by the parity assertions, which the
// default spec level reports without failing.
// The tests of a file run one after another here (a sequential run, as the wrapper reads it):
// Stryker's perTest coverage notes which tests reach a mutant between the start and the end of each
// test, so tests that overlap would mix what they reach, and a mutant could then be tried only on
// tests that do not kill it.
import { defineConfig } from 'vitest/config';
import { CATALOG } from './suites/areas.js';
import { runSettings } from './runner/run/config.js';
import { CONFORMANCE_FILES, HOOK_TIMEOUT_MS } from './vitest.config.js';

export default defineConfig({
  test: {
    include: [CONFORMANCE_FILES],
    setupFiles: ['bench/mutation-setup.ts'],
    env: { CONFORMANCE_SERVER: 'in-worker', CONFORMANCE_LEVEL: 'parity', CONFORMANCE_REPORT_DIR: 'reports/mutation-run' },
    provide: { conformanceSettings: { ...runSettings(CATALOG), sequential: true } },
    testTimeout: 60_000,
    hookTimeout: HOOK_TIMEOUT_MS,
  },
});
