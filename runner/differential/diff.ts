// Two transcripts compared: whether they can be (format version, selection of tests), every test's
// exchanges normalized and compared (compare.ts), each difference placed (area, endpoint form, test,
// clauses) and marked covered or not by the test's verdicts, and what also differs between the
// baseline and a second baseline of the same target set apart as noise.
import { canonical, compareSteps, DIFFERENCE_KINDS, type AlignedStep, type DifferenceKind, type RawDifference } from './compare.js';
import { markKnockOn } from './knock-on.js';
import { normalizeTest, runTables } from './normalize.js';
import type { TestLine, Transcript, TranscriptTest, VerdictName } from './transcript.js';

export const DIFF_FORMAT = 'gitlab-api-conformance-diff';
export const DIFF_VERSION = 1;

/**
 * Whether the test's verdicts already said so: `spec` when its spec-level verdict differs between the
 * sides or is fail or error on one of them; `parity` when only its parity-level verdict does; null
 * when both sides pass alike (the difference is news: no clause of the test saw it).
 */
export type Coverage = 'spec' | 'parity' | null;

/** One difference, with everything a reader or a later check needs to place it. */
export interface Difference extends RawDifference {
  test: string;
  area: string;
  /** The endpoint form the test checks. */
  testEndpoint: string;
  clauses: string[];
  /** The exchange's index on each side (null where the side has none). */
  index: number | null;
  candidateIndex: number | null;
  method: string | null;
  /** The endpoint form of the exchange's request, e.g. "GET /groups/:id/members/:user_id" (the request's normalized path when it matches none). */
  endpoint: string | null;
  /** The exchange's normalized request path (the baseline's). */
  path: string | null;
  covered: Coverage;
  /** Set when the difference follows from an earlier one on the same group or project (knock-on.ts): where that one was. */
  knockOn?: { test: string; index: number | null; object: string };
}

export interface Verdicts {
  spec: VerdictName;
  parity: VerdictName;
}

/** One exchange with differences (or noise), both sides as normalized. */
export interface ExchangeDiff {
  step: AlignedStep;
  differences: Difference[];
  noise: Difference[];
}

export interface TestDiff {
  id: string;
  area: string;
  endpoint: string;
  kind: string | null;
  clauses: string[];
  verdicts: { baseline: Verdicts | null; candidate: Verdicts | null };
  covered: Coverage;
  exchanges: ExchangeDiff[];
  differences: number;
  noise: number;
}

export interface SourceInfo {
  file: string;
  recordedAt: string;
  runId: string;
  target: { origin: string; version: string; referenceServer?: boolean };
  suite: string;
  level: string;
  capabilities: string[];
  tests: number;
  exchanges: number;
}

export interface DiffSummary {
  /** Tests on either side. */
  tests: number;
  /** Steps compared on both sides. */
  comparedExchanges: number;
  differingTests: number;
  differences: number;
  /** Differences in tests whose verdicts said nothing (covered null). */
  uncovered: number;
  /** Differences that follow from an earlier one on the same group or project. */
  knockOn: number;
  noise: number;
  byKind: Record<DifferenceKind, number>;
  byArea: Record<string, Record<DifferenceKind, number>>;
}

export interface DiffResult {
  format: typeof DIFF_FORMAT;
  version: typeof DIFF_VERSION;
  generatedAt: string;
  baseline: SourceInfo;
  candidate: SourceInfo;
  noiseSources: SourceInfo[];
  warnings: string[];
  summary: DiffSummary;
  differences: Difference[];
  noise: Difference[];
  /** Tests with a difference or noise, in the baseline's order (then the candidate's tests it lacks). */
  tests: TestDiff[];
}

/** The transcripts cannot be compared; the message says why. */
export class IncomparableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IncomparableError';
  }
}

const LISTED = 10;

function onlyIn(a: Transcript, b: Transcript): string[] {
  return [...a.tests.keys()].filter((id) => !b.tests.has(id));
}

function listed(ids: string[]): string {
  return ids.length === 0 ? 'none' : `${ids.slice(0, LISTED).join(', ')}${ids.length > LISTED ? `, … (${ids.length} in all)` : ''}`;
}

/** Throws an IncomparableError when `a` and `b` cannot be compared: another format version, another selection of tests. */
function assertComparable(a: Transcript, b: Transcript): void {
  if (a.header.version !== b.header.version) {
    throw new IncomparableError(`${a.file} is transcript format version ${a.header.version}, ${b.file} version ${b.header.version}: they cannot be compared`);
  }
  if (canonical(a.header.selection) !== canonical(b.header.selection)) {
    throw new IncomparableError(
      `the selections of tests differ: ${a.file} ran ${JSON.stringify(a.header.selection)}, ${b.file} ran ${JSON.stringify(b.header.selection)}; ` +
        `tests only in ${a.file}: ${listed(onlyIn(a, b))}; only in ${b.file}: ${listed(onlyIn(b, a))}`,
    );
  }
}

const isBad = (v: VerdictName) => v === 'fail' || v === 'error';

function coverageOf(a: TestLine | undefined, b: TestLine | undefined): Coverage {
  if (!a || !b) return null;
  const at = (level: 'verdict' | 'parity') => a[level] !== b[level] || isBad(a[level]) || isBad(b[level]);
  return at('verdict') ? 'spec' : at('parity') ? 'parity' : null;
}

/** Endpoint forms ("GET /groups/:id/members/:user_id"): the exchange's form is the one its method and path match with the most literal segments. */
export class EndpointForms {
  private readonly forms: { method: string; segments: string[]; form: string; literals: number }[];

  constructor(forms: Iterable<string>) {
    this.forms = [...new Set(forms)].flatMap((form) => {
      const [method, path] = form.split(' ');
      if (!path) return [];
      const segments = path.split('/').slice(1);
      return [{ method, segments, form, literals: segments.filter((s) => !s.startsWith(':')).length }];
    });
  }

  of(method: string, path: string): string {
    const segments = path.split('?')[0].replace(/^\/api\/v4/, '').split('/').slice(1);
    let best: { form: string; literals: number } | undefined;
    for (const f of this.forms) {
      if (f.method !== method || f.segments.length !== segments.length) continue;
      if (!f.segments.every((s, i) => s.startsWith(':') ? segments[i] !== '' : s === segments[i])) continue;
      if (!best || f.literals > best.literals) best = f;
    }
    return best?.form ?? `${method} ${path.split('?')[0]}`;
  }
}

function sourceInfo(t: Transcript): SourceInfo {
  const h = t.header;
  let exchanges = 0;
  for (const test of t.tests.values()) exchanges += test.exchanges.length;
  return { file: t.file, recordedAt: h.recordedAt, runId: h.runId, target: h.target, suite: h.suite.version, level: h.level, capabilities: h.capabilities, tests: t.tests.size, exchanges };
}

const verdictsOf = (t: TranscriptTest | undefined): Verdicts | null => (t ? { spec: t.line.verdict, parity: t.line.parity } : null);

/** Every test of both sides compared, in the baseline's test order; `compared` counts the steps both sides have. */
function compareTranscripts(a: Transcript, b: Transcript, forms: EndpointForms): { tests: TestDiff[]; compared: number } {
  const ids = [...a.tests.keys(), ...[...b.tests.keys()].filter((id) => !a.tests.has(id))];
  let compared = 0;
  const tests = ids.map((id) => {
    const ta = a.tests.get(id);
    const tb = b.tests.get(id);
    const line = (ta ?? tb)!.line;
    const covered = coverageOf(ta?.line, tb?.line);
    const test: TestDiff = { id, area: line.area, endpoint: line.endpoint, kind: line.kind, clauses: line.clauses, verdicts: { baseline: verdictsOf(ta), candidate: verdictsOf(tb) }, covered, exchanges: [], differences: 0, noise: 0 };
    const place = (raw: RawDifference, step: AlignedStep | undefined): Difference => {
      const e = step?.baseline?.exchange ?? step?.candidate?.exchange;
      return {
        ...raw,
        test: id,
        area: line.area,
        testEndpoint: line.endpoint,
        clauses: line.clauses,
        index: step?.baseline?.exchange.index ?? null,
        candidateIndex: step?.candidate?.exchange.index ?? null,
        method: e?.method ?? null,
        endpoint: e ? forms.of(e.method, e.path) : null,
        path: e?.path ?? null,
        covered: raw.kind === 'test-missing' ? null : covered,
      };
    };
    if (!ta || !tb) {
      const presence = `${line.verdict} at the spec level, ${line.parity} at the parity level`;
      const missing = place({ kind: 'test-missing', locus: 'test', ...(ta ? { baseline: presence } : { candidate: presence }) }, undefined);
      test.exchanges.push({ step: { differences: [] }, differences: [missing], noise: [] });
      return test;
    }
    for (const step of compareSteps(normalizeTest(a.header, ta, runTables(a)), normalizeTest(b.header, tb, runTables(b)))) {
      if (step.baseline && step.candidate) compared++;
      if (step.differences.length) test.exchanges.push({ step, differences: step.differences.map((d) => place(d, step)), noise: [] });
    }
    return test;
  });
  return { tests, compared };
}

/** What identifies a difference across two comparisons with the same baseline: test, baseline index, locus, kind. */
const noiseKey = (d: Difference) => `${d.test}\u0000${d.index ?? `candidate ${d.candidateIndex}`}\u0000${d.locus}\u0000${d.kind}`;
const exchangeKey = (d: Difference) => `${d.test}\u0000${d.index}`;

/** Fields that say which object an element of a list is. */
const IDENTITY_FIELDS = new Set(['id', 'username', 'invite_email', 'email', 'url', 'source_id', 'file_path']);

/**
 * The array of the body a difference says is unstable: its elements came or went, their order
 * changed, or an element at the same position is another object (its id, username, address or url
 * changed).
 */
function unstableList(d: Difference): string | undefined {
  if (!d.locus.startsWith('body:') || d.pointer === undefined) return undefined;
  if (d.kind === 'order-changed') return d.pointer;
  const element = /^(.*)\/\d+$/.exec(d.pointer);
  if (element && (d.kind === 'body-field-added' || d.kind === 'body-field-removed')) return element[1];
  const field = /^(.*)\/\d+\/([^/]+)$/.exec(d.pointer);
  return field && d.kind === 'value-changed' && IDENTITY_FIELDS.has(field[2]) ? field[1] : undefined;
}

/**
 * What the noise transcripts say varies: each difference's key, and the lists whose elements came,
 * went, moved or are other objects (a list of a source that other tests fill at the same time, or
 * ordered by random names).
 */
class Noise {
  private readonly keys = new Set<string>();
  private readonly lists = new Map<string, string[]>();

  add(d: Difference): void {
    this.keys.add(noiseKey(d));
    const list = unstableList(d);
    if (list !== undefined && d.index !== null) this.lists.set(exchangeKey(d), [...(this.lists.get(exchangeKey(d)) ?? []), list]);
  }

  /** The same difference (test, baseline index, place, kind), or any difference inside a list that is unstable in that exchange. */
  has(d: Difference): boolean {
    if (this.keys.has(noiseKey(d))) return true;
    if (!d.locus.startsWith('body:') || d.pointer === undefined || d.index === null) return false;
    return (this.lists.get(exchangeKey(d)) ?? []).some((list) => d.pointer === list || d.pointer!.startsWith(`${list}/`));
  }
}

const zeroKinds = () => Object.fromEntries(DIFFERENCE_KINDS.map((k) => [k, 0])) as Record<DifferenceKind, number>;

/**
 * Compares `candidate` with `baseline`. A difference that a comparison of `baseline` with one of the
 * `noise` transcripts (second recordings of the baseline's target) also shows, at the same test,
 * baseline index, place (status, header name, body or request pointer) and kind, whatever the values,
 * is noise: listed apart, never counted. So is any difference inside a list of the body whose
 * elements came, went, moved or are other objects between the baseline and a noise transcript: a
 * list whose members follow the timing of the run (a source that other tests fill at the same time)
 * or random names. `knownNoise`: differences that two other recordings of the baseline's target showed
 * (a check that compares many runs with one pair of known-good runs measures the noise once).
 */
export function diffTranscripts(baseline: Transcript, candidate: Transcript, noise: Transcript[] = [], now = new Date(), knownNoise: Difference[] = []): DiffResult {
  assertComparable(baseline, candidate);
  for (const n of noise) assertComparable(baseline, n);
  const forms = new EndpointForms([baseline, candidate, ...noise].flatMap((t) => [...t.tests.values()].map((test) => test.line.endpoint)));
  const noisy = new Noise();
  for (const n of noise) for (const test of compareTranscripts(baseline, n, forms).tests) for (const e of test.exchanges) e.differences.forEach((d) => noisy.add(d));
  knownNoise.forEach((d) => noisy.add(d));

  const { tests, compared } = compareTranscripts(baseline, candidate, forms);
  const differences: Difference[] = [];
  const noiseFound: Difference[] = [];
  for (const test of tests) {
    for (const e of test.exchanges) {
      const all = e.differences;
      e.differences = all.filter((d) => !noisy.has(d));
      e.noise = all.filter((d) => noisy.has(d));
      differences.push(...e.differences);
      noiseFound.push(...e.noise);
      test.differences += e.differences.length;
      test.noise += e.noise.length;
    }
  }
  // Knock-on follows time: the candidate's tests in the order they started, when its recorder wrote it.
  const started = (id: string) => candidate.tests.get(id)?.line.startedAt ?? baseline.tests.get(id)?.line.startedAt ?? '';
  markKnockOn([...tests].sort((x, y) => started(x.id).localeCompare(started(y.id))));
  const kept = tests.filter((t) => t.differences + t.noise > 0);
  const byKind = zeroKinds();
  const byArea: Record<string, Record<DifferenceKind, number>> = {};
  for (const d of differences) {
    byKind[d.kind]++;
    (byArea[d.area] ??= zeroKinds())[d.kind]++;
  }
  const warnings: string[] = [];
  const b = baseline.header;
  const c = candidate.header;
  if (b.suite.version !== c.suite.version) warnings.push(`the transcripts were recorded by different suite versions (${b.suite.version}, ${c.suite.version}): tests may differ for that reason alone`);
  if (canonical([...b.capabilities].sort()) !== canonical([...c.capabilities].sort())) {
    warnings.push(`the targets declare other capabilities (${b.capabilities.join(', ') || 'none'}; ${c.capabilities.join(', ') || 'none'}): a test that needs one runs on one side only`);
  }
  const concurrent = [baseline, candidate, ...noise].filter((t) => t.header.sequential === false).map((t) => t.file);
  if (concurrent.length > 0) warnings.push(`recorded with tests at once (record --concurrent): ${concurrent.join(', ')}; which users were lent where follows the timing, so the recordings differ for that reason too: record without --concurrent, or give a second recording with --noise`);
  for (const t of [baseline, candidate, ...noise]) if (t.masked) warnings.push(`${t.file}: ${t.masked} line(s) held a token-shaped string or a credential header, masked on reading (the recorder should have masked them)`);
  return {
    format: DIFF_FORMAT,
    version: DIFF_VERSION,
    generatedAt: now.toISOString(),
    baseline: sourceInfo(baseline),
    candidate: sourceInfo(candidate),
    noiseSources: noise.map(sourceInfo),
    warnings,
    summary: {
      tests: tests.length,
      comparedExchanges: compared,
      differingTests: kept.filter((t) => t.differences > 0).length,
      differences: differences.length,
      uncovered: differences.filter((d) => d.covered === null).length,
      knockOn: differences.filter((d) => d.knockOn).length,
      noise: noiseFound.length,
      byKind,
      byArea,
    },
    differences,
    noise: noiseFound,
    tests: kept,
  };
}
