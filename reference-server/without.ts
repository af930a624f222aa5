// `--without NAME` (option `without`): the reference server plays a GitLab-compatible implementation
// that lacks one of the set-up endpoints the suite uses beyond the target contract (their names:
// contract/extra-setup-endpoints.ts). A missing endpoint answers as a route Grape does not know
// (404 `{"error":"404 Not Found"}`, lib/api/api.rb `route :any, '*path'`); the two that are
// behaviours rather than routes change that behaviour. Each switch is one hook around the routes,
// so the area and set-up code stays GitLab's.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EXTRA_SETUP_ENDPOINT_NAMES, type ExtraSetupEndpoint } from '../contract/extra-setup-endpoints.js';
import { mergedParams } from './http/params.js';

export { EXTRA_SETUP_ENDPOINTS, EXTRA_SETUP_ENDPOINT_NAMES, type ExtraSetupEndpoint } from '../contract/extra-setup-endpoints.js';

export interface WithoutOptions {
  /** Set-up endpoints beyond the contract that the server lacks (contract/extra-setup-endpoints.ts). */
  without?: string[];
}

interface Switch {
  /** Requests the implementation has no route for: they answer 404 as an unknown route. */
  missing?: { methods: string[]; path: RegExp };
  /** Changes a request the implementation serves otherwise. */
  preHandler?(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined;
}

const SOURCE = '/api/v4/(?:groups|projects)/[^/]+';
const ANY = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];
const path = (method: string, url: string) => `${method} ${url.split('?')[0]}`;

const SWITCHES: Record<ExtraSetupEndpoint, Switch> = {
  'access-requests': { missing: { methods: ANY, path: new RegExp(`^${SOURCE}/access_requests(?:/[^/]+(?:/approve)?)?/?$`) } },
  'project-update': { missing: { methods: ['PUT'], path: /^\/api\/v4\/projects\/[^/]+\/?$/ } },
  'secondary-emails': { missing: { methods: ANY, path: /^\/api\/v4\/users\/[^/]+\/emails(?:\/[^/]+)?\/?$/ } },
  'application-settings-read': { missing: { methods: ['GET', 'HEAD'], path: /^\/api\/v4\/application\/settings\/?$/ } },
  'project-access-tokens': { missing: { methods: ANY, path: /^\/api\/v4\/projects\/[^/]+\/access_tokens(?:\/.*)?$/ } },
  'group-project-read': { missing: { methods: ['GET', 'HEAD'], path: new RegExp(`^${SOURCE}/?$`) } },
  'commit-email': { missing: { methods: ['PUT'], path: /^\/api\/v4\/users\/[^/]+\/?$/ } },
  'protected-branches': { missing: { methods: ANY, path: /^\/api\/v4\/projects\/[^/]+\/protected_branches(?:\/.*)?$/ } },
  // An implementation without e-mail confirmation: every address it is given counts as confirmed,
  // as if POST /users had been sent skip_confirmation (app/services/users/build_service.rb).
  'unconfirmed-users': {
    preHandler(request) {
      if (path(request.method, request.url) !== 'POST /api/v4/users') return undefined;
      request.body = { ...mergedParams(request), skip_confirmation: true };
      return undefined;
    },
  },
  // A DELETE that does not take permanently_remove: Grape refuses the parameter's value with its
  // 400 shape (lib/api/api.rb rescue_from Grape::Exceptions::ValidationErrors).
  'permanent-removal': {
    preHandler(request, reply) {
      if (!/^DELETE \/api\/v4\/(?:groups|projects)\/[^/]+\/?$/.test(path(request.method, request.url))) return undefined;
      if (mergedParams(request).permanently_remove === undefined) return undefined;
      return reply.code(400).send({ error: 'permanently_remove does not have a valid value' });
    },
  },
};

/** The names among `names` that are no switch (for the command line and the option's check). */
export function unknownWithout(names: readonly string[]): string[] {
  return names.filter((name) => !(EXTRA_SETUP_ENDPOINT_NAMES as readonly string[]).includes(name));
}

export function installWithout(app: FastifyInstance, names: readonly string[]): void {
  const unknown = unknownWithout(names);
  if (unknown.length > 0) throw new Error(`unknown --without name(s): ${unknown.join(', ')} (known: ${EXTRA_SETUP_ENDPOINT_NAMES.join(', ')})`);
  const on = [...new Set(names)].map((name) => SWITCHES[name as ExtraSetupEndpoint]);
  const missing = on.flatMap((s) => (s.missing ? [s.missing] : []));
  const changes = on.flatMap((s) => (s.preHandler ? [s.preHandler] : []));
  if (missing.length > 0) {
    app.addHook('onRequest', async (request, reply) => {
      const url = request.url.split('?')[0];
      if (missing.some((m) => m.methods.includes(request.method) && m.path.test(url))) return reply.code(404).send({ error: '404 Not Found' });
    });
  }
  if (changes.length > 0) {
    app.addHook('preHandler', async (request, reply) => {
      for (const change of changes) if (change(request, reply)) return reply;
    });
  }
}
