// The test wrapper. A conformance test belongs to one endpoint of one area; it names its case, the
// clauses it checks and what it needs of the target. Written once, it runs for every kind of source
// the endpoint has (group and project), with ids derived from area, endpoint, kind and case, e.g.
// `invitations.create.project.limit`. The wrapper gates each test (disabled / unsupported, with the
// reason), gives it clients that record into its own log, and decides its verdicts on both levels
// (spec and GitLab parity), which it leaves, typed, in the task's meta for the reporters.
import { afterAll, inject, test, type RunnerTask } from 'vitest';
import { formsByKind, type Area } from '../core/area.js';
import type { Cause } from '../core/cause.js';
import { phaseProject, sameValue } from '../core/instance-setting.js';
import { escapeRegExp } from '../core/regexp.js';
import { describeExchange } from '../core/checks.js';
import { Client } from '../core/client.js';
import { ConformanceFailure, HarnessError } from '../core/errors.js';
import { TestLog, type Exchange, type ParityNote, type VerdictLevel } from '../core/exchange.js';
import { redact, redactValue } from '../core/redact.js';
import { SETUP_NEEDS, type SetupNeed } from '../core/setup-needs.js';
import type { ActorName, SourceKind, TokenScope } from '../core/vocabulary.js';
import { BODY_DEADLINE_MS } from './config.js';
import type { RunContext } from './context.js';
import type { FixtureFailure } from './coordination/run-fixtures.js';
import { currentRun } from './current-run.js';
import { closure, endFile, fixture as baseFixture, FixtureUnavailable, heldSources, holding, needsOf, resolve, setupContext, valueIn, valuesByName, type BuildContext, type Fixture, type Fixtures, type FixtureSpec, type SetupContext, type TestScoped, type Values } from './fixture.js';
import { parameterNames } from './fixture-parameters.js';
import { Frame } from './frame.js';
import { SetupError } from './maker.js';
import { enterPhase } from './setting-phase.js';
import { LeaseRefused } from './target-lease.js';
import { sharedListMark } from './shared-lists.js';
import { beforeRun, unmet, type Gate, type Requirements } from './requirements.js';
import type { SymbolEntry } from './symbols.js';

export type { Requirements } from './requirements.js';

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
  /** The fixtures it uses, with those they are built from (names). */
  fixtures: string[];
  /** The set-up endpoints beyond the target contract it depends on, its own and its fixtures'. */
  needs: SetupNeed[];
}

/**
 * One recorded exchange as the reports show it: without the raw bytes, tokens redacted; `user`, the
 * username whose token it was sent with, when the run made that user for every test (an actor, a pool user).
 */
export type Evidence = Omit<Exchange, 'bytes' | 'log'> & { user?: string };

/** How a test ended, decided where it happened. */
export interface Outcome {
  /** Gated off before it ran, or a set-up endpoint beyond the contract that the target lacks. */
  gate?: Gate;
  /** The spec verdict of a test that ran and did not pass: `fail` (the target) or `error` (the suite could not check). */
  failure?: 'fail' | 'error';
  /** What GitLab does that the target did not (the parity level). */
  parity: ParityNote[];
  /** The answer that stopped a test that did not pass, for grouping by root cause. */
  cause?: Cause;
  /** The fixture that could not be built for it, as the report lists it with its dependents. */
  fixtureFailure?: FixtureFailure;
  /** Every exchange the test made, in the order sent, for a transcript (only when the run records). */
  transcript?: Evidence[];
  /** The run's objects the test met, by role (only when the run records). */
  symbols?: SymbolEntry[];
  /** When its body started (only when the run records): `diff` orders tests by it. */
  startedAt?: string;
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: TestMeta;
    outcome?: Outcome;
    evidence?: Evidence[];
  }
}

/**
 * What every test is handed: clients that record into its log, and its frame's set-up (SetupContext:
 * `make` for the objects only it uses, users lent to it with `lease`, given back when it ends). An
 * area's kit adds its own (areaKit), and a test's fixtures come beside them, by name (TestKit).
 */
export interface Kit extends SetupContext {
  /** The kind of source of this variant of the test. */
  kind: SourceKind;
  /** This test's log: its evidence, and where parity notes that concern no one exchange go. */
  log: TestLog;
  /** A client acting as a shared actor (default scope `api`), the admin, or nobody: its requests are the checked ones. */
  as(actor: ActorName | 'admin' | 'anonymous', scope?: TokenScope): Client;
  /** A client with any token, e.g. one a test made itself. */
  withToken(token: string | undefined, label: string): Client;
}

/** A test's kit: the base kit, its area's, and the values of the fixtures it may read, by name. */
export type TestKit<A extends object, F extends Fixtures> = Kit & A & Values<F>;

/** The names of the base kit: no fixture may take one. */
const KIT_NAMES = new Set(['run', 'make', 'admin', 'names', 'lease', 'leaseSeatless', 'mayUse', 'kind', 'log', 'as', 'withToken']);

function kit(run: RunContext, kind: SourceKind, frame: Frame): Kit {
  const base = new Client(run.targetUrl, undefined, 'anonymous', { timeoutMs: run.requestTimeoutMs, maxBytes: run.maxAnswerBytes }, frame.log).recordingTo(frame, 'checked');
  return {
    ...setupContext(frame),
    kind,
    log: frame.log!,
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
export function gate(meta: Pick<TestMeta, 'id' | 'area' | 'endpoint' | 'requires'>, run: RunContext, fixtures: readonly Fixture<unknown>[] = []): Gate | undefined {
  const disabled = (reason: string) => ({ verdict: 'disabled' as const, reason });
  if (run.areas.length > 0 && !run.areas.includes(meta.area)) return disabled(`area ${meta.area} is not selected (CONFORMANCE_AREAS)`);
  if (run.endpoints.length > 0 && !run.endpoints.includes(meta.endpoint)) return disabled(`endpoint ${meta.endpoint} is not selected (CONFORMANCE_ENDPOINTS)`);
  const off = run.disabledTests.find((pattern) => (pattern.endsWith('*') ? meta.id.startsWith(pattern.slice(0, -1)) : meta.id === pattern));
  if (off) return disabled(`turned off by CONFORMANCE_DISABLE (${off})`);
  const own = unmet(meta.requires, run);
  if (own) return own;
  for (const f of closure(fixtures)) {
    const theirs = f.spec.requires && unmet(f.spec.requires, run, `its fixture "${f.spec.name}" `);
    if (theirs) return theirs;
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
  /**
   * Why no other test of its file may run while it does (e.g. it reads a whole list back unchanged):
   * the tests before it end first, and those after it wait for it.
   */
  alone?: string;
}

/** A test's declaration with the fixtures it may read besides its area's and its endpoint's, by name. */
export interface TestWith<H extends Fixtures> extends TestSpec {
  fixtures?: H;
}

/** What an area's kit adds to every test of it (and to the builds of its fixtures): methods from the test's set-up, and fixtures by name. */
export interface AreaKit<A extends object, F extends Fixtures> {
  extend?: (ctx: BuildContext) => A;
  fixtures?: F;
}

/** The tests of one endpoint: each reads the fixtures it destructures from its kit (`async ({ as, source }) => …`). */
export interface Endpoint<A extends object, F extends Fixtures> {
  test<H extends Fixtures = Record<never, never>>(spec: TestWith<H>, body: (kit: TestKit<A, F & H>) => Promise<void>): void;
}

/**
 * An area's kit, extended once (suites/<area>/kit.ts), as vitest's and Playwright's `test.extend`:
 * `endpoint(name, { fixtures })` for its test files, and `fixture(spec)` for fixtures whose builds
 * have the area's methods too.
 */
export function areaKit<E extends string, X extends string, A extends object = Record<never, never>, F extends Fixtures = Record<never, never>>(area: Area<E, X>, kit: AreaKit<A, F> = {}) {
  const extend = kit.extend ?? (() => ({}) as A);
  return {
    endpoint: <G extends Fixtures = Record<never, never>>(name: E | X, defaults: { fixtures?: G; alone?: string } = {}): Endpoint<A, F & G> =>
      endpointOf(area, name, { ...defaults, fixtures: { ...kit.fixtures, ...defaults.fixtures } as F & G }, extend),
    fixture: <T, D extends Fixtures = Record<never, never>>(spec: FixtureSpec<T, D, BuildContext & A>): Fixture<T> =>
      baseFixture<T, D>({
        ...spec,
        build: (ctx) => spec.build({ ...ctx, ...extend(ctx) }),
        ...(spec.reset ? { reset: (value: T, ctx: BuildContext & Values<D>) => spec.reset!(value, { ...ctx, ...extend(ctx) }) } : {}),
      }),
  };
}

/**
 * The fixtures a test reads: those of `declared` whose names its body destructures from its first
 * parameter (fixture-parameters.ts), or all of them when its first parameter is no object pattern
 * (`async (kit) => …`) or a compiler rewrote it: then each is built and handed to it.
 */
export function fixturesRead(declared: Fixtures, body: (kit: never) => Promise<void>): Fixtures {
  const read = parameterNames(body);
  if (!read) return declared;
  return Object.fromEntries(Object.entries(declared).filter(([name]) => read.names.includes(name)));
}

/**
 * A test name pattern (vitest's -t, the command's --grep) for exactly the tests with these ids: a
 * test's name is `<id>: <title>` (endpoint's test).
 */
export const testNamePattern = (ids: readonly string[]) => `^(${ids.map(escapeRegExp).join('|')}): `;

/**
 * The tests of one endpoint of an area, on the base kit (an area with a kit of its own has its
 * `endpoint` from areaKit): `endpoint(area, 'create', { fixtures: { source } }).test({ case, title,
 * clauses }, async ({ as, source }) => …)`. `fixtures`: those every test of it may read. `name` may
 * also be one of the area's extensions (a GitLab endpoint beyond the spec's forms): its tests are at
 * the parity level, and each names the GitLab version that added the endpoint (`requires.minVersion`),
 * so that an older target reports them unsupported.
 */
export function endpoint<E extends string, X extends string, G extends Fixtures = Record<never, never>>(area: Area<E, X>, name: E | X, defaults: { fixtures?: G; alone?: string } = {}): Endpoint<Record<never, never>, G> {
  return areaKit(area).endpoint(name, defaults);
}

function endpointOf<E extends string, X extends string, A extends object, F extends Fixtures>(area: Area<E, X>, name: E | X, defaults: { fixtures: F; alone?: string }, extend: (ctx: BuildContext) => A): Endpoint<A, F> {
  const extension = area.extensions !== undefined && Object.hasOwn(area.extensions, name);
  const forms = extension ? area.extensions![name as X] : area.endpoints[name as E];
  const variants = formsByKind(forms).map(([kind, form]) => ({ kind: kind ?? kindOfForm(form), form }));
  const family = variants.length > 1;
  // The file's fixtures go when its last test has run. (vitest wants the hook's first parameter destructured.)
  // eslint-disable-next-line no-empty-pattern
  afterAll(async ({}, suite) => endFile(await currentRun(), fileKey(suite.file.name)));
  return {
    test(spec, body): void {
      const where = `${area.prefix}.${name}.${spec.case}`;
      if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(spec.case)) throw new Error(`${area.prefix}.${name}: case "${spec.case}" must be lower-case words with dashes`);
      if (spec.clauses.length === 0) throw new Error(`${where} names no clause`);
      const unknown = spec.clauses.filter((c) => !area.clauseIds.has(c));
      if (unknown.length > 0) throw new Error(`${where} names clauses that area ${area.name} does not declare: ${unknown.join(', ')}`);
      if (spec.only && !variants.some((v) => v.kind === spec.only!.kind)) throw new Error(`${area.prefix}.${name}: ${where}: endpoint ${name} has no ${spec.only.kind} form`);
      if (extension && (spec.level === 'spec' || !spec.requires?.minVersion)) {
        throw new Error(`${where}: ${name} is an extension (beyond the spec): its tests are at the parity level and name the GitLab version that added it (requires.minVersion)`);
      }
      const declared: Fixtures = { ...defaults.fixtures };
      for (const [key, f] of Object.entries(spec.fixtures ?? {})) {
        if (declared[key] !== undefined && declared[key] !== f) throw new Error(`${where} declares fixture ${key} as ${f.spec.name}, which its endpoint or area declares as ${declared[key].spec.name}`);
        declared[key] = f;
      }
      const taken = Object.keys(declared).filter((key) => KIT_NAMES.has(key));
      if (taken.length > 0) throw new Error(`${where}: fixtures may not take the kit's names (${taken.join(', ')})`);
      const read = fixturesRead(declared, body);
      // A test's own declaration that its body never reads is a mistake (it would hold nothing): say so.
      const unread = Object.keys(spec.fixtures ?? {}).filter((key) => !(key in read));
      if (unread.length > 0) throw new Error(`${where} declares fixtures its body does not destructure: ${unread.join(', ')}`);
      const uses = Object.values(read);
      const setting = spec.requires?.setting;
      const needs = [...new Set([...needsOf(uses), ...(spec.requires?.setup ?? []), ...(setting ? (['application-settings-read'] as const) : [])])];
      const fixtures = closure(uses).map((f) => f.spec.name);
      // In a setting's phase (vitest.config.ts) only the tests that need its value are declared.
      const phase = inject('conformancePhase');
      if (!setting !== !phase) {
        throw new Error(
          setting
            ? `${where} needs ${setting.name} at ${JSON.stringify(setting.value)}: it goes in a *.exclusive.test.ts file, which runs in the setting's phases`
            : `${where}: a test in a *.exclusive.test.ts file declares the instance setting it needs (requires.setting)`,
        );
      }
      if (phase && !sameValue(phase, setting)) return;
      for (const { kind, form } of variants) {
        if (spec.only && spec.only.kind !== kind) continue;
        const id = family ? `${area.prefix}.${name}.${kind}.${spec.case}` : `${area.prefix}.${name}.${spec.case}`;
        const level = extension ? 'parity' : (spec.level ?? 'spec');
        const meta: TestMeta = { id, title: spec.title, area: area.name, endpoint: form, kind, clauses: spec.clauses, requires: beforeRun(spec.requires ?? {}), level, fixtures, needs };
        declare(meta, read, extend, body as (kit: Kit) => Promise<void>, spec.alone ?? defaults.alone);
      }
    },
  };
}

/** The sources of the fixtures a test shares with the other tests of its file (file or run scope, not `alone`). */
const sharedSources = (frame: Frame, uses: readonly Fixture<unknown>[]) => uses.filter((f) => f.spec.scope !== 'test' && f.spec.alone === undefined).flatMap((f) => heldSources(valueIn(frame, f)));

/**
 * What the run knows a test file by (its fixtures' scope and names): its name, and in a setting's
 * phase the phase too, since every phase loads the file anew and builds its file fixtures again.
 */
function fileKey(name: string): string {
  const phase = inject('conformancePhase');
  return phase ? `${name} (${phaseProject(phase)})` : name;
}

function kindOfForm(form: string): SourceKind {
  return form.includes(' /groups/') ? 'group' : 'project';
}

/**
 * The tests of a file run at once (vitest's maxConcurrency bounds them); a test that must run alone,
 * and every test of a sequential run, is declared plain: vitest runs such a test after the
 * concurrent ones before it have ended, and before those after it start. (vitest reads
 * `sequence.concurrent` from the root config only, never from a project's: the wrapper marks each test.)
 */
function declaring(alone: string | undefined): typeof test.concurrent {
  return alone !== undefined || inject('conformanceSettings')?.sequential ? test : test.concurrent;
}

function declare(meta: TestMeta, read: Fixtures, extend: (ctx: BuildContext) => object, body: (kit: Kit) => Promise<void>, alone: string | undefined): void {
  const uses = Object.values(read);
  declaring(alone)(`${meta.id}: ${meta.title}`, { meta: { conformance: meta } }, async (ctx) => {
    const run = await currentRun();
    const outcome: Outcome = { parity: [] };
    ctx.task.meta.outcome = outcome;
    const skip = (gate: Gate) => {
      outcome.gate = gate;
      ctx.skip(`${gate.verdict}: ${gate.reason}`);
    };
    const gated = gate(meta, run.context, uses);
    if (gated) skip(gated);
    const file = fileKey(ctx.task.file.name);
    const log = new TestLog();
    const frame = new Frame(run, `test:${meta.id}`, `test:${meta.id}`, new Set(meta.needs), meta.id, log);
    if (run.context.recording) {
      nameRunObjects(frame, run.context);
      outcome.startedAt = new Date().toISOString();
    }
    let instances: TestScoped[] = [];
    try {
      await holding(run, file, meta.kind, uses, async () => {
        try {
          // A setting's phase: its value is in place before the fixtures are built.
          if (meta.requires.setting) await enterPhase(frame, meta.requires.setting);
          instances = await resolve(uses, frame, file, meta.kind);
          if (run.context.markSharedLists && alone === undefined) frame.markChecked = sharedListMark(sharedSources(frame, uses), meta.id);
          const base = kit(run.context, meta.kind, frame);
          await withDeadline(body({ ...base, ...extend(base), ...valuesByName(frame, read) }));
        } catch (error) {
          if (error instanceof FixtureUnavailable) {
            outcome.fixtureFailure = error.failure;
            if (error.failure.lacking) skip({ verdict: 'unsupported', reason: error.message, lacking: error.failure.lacking });
          }
          // Another run holds the lease of an instance setting or a fixture of the manifest: the target is not at fault.
          if (error instanceof LeaseRefused) skip({ verdict: 'unsupported', reason: error.message });
          if (error instanceof SetupError && error.need) {
            const lacking = { need: error.need, endpoint: SETUP_NEEDS[error.need].endpoint };
            skip({ verdict: 'unsupported', reason: `the target lacks ${lacking.endpoint} (set-up "${lacking.need}"): ${error.brief}`, lacking });
          }
          if (error instanceof ConformanceFailure && meta.level === 'parity') {
            log.parity.push({ text: error.message, gitlab: 'the test as a whole (level parity)' });
          } else {
            outcome.failure = error instanceof ConformanceFailure ? 'fail' : 'error';
            const cause = (error as Partial<ConformanceFailure | HarnessError> | undefined)?.rootCause;
            if (cause) outcome.cause = cause;
            ctx.task.meta.evidence = log.exchanges.slice(-6).map((e) => toEvidence(e, run.context));
            throw explained(error, meta, log);
          }
        } finally {
          outcome.parity = log.parity.map((note) => ({ ...note, text: redact(note.text) }));
          if (run.context.recording) {
            outcome.transcript = [...log.exchanges].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map(toTranscript);
            outcome.symbols = frame.symbols.list();
          }
        }
      }).catch((error: unknown) => {
        // A fixture's lease on the target, held by another run (fixture.ts holding).
        if (error instanceof LeaseRefused) skip({ verdict: 'unsupported', reason: error.message });
        throw error;
      });
    } finally {
      await frame.close(file);
      for (const instance of instances) await instance.end();
      await run.coordinator.drop(frame.owner);
    }
    // Parity notes never fail the test: the reporter decides both levels from the outcome, and the
    // run's level picks only which summary the exit code follows (the test never reads it).
    if (log.parity.length > 0) ctx.task.meta.evidence = log.exchanges.slice(-6).map((e) => toEvidence(e, run.context));
  });
}

async function withDeadline(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HarnessError(`the test did not finish within ${BODY_DEADLINE_MS / 1000} s (the target is slow or an answer never came)`)), BODY_DEADLINE_MS);
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

function toEvidence(exchange: Exchange, run: RunContext): Evidence {
  const { bytes: _bytes, ...rest } = exchange;
  const body = typeof rest.body === 'string' && rest.body.length > 2000 ? `${rest.body.slice(0, 2000)}…` : rest.body;
  const user = [...Object.values(run.actors), ...run.pool.users, ...run.pool.seatless].find((u) => exchange.token !== undefined && Object.values(u.tokens).includes(exchange.token));
  return redactValue({ ...rest, body, ...(user ? { user: user.username } : {}) });
}

/** An exchange as a transcript keeps it: whole, binary bodies in base64, tokens redacted. */
function toTranscript(exchange: Exchange): Evidence {
  const { bytes, ...rest } = exchange;
  const binary = typeof rest.body === 'string' && bytes.length > 0 && !bytes.equals(Buffer.from(rest.body, 'utf8'));
  return redactValue({ ...rest, body: binary ? bytes.toString('base64') : rest.body, ...(binary ? { bodyEncoding: 'base64' } : {}) });
}

/** The shared actors, the administrator and the run's root group, by their role: known to every test. */
function nameRunObjects(frame: Frame, run: RunContext): void {
  for (const [role, actor] of Object.entries(run.actors)) frame.symbols.named(`user:${role}`, actor);
  // The administrator's names are not the run's to replace (they differ between targets for their own reasons): its id only.
  frame.symbols.named('user:admin', { id: run.adminId, username: '', email: '' });
  if (run.root) frame.symbols.named('group:root', run.root);
}

export function allTests(task: RunnerTask): RunnerTask[] {
  return task.type === 'suite' ? task.tasks.flatMap(allTests) : [task];
}
