// The request journal (journal.ts) and routes not modelled: every request kept with its method,
// path, query, body, user, status and route, secrets masked; read through server.requests() and GET
// /-/reference/requests with filters, emptied by reset, bounded; a route the server lacks answers
// GitLab's 404 marked X-Reference-Server: not-modelled, or 501 naming it with `strict`.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';
import type { Seed } from '../seed/seed.js';
import { Journal, logLine, type JournalEntry } from './journal.js';

const ADMIN = 'glpat-journal-spec-admin-01';
const ALICE = 'glpat-journal-spec-alice-01';
const seed: Seed = { users: [{ username: 'alice', tokens: [{ token: ALICE }] }], groups: [{ path: 'demo' }], projects: [{ path: 'app', namespace: 'demo' }], members: [{ user: 'alice', group: 'demo', access_level: 'developer' as const }] };

let server: ReferenceServer;
const seen: JournalEntry[] = [];
const api = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${server.url}/api/v4${path}`, { ...init, headers: { 'private-token': init.token ?? ADMIN, 'content-type': 'application/json', ...init.headers } });

beforeAll(async () => {
  server = await startReferenceServer({ adminToken: ADMIN, seed, onRequest: (entry) => seen.push(entry) });
});
afterAll(() => server.close());

describe('the journal', () => {
  test('keeps method, path, query, body, user, status and route, with tokens, passwords and URL credentials masked', async () => {
    server.reset();
    await api('/projects/demo%2Fapp?statistics=true&private_token=glpat-in-the-query-0001', { token: ALICE });
    await api('/users', { method: 'POST', body: JSON.stringify({ username: 'bob', name: 'Bob', email: 'bob@example.com', password: 'Secret-12345' }) });
    await api('/projects/demo%2Fapp/remote_mirrors', { method: 'POST', body: JSON.stringify({ url: 'https://mirror-user:mirror-pass@example.com/a.git', enabled: false }) });
    const [read, created, mirror] = server.requests();
    expect(read).toMatchObject({ method: 'GET', path: '/api/v4/projects/demo%2Fapp', query: { statistics: 'true', private_token: '[MASKED]' }, user: 'alice', status: 200, route: '/api/v4/projects/:id' });
    expect(read.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(created).toMatchObject({ method: 'POST', path: '/api/v4/users', body: { username: 'bob', password: '[MASKED]' }, user: 'root', status: 201 });
    expect(mirror.body).toMatchObject({ url: 'https://*****@example.com/a.git' });
    // Nothing secret anywhere in what is kept or printed.
    const printed = JSON.stringify(server.requests()) + server.requests().map(logLine).join('\n');
    for (const secret of ['glpat-in-the-query-0001', 'Secret-12345', 'mirror-pass', ALICE, ADMIN]) expect(printed).not.toContain(secret);
  });

  test('filters by method, path prefix or glob, and time; the library option sees each entry', async () => {
    server.reset();
    const before = new Date().toISOString();
    await api('/projects/demo%2Fapp');
    await api('/projects/demo%2Fapp/members');
    await api('/groups/demo/members', { method: 'POST', body: JSON.stringify({ user_id: 999, access_level: 30 }) });
    expect(server.requests({ method: 'post' }).map((e) => e.path)).toEqual(['/api/v4/groups/demo/members']);
    expect(server.requests({ path: '/api/v4/projects/' }).length).toBe(2);
    expect(server.requests({ path: '/api/v4/*/*/members' }).map((e) => e.method)).toEqual(['GET', 'POST']);
    expect(server.requests({ path: '/api/v4/projects/demo/app/**' }).map((e) => e.path)).toEqual(['/api/v4/projects/demo%2Fapp/members']);
    expect(server.requests({ since: before }).length).toBe(3);
    expect(server.requests({ since: new Date(Date.now() + 60_000) })).toEqual([]);
    expect(seen.at(-1)?.path).toBe('/api/v4/groups/demo/members');
  });

  test('GET /-/reference/requests answers an administrator with the filtered journal; reset empties it', async () => {
    server.reset();
    await api('/projects/demo%2Fapp');
    await api('/groups/demo');
    const read = (query: string, token = ADMIN) => fetch(`${server.url}/-/reference/requests${query}`, { headers: { 'private-token': token } });
    const all = await read('');
    expect(all.status).toBe(200);
    expect(((await all.json()) as JournalEntry[]).map((e) => e.path)).toEqual(['/api/v4/projects/demo%2Fapp', '/api/v4/groups/demo']);
    expect(((await (await read('?method=GET&path=/api/v4/groups')).json()) as JournalEntry[]).length).toBe(1);
    expect((await read('?since=yesterday-ish')).status).toBe(400);
    expect((await read('', ALICE)).status).toBe(403);
    expect((await fetch(`${server.url}/-/reference/requests`)).status).toBe(401);
    // The journal's own reads are outside the API: not journaled.
    expect(server.requests().length).toBe(2);
    expect((await fetch(`${server.url}/-/reference/reset`, { method: 'POST', headers: { 'private-token': ADMIN } })).status).toBe(204);
    expect(server.requests()).toEqual([]);
  });

  test('is a ring: the latest entries up to its capacity, oldest first', () => {
    const journal = new Journal(3);
    const entry = (path: string) => ({ time: new Date().toISOString(), method: 'GET', path, query: {}, body: null, user: null, status: 200, durationMs: 1, route: path });
    for (const path of ['/a', '/b', '/c', '/d', '/e']) journal.add(entry(path));
    expect(journal.entries().map((e) => [e.seq, e.path])).toEqual([[3, '/c'], [4, '/d'], [5, '/e']]);
  });
});

describe('routes not modelled', () => {
  test('GitLab\'s unknown-route 404, marked, and journaled with no route; a modelled route\'s 404 is not marked', async () => {
    server.reset();
    const pipelines = await api('/projects/demo%2Fapp/pipelines');
    expect(pipelines.status).toBe(404);
    expect(await pipelines.json()).toEqual({ error: '404 Not Found' });
    expect(pipelines.headers.get('x-reference-server')).toBe('not-modelled');
    expect(server.requests().at(-1)).toMatchObject({ path: '/api/v4/projects/demo%2Fapp/pipelines', route: null, status: 404 });
    expect(logLine(server.requests().at(-1)!)).toContain('(not modelled here)');
    const missing = await api('/projects/demo%2Fnone');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-reference-server')).toBeNull();
  });

  test('with strict, 501 naming the method and path', async () => {
    const strict = await startReferenceServer({ adminToken: ADMIN, strict: true });
    try {
      const answer = await fetch(`${strict.url}/api/v4/projects/1/pipelines?ref=main`, { headers: { 'private-token': ADMIN } });
      expect(answer.status).toBe(501);
      expect(await answer.json()).toEqual({ message: '501 Not Implemented: GET /api/v4/projects/1/pipelines is not modelled by the reference server' });
      expect(answer.headers.get('x-reference-server')).toBe('not-modelled');
    } finally {
      await strict.close();
    }
  });
});
