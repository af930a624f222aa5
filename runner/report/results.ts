// The run's results as every report sees them: one record per test with its verdict.
import { readFileSync } from 'node:fs';
import type { Cause } from '../core/cause.js';
import type { ParityNote, VerdictLevel } from '../core/exchange.js';
import type { RunContext } from '../run/context.js';
import type { Evidence } from '../run/conformance.js';

/** `not-run`: selected, but the run was interrupted before the test could end. */
export type Verdict = 'pass' | 'fail' | 'unsupported' | 'disabled' | 'error' | 'not-run';
export const VERDICTS: Verdict[] = ['pass', 'fail', 'error', 'unsupported', 'disabled', 'not-run'];

/** How the run ended: every selected test ran, it was cut short, or no test was checked. */
export type RunStatus = 'complete' | 'interrupted' | 'empty';

/** The verdicts a table shows: `not-run` only when the run has such tests. */
export function shownVerdicts(results: Pick<Results, 'summary'>): Verdict[] {
  return VERDICTS.filter((v) => v !== 'not-run' || results.summary['not-run'] > 0);
}

export interface TestRecord {
  id: string;
  title: string;
  area: string;
  endpoint: string;
  /** The kind of source of this variant: group or project. */
  kind: string;
  clauses: string[];
  /** The verdict at the spec level. */
  verdict: Verdict;
  reason: string | null;
  /** The verdict at the GitLab-parity level: the spec verdict, or `fail` where GitLab does more than the target did. */
  parity: Verdict;
  /** What GitLab does that the target did not, with where GitLab does it. */
  parityNotes?: ParityNote[];
  durationMs: number;
  file: string;
  /** The fixtures it uses, with those they are built from (its manifest). */
  fixtures: string[];
  /** The set-up endpoints beyond the target contract it depends on. */
  needs: string[];
  /** The answer that stopped it (a test that did not pass): the reports group tests by it. */
  cause?: Cause;
  /** Set when the baseline (--expected-failures) lists this test. */
  expected?: { reason: string; link?: string };
  evidence?: Evidence[];
}

export interface Results {
  suite: { name: string; version: string };
  generatedAt: string;
  /** The run's id (its objects' prefix, its ledger's and kept tokens' file names in .conformance/). */
  runId?: string;
  target: { url: string; version: string; referenceServer: boolean };
  capabilities: string[];
  /** The settings in force, with secrets removed. */
  settings: Record<string, unknown>;
  /** The level the run's exit code follows (CONFORMANCE_LEVEL). */
  level: VerdictLevel;
  status: RunStatus;
  /** Why the run was cut short (status `interrupted`). */
  interruption?: string;
  /** Counts at the spec level. */
  summary: Summary;
  /** Counts at the GitLab-parity level. */
  paritySummary: Summary;
  baseline?: { file: string; unexpectedFailures: string[]; stale: string[] };
  tests: TestRecord[];
  /** Each test file with its wall time, the set-up of its fixtures included. */
  files?: { file: string; durationMs: number }[];
  /** Fixtures that could not be built, each once, with the tests that depended on them. */
  fixtures?: FixtureReport[];
  /** The set-up endpoints beyond the target contract that the target lacks, with how many tests needed each. */
  lackingSetup?: { need: string; endpoint: string; tests: number }[];
  /** The requests the run sent, per test file and purpose, and the most in flight at once. */
  requests?: { files: ({ file: string } & Record<string, number | string>)[]; total: Record<string, number>; highestInFlight: number };
  /** Which shard of which run this is (--shard, --run-id), with the test files it ran. */
  shard?: ShardLabel & { files: string[] };
  /** Joined from the shards of one run (`merge`). */
  merged?: { run: string; shards: number };
  /** What the run's clean-up left for GitLab to finish (objects pending deletion: GitLab removes them), one phrase each. */
  cleanUp?: { pending: string[] };
}

/** A shard's place: shard `index` of `count` of run `run`. */
export interface ShardLabel {
  run: string;
  index: number;
  count: number;
}

/** How the reports name a shard or a merge, or nothing for an ordinary run. */
export function shardText(results: Pick<Results, 'shard' | 'merged'>): string | undefined {
  if (results.shard) return `shard ${results.shard.index} of ${results.shard.count} of run ${results.shard.run}`;
  if (results.merged) return `the ${results.merged.shards} shards of run ${results.merged.run}, merged`;
  return undefined;
}

export interface FixtureReport {
  fixture: string;
  scope: string;
  /** What failed: the request, status and body of the set-up call, or the error. */
  message: string;
  lacking?: { need: string; endpoint: string };
  /** The tests that could not run because of it. */
  dependents: string[];
}

export type Summary = { total: number; passed: number; failed: number; skipped: number } & Record<Verdict, number>;

/** The package's version, as package.json gives it. */
export const SUITE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function summarize(records: TestRecord[], level: VerdictLevel = 'spec'): Summary {
  const count = (v: Verdict) => records.filter((r) => (level === 'spec' ? r.verdict : r.parity) === v).length;
  return {
    total: records.length,
    passed: count('pass'),
    failed: count('fail') + count('error'),
    skipped: count('unsupported') + count('disabled') + count('not-run'),
    pass: count('pass'),
    fail: count('fail'),
    error: count('error'),
    unsupported: count('unsupported'),
    disabled: count('disabled'),
    'not-run': count('not-run'),
  };
}

export function buildResults(records: TestRecord[], run: RunContext | undefined, settings: Record<string, unknown>, level: VerdictLevel, interruption?: string): Results {
  const summary = summarize(records, 'spec');
  // Empty: no test was checked (none selected, or every selected one unsupported here).
  const status: RunStatus = interruption !== undefined ? 'interrupted' : summary.pass + summary.fail + summary.error === 0 ? 'empty' : 'complete';
  return {
    suite: { name: 'gitlab-api-conformance', version: SUITE_VERSION },
    generatedAt: new Date().toISOString(),
    ...(run ? { runId: run.runId } : {}),
    target: { url: run?.targetUrl ?? 'unknown', version: run?.version ?? 'unknown', referenceServer: run?.referenceServer ?? false },
    capabilities: run?.settings.capabilities ?? [],
    settings,
    level,
    status,
    ...(interruption !== undefined ? { interruption } : {}),
    summary,
    paritySummary: summarize(records, 'parity'),
    tests: [...records].sort((a, b) => a.area.localeCompare(b.area) || a.endpoint.localeCompare(b.endpoint) || a.id.localeCompare(b.id)),
  };
}

/** Groups records by area, then endpoint, in a stable order. */
export function byAreaAndEndpoint(results: Results): Map<string, Map<string, TestRecord[]>> {
  const out = new Map<string, Map<string, TestRecord[]>>();
  for (const t of results.tests) {
    const area = out.get(t.area) ?? new Map<string, TestRecord[]>();
    area.set(t.endpoint, [...(area.get(t.endpoint) ?? []), t]);
    out.set(t.area, area);
  }
  return out;
}

/** What the run's headline says: INTERRUPTED, NOTHING SELECTED, FAILED or PASSED (at the run's level). */
export function headline(results: Results): string {
  if (results.status === 'interrupted') return 'INTERRUPTED';
  if (results.status === 'empty') return 'NOTHING CHECKED';
  const chosen = chosenSummary(results);
  return chosen.fail + chosen.error > 0 ? 'FAILED' : 'PASSED';
}

/** The counts the run's exit code follows. */
export function chosenSummary(results: Results): Summary {
  return results.level === 'parity' ? results.paritySummary : results.summary;
}
