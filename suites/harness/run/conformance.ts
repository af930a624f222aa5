// The test wrapper. A conformance test belongs to one endpoint of one area; it names its case, the
// clauses it checks and what it needs of the target. Written once, it runs for every kind of source
// the endpoint has (group and project), with ids derived from area, endpoint, kind and case, e.g.
// `invitations.create.project.limit`. The wrapper gates each test (disabled / unsupported, with the
// reason), gives it clients that record into its own log, and decides its verdicts on both levels
// (spec and GitLab parity), which it leaves, typed, in the task's meta for the reporters.
import { afterAll, afterEach, beforeAll, beforeEach, test, type RunnerTask } from 'vitest';
import { fixture, type FixtureName } from '../../../fixtures/manifest.js';
import { formsByKind, type Area } from '../core/area.js';
import { describeExchange } from '../core/checks.js';
import { Client } from '../core/client.js';
import { ConformanceFailure, HarnessError } from '../core/errors.js';
import { TestLog, type Exchange, type ParityNote, type VerdictLevel } from '../core/exchange.js';
import { redact, redactValue } from '../core/redact.js';
import type { ActorName, SourceKind, TokenScope } from '../core/vocabulary.js';
import { versionAtLeast } from '../core/version.js';
import { TEST_TIMEOUT_MS, type Capability } from './config.js';
import type { RunContext } from './context.js';
import { ensureRunContext } from './current-run.js';
import { World } from './world.js';

export interface Requirements {
  capabilities?: Capability[];
  /** Minimum target version, e.g. "15.7" (spec: Versioning). */
  minVersion?: string;
  fixtures?: FixtureName[];
}

export interface TestMeta {
  id: string;
  title: string;
  area: string;
  /** The endpoint form, exactly as the spec's endpoints.txt writes it. */
  endpoint: string;
  kind: SourceKind;
  clauses: string[];
  requires: Requirements;
  /** `parity`: the whole test checks GitLab behaviour beyond the spec. */
  level: VerdictLevel;
}

/** One recorded exchange as the reports show it: without the raw bytes, tokens redacted. */
export type Evidence = Omit<Exchange, 'bytes' | 'log'>;

/** How a test ended, decided where it happened. */
export interface Outcome {
  /** Gated off before it ran. */
  gate?: { verdict: 'unsupported' | 'disabled'; reason: string };
  /** The spec verdict of a test that ran and did not pass: `fail` (the target) or `error` (the suite could not check). */
  failure?: 'fail' | 'error';
  /** What GitLab does that the target did not (the parity level). */
  parity: ParityNote[];
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: TestMeta;
    outcome?: Outcome;
    evidence?: Evidence[];
  }
}

export interface Kit {
  run: RunContext;
  /** The kind of source of this variant of the test. */
  kind: SourceKind;
  /** This test's log: its evidence, and where parity notes that concern no one exchange go. */
  log: TestLog;
  /** A client acting as a shared actor (default scope `api`), the admin, or nobody. */
  as(actor: ActorName | 'admin' | 'anonymous', scope?: TokenScope): Client;
  /** A client with any token, e.g. one a test made itself. */
  withToken(token: string | undefined, label: string): Client;
}

function kit(run: RunContext, kind: SourceKind, log: TestLog): Kit {
  const base = new Client(run.targetUrl, undefined, 'anonymous', run.requestTimeoutMs, log);
  return {
    run,
    kind,
    log,
    as(actor, scope = 'api') {
      if (actor === 'anonymous') return base;
      if (actor === 'admin') return base.withToken(run.adminToken, 'admin');
      const token = run.actors[actor].tokens[scope];
      if (token === undefined) throw new HarnessError(`the shared actor ${actor} has no ${scope} token`);
      return base.withToken(token, scope === 'api' ? actor : `${actor} (${scope} token)`);
    },
    withToken: (token, label) => base.withToken(token, label),
  };
}

/** Why a test does not apply to this run, or undefined when it does. */
export function gate(meta: TestMeta, run: RunContext): Outcome['gate'] {
  const disabled = (reason: string) => ({ verdict: 'disabled' as const, reason });
  const unsupported = (reason: string) => ({ verdict: 'unsupported' as const, reason });
  if (run.areas.length > 0 && !run.areas.includes(meta.area)) return disabled(`area ${meta.area} is not selected (CONFORMANCE_AREAS)`);
  if (run.endpoints.length > 0 && !run.endpoints.includes(meta.endpoint)) return disabled(`endpoint ${meta.endpoint} is not selected (CONFORMANCE_ENDPOINTS)`);
  const off = run.disabledTests.find((pattern) => (pattern.endsWith('*') ? meta.id.startsWith(pattern.slice(0, -1)) : meta.id === pattern));
  if (off) return disabled(`turned off by CONFORMANCE_DISABLE (${off})`);
  for (const capability of meta.requires.capabilities ?? []) {
    if (!run.capabilities.includes(capability)) return unsupported(`needs capability "${capability}", which the target does not declare (CONFORMANCE_CAPABILITIES)`);
  }
  if (meta.requires.minVersion && !versionAtLeast(run.version, meta.requires.minVersion)) {
    return unsupported(`needs GitLab ${meta.requires.minVersion} or later, the target reports ${run.version}`);
  }
  for (const name of meta.requires.fixtures ?? []) {
    if (!fixture(run.fixtures, name)) return unsupported(`needs the "${name}" fixture, which the fixture manifest does not provide (CONFORMANCE_FIXTURES)`);
  }
  return undefined;
}

export interface TestSpec {
  /** The case, unique within the endpoint: lower-case words with dashes. */
  case: string;
  title: string;
  clauses: string[];
  /** The kinds this case holds for, when the endpoint has both and the case only one; `why` says why. */
  only?: { kind: SourceKind; why: string };
  requires?: Requirements;
  /** `parity` when the whole test checks GitLab behaviour beyond the spec (always so on an extension). */
  level?: VerdictLevel;
}

/**
 * The tests of one endpoint of an area: `endpoint(area, 'create').test({ case, title, clauses }, body)`.
 * `name` may also be one of the area's extensions (a GitLab endpoint beyond the spec's forms): its
 * tests are at the parity level, and each names the GitLab version that added the endpoint
 * (`requires.minVersion`), so that an older target reports them unsupported.
 */
export function endpoint<E extends string, X extends string>(area: Area<E, X>, name: E | X) {
  const extension = area.extensions !== undefined && Object.hasOwn(area.extensions, name);
  const forms = extension ? area.extensions![name as X] : area.endpoints[name as E];
  const variants = formsByKind(forms).map(([kind, form]) => ({ kind: kind ?? kindOfForm(form), form }));
  const family = variants.length > 1;
  return {
    test(spec: TestSpec, body: (kit: Kit) => Promise<void>): void {
      if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(spec.case)) throw new Error(`${area.prefix}.${name}: case "${spec.case}" must be lower-case words with dashes`);
      if (spec.clauses.length === 0) throw new Error(`${area.prefix}.${name}.${spec.case} names no clause`);
      const unknown = spec.clauses.filter((c) => !area.clauseIds.has(c));
      if (unknown.length > 0) throw new Error(`${area.prefix}.${name}.${spec.case} names clauses that area ${area.name} does not declare: ${unknown.join(', ')}`);
      if (spec.only && !variants.some((v) => v.kind === spec.only!.kind)) throw new Error(`${area.prefix}.${name}.${spec.case}: endpoint ${name} has no ${spec.only.kind} form`);
      if (extension && (spec.level === 'spec' || !spec.requires?.minVersion)) {
        throw new Error(`${area.prefix}.${name}.${spec.case}: ${name} is an extension (beyond the spec): its tests are at the parity level and name the GitLab version that added it (requires.minVersion)`);
      }
      for (const { kind, form } of variants) {
        if (spec.only && spec.only.kind !== kind) continue;
        const id = family ? `${area.prefix}.${name}.${kind}.${spec.case}` : `${area.prefix}.${name}.${spec.case}`;
        const level = extension ? 'parity' : (spec.level ?? 'spec');
        declare({ id, title: spec.title, area: area.name, endpoint: form, kind, clauses: spec.clauses, requires: spec.requires ?? {}, level }, body);
      }
    },
  };
}

function kindOfForm(form: string): SourceKind {
  return form.includes(' /groups/') ? 'group' : 'project';
}

/** The wrapper's own deadline, before vitest's: an answer that never comes is the suite's `error`, not a failure. */
const DEADLINE_MS = TEST_TIMEOUT_MS - 5_000;

function declare(meta: TestMeta, body: (kit: Kit) => Promise<void>): void {
  test(`${meta.id}: ${meta.title}`, { meta: { conformance: meta } }, async (ctx) => {
    const run = await ensureRunContext();
    const outcome: Outcome = { parity: [] };
    ctx.task.meta.outcome = outcome;
    outcome.gate = gate(meta, run);
    if (outcome.gate) ctx.skip(`${outcome.gate.verdict}: ${outcome.gate.reason}`);
    const log = new TestLog();
    try {
      await withDeadline(body(kit(run, meta.kind, log)));
    } catch (error) {
      if (error instanceof ConformanceFailure && meta.level === 'parity') {
        log.parity.push({ text: error.message, gitlab: 'the test as a whole (level parity)' });
      } else {
        outcome.failure = error instanceof ConformanceFailure ? 'fail' : 'error';
        ctx.task.meta.evidence = log.exchanges.slice(-6).map(toEvidence);
        throw explained(error, meta, log);
      }
    } finally {
      outcome.parity = log.parity.map((note) => ({ ...note, text: redact(note.text) }));
    }
    if (log.parity.length > 0) {
      ctx.task.meta.evidence = log.exchanges.slice(-6).map(toEvidence);
      if (run.level === 'parity') {
        outcome.failure = 'fail';
        throw new ConformanceFailure(`GitLab parity [clauses: ${meta.clauses.join(', ')}]\n${log.parity.map((n) => `${n.text}\n  GitLab: ${n.gitlab}`).join('\n')}`);
      }
    }
  });
}

async function withDeadline(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HarnessError(`the test did not finish within ${DEADLINE_MS / 1000} s (the target is slow or an answer never came)`)), DEADLINE_MS);
  });
  try {
    await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The failure with the clauses the test checks, and the last request when the failure names none. */
function explained(error: unknown, meta: TestMeta, log: TestLog): unknown {
  if (!(error instanceof ConformanceFailure)) return error;
  const last = error.showsExchange ? '' : describeExchange(log.exchanges.at(-1));
  const [first, ...rest] = error.message.split('\n');
  const out = new ConformanceFailure(redact([`${first} [clauses: ${meta.clauses.join(', ')}]`, ...rest].join('\n') + last), true);
  out.stack = error.stack;
  return out;
}

function toEvidence(exchange: Exchange): Evidence {
  const { bytes: _bytes, ...rest } = exchange;
  const body = typeof rest.body === 'string' && rest.body.length > 2000 ? `${rest.body.slice(0, 2000)}…` : rest.body;
  return redactValue({ ...rest, body });
}

function allTests(task: RunnerTask): RunnerTask[] {
  return task.type === 'suite' ? task.tasks.flatMap(allTests) : [task];
}

/**
 * The objects one test file works on, built once before its tests and removed after them. Every
 * file builds its own, so files run in parallel without sharing state on the target; what many
 * files can share without stepping on each other comes from a run world (run-world.ts) inside it.
 */
export function useWorld<T>(scope: string, build: (world: World, run: RunContext) => Promise<T>): () => T {
  let value: T | undefined;
  let world: World | undefined;
  let failure: HarnessError | undefined;
  // vitest wants the hook's first parameter destructured; the file's tasks come second.
  // eslint-disable-next-line no-empty-pattern
  beforeAll(async ({}, suite) => {
    const run = await ensureRunContext();
    // Build nothing when no test of the file will run (gated off, or filtered out by name).
    const applies = suite.tasks.flatMap(allTests).some((t) => t.mode === 'run' && t.meta.conformance && !gate(t.meta.conformance, run));
    if (!applies) return;
    world = new World(run, scope);
    try {
      value = await build(world, run);
      world.endBuild();
    } catch (error) {
      // Not rethrown: a failing hook would leave the tests merely skipped. Each test that asks
      // for the world fails instead, with this error (verdict `error`).
      failure = error instanceof HarnessError ? error : new HarnessError(`building the world of this file failed: ${(error as Error).message}`);
    }
  });
  // The world hands out and takes back users test by test (World.userFor, World.seatlessFor).
  beforeEach(() => world?.startTest());
  afterEach(() => world?.endTest());
  afterAll(async () => {
    await world?.cleanup();
  });
  return () => {
    if (failure) throw failure;
    if (value === undefined) throw new HarnessError('the world of this file was not built');
    return value;
  };
}
