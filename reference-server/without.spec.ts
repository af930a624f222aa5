// Each `--without` switch against `buildApp({ without: [name] })`: the endpoint it takes away answers
// as an unknown route (or the behaviour it names changes), and the same request on the full server
// answers as GitLab does. Also: every name of contract/extra-setup-endpoints.ts is a switch.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { EXTRA_SETUP_ENDPOINT_NAMES, type ExtraSetupEndpoint } from '../contract/extra-setup-endpoints.js';
import { buildApp } from './server.js';
import { unknownWithout } from './without.js';

type Json = Record<string, unknown>;
const ADMIN = 'glpat-without-admin-000000';
const UNKNOWN_ROUTE = { status: 404, body: { error: '404 Not Found' } };

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function call(app: FastifyInstance, method: InjectOptions['method'], url: string, payload?: Json, token = ADMIN) {
  const res = await app.inject({ method, url: `/api/v4${url}`, headers: { 'private-token': token }, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.body === '' ? undefined : (JSON.parse(res.body) as Json) };
}

/** A server (with or without one switch) holding a public group and project, a user with a token, and the user's access request to the group. */
async function server(without: ExtraSetupEndpoint[], options: { delayedDeletion?: boolean } = {}) {
  const app = buildApp({ adminToken: ADMIN, without, ...options }).app;
  apps.push(app);
  const made = async (method: InjectOptions['method'], url: string, payload: Json, token = ADMIN) => {
    const res = await call(app, method, url, payload, token);
    if (res.status >= 300) throw new Error(`set-up ${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body!;
  };
  const group = await made('POST', '/groups', { name: 'pub', path: 'pub', visibility: 'public' });
  const sub = await made('POST', '/groups', { name: 'sub', path: 'sub', parent_id: group.id });
  const project = await made('POST', '/projects', { name: 'app', namespace_id: sub.id, visibility: 'public', initialize_with_readme: true });
  const user = await made('POST', '/users', { username: 'wo-user', name: 'Wo User', email: 'wo-user@example.com', password: 'Secret-12345', skip_confirmation: true });
  const token = (await made('POST', `/users/${user.id}/personal_access_tokens`, { name: 't', scopes: ['api'] })).token as string;
  return { app, group, sub, project, user, token, call: (method: InjectOptions['method'], url: string, payload?: Json, as?: string) => call(app, method, url, payload, as) };
}

describe('--without', () => {
  test('every name the contract lists is a switch, and no other name is', () => {
    expect(unknownWithout([...EXTRA_SETUP_ENDPOINT_NAMES])).toEqual([]);
    expect(unknownWithout(['access-requests', 'no-such-endpoint'])).toEqual(['no-such-endpoint']);
    expect(() => buildApp({ without: ['no-such-endpoint'] })).toThrow(/no-such-endpoint/);
  });

  test('access-requests: POST, GET, DELETE and approve of …/access_requests answer as an unknown route', async () => {
    const full = await server([]);
    expect((await full.call('POST', `/groups/${full.group.id}/access_requests`, undefined, full.token)).status).toBe(201);
    expect((await full.call('GET', `/groups/${full.group.id}/access_requests`)).status).toBe(200);
    // Denied (DELETE, 204), the request is gone: a second DELETE is 404 "404 Not found"; approved (PUT …/approve) it becomes a membership (201).
    expect((await full.call('DELETE', `/groups/${full.group.id}/access_requests/${full.user.id}`)).status).toBe(204);
    expect(await full.call('DELETE', `/groups/${full.group.id}/access_requests/${full.user.id}`)).toEqual({ status: 404, body: { message: '404 Not found' } });
    expect((await full.call('GET', `/groups/${full.group.id}/access_requests`)).body).toEqual([]);
    expect((await full.call('POST', `/groups/${full.group.id}/access_requests`, undefined, full.token)).status).toBe(201);
    const approved = await full.call('PUT', `/groups/${full.group.id}/access_requests/${full.user.id}/approve`, { access_level: 20 });
    expect([approved.status, approved.body?.id, approved.body?.access_level]).toEqual([201, full.user.id, 20]);
    expect((await full.call('GET', `/groups/${full.group.id}/members/${full.user.id}`)).status).toBe(200);
    const lacking = await server(['access-requests']);
    for (const kind of ['groups', 'projects']) {
      const id = kind === 'groups' ? lacking.group.id : lacking.project.id;
      expect(await lacking.call('POST', `/${kind}/${id}/access_requests`, undefined, lacking.token)).toEqual(UNKNOWN_ROUTE);
      expect(await lacking.call('GET', `/${kind}/${id}/access_requests`)).toEqual(UNKNOWN_ROUTE);
      expect(await lacking.call('DELETE', `/${kind}/${id}/access_requests/${lacking.user.id}`)).toEqual(UNKNOWN_ROUTE);
      expect(await lacking.call('PUT', `/${kind}/${id}/access_requests/${lacking.user.id}/approve`)).toEqual(UNKNOWN_ROUTE);
    }
    // The members endpoints stay.
    expect((await lacking.call('GET', `/groups/${lacking.group.id}/members`)).status).toBe(200);
  });

  test('project-update: PUT /projects/:id answers as an unknown route; GET stays', async () => {
    const full = await server([]);
    expect((await full.call('PUT', `/projects/${full.project.id}`, { repository_access_level: 'disabled', merge_requests_access_level: 'disabled', builds_access_level: 'disabled' })).body).toMatchObject({ repository_access_level: 'disabled' });
    const lacking = await server(['project-update']);
    expect(await lacking.call('PUT', `/projects/${lacking.project.id}`, { repository_access_level: 'private' })).toEqual(UNKNOWN_ROUTE);
    expect((await lacking.call('GET', `/projects/${lacking.project.id}`)).body).toMatchObject({ repository_access_level: 'enabled' });
  });

  test('secondary-emails: POST and GET /users/:id/emails answer as an unknown route', async () => {
    const full = await server([]);
    expect((await full.call('POST', `/users/${full.user.id}/emails`, { email: 'second@example.com', skip_confirmation: true })).status).toBe(201);
    const lacking = await server(['secondary-emails']);
    expect(await lacking.call('POST', `/users/${lacking.user.id}/emails`, { email: 'second@example.com', skip_confirmation: true })).toEqual(UNKNOWN_ROUTE);
    expect(await lacking.call('GET', `/users/${lacking.user.id}/emails`)).toEqual(UNKNOWN_ROUTE);
  });

  test('unconfirmed-users: POST /users without skip_confirmation makes a confirmed user', async () => {
    const unconfirmed = { username: 'unconf', name: 'Unconf', email: 'unconf@example.com', password: 'Secret-12345' };
    const full = await server([]);
    const left = await full.call('POST', '/users', unconfirmed);
    expect((await full.call('GET', `/users/${left.body!.id}`)).body).toMatchObject({ confirmed_at: null });
    const lacking = await server(['unconfirmed-users']);
    for (const body of [unconfirmed, { ...unconfirmed, username: 'unconf-2', email: 'unconf-2@example.com', skip_confirmation: false }]) {
      const made = await lacking.call('POST', '/users', body);
      expect(made.status).toBe(201);
      const read = await lacking.call('GET', `/users/${made.body!.id}`);
      expect(read.body?.confirmed_at).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/));
    }
  });

  test('application-settings-read: GET /application/settings answers as an unknown route; the PUT stays', async () => {
    const full = await server([]);
    expect(await full.call('GET', '/application/settings')).toEqual({ status: 200, body: { enable_member_promotion_management: false, deletion_adjourned_period: 7 } });
    const lacking = await server(['application-settings-read']);
    expect(await lacking.call('GET', '/application/settings')).toEqual(UNKNOWN_ROUTE);
    expect(await lacking.call('PUT', '/application/settings', { enable_member_promotion_management: true })).toEqual({ status: 200, body: { enable_member_promotion_management: true, deletion_adjourned_period: 7 } });
  });
});

describe('--without: removal, tokens and reads', () => {
  test('permanent-removal: DELETE of a group or project with permanently_remove is refused with 400; without it, deletion goes on', async () => {
    const full = await server([], { delayedDeletion: true });
    expect((await full.call('DELETE', `/projects/${full.project.id}`)).status).toBe(202);
    const path = (await full.call('GET', `/projects/${full.project.id}`)).body!.path_with_namespace;
    expect((await full.call('DELETE', `/projects/${full.project.id}`, { permanently_remove: true, full_path: path })).status).toBe(202);
    expect((await full.call('GET', `/projects/${full.project.id}`)).status).toBe(404);

    const lacking = await server(['permanent-removal'], { delayedDeletion: true });
    expect((await lacking.call('DELETE', `/projects/${lacking.project.id}`)).status).toBe(202);
    const marked = (await lacking.call('GET', `/projects/${lacking.project.id}`)).body!.path_with_namespace;
    expect(await lacking.call('DELETE', `/projects/${lacking.project.id}`, { permanently_remove: true, full_path: marked })).toEqual({ status: 400, body: { error: 'permanently_remove does not have a valid value' } });
    expect((await lacking.call('DELETE', `/groups/${lacking.sub.id}?permanently_remove=true`)).status).toBe(400);
    expect((await lacking.call('GET', `/projects/${lacking.project.id}`)).status).toBe(200);
    expect((await lacking.call('DELETE', `/groups/${lacking.sub.id}`)).status).toBe(202);
  });

  test('project-access-tokens: POST /projects/:id/access_tokens answers as an unknown route', async () => {
    const lacking = await server(['project-access-tokens']);
    expect(await lacking.call('POST', `/projects/${lacking.project.id}/access_tokens`, { name: 'bot', scopes: ['api'], access_level: 40 })).toEqual(UNKNOWN_ROUTE);
  });

  test('group-project-read: GET /groups/:id and GET /projects/:id answer as an unknown route; their lists and deletion stay', async () => {
    const full = await server([]);
    expect((await full.call('GET', `/groups/${full.group.id}`)).status).toBe(200);
    const lacking = await server(['group-project-read']);
    expect(await lacking.call('GET', `/groups/${lacking.group.id}`)).toEqual(UNKNOWN_ROUTE);
    expect(await lacking.call('GET', `/projects/${lacking.project.id}`)).toEqual(UNKNOWN_ROUTE);
    expect(await lacking.call('GET', `/projects/${encodeURIComponent('pub/sub/app')}`)).toEqual(UNKNOWN_ROUTE);
    expect((await lacking.call('GET', `/groups/${lacking.group.id}/members`)).status).toBe(200);
    expect((await lacking.call('DELETE', `/projects/${lacking.project.id}`)).status).toBe(202);
  });
});
