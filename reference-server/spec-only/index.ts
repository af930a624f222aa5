// The spec-only mode of the reference server (`specOnly: true`, `--spec-only`): the server keeps every
// statement of the spec true but does nothing more that GitLab does — other error texts, another
// order of checks where the spec gives none, optional fields left out, open success statuses
// answered otherwise (variations.ts lists them, each with the spec sentence that allows it). The
// conformance suite's spec level must pass against it (suites/harness/cli/spec-only-run.spec.ts):
// a test that fails asserts GitLab's behaviour, not the spec's.
import type { FastifyInstance } from 'fastify';
import { faultContext } from '../faults/index.js';
import type { Context } from '../http/context.js';
import { VARIATIONS } from './variations.js';
import type { SpecOnlyContext } from './views.js';

export { VARIATIONS, type Variation } from './variations.js';

export interface SpecOnlyOptions {
  /** Play a server that does what the spec says and nothing more of GitLab's. */
  specOnly?: boolean;
}

/** Installs the variations as one preHandler and one onSend hook, after the routes' own (and the faults'). */
export function installSpecOnly(app: FastifyInstance, server: Context): void {
  const ctx: SpecOnlyContext = { ...faultContext(server.store, {}), options: server.options };
  app.addHook('preHandler', async (request) => {
    for (const variation of VARIATIONS) variation.preHandler?.(request, ctx);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // An empty answer (204) reaches here as undefined; a raw file as a Buffer, which the variations leave alone.
    let out = payload ?? '';
    for (const variation of VARIATIONS) if (variation.onSend && typeof out === 'string') out = variation.onSend(request, reply, out, ctx);
    return out;
  });
}
