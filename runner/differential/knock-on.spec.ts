import { expect, test } from 'vitest';
import type { Difference, TestDiff } from './diff.js';
import { markKnockOn } from './knock-on.js';

const diff = (testId: string, index: number, method: string, path: string, kind: Difference['kind']): Difference => ({
  kind, locus: kind === 'exchange-missing' ? 'exchange' : kind === 'status' ? 'status' : 'body:/0', test: testId, area: 'remote-mirrors', testEndpoint: 'x', clauses: [], index, candidateIndex: index, method, endpoint: null, path, covered: null,
});
const testDiff = (id: string, differences: Difference[]): TestDiff => ({
  id, area: 'remote-mirrors', endpoint: 'x', kind: 'project', clauses: [], verdicts: { baseline: null, candidate: null }, covered: null,
  exchanges: differences.map((d) => ({ step: { differences: [] }, differences: [d], noise: [] })), differences: differences.length, noise: 0,
});

test('differences after a write that went otherwise on a source are knock-on; first-hand ones elsewhere stay', () => {
  const shared = '/api/v4/projects/<project:mirrors>/remote_mirrors';
  const tests = [
    // A first-hand body difference on a read: it taints nothing.
    testDiff('a', [diff('a', 1, 'GET', shared, 'value-changed')]),
    // The test failed before its clean-up: the DELETE it never sent taints the shared project.
    testDiff('b', [diff('b', 2, 'GET', shared, 'value-changed'), diff('b', 3, 'DELETE', `${shared}/<mirror~1>`, 'exchange-missing')]),
    testDiff('c', [diff('c', 1, 'GET', shared, 'body-field-added'), diff('c', 2, 'GET', '/api/v4/projects/<project:other>/remote_mirrors', 'value-changed')]),
    // A per-test object taints within its test only.
    testDiff('d', [diff('d', 1, 'POST', '/api/v4/projects/<project~1>/x', 'status'), diff('d', 2, 'GET', '/api/v4/projects/<project~1>/x', 'value-changed')]),
    testDiff('e', [diff('e', 1, 'GET', '/api/v4/projects/<project~1>/x', 'value-changed')]),
  ];
  markKnockOn(tests);
  const marks = tests.flatMap((t) => t.exchanges.flatMap((e) => e.differences.map((d) => `${d.test}#${d.index}:${d.knockOn ? `${d.knockOn.test}#${d.knockOn.index}` : '-'}`)));
  expect(marks).toEqual(['a#1:-', 'b#2:-', 'b#3:-', 'c#1:b#3', 'c#2:-', 'd#1:-', 'd#2:d#1', 'e#1:-']);
});
