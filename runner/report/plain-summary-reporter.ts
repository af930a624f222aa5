// Prints the plain closing line CI reads: "N passed, N failed" (", N skipped" when some were).
// Counts every test of the run, unit and conformance alike; a file that failed to load counts as
// one failure so that a broken file never looks like a pass.
import type { Reporter, TestModule } from 'vitest/node';

export class PlainSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === 'failed' && module.errors().length > 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    if (process.exitCode === 1 && failed === 0) failed = 1; // a reporter found a catalog problem
    console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  }
}
