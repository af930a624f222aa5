// The seeded faults of behaviour every area shares (authentication, parameters as Rack reads them,
// content types): the fault checker runs every area's tests for them.
import { dropParams } from './dsl.js';
import type { AreaFault } from './types.js';
import type { Json } from './shared.js';
import { USER_ROUTES } from '../routes/setup/users.js';

/** The parameter names a request's query string sends in Rack's bracket form (`name[]=`). */
function bracketNames(url: string): Set<string> {
  const search = new URLSearchParams(url.split('?')[1] ?? '');
  return new Set([...search.keys()].filter((key) => key.endsWith('[]')).map((key) => key.slice(0, -2)));
}

export const crossCuttingFaults: AreaFault[] = [
  { name: 'auth.unknown-token-anonymous', clauses: ['files.auth.private-token'], description: 'an unknown token is treated as no token instead of refused with 401', onRequest(request, _reply, ctx) {
    const token = request.headers['private-token'];
    if (typeof token === 'string' && !ctx.store.tokens.has(token)) delete request.headers['private-token'];
    return false;
  } },
  { name: 'auth.read-api-writes', clauses: ['files.auth.scopes', 'members.auth.read-api-scope', 'invitations.auth.scopes', 'mirrors.auth.scopes'], description: 'read_api and read_repository tokens may write', onRequest(request, _reply, ctx) {
    const token = ctx.store.tokens.get(String(request.headers['private-token'] ?? ''));
    if (!token || request.method === 'GET' || request.method === 'HEAD' || token.scopes.includes('api')) return false;
    const writer = [...ctx.store.tokens.values()].find((t) => t.userId === token.userId && t.scopes.includes('api'));
    if (writer) request.headers['private-token'] = writer.token;
    return false;
  } },
  { name: 'errors.message-renamed', clauses: ['files.errors.shape', 'members.errors.shape'], description: 'error bodies carry "msg" instead of "message"/"error"', onSend(request, reply, payload) {
    if (reply.statusCode < 400 || request.method === 'HEAD') return payload;
    try {
      const body = JSON.parse(payload) as Json;
      return JSON.stringify({ msg: body.message ?? body.error });
    } catch {
      return payload;
    }
  } },
  { name: 'auth.403-as-404', clauses: ['files.read.role', 'invitations.auth.admin-members', 'members.manage.role'], description: 'refusals (403) answer 404', onSend(_request, reply, payload) {
    if (reply.statusCode !== 403) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not Found' });
  } },
  { name: 'ids.encoded-path-refused', clauses: ['files.id.path-or-number', 'mirrors.id.path-or-number', 'invitations.path.id', 'members.id.path-or-number'], description: 'a URL-encoded full path as :id answers 404', onRequest(request, reply) {
    const id = (request.params as Json | undefined)?.id;
    if (typeof id !== 'string' || !id.includes('/')) return false;
    void reply.code(404).send({ message: request.url.includes('/groups/') ? '404 Group Not Found' : '404 Project Not Found' });
    return true;
  } },
  { name: 'pagination.total-off-by-one', level: 'parity', clauses: ['members.pagination', 'mirrors.list.paginated', 'invitations.list.pagination'], description: 'X-Total counts one row too many', onSend(_request, reply, payload) {
    const total = reply.getHeader('x-total');
    if (total !== undefined) reply.header('x-total', String(Number(total) + 1));
    return payload;
  } },
  { name: 'pagination.past-end-404', clauses: ['members.pagination', 'mirrors.list.paginated', 'invitations.list.pagination'], description: 'a page past the end answers 404 instead of an empty list', onSend(request, reply, payload) {
    if (request.method !== 'GET' || payload !== '[]' || Number((request.query as Json).page ?? 1) <= 1) return payload;
    reply.code(404);
    return JSON.stringify({ message: '404 Not Found' });
  } },
  { name: 'pagination.per-page-not-clamped', clauses: ['invitations.list.pagination-params'], description: 'per_page above 100 is refused with 400 instead of clamped', onRequest(request, reply) {
    const perPage = (request.query as Json).per_page;
    if (request.method !== 'GET' || perPage === undefined || Number(perPage) <= 100) return false;
    void reply.code(400).send({ error: 'per_page does not have a valid value' });
    return true;
  } },
  { name: 'http.json-charset', level: 'parity', clauses: ['files.http.json-media-type', 'mirrors.http.json-media-type', 'invitations.http.json-media-type', 'members.http.json-media-type'], description: 'JSON answers carry Content-Type "application/json; charset=utf-8" instead of exactly "application/json"', onSend(_request, reply, payload) {
    if (reply.getHeader('content-type') === 'application/json') reply.header('content-type', 'application/json; charset=utf-8');
    return payload;
  } },
  { name: 'params.bracket-arrays-ignored', clauses: ['members.http.array-forms', 'invitations.http.array-forms'], description: 'a parameter sent in Rack\'s bracket form (user_ids[]=1&user_ids[]=2) is not read: the route sees only the bare key', preHandler(request) {
    for (const name of bracketNames(request.url)) delete (request.query as Json)[name];
  } },
  { name: 'params.repeated-key-all-values', level: 'parity', clauses: ['members.http.repeated-key'], description: 'a plain key given twice (user_ids=1&user_ids=2) keeps every value instead of its last (Rack)', preHandler(request) {
    const search = new URLSearchParams(request.url.split('?')[1] ?? '');
    for (const key of new Set(search.keys())) if (!key.includes('[') && search.getAll(key).length > 1) (request.query as Json)[key] = search.getAll(key);
  } },
  { name: 'auth.sudo-ignored', clauses: ['files.http.sudo', 'mirrors.http.sudo', 'invitations.http.sudo', 'members.http.sudo'], description: 'sudo (query or body parameter, Sudo header) is ignored: the administrator acts as themself', preHandler(request) {
    delete request.headers.sudo;
    for (const bag of [request.query, request.body]) if (bag && typeof bag === 'object') delete (bag as Json).sudo;
  } },
  { name: 'users.username-filter-ignored', level: 'parity', clauses: ['members.http.user-lookup'], description: 'GET /users ignores username and answers every user', ...dropParams({ route: USER_ROUTES.list }, 'username') },
  { name: 'http.rejects-empty-json-body', clauses: ['files.http.empty-json-body', 'mirrors.http.empty-json-body', 'invitations.http.empty-json-body', 'members.http.empty-json-body'], description: 'a request declaring Content-Type application/json with an empty body is refused with 400', onRequest(request, reply) {
    const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const length = request.headers['content-length'];
    const empty = length === '0' || (length === undefined && request.headers['transfer-encoding'] === undefined);
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method) || type !== 'application/json' || !empty) return false;
    void reply.code(400).send({ error: 'message body does not match declared format' });
    return true;
  } },
];
