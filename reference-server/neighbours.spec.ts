// The neighbours mode (neighbours.ts): a read a test marks gets a neighbour's change to its list when
// another test changed that list before; the test's own changes, unmarked reads and a server without
// the mode are left alone.
import type { FastifyInstance } from 'fastify';
import { afterEach, expect, test } from 'vitest';
import { buildApp } from './server.js';
import { SHARED_LIST_HEADER } from '../contract/shared-list-header.js';
import { NEIGHBOUR_HEADER } from './neighbours.js';

const ADMIN = 'glpat-neighbours-admin-00000';
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function setUp(neighbours: boolean) {
  const { app } = buildApp({ adminToken: ADMIN, neighbours });
  apps.push(app);
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, by?: string, payload?: object) => {
    const res = await app.inject({ method, url: `/api/v4${url}`, headers: { 'private-token': ADMIN, ...(by ? { [SHARED_LIST_HEADER]: by } : {}) }, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown>[] & Record<string, unknown>, neighbour: res.headers[NEIGHBOUR_HEADER.toLowerCase()] };
  };
  const group = (await call('POST', '/groups', undefined, { name: 'shared', path: 'shared' })).body;
  const user = (await call('POST', '/users', undefined, { username: 'u1', name: 'U 1', email: 'u1@example.com', password: 'Secret-12345', skip_confirmation: true })).body;
  const members = async (by?: string) => {
    const res = await call('GET', `/groups/${String(group.id)}/members`, by);
    return { ids: res.body.map((m) => m.id), neighbour: res.neighbour };
  };
  return { call, group, user, members };
}

test('another test\'s change to a list makes a marked read of it hold a neighbour\'s change too', async () => {
  const { call, group, user, members } = await setUp(true);
  const before = await members('test-b');
  expect(before.neighbour, 'nobody changed the list yet').toBeUndefined();
  expect((await call('POST', `/groups/${String(group.id)}/members`, 'test-a', { user_id: user.id, access_level: 30 })).status).toBe(201);
  // Test a's own reads: its own change is no neighbour's.
  expect((await members('test-a')).neighbour).toBeUndefined();
  expect((await members()).neighbour, 'an unmarked read').toBeUndefined();
  const after = await members('test-b');
  expect(after.neighbour).toBe('members');
  expect(after.ids).toHaveLength(before.ids.length + 2);
  // Each such read meets one more change, as a neighbour still at work would make.
  expect((await members('test-b')).ids).toHaveLength(before.ids.length + 3);
});

test('a change of a member\'s level is no change of the list: nobody else\'s read meets a neighbour for it', async () => {
  const { call, group, user, members } = await setUp(true);
  expect((await call('POST', `/groups/${String(group.id)}/members`, undefined, { user_id: user.id, access_level: 30 })).status).toBe(201);
  expect((await call('PUT', `/groups/${String(group.id)}/members/${String(user.id)}`, 'test-a', { access_level: 40 })).status).toBe(200);
  const read = await members('test-b');
  expect(read.neighbour).toBeUndefined();
  expect(read.ids).toHaveLength(2);
});

test('without the mode, marked requests are answered as any other', async () => {
  const { call, group, user, members } = await setUp(false);
  await call('POST', `/groups/${String(group.id)}/members`, 'test-a', { user_id: user.id, access_level: 30 });
  const read = await members('test-b');
  expect(read.neighbour).toBeUndefined();
  expect(read.ids).toContain(user.id);
  expect(read.ids).toHaveLength(2);
});
