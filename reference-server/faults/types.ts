// What a fault is: a named, described wrong behaviour that hooks around the correct routes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../state/store.js';

export type FaultArea = 'cross-cutting' | 'repository-files' | 'remote-mirrors' | 'invitations' | 'members';

export interface FaultContext {
  store: Store;
  /** The faults in force; the fault checker switches them between runs. */
  active: Set<string>;
  /** Requests seen per "METHOD path", for faults that act on the first one. */
  seen: Map<string, number>;
  /** How often each fault fired. */
  fired: Map<string, number>;
}

export interface Fault {
  name: string;
  area: FaultArea;
  description: string;
  /**
   * Robustness faults (429s, hangs, refused tokens) test the runner, not the verdicts: the fault
   * checker leaves them to the CLI tests. Every other fault must be caught by the tests it names.
   */
  robustness?: true;
  /** Conformance test ids that must fail while the fault is on (pinned by the fault checker). */
  caughtBy?: string[];
  /** Changes the URL before routing (a request lands on another route). */
  rewriteUrl?(method: string, url: string): string | undefined;
  /** Runs before routing's handler; may answer instead of the route (return true when it answered). */
  onRequest?(request: FastifyRequest, reply: FastifyReply, ctx: FaultContext): Promise<boolean> | boolean;
  /** Changes the parsed request (params, query, body) before the route's handler. */
  preHandler?(request: FastifyRequest, ctx: FaultContext): void;
  /** Rewrites the answer of the route: payload, status, headers. */
  onSend?(request: FastifyRequest, reply: FastifyReply, payload: string, ctx: FaultContext): string;
}
