// A progress line while the suite runs: test files done out of the files selected (known from the
// start; the number of tests is known only once each file has loaded), and the tests ended so far
// with their verdicts (a test gated off, unsupported or disabled, is not `not-run`: that verdict is an
// interrupted run's). On a terminal it rewrites one line; elsewhere (CI logs) it prints a line every
// 25 tests.
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';
import { writeUnfiltered } from '../core/output.js';

export class ProgressReporter implements Reporter {
  private files = 0;
  private filesDone = 0;
  private done = 0;
  private passed = 0;
  private failed = 0;
  private skipped = 0;

  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {}

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.files = specifications.length;
  }

  onTestModuleEnd(_module: TestModule): void {
    this.filesDone++;
  }

  onTestCaseResult(test: TestCase): void {
    this.done++;
    const state = test.result().state;
    if (state === 'passed') this.passed++;
    else if (state === 'failed') this.failed++;
    else this.skipped++;
    const line = `conformance: files ${this.filesDone}/${this.files} · ${this.done} tests ended · ${this.passed} passed · ${this.failed} failed · ${this.skipped} unsupported or disabled`;
    if (this.out.isTTY) {
      // Its own carriage return and erase-line: around the filter that escapes a target's (core/output.ts).
      writeUnfiltered(this.out, `\r${line}\x1b[K`);
    } else if (this.done === 1 || this.done % 25 === 0) {
      this.out.write(`${line}\n`);
    }
  }

  onTestRunEnd(): void {
    if (this.out.isTTY) writeUnfiltered(this.out, '\n');
  }
}
