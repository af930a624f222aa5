// What a fault is: a named, described wrong behaviour that hooks around the correct routes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../state/store.js';

export interface FaultContext {
  store: Store;
  /** The faults in force; the fault checker switches them between runs. */
  active: Set<string>;
  /** Requests seen per "METHOD path", for faults that act on the first one. */
  seen: Map<string, number>;
  /** How often each fault fired. */
  fired: Map<string, number>;
  /** The faults the server knows: the robustness faults, its areas' and the cross-cutting ones. */
  known: readonly Fault[];
}

/** What every fault is: a name, a description and the hooks it acts through. */
interface FaultHooks {
  name: string;
  description: string;
  /** Changes the URL before routing (a request lands on another route). */
  rewriteUrl?(method: string, url: string): string | undefined;
  /** Runs before routing's handler; may answer instead of the route (return true when it answered). */
  onRequest?(request: FastifyRequest, reply: FastifyReply, ctx: FaultContext): Promise<boolean> | boolean;
  /** Changes the parsed request (params, query, body) before the route's handler. */
  preHandler?(request: FastifyRequest, ctx: FaultContext): void;
  /** Rewrites the answer of the route: payload, status, headers. */
  onSend?(request: FastifyRequest, reply: FastifyReply, payload: string, ctx: FaultContext): string;
}

/**
 * A seeded fault as its area declares it (reference-server/faults/<area>.ts): a wrong behaviour of
 * the API that the suite must notice. The area's registration gives it the area (SeededFault).
 */
export interface AreaFault extends FaultHooks {
  robustness?: undefined;
  /**
   * The clause ids (suites/<area>/clauses.ts) whose statement the wrong behaviour breaks, chosen by
   * meaning. The fault checker requires that a test naming one of them fails, at the fault's level,
   * while the fault is on. Plain strings: the reference server imports nothing from suites/; the
   * checker validates them against the clause catalog.
   */
  clauses: string[];
  /**
   * 'parity' for a fault that breaks only GitLab-parity behaviour (an exact error text, GitLab-only
   * behaviour): caught by a test's parity verdict. Default: the spec level (the spec verdict).
   */
  level?: 'parity';
}

/**
 * A seeded fault of the catalogue, with its area: the name of an area the server registers
 * (reference-server/areas.ts gives each area's faults its name), or 'cross-cutting' for the behaviour every area shares. Plain text here, so that
 * this file need not import the registry that imports the faults.
 */
export interface SeededFault extends AreaFault {
  area: string;
}

/**
 * A robustness fault (429s, hangs, refused tokens) tests the runner, not the verdicts: the fault
 * checker leaves it to the CLI tests, and it names no clause.
 */
export interface RobustnessFault extends FaultHooks {
  area: 'cross-cutting';
  robustness: true;
  clauses?: undefined;
  level?: undefined;
}

export type Fault = SeededFault | RobustnessFault;

/** What the catalogue needs of an area the server registers (reference-server/areas.ts ServerArea): its faults. */
export interface AreaFaults {
  faults: SeededFault[];
}
