// Saved states: a state made through the API, saved (GET /-/reference/state) and loaded into a fresh
// server (PUT, the library, --state's option), gives the same answers: users, members, invitations,
// files with their blob and commit ids, blame, mirrors. A state with a bad field is refused with its
// JSON pointer and changes nothing; reset after a load goes back to the seed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';
import { StateError, type ServerState } from './state.js';

const ADMIN = 'glpat-state-admin-000001';
const SEED = { users: [{ username: 'seeded' }] };

const servers: ReferenceServer[] = [];
const start = async (options: Parameters<typeof startReferenceServer>[0] = {}) => {
  const server = await startReferenceServer({ adminToken: ADMIN, suiteFixtures: false, seed: SEED, ...options });
  servers.push(server);
  return server;
};
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function call(server: ReferenceServer, method: string, path: string, body?: Record<string, unknown>) {
  const response = await fetch(`${server.url}${path.startsWith('/-/') ? '' : '/api/v4'}${path}`, {
    method,
    headers: { 'private-token': ADMIN, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

async function made(server: ReferenceServer, path: string, body: Record<string, unknown>): Promise<{ id: number }> {
  const { status, body: answer } = await call(server, 'POST', path, body);
  expect(status, `POST ${path}: ${JSON.stringify(answer)}`).toBe(201);
  return answer as { id: number };
}

const FILE = encodeURIComponent('src/app.txt');
/** The GETs whose answers a loaded state must give alike. */
const reads = (group: number, project: number) => [
  '/users?per_page=100',
  `/groups/${group}/members`,
  `/groups/${group}/invitations`,
  `/projects/${project}`,
  `/projects/${project}/members/all`,
  `/projects/${project}/repository/files/${FILE}?ref=main`,
  `/projects/${project}/repository/files/${FILE}?ref=feature`,
  `/projects/${project}/repository/files/${FILE}/blame?ref=feature`,
  `/projects/${project}/repository/files/README.md?ref=feature`,
  `/projects/${project}/remote_mirrors`,
];
/** The answers, the server's own address (in web_url) written alike for every server. */
const answers = (server: ReferenceServer, paths: string[]) =>
  Promise.all(paths.map(async (path) => JSON.parse(JSON.stringify({ path, ...(await call(server, 'GET', path)) }).replaceAll(server.url, 'SERVER')) as unknown));

let original: ReferenceServer;
let saved: ServerState;
let paths: string[];

beforeAll(async () => {
  original = await start();
  const alice = await made(original, '/users', { username: 'alice', name: 'Alice', email: 'alice@example.com', password: 'a-long-password-1', skip_confirmation: true });
  const group = await made(original, '/groups', { name: 'Demo', path: 'demo' });
  await made(original, `/groups/${group.id}/members`, { user_id: alice.id, access_level: 30, expires_at: '2999-01-01' });
  expect((await call(original, 'POST', `/groups/${group.id}/invitations`, { email: 'carol@example.com', access_level: 20 })).status).toBe(201);
  const project = await made(original, '/projects', { name: 'App', path: 'app', namespace_id: group.id });
  const write = async (method: string, path: string, body: Record<string, unknown>) => {
    const { status, body: answer } = await call(original, method, `/projects/${project.id}/repository/files/${path}`, { author_name: 'A', author_email: 'a@example.com', ...body });
    expect(status, JSON.stringify(answer)).toBeLessThan(300);
  };
  await write('POST', 'README.md', { branch: 'main', content: '# app\n', commit_message: 'readme' });
  await write('POST', FILE, { branch: 'main', content: 'one\ntwo\n', commit_message: 'app' });
  await write('PUT', FILE, { branch: 'feature', start_branch: 'main', content: 'one\nthree\nfour\n', commit_message: 'on feature' });
  await write('POST', 'bin.dat', { branch: 'feature', content: Buffer.from([0, 255, 1]).toString('base64'), encoding: 'base64', commit_message: 'binary' });
  await made(original, `/projects/${project.id}/remote_mirrors`, { url: 'https://user:secret@example.com/mirror.git', enabled: true });
  paths = reads(group.id, project.id);
  const got = await call(original, 'GET', '/-/reference/state');
  expect(got.status).toBe(200);
  saved = got.body as ServerState;
});

describe('a saved state', () => {
  test('is JSON with the format version, and keeps no undefined of the store', () => {
    expect(saved).toMatchObject({ version: 1 });
    expect(saved.projects[0].repository.commits).toHaveLength(4);
    expect(Object.keys(saved.projects[0].repository.branches).sort()).toEqual(['feature', 'main']);
  });

  test('loaded over HTTP into a fresh server gives the same answers', async () => {
    const before = await answers(original, paths);
    // The answers are about something: the files, blame and mirror exist.
    for (const answer of before as { path: string; status: number }[]) expect(answer.status, answer.path).toBe(200);
    expect(before[6]).toMatchObject({ body: { content: Buffer.from('one\nthree\nfour\n').toString('base64') } });
    const fresh = await start();
    expect((await call(fresh, 'GET', paths[3])).status).toBe(404);
    expect((await call(fresh, 'PUT', '/-/reference/state', saved as unknown as Record<string, unknown>)).status).toBe(204);
    expect(await answers(fresh, paths)).toEqual(before);
    // Saved again, the same state.
    expect(fresh.saveState()).toEqual(saved);
  });

  test('loaded through the library and at start gives the same answers, and writes go on from it', async () => {
    const before = await answers(original, paths);
    const byLibrary = await start();
    byLibrary.loadState(saved);
    expect(await answers(byLibrary, paths)).toEqual(before);
    const file = join(mkdtempSync(join(tmpdir(), 'state-')), 'state.json');
    writeFileSync(file, JSON.stringify(saved));
    const atStart = await start({ state: file });
    expect(await answers(atStart, paths)).toEqual(before);
    // The id sequences go on from the saved ones: a new group on both gets the same id.
    const next = await made(original, '/groups', { name: 'Next', path: 'next' });
    expect((await made(atStart, '/groups', { name: 'Next', path: 'next' })).id).toBe(next.id);
    await call(original, 'DELETE', `/groups/${next.id}`);
  });

  test('saved under --vary, loaded ids go on past every id in use', async () => {
    const varied = await start({ vary: 7 });
    const first = await made(varied, '/groups', { name: 'One', path: 'one' });
    const state = varied.saveState();
    expect(state.nextIds.namespace).toBeGreaterThan(first.id);
    const fresh = await start();
    fresh.loadState(state);
    expect((await made(fresh, '/groups', { name: 'Two', path: 'two' })).id).toBe(state.nextIds.namespace);
  });

  test('with a bad field is refused with its JSON pointer, and the server stays as it was', async () => {
    const target = await start();
    const before = await answers(target, ['/users?per_page=100']);
    const bad = structuredClone(saved);
    (bad.members[0] as unknown as Record<string, unknown>).accessLevel = 'developer';
    const refused = await call(target, 'PUT', '/-/reference/state', bad as unknown as Record<string, unknown>);
    expect(refused).toEqual({ status: 400, body: { error: 'state /members/0/accessLevel: must be integer' } });
    expect(() => target.loadState(bad)).toThrow(StateError);
    // A commit whose content does not hash to its id passes the schema and is refused whole.
    const forged = structuredClone(saved);
    forged.projects[0].repository.commits[1].message = 'forged';
    expect(() => target.loadState(forged)).toThrow('state /projects/0/repository/commits/1: the fields do not hash to the commit id');
    expect(await answers(target, ['/users?per_page=100'])).toEqual(before);
    expect(target.saveState().users.map((u) => u.username)).toEqual(['root', 'seeded']);
  });

  test('needs the administrator: 401 without a token, 403 for another user', async () => {
    const response = await fetch(`${original.url}/-/reference/state`);
    expect(response.status).toBe(401);
    const alice = saved.users.find((u) => u.username === 'alice')!;
    const token = await made(original, `/users/${alice.id}/personal_access_tokens`, { name: 't', scopes: ['api'] });
    const other = await fetch(`${original.url}/-/reference/state`, { headers: { 'private-token': (token as unknown as { token: string }).token } });
    expect(other.status).toBe(403);
  });

  test('reset after a load goes back to the seed, not to the loaded state', async () => {
    const server = await start();
    server.loadState(saved);
    expect((await call(server, 'POST', '/-/reference/reset')).status).toBe(204);
    expect(server.saveState().users.map((u) => u.username)).toEqual(['root', 'seeded']);
    expect(server.saveState().projects).toEqual([]);
  });
});
