// The conformance suite as StrykerJS runs it (`npm run mutation`): one flat project whose test files
// each start their own reference server inside the test worker (CONFORMANCE_SERVER=in-worker), so that
// the mutated server code runs in the thread where Stryker switches mutants on.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['suites/*/**/*.test.ts'],
    env: { CONFORMANCE_SERVER: 'in-worker', CONFORMANCE_REPORT_DIR: 'reports/mutation-run' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
