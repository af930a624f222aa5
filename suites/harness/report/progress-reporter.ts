// A progress line while the suite runs: tests done out of tests collected so far, with the verdicts
// so far. On a terminal it rewrites one line; elsewhere (CI logs) it prints a line every 25 tests.
import type { Reporter, TestCase, TestModule } from 'vitest/node';

export class ProgressReporter implements Reporter {
  private collected = 0;
  private done = 0;
  private passed = 0;
  private failed = 0;
  private skipped = 0;

  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {}

  onTestModuleCollected(module: TestModule): void {
    this.collected += [...module.children.allTests()].length;
  }

  onTestCaseResult(test: TestCase): void {
    this.done++;
    const state = test.result().state;
    if (state === 'passed') this.passed++;
    else if (state === 'failed') this.failed++;
    else this.skipped++;
    const line = `conformance: ${this.done}/${this.collected} tests · ${this.passed} passed · ${this.failed} failed · ${this.skipped} not run`;
    if (this.out.isTTY) {
      this.out.write(`\r${line}\x1b[K`);
    } else if (this.done === 1 || this.done % 25 === 0) {
      this.out.write(`${line}\n`);
    }
  }

  onTestRunEnd(): void {
    if (this.out.isTTY) this.out.write('\n');
  }
}
