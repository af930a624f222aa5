// Faults of the whole target, for the runner's robustness: rate limiting, errors, non-JSON answers,
// hangs and a refused token. They spare the contract's setup endpoints where the run must go on.
import type { FastifyRequest } from 'fastify';
import type { Fault } from './types.js';

/** Routes of the target contract's setup endpoints (TARGET-CONTRACT.md §2), and the pre-check's read of the admin token's scopes. */
const SETUP_ROUTES = new Set(
  ['/version', '/user', '/personal_access_tokens/self', '/users', '/users/:id', '/users/:id/personal_access_tokens', '/groups', '/groups/:id', '/groups/:id/share', '/projects', '/projects/:id', '/projects/:id/share', '/projects/:id/repository/branches', '/application/settings'].map((r) => `/api/v4${r}`),
);
export const isSetup = (request: FastifyRequest) => SETUP_ROUTES.has(request.routeOptions.url ?? '');

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
