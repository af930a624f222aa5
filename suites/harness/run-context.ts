// What the global setup hands every test file (through vitest's provide/inject): the target, the
// run's identity, the capabilities in force, and the shared actors with their tokens.
import { inject } from 'vitest';
import type { FixtureManifest } from '../../fixtures/manifest.js';
import type { Area, Capability } from './config.js';

export const ROLES = ['owner', 'maintainer', 'developer', 'reporter', 'guest'] as const;
export type Role = (typeof ROLES)[number];
/** Shared actors: one user per role, plus one who is never a member of anything. */
export type ActorName = Role | 'outsider';

export const ROLE_LEVEL: Record<Role, number> = { owner: 50, maintainer: 40, developer: 30, reporter: 20, guest: 10 };

export const TOKEN_SCOPES = ['api', 'read_api', 'read_repository'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export interface ActorInfo {
  id: number;
  username: string;
  name: string;
  email: string;
  tokens: Record<TokenScope, string>;
}

export interface RunContext {
  targetUrl: string;
  adminToken: string;
  adminId: number;
  /** Unique per run; every object the run creates carries `prefix` in its name. */
  runId: string;
  prefix: string;
  ledgerPath: string;
  version: string;
  referenceServer: boolean;
  capabilities: Capability[];
  headerPrefix: string;
  requestTimeoutMs: number;
  areas: Area[];
  /** Endpoint forms selected; empty: all. */
  endpoints: string[];
  disabledTests: string[];
  fixtures: FixtureManifest;
  actors: Record<ActorName, ActorInfo>;
}

declare module 'vitest' {
  interface ProvidedContext {
    conformance: RunContext;
  }
}

let cached: RunContext | undefined;
let making: Promise<RunContext> | undefined;

/**
 * The run, from the global setup; or, with CONFORMANCE_SERVER=in-worker, made here in the test
 * worker with a reference server of its own (mutation testing needs the server's code to run in the
 * thread where the mutant is switched on). Awaited by every file's world and every test.
 */
export async function ensureRunContext(): Promise<RunContext> {
  if (cached) return cached;
  if (process.env.CONFORMANCE_SERVER === 'in-worker') {
    making ??= import('./run.js').then(({ createRun }) => createRun({ unrefServer: true })).then(({ run }) => run);
    cached = await making;
  } else {
    cached = inject('conformance');
  }
  return cached;
}

