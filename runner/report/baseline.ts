// Baselines for partly conformant targets (--expected-failures FILE, YAML or JSON): a list of
// { id, reason, link? }. A failure not on the list is unexpected; a listed test that now passes is
// stale. Either one makes the run exit 1, naming the tests.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../core/errors.js';
import type { Results } from './results.js';

export interface ExpectedFailure {
  id: string;
  reason: string;
  link?: string;
}

export function loadBaseline(path: string): ExpectedFailure[] {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`expected-failures file ${path} is not readable YAML or JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { expectedFailures?: unknown } | null)?.expectedFailures;
  if (!Array.isArray(list)) throw new ConfigError(`expected-failures file ${path} must hold a list of { id, reason, link? }`);
  return list.map((entry, i) => {
    const e = entry as Partial<ExpectedFailure>;
    if (typeof e?.id !== 'string' || typeof e.reason !== 'string') throw new ConfigError(`expected-failures file ${path}: entry ${i + 1} needs "id" and "reason" strings`);
    return { id: e.id, reason: e.reason, ...(typeof e.link === 'string' ? { link: e.link } : {}) };
  });
}

/** Marks expected failures on the records and returns what breaks the baseline. */
export function applyBaseline(results: Results, file: string, expected: ExpectedFailure[]): NonNullable<Results['baseline']> {
  const byId = new Map(expected.map((e) => [e.id, e]));
  const unexpectedFailures: string[] = [];
  const stale: string[] = [];
  for (const test of results.tests) {
    const entry = byId.get(test.id);
    const failing = test.verdict === 'fail' || test.verdict === 'error';
    if (entry) test.expected = { reason: entry.reason, ...(entry.link ? { link: entry.link } : {}) };
    if (failing && !entry) unexpectedFailures.push(test.id);
    if (!failing && entry && test.verdict === 'pass') stale.push(test.id);
  }
  return { file, unexpectedFailures, stale };
}
