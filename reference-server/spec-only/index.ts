// The spec-only mode of the reference server (`specOnly: true`, `--spec-only`): the server keeps every
// statement of the spec true but does nothing more that GitLab does — other error texts, another
// order of checks where the spec gives none, optional fields left out, open success statuses
// answered otherwise (variations.ts lists them, each with the spec sentence that allows it). The
// conformance suite's spec level must pass against it (cli/spec-only-run.spec.ts):
// a test that fails asserts GitLab's behaviour, not the spec's.
//
// Every answer a variation changed names the variation in the `X-Reference-Spec-Only` header, with
// what it changed: `members-spec-fields=body, pagination-headers-omitted=header:x-total|header:link`
// (`request`: the parameters the route read, `status`, `body`, `header:<name>`). So each difference
// between a recording of the reference server and one of its spec-only twin can be traced to a
// variation (runner/differential/recorded.spec.ts); the differential compares no
// `X-Reference-` header.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { faultContext } from '../faults/index.js';
import type { Context } from '../http/context.js';
import { VARIATIONS } from './variations.js';
import type { SpecOnlyContext } from './views.js';

export { VARIATIONS, type Variation } from './variations.js';

/** The response header that names the variations that changed an answer, and what each changed (in the order they ran). */
export const SPEC_ONLY_HEADER = 'x-reference-spec-only';

export interface SpecOnlyOptions {
  /** Play a server that does what the spec says and nothing more of GitLab's. */
  specOnly?: boolean;
}

/** JSON with object keys sorted, or the text itself: a variation that only re-serializes an answer changed nothing. */
function meaning(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), (_key, value: unknown) =>
      value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
    );
  } catch {
    return payload;
  }
}

const headersOf = (reply: FastifyReply) => Object.fromEntries(Object.entries(reply.getHeaders()).map(([name, value]) => [name.toLowerCase(), JSON.stringify(value)]));

/** What a variation's onSend changed of an answer: its status, headers by name, body. */
function changed(before: { status: number; headers: Record<string, string>; payload: string }, reply: FastifyReply, payload: string): string[] {
  const parts = reply.statusCode !== before.status ? ['status'] : [];
  const after = headersOf(reply);
  for (const name of new Set([...Object.keys(before.headers), ...Object.keys(after)])) if (before.headers[name] !== after[name]) parts.push(`header:${name}`);
  if (payload !== before.payload && meaning(payload) !== meaning(before.payload)) parts.push('body');
  return parts;
}
// A variation that only gives a request without a body an empty one changed nothing.
const requestOf = (request: FastifyRequest) => JSON.stringify([request.query, request.body ?? {}]);

/** Installs the variations as one preHandler and one onSend hook, after the routes' own (and the faults'). */
export function installSpecOnly(app: FastifyInstance, server: Context): void {
  // The variations read the store and the server's options; they switch no fault (known: none).
  const ctx: SpecOnlyContext = { ...faultContext(server.store, {}, []), options: server.options };
  const fired = new WeakMap<FastifyRequest, Map<string, Set<string>>>();
  const mark = (request: FastifyRequest, name: string, parts: string[]) => {
    if (parts.length === 0) return;
    const byName = fired.get(request) ?? new Map<string, Set<string>>();
    fired.set(request, byName);
    const known = byName.get(name) ?? new Set<string>();
    byName.set(name, known);
    for (const part of parts) known.add(part);
  };
  app.addHook('preHandler', async (request) => {
    for (const variation of VARIATIONS) {
      if (!variation.preHandler) continue;
      const before = requestOf(request);
      try {
        variation.preHandler(request, ctx);
      } catch (error) {
        mark(request, variation.name, ['request']);
        throw error;
      }
      if (requestOf(request) !== before) mark(request, variation.name, ['request']);
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // An empty answer (204) reaches here as undefined; a raw file as a Buffer, which the variations leave alone.
    let out = payload ?? '';
    for (const variation of VARIATIONS) {
      if (!variation.onSend || typeof out !== 'string') continue;
      const before = { status: reply.statusCode, headers: headersOf(reply), payload: out };
      const next = variation.onSend(request, reply, out, ctx);
      mark(request, variation.name, changed(before, reply, next));
      out = next;
    }
    const byName = fired.get(request);
    if (byName) reply.header(SPEC_ONLY_HEADER, [...byName].map(([name, parts]) => `${name}=${[...parts].join('|')}`).join(', '));
    return out;
  });
}
