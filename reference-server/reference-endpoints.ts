// The reference server's own endpoints beside GET /-/reference/in-flight (in-flight.ts), outside
// the API as that one is (answered before Fastify: no hooks, faults, latency or vary):
//   GET  /-/reference/health  200 {"status":"ok"}: the server is up (a readiness probe, no token); "stubs": [...] when there are stubs
//   POST /-/reference/reset   an administrator's token (PRIVATE-TOKEN or Authorization: Bearer):
//                             the state goes back to the seeded one and the journal is emptied, 204; 401 without a valid token, 403 for a non-administrator
//   GET  /-/reference/requests  an administrator's token: the request journal (journal.ts), oldest first, as a JSON array;
//                             filters `method`, `path` (a prefix, or a glob with * and **), `since` (ISO 8601); 400 for a bad filter
//   POST /-/reference/stubs   an administrator's token, a JSON body of stubs (stubs/stubs.ts): added until the next reset, 201
//                             with every stub; 400 naming what is wrong
//   GET  /-/reference/state   an administrator's token: the whole state as JSON (state/state.ts, state.schema.json)
//   PUT  /-/reference/state   an administrator's token, a saved state as the JSON body: loaded, 204; 400 naming the JSON
//                             pointer of what is wrong, nothing changed (reset still goes back to the seed)
// Fakes of other services answer the same need alike: LocalStack /_localstack/state/reset, moto /moto-api/reset, WireMock /__admin/reset.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Store } from './state/store.js';
import type { Journal } from './http/journal.js';
import { checkStubs, type StubRegistry } from './stubs/stubs.js';
import { StateError } from './state/state.js';

export const HEALTH_PATH = '/-/reference/health';
export const RESET_PATH = '/-/reference/reset';
export const REQUESTS_PATH = '/-/reference/requests';
export const STUBS_PATH = '/-/reference/stubs';
export const STATE_PATH = '/-/reference/state';

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function tokenOf(request: IncomingMessage): string | undefined {
  const header = request.headers['private-token'];
  if (typeof header === 'string' && header !== '') return header;
  return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** Answers the endpoints on `server`, whose one 'request' listener it wraps; `reset` rebuilds the seeded state. */
export function installReferenceEndpoints(
  server: Server,
  store: Store,
  reset: () => void,
  journal: Journal,
  stubs: StubRegistry,
  state: { save(): unknown; load(value: unknown): void },
): void {
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`installReferenceEndpoints: expected one request listener, found ${listeners.length}`);
  const [handle] = listeners;
  /** Answers 401 or 403 and returns false unless an administrator's token came. */
  const administrator = (request: IncomingMessage, response: ServerResponse): boolean => {
    const token = tokenOf(request);
    const record = token === undefined ? undefined : store.tokens.get(token);
    const user = record && !record.revoked ? store.users.get(record.userId) : undefined;
    if (!user) json(response, 401, { message: '401 Unauthorized' });
    else if (!user.isAdmin) json(response, 403, { message: '403 Forbidden' });
    return user?.isAdmin === true;
  };
  server.removeListener('request', handle);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const [path, search = ''] = (request.url ?? '').split('?', 2);
    if (path === HEALTH_PATH && request.method === 'GET') {
      const listed = stubs.list();
      return json(response, 200, listed.length === 0 ? { status: 'ok' } : { status: 'ok', stubs: listed });
    }
    if (path === STUBS_PATH) {
      if (request.method !== 'POST') return json(response, 405, { message: '405 Method Not Allowed' });
      if (!administrator(request, response)) return;
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        try {
          stubs.add(checkStubs(JSON.parse(Buffer.concat(chunks).toString('utf8')), 'the stubs'));
          json(response, 201, stubs.list());
        } catch (error) {
          json(response, 400, { error: (error as Error).message });
        }
      });
      return;
    }
    if (path === STATE_PATH) {
      if (request.method !== 'GET' && request.method !== 'PUT') return json(response, 405, { message: '405 Method Not Allowed' });
      if (!administrator(request, response)) return;
      if (request.method === 'GET') {
        request.resume();
        return json(response, 200, state.save());
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch (error) {
          return json(response, 400, { error: `state: not JSON: ${(error as Error).message}` });
        }
        try {
          state.load(body);
          response.writeHead(204).end();
        } catch (error) {
          json(response, error instanceof StateError ? 400 : 500, { error: (error as Error).message });
        }
      });
      return;
    }
    if (path === REQUESTS_PATH) {
      if (request.method !== 'GET') return json(response, 405, { message: '405 Method Not Allowed' });
      if (!administrator(request, response)) return;
      const params = new URLSearchParams(search);
      try {
        const filter = { method: params.get('method') ?? undefined, path: params.get('path') ?? undefined, since: params.get('since') ?? undefined };
        return json(response, 200, journal.entries(filter));
      } catch (error) {
        return json(response, 400, { error: (error as Error).message });
      }
    }
    if (path !== RESET_PATH) return handle(request, response);
    if (request.method !== 'POST') return json(response, 405, { message: '405 Method Not Allowed' });
    if (!administrator(request, response)) return;
    // The body, if any, is not read: drain it so that the connection can be reused.
    request.resume();
    reset();
    response.writeHead(204).end();
  });
}
