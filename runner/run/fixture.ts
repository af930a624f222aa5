// Fixtures: every object tests share is a named fixture with a scope, the fixtures it is built from
// (`fixtures`, by the names its build reads them by), and what it needs of the target. A test reads
// the fixtures it uses as named parameters (conformance.ts); a fixture is built the first time a test
// that runs asks for it, never when no such test runs, and its value is the same for everyone within
// its scope:
// - `run`: once for the whole run, by the first test file that asks (the others wait for its value,
//   through the run's coordinator); removed with the run;
// - `file`: once per test file, for its tests; dropped when the file ends;
// - `test`: for one test. With `reset`, a test-scoped fixture is kept after its test and handed to a
//   later one once `reset` has put it back as it was built (GitLab QA's reusable resources).
// A fixture that cannot be built fails its dependents alone: each is `unsupported` when the cause
// is a set-up endpoint beyond the target contract that the target lacks (setup-needs.ts), `error`
// otherwise; the failure is reported once. A fixture declared `alone` (with why) is held by one
// test at a time (its tests change what other tests of it read).
import type { Names } from './names.js';
import { Client } from '../core/client.js';
import { HarnessError } from '../core/errors.js';
import type { SetupNeed } from '../core/setup-needs.js';
import type { SourceKind } from '../core/vocabulary.js';
import { SETUP_NEEDS } from '../core/setup-needs.js';
import type { ActorInfo, RunContext } from './context.js';
import type { FixtureFailure } from './coordination/run-fixtures.js';
import { Frame, type Run } from './frame.js';
import { Ledger } from './ledger.js';
import type { SourceKey } from './lending.js';
import { SetupError, type Maker } from './maker.js';
import type { Requirements } from './requirements.js';
import { acquireLease, LeaseRefused, releaseLease, type TargetLease } from './target-lease.js';

export type Scope = 'run' | 'file' | 'test';
const WIDTH: Record<Scope, number> = { test: 0, file: 1, run: 2 };

/**
 * What a test or a fixture's build works with, from its frame: a test's Kit and a build's context are
 * one. Helpers that make, lease or read fixtures for it are handed it.
 */
export interface SetupContext {
  run: RunContext;
  make: Maker;
  /** The administrator, for set-up requests of its own (recorded as set-up, or a reset's; not in a test's log). */
  admin: Client;
  /** Names for what it makes: unique in the run, the same in every run. */
  names: Names;
  /** A user new to the domains of its fixtures (Frame.lease). */
  lease(): Promise<ActorInfo>;
  /** A user who holds no seat, for the promotion-approval tests (Frame.leaseSeatless). */
  leaseSeatless(): Promise<ActorInfo>;
  /** Throws unless it declared `need`, a set-up endpoint beyond the target contract (Frame.mayUse). */
  mayUse(need: SetupNeed): void;
}

/** Fixtures by the names a test or a build reads them by. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any fixture's value type
export type Fixtures = Record<string, Fixture<any>>;

/** Their values, by the same names. */
export type Values<F extends Fixtures> = { [K in keyof F]: F[K] extends Fixture<infer T> ? T : never };

export interface BuildContext extends SetupContext {
  /**
   * The kind of source of the tests it is built for: a test-scoped fixture's test (a kept one serves
   * that kind only), or a `perKind` fixture's.
   */
  kind?: SourceKind;
}

export interface FixtureSpec<T, D extends Fixtures = Fixtures, C extends object = BuildContext> {
  /** Unique in the suite; in reports and reasons. */
  name: string;
  scope: Scope;
  /** The fixtures it is built from, each of a scope at least as wide: its build and reset read them by these names. */
  fixtures?: D;
  /** What the target must offer for it to exist at all (its dependents are unsupported otherwise), and the set-up endpoints beyond the contract its build calls (`setup`). */
  requires?: Requirements;
  /**
   * Why the tests that use it run one at a time (they change what the others read): held by one test
   * at a time. The same word as a test's `alone` (no other test of its file runs while it does).
   */
  alone?: string;
  /**
   * With `alone`, for what the run does not own and other runs of the instance use too (a provisioned
   * group of the target manifest): the name of the lease on the target (target-lease.ts) a test holds
   * while it uses the fixture, so that one test of all the runs at a time does: `fixture-<manifest entry>`,
   * or an instance setting's name (a test that reads the setting and must not see it change).
   */
  leaseOnTarget?: string;
  /**
   * Built once for each kind of source (group, project) its tests run for, with `kind` in the context:
   * a test reads the instance of its own kind, and leases users only for that instance's sources.
   */
  perKind?: boolean;
  /** Test scope only: puts a used instance back as it was built (true), so that a later test may have it. */
  reset?(value: T, ctx: C & Values<D>): Promise<boolean>;
  /**
   * With `reset`: at most this many instances per kind in the run; a test waits for one to come back
   * when all are in use (objects cost more than waiting on a real GitLab). Default: no bound.
   */
  most?: number;
  build(ctx: C & Values<D>): T | Promise<T>;
}

/** A fixture: a test or a fixture's build reads its value by the name it declared it under. */
export interface Fixture<T> {
  readonly spec: FixtureSpec<T>;
}

/** The fixtures `f` is built from. */
const depsOf = (f: { spec: { fixtures?: Fixtures } }): Fixture<unknown>[] => Object.values(f.spec.fixtures ?? {});

/** The fixtures a frame may read, by fixture: filled before the test body (or the build) runs. */
const values = new WeakMap<Frame, Map<Fixture<unknown>, unknown>>();

export function fixture<T, D extends Fixtures = Record<never, never>>(spec: FixtureSpec<T, D>): Fixture<T> {
  for (const dep of depsOf({ spec })) {
    if (WIDTH[dep.spec.scope] < WIDTH[spec.scope]) throw new Error(`fixture ${spec.name} (${spec.scope}) cannot be built from ${dep.spec.name}, of the narrower scope ${dep.spec.scope}`);
    if (dep.spec.perKind && !spec.perKind && spec.scope !== 'test') throw new Error(`fixture ${spec.name} cannot be built from ${dep.spec.name}, which is built per kind, unless it is too`);
  }
  if (spec.reset && spec.scope !== 'test') throw new Error(`fixture ${spec.name}: only a test-scoped fixture is reset for reuse`);
  if (spec.most !== undefined && !spec.reset) throw new Error(`fixture ${spec.name}: only a fixture that is reset for reuse has a bound (most)`);
  return Object.freeze({ spec: spec as unknown as FixtureSpec<T> });
}

/** Why a fixture is not there for its dependents; `lacking`: a set-up endpoint the target lacks. */
export class FixtureUnavailable extends HarnessError {
  override name = 'FixtureUnavailable';
  constructor(readonly failure: FixtureFailure) {
    super(
      failure.lacking
        ? `the target lacks ${failure.lacking.endpoint} (set-up "${failure.lacking.need}"), which fixture "${failure.fixture}" needs`
        : `fixture "${failure.fixture}" could not be built: ${failure.message}`,
    );
  }
}

/** Every fixture a list depends on, itself included, each once. */
export function closure(fixtures: readonly Fixture<unknown>[]): Fixture<unknown>[] {
  const seen = new Set<Fixture<unknown>>();
  const visit = (f: Fixture<unknown>) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const dep of depsOf(f)) visit(dep);
  };
  for (const f of fixtures) visit(f);
  return [...seen];
}

/** The set-up endpoints beyond the contract that a test using `fixtures` depends on, through any of them. */
export function needsOf(fixtures: readonly Fixture<unknown>[]): SetupNeed[] {
  return [...new Set(closure(fixtures).flatMap((f) => f.spec.requires?.setup ?? []))];
}

/** A group or project as a fixture's value holds it. */
export interface HeldSource {
  kind: SourceKind;
  id: number;
  fullPath: string;
}

/** The groups and projects inside a fixture's value (its plain data). */
export function heldSources(value: unknown, out: HeldSource[] = []): HeldSource[] {
  const plain = value !== null && typeof value === 'object' && (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype);
  if (!plain) return out;
  const v = value as { kind?: unknown; id?: unknown; fullPath?: unknown };
  if ((v.kind === 'group' || v.kind === 'project') && typeof v.id === 'number' && typeof v.fullPath === 'string') out.push({ kind: v.kind, id: v.id, fullPath: v.fullPath });
  for (const inner of Object.values(value)) heldSources(inner, out);
  return out;
}

/** Their keys: a user leased with the value is new to their domains. */
const sourcesIn = (value: unknown): SourceKey[] => heldSources(value).map((s) => `${s.kind}:${s.id}` as const);

// ---- resolution ---------------------------------------------------------------------------------

/**
 * By instance name, in the run of `runScopedFor`. A worker serves one run at a time, and may serve
 * hundreds one after another (the seeded-fault check, a mutation run): the last run's go when the
 * next one comes.
 */
const runScoped = new Map<string, Promise<unknown>>();
let runScopedFor = '';
const fileScoped = new Map<string, Map<string, { owner: string; value: Promise<unknown> }>>();
/** A fixture's instance name: its own, or with the kind it is built for. */
const instanceName = (f: Fixture<unknown>, kind: SourceKind | undefined) => (kind ? `${f.spec.name}:${kind}` : f.spec.name);
/** Test-scoped instances made in the worker's current run: their names follow the count, the same in every run. */
let instances = { runId: '', count: 0 };

/** One test's fixture instances, to be ended with the test. */
export interface TestScoped {
  end(): Promise<void>;
}

/**
 * Resolves `fixtures` for `frame` (a test's, or a build's) in the test file `file`: each value is
 * readable in the frame from then on, and the sources in them are the frame's. Throws
 * FixtureUnavailable for the first one that cannot be built. Returns the test-scoped instances to end.
 */
export async function resolve(fixtures: readonly Fixture<unknown>[], frame: Frame, file: string, kind?: SourceKind): Promise<TestScoped[]> {
  const known = values.get(frame) ?? new Map<Fixture<unknown>, unknown>();
  values.set(frame, known);
  const ended: TestScoped[] = [];
  for (const f of fixtures) {
    if (known.has(f)) continue;
    let value: unknown;
    const ofKind = f.spec.perKind ? kind : undefined;
    if (f.spec.perKind && !kind) throw new HarnessError(`fixture ${f.spec.name} is built per kind, and ${frame.holder} has none`);
    if (f.spec.scope === 'run') value = await runValue(f, frame.run, file, ofKind);
    else if (f.spec.scope === 'file') value = await fileValue(f, frame.run, file, ofKind);
    else {
      const instance = await testInstance(f, frame, file, kind);
      ended.push(instance);
      value = instance.value;
      // The test has it to itself: no take-back for another test touches it meanwhile.
      await frame.run.coordinator.use(frame.holder, sourcesIn(value));
    }
    known.set(f, value);
    frame.sources.push(...sourcesIn(value));
    frame.symbols.fixture(f.spec.name, value);
  }
  return ended;
}

function runValue(f: Fixture<unknown>, run: Run, file: string, kind: SourceKind | undefined): Promise<unknown> {
  const name = instanceName(f, kind);
  if (runScopedFor !== run.context.runId) {
    runScoped.clear();
    runScopedFor = run.context.runId;
  }
  let value = runScoped.get(name);
  if (!value) {
    value = (async () => {
      const state = await run.coordinator.runFixture(name);
      if ('value' in state) return state.value;
      if ('failure' in state) throw new FixtureUnavailable(state.failure);
      try {
        const built = await build(f, run, `run:${name}`, `run:${name}`, file, kind);
        await run.coordinator.publish(name, { value: built });
        return built;
      } catch (error) {
        const failure = failureOf(f, error);
        await run.coordinator.publish(name, { failure });
        throw new FixtureUnavailable(failure);
      }
    })();
    runScoped.set(name, value);
  }
  return value;
}

function fileValue(f: Fixture<unknown>, run: Run, file: string, kind: SourceKind | undefined): Promise<unknown> {
  const ofFile = fileScoped.get(file) ?? new Map();
  fileScoped.set(file, ofFile);
  const name = instanceName(f, kind);
  let entry = ofFile.get(name);
  if (!entry) {
    const owner = `file:${name}@${file}`;
    entry = {
      owner,
      value: build(f, run, owner, owner, file, kind).catch(async (error: unknown) => {
        const failure = failureOf(f, error);
        await run.coordinator.fixtureFailed(failure);
        throw new FixtureUnavailable(failure);
      }),
    };
    ofFile.set(name, entry);
  }
  return entry.value;
}

/** A test-scoped instance: a kept one, reset, or a new one; kept again or dropped when the test ends. */
async function testInstance(f: Fixture<unknown>, frame: Frame, file: string, kind: SourceKind | undefined): Promise<TestScoped & { value: unknown }> {
  const { run } = frame;
  const shelf = `${f.spec.name}:${kind ?? ''}`;
  const end = (owner: string, value: unknown) => async () => {
    if (f.spec.reset) await run.coordinator.keep(shelf, { owner, value });
    else await run.coordinator.drop(owner);
  };
  for (;;) {
    const turn = f.spec.reset ? await run.coordinator.shelfTurn(shelf, f.spec.most) : { build: true as const };
    if ('build' in turn) break;
    const kept = turn.kept as { owner: string; value: unknown };
    const reset = new Frame(run, `${frame.holder}/${f.spec.name}`, kept.owner, new Set(f.spec.requires?.setup), `${f.spec.name}-reset`, undefined, 'reset');
    await resolve(depsOf(f), reset, file);
    const ok = await f.spec.reset!(kept.value, context(f, reset, kind)).catch(() => false);
    await reset.close(file);
    if (ok) return { value: kept.value, end: end(kept.owner, kept.value) };
    await run.coordinator.drop(kept.owner);
    await run.coordinator.unmade(shelf);
  }
  if (instances.runId !== run.context.runId) instances = { runId: run.context.runId, count: 0 };
  const owner = `test:${f.spec.name}#${++instances.count}@${file}`;
  try {
    const value = await build(f, run, `${frame.holder}/${f.spec.name}`, owner, file, kind);
    return { value, end: end(owner, value) };
  } catch (error) {
    await run.coordinator.drop(owner);
    if (f.spec.reset) await run.coordinator.unmade(shelf);
    throw new FixtureUnavailable(failureOf(f, error));
  }
}

/** Builds a fixture in a frame of its own; the users it leases stay marked (pinned) in its world while `owner` lives. */
async function build(f: Fixture<unknown>, run: Run, holder: string, owner: string, file: string, kind?: SourceKind): Promise<unknown> {
  const frame = new Frame(run, holder, owner, new Set(f.spec.requires?.setup), owner);
  let value: unknown;
  try {
    await resolve(depsOf(f), frame, file, kind);
    value = await f.spec.build(context(f, frame, kind));
    return value;
  } finally {
    await frame.close(file, { pin: owner, sources: [...frame.sources, ...sourcesIn(value)] });
  }
}

/** A build's or a reset's context: its frame's set-up, the kind, and the values of its fixtures by name. */
function context(f: Fixture<unknown>, frame: Frame, kind?: SourceKind): BuildContext & Values<Fixtures> {
  return { ...setupContext(frame), kind, ...valuesByName(frame, f.spec.fixtures ?? {}) };
}

/** The values of `fixtures`, which `frame` resolved, by their names. */
export function valuesByName(frame: Frame, fixtures: Fixtures): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fixtures).map(([name, f]) => [name, valueIn(frame, f)]));
}

/** What `frame` works with: a test's kit and a build's context are made from it. */
export function setupContext(frame: Frame): SetupContext {
  return {
    run: frame.run.context,
    make: frame.make,
    admin: frame.admin,
    names: frame.names,
    lease: () => frame.lease(),
    leaseSeatless: () => frame.leaseSeatless(),
    mayUse: (need) => frame.mayUse(need),
  };
}

function failureOf(f: Fixture<unknown>, error: unknown): FixtureFailure {
  if (error instanceof FixtureUnavailable) return error.failure;
  const base = { fixture: f.spec.name, scope: f.spec.scope, message: (error as Error).message };
  if (error instanceof SetupError && error.need) return { ...base, lacking: { need: error.need, endpoint: SETUP_NEEDS[error.need].endpoint } };
  return base;
}

/** The file's fixtures are no longer needed: their domains are dropped (the run's clean-up removes their objects). */
export async function endFile(run: Run, file: string): Promise<void> {
  const ofFile = fileScoped.get(file);
  fileScoped.delete(file);
  for (const { owner } of ofFile?.values() ?? []) await run.coordinator.drop(owner);
}

/** Holds the fixtures among `fixtures` that tests use one at a time, for the duration of `work`. */
export async function holding<T>(run: Run, file: string, kind: SourceKind, fixtures: readonly Fixture<unknown>[], work: () => Promise<T>): Promise<T> {
  const locks = fixtures
    .filter((f) => f.spec.alone !== undefined)
    .map((f) => `fixture:${f.spec.name}${f.spec.scope === 'file' ? `@${file}` : ''}${f.spec.perKind ? `:${kind}` : ''}`)
    .sort();
  for (const name of locks) await run.coordinator.lock(name);
  const leases: TargetLease[] = [];
  const admin = new Client(run.context.targetUrl, run.context.adminToken, 'admin (lease)', { timeoutMs: run.context.requestTimeoutMs, maxBytes: run.context.maxAnswerBytes });
  const ledger = new Ledger(run.context.ledgerPath, run.context.runId);
  try {
    for (const f of fixtures.filter((f) => f.spec.leaseOnTarget !== undefined)) {
      const what = f.spec.leaseOnTarget!;
      const answer = await acquireLease(admin, what, run.context.runId, { waitMs: run.context.leaseWaitMs, ttlMs: FIXTURE_LEASE_TTL_MS, label: what.startsWith('fixture-') ? `fixture "${f.spec.name}"` : undefined });
      if ('refused' in answer) throw new LeaseRefused(answer.refused);
      ledger.recordLease(answer.lease);
      leases.push(answer.lease);
    }
    return await work();
  } finally {
    for (const lease of leases.reverse()) if (await releaseLease(admin, lease).catch(() => false)) ledger.markReleased({ name: lease.path, id: lease.id, until: lease.until });
    for (const name of locks.reverse()) await run.coordinator.unlock(name);
  }
}

/** A fixture's lease lasts one test: its body's deadline and its set-up, with room to spare. */
const FIXTURE_LEASE_TTL_MS = 5 * 60_000;

/** The value of `f` for `frame`, which resolved it; the harness's error when the frame did not declare it. */
export function valueIn<T>(frame: Frame, f: Fixture<T>): T {
  const known = values.get(frame);
  if (!known?.has(f as Fixture<unknown>)) throw new HarnessError(`${frame.holder} uses fixture "${f.spec.name}" without declaring it`);
  return known.get(f as Fixture<unknown>) as T;
}
