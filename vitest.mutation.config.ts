// The conformance suite as StrykerJS runs it (`npm run mutation`): one flat project whose test files
// each start their own reference server inside the test worker (CONFORMANCE_SERVER=in-worker), so that
// the mutated server code runs in the thread where Stryker switches mutants on. The reference server
// is GitLab-shaped in its details too, so the suite runs at the parity level here: a mutant that
// changes a message text or the order of checks is caught by the parity assertions, which the
// default spec level reports without failing.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['suites/*/**/*.test.ts'],
    env: { CONFORMANCE_SERVER: 'in-worker', CONFORMANCE_LEVEL: 'parity', CONFORMANCE_REPORT_DIR: 'reports/mutation-run' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
