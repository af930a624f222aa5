// The running test of this worker: its id, clauses and the evidence its requests leave. Tests of
// one file run one after another, so one slot per worker is enough (no test.concurrent here).
import type { Exchange } from './client.js';
import { recordExchangesInto } from './client.js';

export interface RunningTest {
  id: string;
  clauses: string[];
  evidence: Exchange[];
}

let running: RunningTest | undefined;

export function currentTest(): RunningTest | undefined {
  return running;
}

export function beginTest(test: RunningTest | undefined): void {
  running = test;
  recordExchangesInto(test?.evidence);
}
