// Faults the reference server can be told to commit, to prove that the suite notices them. A fault
// is switched on for the whole server (`faults` option, `--fault` flag), by the fault checker between
// runs (`FaultContext.active`), or, where the server allows it (`faultHeader` option), for one request
// (the `X-Reference-Fault` header, comma-separated names). Each fault is a hook around the routes,
// so the area code stays the correct implementation.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Store } from '../state/store.js';
import { catalogueOf } from './catalogue.js';
import { ROBUSTNESS_FAULTS } from './robustness.js';
import type { AreaFaults, Fault, FaultContext } from './types.js';

export type { Fault, FaultContext } from './types.js';

/** The faults of a server with these areas: the robustness faults, then the catalogue's (reference-server/areas.ts FAULTS for the registered areas). */
export const faultsOf = (areas: readonly AreaFaults[]): Fault[] => [...ROBUSTNESS_FAULTS, ...catalogueOf(areas)];

export interface FaultOptions {
  /** Faults on from the start. */
  faults?: string[];
  /** Let a request ask for faults with the X-Reference-Fault header. */
  faultHeader?: boolean;
  /** Install the hooks even with no fault on, so that faults can be switched on later. */
  faultSwitch?: boolean;
}

/** `known`: the faults of the server's areas (faultsOf). */
export function faultContext(store: Store, options: FaultOptions, known: readonly Fault[]): FaultContext {
  const names = known.map((f) => f.name);
  const unknown = (options.faults ?? []).filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new Error(`unknown fault(s): ${unknown.join(', ')} (known: ${names.join(', ')})`);
  return { store, active: new Set(options.faults ?? []), seen: new Map(), fired: new Map(), known };
}

/** Whether any hook is needed: with no fault possible, requests pay nothing. */
export function faultsPossible(options: FaultOptions): boolean {
  return (options.faults ?? []).length > 0 || options.faultHeader === true || options.faultSwitch === true;
}

/** For Fastify's `rewriteUrl` option: faults that send a request to another route. */
export function rewriteUrlWith(ctx: FaultContext): (req: IncomingMessage) => string {
  return (req) => {
    let url = req.url ?? '/';
    for (const fault of ctx.known) {
      if (!fault.rewriteUrl || !ctx.active.has(fault.name)) continue;
      const next = fault.rewriteUrl(req.method ?? 'GET', url);
      if (next !== undefined && next !== url) {
        fire(ctx, fault);
        url = next;
      }
    }
    return url;
  };
}

function fire(ctx: FaultContext, fault: Fault): void {
  ctx.fired.set(fault.name, (ctx.fired.get(fault.name) ?? 0) + 1);
}

export function installFaults(app: FastifyInstance, ctx: FaultContext, byHeader: boolean): void {
  const active = (request: FastifyRequest): Fault[] => {
    const header = byHeader ? request.headers['x-reference-fault'] : undefined;
    const named = typeof header === 'string' ? new Set([...ctx.active, ...header.split(',').map((s) => s.trim())]) : ctx.active;
    return named.size === 0 ? [] : ctx.known.filter((f) => named.has(f.name));
  };
  // Callback hooks: a request that no fault concerns (nearly all) costs no promise and no extra
  // turn of the microtask queue; only one with faults goes the asynchronous way.
  app.addHook('onRequest', (request, reply, done) => {
    const faults = active(request);
    if (faults.length === 0) return done();
    void (async () => {
      for (const fault of faults) {
        if (fault.onRequest && (await fault.onRequest(request, reply, ctx))) {
          fire(ctx, fault);
          return;
        }
      }
      done();
    })().catch(done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    try {
      for (const fault of active(request)) fault.preHandler?.(request, ctx);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    // An empty answer (204) reaches here as undefined; a raw file as a Buffer, which faults leave alone.
    const faults = active(request);
    if (faults.length === 0) return done(null, payload);
    let out = payload ?? '';
    try {
      for (const fault of faults) {
        if (fault.onSend && typeof out === 'string') {
          const next = fault.onSend(request, reply, out, ctx);
          if (next !== out) fire(ctx, fault);
          out = next;
        }
      }
    } catch (error) {
      return done(error as Error);
    }
    done(null, out);
  });
}
