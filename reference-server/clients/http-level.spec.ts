// The reference server at the HTTP level, as GitLab's Rack/Grape stack answers: exactly
// `application/json`, no Content-Type on 204, HEAD with the GET's headers, empty request bodies
// accepted under any declared type, the single-branch route; and the two seeded faults that undo
// the first and the fourth.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp, type ReferenceServerOptions } from '../server.js';

const ADMIN = 'glpat-http-level-admin-00';
const as = { 'private-token': ADMIN };
const apps: FastifyInstance[] = [];

async function world(options: ReferenceServerOptions = {}) {
  const { app } = buildApp({ adminToken: ADMIN, ...options });
  apps.push(app);
  await app.ready();
  const post = async (url: string, payload: Record<string, unknown>) => (await app.inject({ method: 'POST', url: `/api/v4${url}`, headers: as, payload })).json();
  const group = await post('/groups', { name: 'hl', path: 'hl' });
  const project = await post('/projects', { name: 'hlp', namespace_id: group.id, initialize_with_readme: true });
  const user = await post('/users', { username: 'hl-dev', name: 'Dev', email: 'hl-dev@example.com', password: 'Secret-12345' });
  const inject = (options: InjectOptions) => app.inject({ ...options, url: `/api/v4${options.url}`, headers: { ...as, ...options.headers } });
  return { app, group, project, user, inject };
}

type World = Awaited<ReturnType<typeof world>>;
let w: World;

beforeAll(async () => {
  w = await world();
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

describe('Content-Type of JSON answers (lib/api/api.rb: content_type :json, "application/json")', () => {
  test('answers, Grape errors, helper errors, body-parse errors and unknown routes are exactly application/json', async () => {
    const answers = await Promise.all([
      w.inject({ method: 'GET', url: `/projects/${w.project.id}/members` }),
      w.inject({ method: 'GET', url: '/projects/999999/members' }),
      w.inject({ method: 'GET', url: `/projects/${w.project.id}/members?per_page=x` }),
      w.inject({ method: 'POST', url: `/projects/${w.project.id}/remote_mirrors`, headers: { 'content-type': 'application/json' }, payload: '{bad' }),
      w.inject({ method: 'GET', url: '/no/such/route' }),
      w.app.inject({ method: 'GET', url: '/api/v4/user', headers: { 'private-token': 'glpat-wrong' } }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 404, 400, 400, 404, 401]);
    for (const r of answers) expect(r.headers['content-type']).toBe('application/json');
    expect(answers[4].json()).toEqual({ error: '404 Not Found' });
  });

  test('every answer carries the two headers of the API\'s before block', async () => {
    const r = await w.inject({ method: 'GET', url: '/no/such/route' });
    expect(r.headers).toMatchObject({ 'x-frame-options': 'SAMEORIGIN', 'x-content-type-options': 'nosniff' });
  });

  test('a 204 has no Content-Type and no body', async () => {
    const mirror = (await w.inject({ method: 'POST', url: `/projects/${w.project.id}/remote_mirrors`, payload: { url: 'https://example.com/m.git' } })).json();
    const r = await w.inject({ method: 'DELETE', url: `/projects/${w.project.id}/remote_mirrors/${mirror.id}` });
    expect(r.statusCode).toBe(204);
    expect(r.headers['content-type']).toBeUndefined();
    expect(r.body).toBe('');
  });
});

describe('HEAD answers (Grape routes HEAD with GET; Rack::Head drops the body)', () => {
  test('HEAD of a file, a list and an unknown route: the GET\'s status and headers, no body', async () => {
    for (const url of [`/projects/${w.project.id}/repository/files/README.md?ref=main`, `/projects/${w.project.id}/members`, '/no/such/route']) {
      const [get, head] = await Promise.all([w.inject({ method: 'GET', url }), w.inject({ method: 'HEAD', url })]);
      expect(head.statusCode).toBe(get.statusCode);
      // Routes drop the body themselves; for the not-found answer Node's HTTP server does (inject does not).
      if (get.statusCode === 200) expect(head.body).toBe('');
      const { date: _g, ...getHeaders } = get.headers;
      const { date: _h, ...headHeaders } = head.headers;
      expect(headHeaders).toEqual(getHeaders);
      expect(head.headers['content-type']).toBe('application/json');
    }
  });
});

describe('request bodies (grape formatter.rb: an empty body is no body, whatever its type)', () => {
  test('DELETE and bodiless POST/PUT declaring application/json (python-gitlab) are accepted', async () => {
    await w.inject({ method: 'POST', url: `/projects/${w.project.id}/members`, payload: { user_id: w.user.id, access_level: 30 } });
    const emptyJson = { 'content-type': 'application/json', 'content-length': '0' };
    const del = await w.inject({ method: 'DELETE', url: `/projects/${w.project.id}/members/${w.user.id}`, headers: emptyJson, payload: '' });
    expect(del.statusCode).toBe(204);
    const post = await w.inject({ method: 'POST', url: `/projects/${w.project.id}/remote_mirrors?url=https://example.com/q.git`, headers: emptyJson, payload: '' });
    expect(post.statusCode).toBe(201);
    expect(post.json()).toMatchObject({ url: 'https://example.com/q.git' });
    const put = await w.inject({ method: 'PUT', url: `/projects/${w.project.id}/remote_mirrors/${post.json().id}?enabled=true`, headers: emptyJson, payload: '' });
    expect(put.json()).toMatchObject({ enabled: true });
  });

  test('an empty body under any other type is accepted too; query, form and JSON parameters read alike', async () => {
    for (const type of ['application/octet-stream', 'multipart/form-data; boundary=x', 'text/plain', 'application/x-www-form-urlencoded']) {
      const r = await w.inject({ method: 'POST', url: `/projects/${w.project.id}/remote_mirrors`, headers: { 'content-type': type }, payload: '' });
      expect([r.statusCode, r.json()], type).toEqual([400, { error: 'url is missing' }]);
    }
    const form = await w.inject({ method: 'POST', url: `/projects/${w.project.id}/remote_mirrors`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'url=https%3A%2F%2Fexample.com%2Ff.git&enabled=true' });
    const json = await w.inject({ method: 'POST', url: `/projects/${w.project.id}/remote_mirrors`, payload: { url: 'https://example.com/j.git', enabled: true } });
    for (const r of [form, json]) expect([r.statusCode, r.json().enabled]).toEqual([201, true]);
  });

  test('a body that is there is still parsed: bad JSON and unsupported types are refused', async () => {
    const bad = await w.inject({ method: 'POST', url: `/projects/${w.project.id}/remote_mirrors`, headers: { 'content-type': 'application/json' }, payload: '{bad' });
    expect(bad.statusCode).toBe(400);
    const binary = await w.inject({ method: 'POST', url: `/projects/${w.project.id}/remote_mirrors`, headers: { 'content-type': 'application/octet-stream' }, payload: 'xyz' });
    expect(binary.statusCode).toBe(400);
  });
});

describe('GET and HEAD /projects/:id/repository/branches/:branch (lib/api/branches.rb)', () => {
  test('the Branch entity; merged for an ancestor of the default branch', async () => {
    await w.inject({ method: 'POST', url: `/projects/${w.project.id}/repository/branches`, payload: { branch: 'feature/old', ref: 'main' } });
    await w.inject({ method: 'POST', url: `/projects/${w.project.id}/repository/files/new.txt`, payload: { branch: 'main', content: 'x', commit_message: 'advance main' } });
    const main = (await w.inject({ method: 'GET', url: `/projects/${w.project.id}/repository/branches/main` })).json();
    expect(main).toMatchObject({ name: 'main', merged: false, protected: true, default: true, developers_can_push: false, developers_can_merge: false, can_push: true });
    expect(main.commit).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{40}$/), title: 'advance main', trailers: {} });
    expect(main.web_url).toMatch(/\/hl\/hlp\/-\/tree\/main$/);
    const old = (await w.inject({ method: 'GET', url: `/projects/${w.project.id}/repository/branches/feature%2Fold` })).json();
    expect(old).toMatchObject({ name: 'feature/old', merged: true, protected: false, default: false });
  });

  test('404 Branch Not Found, 400 for an invalid refname; HEAD answers 204 or 404', async () => {
    const missing = await w.inject({ method: 'GET', url: `/projects/${w.project.id}/repository/branches/nope` });
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: '404 Branch Not Found' }]);
    const invalid = await w.inject({ method: 'GET', url: `/projects/${w.project.id}/repository/branches/a..b` });
    expect([invalid.statusCode, invalid.json()]).toEqual([400, { message: 'The branch refname is invalid' }]);
    const head = await w.inject({ method: 'HEAD', url: `/projects/${w.project.id}/repository/branches/main` });
    const headMissing = await w.inject({ method: 'HEAD', url: `/projects/${w.project.id}/repository/branches/nope` });
    expect([head.statusCode, headMissing.statusCode]).toEqual([204, 404]);
  });
});

describe('the seeded HTTP faults switch the behaviour back', () => {
  test('http.json-charset: JSON answers carry "; charset=utf-8"', async () => {
    const faulty = await world({ faults: ['http.json-charset'] });
    const r = await faulty.inject({ method: 'GET', url: `/projects/${faulty.project.id}/members` });
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  test('http.rejects-empty-json-body: an empty body declared as JSON gets 400; JSON with a body still passes', async () => {
    const faulty = await world({ faults: ['http.rejects-empty-json-body'] });
    const r = await faulty.inject({ method: 'DELETE', url: `/projects/${faulty.project.id}/members/${faulty.user.id}`, headers: { 'content-type': 'application/json', 'content-length': '0' }, payload: '' });
    expect([r.statusCode, r.json()]).toEqual([400, { error: 'message body does not match declared format' }]);
    const withBody = await faulty.inject({ method: 'POST', url: `/projects/${faulty.project.id}/members`, payload: { user_id: faulty.user.id, access_level: 30 } });
    expect(withBody.statusCode).toBe(201);
  });
});
