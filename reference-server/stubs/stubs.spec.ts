// Stubs beside the built-in routes (stubs.ts): from a file at the start, the library and POST
// /-/reference/stubs; a template reading path parameters; the server's routes win unless override;
// listed at /-/reference/health; reset drops the stubs added while running and keeps the file's;
// a stub the schema refuses is named.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';
import { checkStubs, StubError } from './stubs.js';

const ADMIN = 'glpat-stubs-spec-admin-0001';
const folder = mkdtempSync(join(tmpdir(), 'stubs-spec-'));
const file = join(folder, 'stubs.yaml');
writeFileSync(
  file,
  `stubs:
  - method: GET
    path: /api/v4/projects/:id/pipelines
    headers: { x-total: "1" }
    body: [{ id: 1, status: success, ref: main, project: "{{params.id}}" }]
`,
);

let server: ReferenceServer;
const get = (path: string) => fetch(`${server.url}${path}`, { headers: { 'private-token': ADMIN } });
const health = async () => (await (await fetch(`${server.url}/-/reference/health`)).json()) as { status: string; stubs?: { path: string; added: string }[] };

beforeAll(async () => {
  server = await startReferenceServer({ adminToken: ADMIN, stubs: file });
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

test('a stub from the start file answers a route the server lacks, with its path parameters filled in', async () => {
  const answer = await get('/api/v4/projects/demo%2Fapp/pipelines');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('x-total')).toBe('1');
  expect(answer.headers.get('x-reference-server')).toBeNull();
  expect(await answer.json()).toEqual([{ id: 1, status: 'success', ref: 'main', project: 'demo/app' }]);
  expect(server.requests().at(-1)?.route).toBe('stub GET /api/v4/projects/:id/pipelines');
  // Another method on the same path is still not modelled.
  expect((await fetch(`${server.url}/api/v4/projects/1/pipelines`, { method: 'POST', headers: { 'private-token': ADMIN } })).status).toBe(404);
});

test('the server\'s own route wins over a stub unless it says override', async () => {
  server.stub({ method: 'GET', path: '/api/v4/version', body: { version: 'stubbed' } });
  expect(((await (await get('/api/v4/version')).json()) as { version: string }).version).not.toBe('stubbed');
  server.stub({ method: 'GET', path: '/api/v4/version', status: 200, body: { version: '99.0.0' }, override: true });
  expect(await (await get('/api/v4/version')).json()).toEqual({ version: '99.0.0' });
  server.reset();
});

test('POST /-/reference/stubs adds stubs for an administrator; health lists them; reset keeps only the file\'s', async () => {
  const added = await fetch(`${server.url}/-/reference/stubs`, {
    method: 'POST',
    headers: { 'private-token': ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'ANY', path: '/api/v4/projects/:id/hooks/*', status: 201, body: 'hook of {{params.id}}', headers: { 'content-type': 'text/plain' } }),
  });
  expect(added.status).toBe(201);
  const hook = await fetch(`${server.url}/api/v4/projects/7/hooks/3/test/push_events`, { method: 'POST', headers: { 'private-token': ADMIN } });
  expect([hook.status, await hook.text()]).toEqual([201, 'hook of 7']);
  expect((await health()).stubs?.map((s) => [s.path, s.added])).toEqual([
    ['/api/v4/projects/:id/pipelines', 'at start'],
    ['/api/v4/projects/:id/hooks/*', 'while running'],
  ]);
  const refused = await fetch(`${server.url}/-/reference/stubs`, { method: 'POST', headers: { 'private-token': ADMIN }, body: JSON.stringify({ method: 'FETCH', path: '/x' }) });
  expect(refused.status).toBe(400);
  expect((await fetch(`${server.url}/-/reference/stubs`, { method: 'POST', body: '{}' })).status).toBe(401);

  expect((await fetch(`${server.url}/-/reference/reset`, { method: 'POST', headers: { 'private-token': ADMIN } })).status).toBe(204);
  expect((await health()).stubs?.map((s) => s.path)).toEqual(['/api/v4/projects/:id/pipelines']);
  expect((await fetch(`${server.url}/api/v4/projects/7/hooks/3`, { method: 'POST', headers: { 'private-token': ADMIN } })).status).toBe(404);
  expect((await get('/api/v4/projects/1/pipelines')).status).toBe(200);
});

test('a stub the schema refuses is named', () => {
  expect(() => checkStubs({ stubs: [{ method: 'GET', path: '/x', staus: 200 }] }, 'stubs.yaml')).toThrow(new StubError('stubs.yaml: stubs.0 must NOT have additional properties: "staus"'));
  expect(() => checkStubs([{ method: 'GET', path: 'no-slash' }])).toThrow(StubError);
});
