// Failures and errors grouped by root cause: the endpoint whose answer stopped them and the status it
// gave. One broken write then reads as one cause ("POST …/repository/files/:file_path answered HTTP 500:
// 57 tests could not set up, 1 test fails on it"), not as dozens of separate failures.
import type { Results, TestRecord } from './results.js';

export interface CauseGroup {
  endpoint: string;
  got: number;
  /** Tests whose own set-up stopped on it (verdict `error`), with what they wanted. */
  setUp: string[];
  setUpWanted: string[];
  /** Tests whose check failed on it (verdict `fail`), with what they wanted. */
  failing: string[];
  failingWanted: string[];
}

const notPassing = (t: TestRecord) => t.verdict === 'fail' || t.verdict === 'error';

/** The groups, largest first; tests with no recorded answer behind their failure are not in any. */
export function rootCauses(results: Pick<Results, 'tests'>): CauseGroup[] {
  const groups = new Map<string, CauseGroup>();
  for (const t of results.tests.filter(notPassing)) {
    if (!t.cause) continue;
    const key = `${t.cause.endpoint} ${t.cause.got}`;
    const group = groups.get(key) ?? { endpoint: t.cause.endpoint, got: t.cause.got, setUp: [], setUpWanted: [], failing: [], failingWanted: [] };
    const [ids, wanted] = t.cause.setUp ? [group.setUp, group.setUpWanted] : [group.failing, group.failingWanted];
    ids.push(t.id);
    if (!wanted.includes(t.cause.wanted)) wanted.push(t.cause.wanted);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.setUp.length + b.failing.length - (a.setUp.length + a.failing.length) || a.endpoint.localeCompare(b.endpoint));
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One line: "POST /x answered HTTP 200: 57 tests could not set up (wanted a success (2xx)); 1 test fails on it (wanted HTTP 201)". */
export function causeLine(g: CauseGroup): string {
  const parts: string[] = [];
  if (g.setUp.length > 0) parts.push(`${plural(g.setUp.length, 'test', 'tests')} could not set up (wanted ${g.setUpWanted.join('; ')})`);
  if (g.failing.length > 0) parts.push(`${plural(g.failing.length, 'test fails', 'tests fail')} on it (wanted ${g.failingWanted.join('; ')})`);
  return `${g.endpoint} answered HTTP ${g.got}: ${parts.join('; ')}`;
}
