// Faults the reference server can be told to commit, to prove that the suite notices them. A fault
// is switched on for the whole server (`faults` option, `--fault` flag) or, where the server allows
// it (`faultHeader` option), for one request (the `X-Reference-Fault` header, comma-separated names). Each fault is a hook around the routes, so the
// area code stays the correct implementation.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface FaultContext {
  /** Requests seen per "METHOD path", for faults that act on the first one. */
  seen: Map<string, number>;
  /** How often each fault fired. */
  fired: Map<string, number>;
}

export interface Fault {
  name: string;
  area: 'cross-cutting' | 'repository-files' | 'remote-mirrors' | 'invitations' | 'members';
  description: string;
  /** Runs before the route; may answer instead of it (return true when it answered). */
  onRequest?(request: FastifyRequest, reply: FastifyReply, ctx: FaultContext): Promise<boolean> | boolean;
  /** Rewrites the answer of the route. */
  onSend?(request: FastifyRequest, reply: FastifyReply, payload: string, ctx: FaultContext): string;
}

/** Routes of the target contract's setup endpoints (TARGET-CONTRACT.md §2); faults spare them. */
const SETUP_ROUTES = new Set(
  ['/version', '/user', '/users', '/users/:id', '/users/:id/personal_access_tokens', '/groups', '/groups/:id', '/groups/:id/share', '/projects', '/projects/:id', '/projects/:id/share', '/projects/:id/repository/branches', '/application/settings'].map((r) => `/api/v4${r}`),
);
const isSetup = (request: FastifyRequest) => SETUP_ROUTES.has(request.routeOptions.url ?? '');

export const FAULTS: Fault[] = [
  {
    name: 'rate-limit-first-get',
    area: 'cross-cutting',
    description: 'the first GET or HEAD of every URL answers 429 with Retry-After: 0 (a well-behaved client retries)',
    onRequest(request, reply, ctx) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      const key = `${request.method} ${request.url}`;
      const count = (ctx.seen.get(key) ?? 0) + 1;
      ctx.seen.set(key, count);
      if (count > 1) return false;
      void reply.code(429).header('Retry-After', '0').send({ message: '429 Too Many Requests' });
      return true;
    },
  },
  {
    name: 'server-error',
    area: 'cross-cutting',
    description: 'every request outside the setup endpoints answers 500',
    onRequest(request, reply) {
      if (isSetup(request)) return false;
      void reply.code(500).send({ message: '500 Internal Server Error' });
      return true;
    },
  },
  {
    name: 'non-json',
    area: 'cross-cutting',
    description: 'answers outside the setup endpoints are HTML instead of JSON',
    onSend(request, reply, payload) {
      if (isSetup(request) || !String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
      reply.header('content-type', 'text/html; charset=utf-8');
      return `<html><body>${payload.length} bytes of something</body></html>`;
    },
  },
  {
    name: 'hang',
    area: 'cross-cutting',
    description: 'requests outside the setup endpoints never get an answer (the client must time out)',
    async onRequest(request) {
      if (isSetup(request)) return false;
      // Long enough for any client timeout; the server's close ends the connection anyway.
      await new Promise((resolve) => setTimeout(resolve, 600_000).unref());
      return false;
    },
  },
  {
    name: 'refuse-admin-token',
    area: 'cross-cutting',
    description: 'every request answers 401, as a target that does not know the token',
    onRequest(_request, reply) {
      void reply.code(401).send({ message: '401 Unauthorized' });
      return true;
    },
  },
];

export const FAULT_NAMES = FAULTS.map((f) => f.name);

/**
 * Installs the fault hooks: `always` are on for every request; with `byHeader`, a request may ask
 * for more with X-Reference-Fault. With neither, no hook is installed and requests pay nothing.
 */
export function installFaults(app: FastifyInstance, always: string[], byHeader = false): FaultContext {
  const unknown = always.filter((name) => !FAULT_NAMES.includes(name));
  if (unknown.length > 0) throw new Error(`unknown fault(s): ${unknown.join(', ')} (known: ${FAULT_NAMES.join(', ')})`);
  const ctx: FaultContext = { seen: new Map(), fired: new Map() };
  if (always.length === 0 && !byHeader) return ctx;
  const active = (request: FastifyRequest): Fault[] => {
    const header = byHeader ? request.headers['x-reference-fault'] : undefined;
    const named = new Set([...always, ...(typeof header === 'string' ? header.split(',').map((s) => s.trim()) : [])]);
    return FAULTS.filter((f) => named.has(f.name));
  };
  const fire = (fault: Fault) => ctx.fired.set(fault.name, (ctx.fired.get(fault.name) ?? 0) + 1);
  app.addHook('onRequest', async (request, reply) => {
    for (const fault of active(request)) {
      if (fault.onRequest && (await fault.onRequest(request, reply, ctx))) {
        fire(fault);
        return reply;
      }
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    let out = payload;
    for (const fault of active(request)) {
      if (fault.onSend && typeof out === 'string') {
        const next = fault.onSend(request, reply, out, ctx);
        if (next !== out) fire(fault);
        out = next;
      }
    }
    return out;
  });
  return ctx;
}
