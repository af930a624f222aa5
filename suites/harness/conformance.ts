// The test wrapper. A conformance test declares a stable id, the endpoint form it exercises, the
// clauses it checks and what it needs of the target; the wrapper gates it (disabled / unsupported,
// with the reason), records the evidence of its requests, and leaves its metadata for the reporters.
import { afterAll, beforeAll, test, type RunnerTask } from 'vitest';
import { fixture, type FixtureName } from '../../fixtures/manifest.js';
import { World } from '../../fixtures/world.js';
import { CATALOG_IDS } from '../catalog.js';
import { Client, type Exchange } from './client.js';
import { HarnessError } from './errors.js';
import type { Capability } from './config.js';
import { beginTest } from './current-test.js';
import { ENDPOINTS, type Endpoint } from './endpoints.js';
import { redactValue } from './redact.js';
import { ensureRunContext, type ActorName, type RunContext, type TokenScope } from './run-context.js';
import { versionAtLeast } from './version.js';

export interface Requirements {
  capabilities?: Capability[];
  /** Minimum target version, e.g. "15.7" (spec: Versioning). */
  minVersion?: string;
  fixtures?: FixtureName[];
}

export interface TestMeta {
  id: string;
  title: string;
  endpoint: Endpoint;
  area: string;
  clauses: string[];
  requires: Requirements;
}

/** One recorded exchange as the reports show it: without the raw bytes, tokens redacted. */
export type Evidence = Omit<Exchange, 'bytes'>;

declare module 'vitest' {
  interface TaskMeta {
    conformance?: TestMeta;
    evidence?: Evidence[];
  }
}

export interface Kit {
  run: RunContext;
  /** A client acting as a shared actor (default scope `api`), the admin, or nobody. */
  as(actor: ActorName | 'admin' | 'anonymous', scope?: TokenScope): Client;
  /** A client with any token, e.g. one a test made itself. */
  withToken(token: string | undefined, label: string): Client;
}

function kit(run: RunContext): Kit {
  const base = new Client(run.targetUrl, undefined, 'anonymous', run.requestTimeoutMs);
  return {
    run,
    as(actor, scope = 'api') {
      if (actor === 'anonymous') return base;
      if (actor === 'admin') return base.withToken(run.adminToken, 'admin');
      return base.withToken(run.actors[actor].tokens[scope], scope === 'api' ? actor : `${actor} (${scope} token)`);
    },
    withToken: (token, label) => base.withToken(token, label),
  };
}

/** Why a test does not apply to this run, or undefined when it does. */
export function gate(meta: TestMeta, run: RunContext): string | undefined {
  if (!(run.areas as string[]).includes(meta.area)) return `disabled: area ${meta.area} is not selected (CONFORMANCE_AREAS)`;
  if (run.endpoints.length > 0 && !run.endpoints.includes(meta.endpoint)) return `disabled: endpoint ${meta.endpoint} is not selected (CONFORMANCE_ENDPOINTS)`;
  const off = run.disabledTests.find((pattern) => (pattern.endsWith('*') ? meta.id.startsWith(pattern.slice(0, -1)) : meta.id === pattern));
  if (off) return `disabled: turned off by CONFORMANCE_DISABLE (${off})`;
  for (const capability of meta.requires.capabilities ?? []) {
    if (!run.capabilities.includes(capability)) return `unsupported: needs capability "${capability}", which the target does not declare (CONFORMANCE_CAPABILITIES)`;
  }
  if (meta.requires.minVersion && !versionAtLeast(run.version, meta.requires.minVersion)) {
    return `unsupported: needs GitLab ${meta.requires.minVersion} or later, the target reports ${run.version}`;
  }
  for (const name of meta.requires.fixtures ?? []) {
    if (!fixture(run.fixtures, name)) return `unsupported: needs the "${name}" fixture, which the fixture manifest does not provide (CONFORMANCE_FIXTURES)`;
  }
  return undefined;
}

export function conformance(
  spec: { id: string; title: string; endpoint: Endpoint; clauses: string[]; requires?: Requirements },
  body: (kit: Kit) => Promise<void>,
): void {
  const area = ENDPOINTS[spec.endpoint];
  if (!area) throw new Error(`test ${spec.id}: unknown endpoint form "${spec.endpoint}"`);
  if (spec.clauses.length === 0) throw new Error(`test ${spec.id} names no clause`);
  const unknown = spec.clauses.filter((c) => !CATALOG_IDS.has(c));
  if (unknown.length > 0) throw new Error(`test ${spec.id} names clauses that are not in the catalog: ${unknown.join(', ')}`);
  const meta: TestMeta = { id: spec.id, title: spec.title, endpoint: spec.endpoint, area, clauses: spec.clauses, requires: spec.requires ?? {} };

  test(`${spec.id}: ${spec.title}`, { meta: { conformance: meta } }, async (ctx) => {
    const run = await ensureRunContext();
    const reason = gate(meta, run);
    if (reason) ctx.skip(reason);
    const evidence: Exchange[] = [];
    beginTest({ id: spec.id, clauses: spec.clauses, evidence });
    try {
      await body(kit(run));
    } catch (error) {
      ctx.task.meta.evidence = evidence.slice(-6).map(toEvidence);
      throw error;
    } finally {
      beginTest(undefined);
    }
  });
}

function toEvidence(exchange: Exchange): Evidence {
  const { bytes: _bytes, ...rest } = exchange;
  const body = typeof rest.body === 'string' && rest.body.length > 2000 ? `${rest.body.slice(0, 2000)}…` : rest.body;
  return redactValue({ ...rest, body });
}

/**
 * The objects one test file works on, built once before its tests and removed after them. Every
 * file builds its own, so files run in parallel without sharing state on the target.
 */
function allTests(task: RunnerTask): RunnerTask[] {
  return task.type === 'suite' ? task.tasks.flatMap(allTests) : [task];
}

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
    } catch (error) {
      // Not rethrown: a failing hook would leave the tests merely skipped. Each test that asks
      // for the world fails instead, with this error (verdict `error`).
      failure = error instanceof HarnessError ? error : new HarnessError(`building the world of this file failed: ${(error as Error).message}`);
    }
  });
  afterAll(async () => {
    await world?.cleanup();
  });
  return () => {
    if (failure) throw failure;
    if (value === undefined) throw new HarnessError('the world of this file was not built');
    return value;
  };
}
