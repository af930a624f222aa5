// Faults of the whole target, for the runner's robustness: rate limiting, errors, non-JSON answers,
// hangs and a refused token. They spare the contract's setup endpoints where the run must go on.
import type { FastifyRequest } from 'fastify';
import type { Fault } from './types.js';
import type { RouteDecl } from '../http/route-ids.js';
import { REPOSITORY_READ_ROUTES } from '../routes/repository-reads.js';
import { BRANCH_ROUTES } from '../routes/setup/branches.js';
import { DELETION_ROUTES } from '../routes/setup/deletion.js';
import { GROUP_ROUTES } from '../routes/setup/groups.js';
import { PROJECT_ROUTES } from '../routes/setup/projects.js';
import { SETTINGS_ROUTES } from '../routes/setup/settings.js';
import { SHARE_ROUTES } from '../routes/setup/shares.js';
import { TOKEN_ROUTES } from '../routes/setup/tokens.js';
import { USER_ROUTES } from '../routes/setup/users.js';

/** Routes of the target contract's setup endpoints (TARGET-CONTRACT.md §2), and the pre-check's read of the admin token's scopes: every method of their paths. */
const SETUP_ROUTES = new Set<RouteDecl>([
  SETTINGS_ROUTES.version,
  USER_ROUTES.current,
  TOKEN_ROUTES.self,
  USER_ROUTES.list,
  USER_ROUTES.create,
  USER_ROUTES.get,
  USER_ROUTES.update,
  USER_ROUTES.remove,
  TOKEN_ROUTES.create,
  GROUP_ROUTES.list,
  GROUP_ROUTES.create,
  GROUP_ROUTES.get,
  DELETION_ROUTES.group,
  SHARE_ROUTES.group,
  PROJECT_ROUTES.list,
  PROJECT_ROUTES.create,
  PROJECT_ROUTES.get,
  PROJECT_ROUTES.update,
  DELETION_ROUTES.project,
  SHARE_ROUTES.project,
  REPOSITORY_READ_ROUTES.branches,
  BRANCH_ROUTES.create,
  SETTINGS_ROUTES.get,
  SETTINGS_ROUTES.update,
]);
export const isSetup = (request: FastifyRequest) => {
  const route = request.routeOptions.config?.route;
  return route !== undefined && SETUP_ROUTES.has(route);
};

export const ROBUSTNESS_FAULTS: Fault[] = [
  {
    name: 'rate-limit-first-get',
    area: 'cross-cutting',
    robustness: true,
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
    robustness: true,
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
    robustness: true,
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
    robustness: true,
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
    robustness: true,
    description: 'every request answers 401, as a target that does not know the token',
    onRequest(_request, reply) {
      void reply.code(401).send({ message: '401 Unauthorized' });
      return true;
    },
  },
];
