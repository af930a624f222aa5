// What real GitLab clients rely on at the HTTP level, as clauses every area carries and checks that
// its interop tests (suites/<area>/interop.test.ts) use: the media type of JSON answers, requests
// that declare a JSON body and send none (python-gitlab does so on every DELETE), form-encoded
// bodies, a token in the query string, and pagination followed through the Link header.
import { expectError, expectOk, expectTrue, fail, parity } from '../../runner/core/checks.js';
import type { Clause } from '../../runner/core/clauses.js';
import type { Client, Exchange, Query } from '../../runner/core/client.js';

const GRAPE_BODY = 'Grape lib/grape/middleware/formatter.rb (read_body_input?: a body is parsed only when Content-Length > 0)';
const API_CONTENT_TYPE = "lib/api/api.rb (content_type :json, 'application/json')";

/** The clauses of client interoperability, for an area with the given id prefix. */
export function interopClauses(prefix: string, options: { paginated: boolean }): Clause[] {
  const clauses: Clause[] = [
    { id: `${prefix}.http.json-media-type`, level: 'must', text: 'JSON answers are labelled with the media type application/json; GitLab sends exactly "application/json", without a charset parameter, and clients that compare the header (python-gitlab 3) depend on it.', source: `spec: Conventions ("Responses are JSON"); GitLab: ${API_CONTENT_TYPE}` },
    { id: `${prefix}.http.empty-json-body`, level: 'must', text: 'A request that declares Content-Type: application/json and sends no body (as python-gitlab does on DELETE and bodiless POST/PUT) is served as if it declared none.', source: `spec: Conventions (parameters as query, form or JSON); GitLab: ${GRAPE_BODY}` },
    { id: `${prefix}.http.form-body`, level: 'must', text: 'Parameters of a write may be sent as form fields (application/x-www-form-urlencoded) with the same effect as JSON.', source: 'spec: Conventions ("Request parameters are sent as query string, form data, or … a JSON body")' },
    { id: `${prefix}.http.private-token-query`, level: 'should', text: 'GitLab parity: a personal access token is accepted in the private_token query parameter as well as in the PRIVATE-TOKEN header (the spec names only the header).', source: 'spec: Authentication 1 (the header); GitLab: lib/gitlab/auth/auth_finders.rb (PRIVATE_TOKEN_PARAM)' },
  ];
  if (options.paginated) {
    clauses.push({ id: `${prefix}.http.link-pagination`, level: 'should', text: 'GitLab parity: a paginated list can be walked by following the Link header\'s rel="next" from the first page: every item once, and no next link on the last page (the spec names no pagination header).', source: 'spec: Conventions (paginated lists); GitLab: lib/gitlab/pagination/offset_header_builder.rb (Link)' });
  }
  return clauses;
}

/**
 * The answer is JSON labelled application/json. A parameter after it (a charset) still names the
 * media type, so the spec level accepts it; GitLab sends none, which the parity level checks.
 */
export function expectJsonMediaType(res: Exchange): void {
  const type = res.headers['content-type'];
  if (type === undefined) fail('expected a Content-Type header on a JSON answer', 'there is none', res);
  expectTrue(type.split(';')[0].trim().toLowerCase() === 'application/json', 'the media type of a JSON answer to be application/json', `Content-Type: ${type}`, res);
  parity(res, API_CONTENT_TYPE, () => expectTrue(type === 'application/json', 'Content-Type exactly "application/json" (no charset parameter: python-gitlab 3 then leaves the body unparsed)', `Content-Type: ${type}`, res));
}

/** A found resource (200 of the schema) and a 404 for a missing one, both labelled application/json (expectJsonMediaType). */
export function expectJsonAnswers(found: Exchange, missing: Exchange, schema: string, options: { list?: boolean } = {}): void {
  expectOk(found, 200, schema, options);
  expectJsonMediaType(found);
  expectError(missing, 404);
  expectJsonMediaType(missing);
}

/** A read with the token in the private_token query parameter (besides `query`): `token` gets 200 of the schema, a wrong token 401. */
export async function expectPrivateTokenQuery(anonymous: Client, path: string, token: string, schema: string, options: { list?: boolean; query?: Query } = {}): Promise<void> {
  expectOk(await anonymous.get(path, { query: { ...options.query, private_token: token } }), 200, schema, { list: options.list });
  expectError(await anonymous.get(path, { query: { ...options.query, private_token: 'glpat-not-a-token-0000000' } }), 401);
}

/** The request as python-gitlab sends a bodiless one: Content-Type application/json and no body. */
export function sendEmptyJson(client: Client, method: 'POST' | 'PUT' | 'DELETE', path: string, query?: Query): Promise<Exchange> {
  return client.send(method, path, { query, headers: { 'Content-Type': 'application/json' } });
}

/**
 * Walks a paginated list through the Link header from its first page (per_page items a page) and
 * returns every item; each page is a 200 of the schema, and the walk ends where rel="next" does.
 */
export async function walkByLink<T>(client: Client, path: string, schema: string, perPage: number): Promise<T[]> {
  const items: T[] = [];
  let url: string | undefined = `${path}?per_page=${perPage}`;
  for (let page = 1; url !== undefined; page++) {
    if (page > 50) fail('expected the Link header to lead to the last page', 'it went on past 50 pages');
    const res: Exchange = await client.get(url);
    expectOk(res, 200, schema, { list: true });
    items.push(...(res.body as T[]));
    const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.link ?? '')?.[1];
    // The Link header holds absolute URLs; the client takes the path under /api/v4.
    url = next === undefined ? undefined : new URL(next).pathname.replace(/^\/api\/v4/, '') + new URL(next).search;
  }
  return items;
}
