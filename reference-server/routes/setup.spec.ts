// The set-up endpoints as clients use them to find and read users, groups, projects and shares
// (gitlabracadabra, GitLab::API::v4, python-gitlab's functional tests), `sudo`, and parameters read as
// Rack reads them (bracket arrays, form and multipart bodies).
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../server.js';

const ADMIN = 'glpat-setup-spec-admin-0001';
const { app } = buildApp({ adminToken: ADMIN });
const inject = (options: InjectOptions & { token?: string }) => app.inject({ ...options, url: `/api/v4${options.url}`, headers: { 'private-token': options.token ?? ADMIN, ...options.headers } });
const post = async (url: string, payload: Record<string, unknown>) => (await inject({ method: 'POST', url, payload })).json();

let top: { id: number };
let sub: { id: number };
let deep: { id: number };
let shared: { id: number };
let project: { id: number };
let ann: { id: number };
let dev: { id: number };
let devToken: string;

beforeAll(async () => {
  await app.ready();
  top = await post('/groups', { name: 'Top', path: 'top' });
  sub = await post('/groups', { name: 'Sub', path: 'sub', parent_id: top.id });
  deep = await post('/groups', { name: 'Deep', path: 'deep', parent_id: sub.id });
  shared = await post('/groups', { name: 'Shared', path: 'shared' });
  project = await post('/projects', { name: 'app', namespace_id: sub.id, initialize_with_readme: true });
  ann = await post('/users', { username: 'ann', name: 'Ann', email: 'ann@example.com', password: 'Secret-12345' });
  await post('/users', { username: 'annabel', name: 'Annabel', email: 'annabel@example.com', password: 'Secret-12345' });
  dev = await post('/users', { username: 'dev', name: 'Dev', email: 'dev@example.com', password: 'Secret-12345' });
  devToken = (await post(`/users/${dev.id}/personal_access_tokens`, { name: 't', scopes: ['api'] })).token;
  await post(`/groups/${top.id}/members`, { user_id: dev.id, access_level: 30 });
});

afterAll(() => app.close());

describe('finding users, groups and namespaces', () => {
  test('GET /users?username= is an exact, case-insensitive match; search a part', async () => {
    const byName = await inject({ method: 'GET', url: '/users?username=ANN' });
    expect(byName.json().map((u: { username: string }) => u.username)).toEqual(['ann']);
    expect(byName.json()[0]).toMatchObject({ email: 'ann@example.com', is_admin: false });
    expect((await inject({ method: 'GET', url: '/users?username=nobody' })).json()).toEqual([]);
    const search = (await inject({ method: 'GET', url: '/users?search=ann' })).json().map((u: { username: string }) => u.username);
    // UsersFinder orders by id, newest first.
    expect(search).toEqual(['annabel', 'ann']);
    // Others than administrators read UserBasic rows, without addresses.
    expect((await inject({ method: 'GET', url: '/users?username=ann', token: devToken })).json()[0].email).toBeUndefined();
  });

  test('subgroups are the direct children, descendant groups all below; skip_groups in either array form', async () => {
    const ids = async (url: string) => (await inject({ method: 'GET', url })).json().map((g: { id: number }) => g.id);
    expect(await ids(`/groups/${top.id}/subgroups`)).toEqual([sub.id]);
    // order_groups: by name (Deep, Sub), then id.
    expect(await ids(`/groups/${top.id}/descendant_groups`)).toEqual([deep.id, sub.id]);
    const skipped = await ids(`/groups?skip_groups[]=${sub.id}&skip_groups[]=${deep.id}&per_page=100`);
    expect([top.id, sub.id, deep.id, shared.id].filter((id) => skipped.includes(id))).toEqual([top.id, shared.id]);
    expect(await ids(`/groups?skip_groups=${top.id},${shared.id}&search=e`)).toEqual([deep.id]);
  });

  test('POST /users keeps a multipart avatar: avatar_url is the server\'s upload path, which serves the file', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const boundary = 'cnf-avatar-boundary';
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = Buffer.concat([
      Buffer.from(field('username', 'pic') + field('name', 'Pic') + field('email', 'pic@example.com') + field('password', 'Secret-12345')),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="my avatar.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const created = await inject({ method: 'POST', url: '/users', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(created.statusCode).toBe(201);
    const avatarUrl = created.json().avatar_url as string;
    expect(avatarUrl).toBe(`http://localhost:80/uploads/-/system/user/avatar/${created.json().id}/my_avatar.png`);
    expect((await inject({ method: 'GET', url: `/users/${created.json().id}` })).json().avatar_url).toBe(avatarUrl);
    const served = await app.inject({ method: 'GET', url: new URL(avatarUrl).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload).toEqual(png);
    expect((await app.inject({ method: 'GET', url: `/uploads/-/system/user/avatar/${ann.id}/x.png` })).statusCode).toBe(404);
    // A plain value is no file.
    expect((await inject({ method: 'POST', url: '/users', payload: { username: 'pic2', name: 'P', email: 'pic2@example.com', password: 'Secret-12345', avatar: 'x' } })).json()).toEqual({ error: 'avatar is invalid' });
  });

  test('GET /groups: top_level_only, owned, min_access_level and visibility filter as GroupsFinder does', async () => {
    const ids = async (url: string, token = ADMIN) => (await inject({ method: 'GET', url, token })).json().map((g: { id: number }) => g.id);
    const ours = (list: number[]) => [top.id, sub.id, deep.id, shared.id].filter((id) => list.includes(id));
    expect(ours(await ids('/groups?top_level_only=true&per_page=100'))).toEqual([top.id, shared.id]);
    // The administrator made every group and owns each directly; dev is a Developer of top only.
    expect(ours(await ids('/groups?owned=true&per_page=100'))).toEqual([top.id, sub.id, deep.id, shared.id]);
    expect(await ids('/groups?owned=true', devToken)).toEqual([]);
    expect(await ids('/groups?min_access_level=30', devToken)).toEqual([deep.id, sub.id, top.id]);
    expect(await ids('/groups?min_access_level=40', devToken)).toEqual([]);
    expect(await ids('/groups?min_access_level=30&top_level_only=true', devToken)).toEqual([top.id]);
    expect(ours(await ids('/groups?visibility=public&per_page=100'))).toEqual([]);
    expect((await inject({ method: 'GET', url: '/groups?min_access_level=31' })).json()).toEqual({ error: 'min_access_level does not have a valid value' });
  });

  test('GET /projects: membership, min_access_level and visibility; GET /users: humans, admins, active', async () => {
    const ids = async (url: string, token = ADMIN) => (await inject({ method: 'GET', url, token })).json().map((g: { id: number }) => g.id);
    expect(await ids('/projects?membership=true', devToken)).toEqual([project.id]);
    expect(await ids('/projects?min_access_level=30', devToken)).toEqual([project.id]);
    expect(await ids('/projects?min_access_level=40', devToken)).toEqual([]);
    expect(await ids('/projects?visibility=public')).toEqual([]);
    expect(await ids('/users?admins=true')).toEqual([1]);
    // Only an administrator narrows to administrators.
    expect((await ids('/users?admins=true', devToken)).length).toBeGreaterThan(1);
    expect(await ids('/users?active=true&username=dev')).toEqual([dev.id]);
    expect(await ids('/users?blocked=true&username=dev')).toEqual([]);
  });

  test('a project\'s namespace has its parent; GET /namespaces/:id finds a group by path and a user namespace', async () => {
    const read = (await inject({ method: 'GET', url: `/projects/${project.id}` })).json();
    expect(read.namespace).toMatchObject({ id: sub.id, kind: 'group', full_path: 'top/sub', parent_id: top.id });
    expect((await inject({ method: 'GET', url: '/namespaces/top%2Fsub' })).json()).toMatchObject({ id: sub.id, parent_id: top.id, kind: 'group' });
    expect((await inject({ method: 'GET', url: '/namespaces/ann' })).json()).toMatchObject({ id: ann.id, kind: 'user', full_path: 'ann' });
    expect((await inject({ method: 'GET', url: '/namespaces/ann', token: devToken })).statusCode).toBe(404);
  });

  test('shares carry group_full_path; a share is taken back with DELETE …/share/:group_id', async () => {
    await post(`/groups/${top.id}/share`, { group_id: shared.id, group_access: 20 });
    await post(`/projects/${project.id}/share`, { group_id: shared.id, group_access: 30 });
    const link = { group_id: shared.id, group_name: 'Shared', group_full_path: 'shared' };
    expect((await inject({ method: 'GET', url: `/groups/${top.id}` })).json().shared_with_groups).toEqual([{ ...link, group_access_level: 20, expires_at: null }]);
    expect((await inject({ method: 'GET', url: `/projects/${project.id}` })).json().shared_with_groups).toEqual([{ ...link, group_access_level: 30, expires_at: null }]);
    expect((await inject({ method: 'DELETE', url: `/groups/${top.id}/share/${shared.id}` })).statusCode).toBe(204);
    expect((await inject({ method: 'DELETE', url: `/projects/${project.id}/share/${shared.id}` })).statusCode).toBe(204);
    expect((await inject({ method: 'DELETE', url: `/projects/${project.id}/share/${shared.id}` })).json()).toEqual({ message: '404 Group Link Not Found' });
    expect((await inject({ method: 'GET', url: `/groups/${top.id}` })).json().shared_with_groups).toEqual([]);
  });
});

describe('finding groups, projects and users: ownership, order, avatars, memberships', () => {
  test('GET /projects?owned=true: the caller\'s personal projects and those of groups they own', async () => {
    const own = await post('/projects', { name: 'mine' });
    const owned = async (token: string) => (await inject({ method: 'GET', url: '/projects?owned=true', token })).json().map((p: { id: number }) => p.id);
    // Newest first (created_at, desc).
    expect(await owned(ADMIN)).toEqual([own.id, project.id]);
    expect(await owned(devToken)).toEqual([]);
  });

  test('GET /groups: all_available (a user lists the groups they belong to unless asked for all they can see), order_by and sort', async () => {
    const names = async (url: string, token = ADMIN) => (await inject({ method: 'GET', url, token })).json().map((g: { name: string }) => g.name);
    const internal = await post('/groups', { name: 'Internal', path: 'internal-g', visibility: 'internal' });
    // dev belongs to top, so to it, its descendants; not to Internal or Shared.
    expect(await names('/groups', devToken)).toEqual(['Deep', 'Sub', 'Top']);
    expect(await names('/groups?all_available=true', devToken)).toEqual(['Deep', 'Internal', 'Sub', 'Top']);
    // The administrator sees every group unless all_available=false: then those of its memberships (it made them all).
    expect((await names('/groups?per_page=100')).filter((n: string) => ['Internal', 'Top'].includes(n))).toEqual(['Internal', 'Top']);
    expect(await names('/groups?order_by=name&sort=desc', devToken)).toEqual(['Top', 'Sub', 'Deep']);
    expect(await names('/groups?order_by=id', devToken)).toEqual(['Top', 'Sub', 'Deep']);
    expect(await names('/groups?order_by=path&sort=asc', devToken)).toEqual(['Deep', 'Sub', 'Top']);
    // Without a token (GET needs none): the public groups only.
    expect(await app.inject({ method: 'GET', url: '/api/v4/groups?search=internal' }).then((r) => r.json())).toEqual([]);
    expect((await inject({ method: 'GET', url: '/groups?order_by=size' })).json()).toEqual({ error: 'order_by does not have a valid value' });
    await inject({ method: 'DELETE', url: `/groups/${internal.id}` });
  });

  test('GET /projects: order_by, sort, id_after/id_before, search_namespaces; archived, starred and topic find nothing here', async () => {
    const second = await post('/projects', { name: 'zeta', namespace_id: top.id });
    const ids = async (url: string) => (await inject({ method: 'GET', url })).json().map((p: { id: number }) => p.id);
    const ours = (list: number[]) => list.filter((id) => id === project.id || id === second.id);
    expect(ours(await ids('/projects?per_page=100'))).toEqual([second.id, project.id]);
    expect(ours(await ids('/projects?order_by=name&sort=asc&per_page=100'))).toEqual([project.id, second.id]);
    expect(ours(await ids('/projects?order_by=id&sort=asc&per_page=100'))).toEqual([project.id, second.id]);
    expect(await ids(`/projects?id_after=${project.id}&id_before=${second.id + 1}&search=zeta`)).toEqual([second.id]);
    // search matches a project's name or path; with search_namespaces its full path too.
    expect(await ids('/projects?search=top/zeta')).toEqual([]);
    expect(await ids('/projects?search=top/zeta&search_namespaces=true')).toEqual([second.id]);
    for (const filter of ['archived=true', 'starred=true', 'topic=ruby']) expect(await ids(`/projects?search=zeta&${filter}`)).toEqual([]);
    expect(await ids('/projects?search=zeta&archived=false')).toEqual([second.id]);
    expect(await ids('/projects?search=zeta&updated_after=2000-01-01T00:00:00Z&last_activity_before=2999-01-01')).toEqual([second.id]);
    expect((await inject({ method: 'GET', url: '/projects?updated_after=yesterday' })).json()).toEqual({ error: 'updated_after is invalid' });
  });

  test('GET /users: order_by and sort for administrators only, created_after/before, exclude_humans, external, two_factor', async () => {
    const names = async (url: string, token = ADMIN) => (await inject({ method: 'GET', url, token })).json().map((u: { username: string }) => u.username);
    expect(await names('/users?search=ann&order_by=username&sort=asc')).toEqual(['ann', 'annabel']);
    // Others than administrators cannot choose the order: newest first.
    expect(await names('/users?search=ann&order_by=username&sort=asc', devToken)).toEqual(['annabel', 'ann']);
    expect(await names('/users?search=ann&created_after=2999-01-01')).toEqual([]);
    expect(await names('/users?search=ann&created_before=2999-01-01')).toEqual(['annabel', 'ann']);
    expect(await names('/users?search=ann&external=true')).toEqual([]);
    expect(await names('/users?search=ann&exclude_external=true')).toEqual(['annabel', 'ann']);
    expect(await names('/users?search=ann&exclude_humans=true')).toEqual([]);
    expect(await names('/users?search=ann&two_factor=enabled')).toEqual([]);
    expect(await names('/users?search=ann&two_factor=disabled')).toEqual(['annabel', 'ann']);
  });

  test('POST /groups, POST and PUT /projects keep a multipart avatar: avatar_url is the upload path, served to whoever can read the group or project', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 4, 5, 6]);
    const boundary = 'cnf-avatar-boundary';
    const multipart = (fields: Record<string, string>) => ({
      payload: Buffer.concat([
        Buffer.from(Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('')),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    const group = await inject({ method: 'POST', url: '/groups', ...multipart({ name: 'Pictured', path: 'pictured' }) });
    expect(group.statusCode).toBe(201);
    expect(group.json().avatar_url).toBe(`http://localhost:80/uploads/-/system/group/avatar/${group.json().id}/logo.png`);
    expect((await inject({ method: 'GET', url: `/groups/${group.json().id}` })).json().avatar_url).toBe(group.json().avatar_url);
    const created = await inject({ method: 'POST', url: '/projects', ...multipart({ name: 'pictured-app', namespace_id: String(group.json().id) }) });
    expect(created.statusCode).toBe(201);
    const projectAvatar = `http://localhost:80/uploads/-/system/project/avatar/${created.json().id}/logo.png`;
    expect(created.json()).toMatchObject({ avatar_url: projectAvatar, namespace: { avatar_url: group.json().avatar_url } });
    // Without an upload: null, as GitLab has no Gravatar for groups and projects; PUT adds one.
    expect((await inject({ method: 'GET', url: `/projects/${project.id}` })).json().avatar_url).toBeNull();
    const updated = await inject({ method: 'PUT', url: `/projects/${project.id}`, ...multipart({}) });
    expect(updated.json().avatar_url).toBe(`http://localhost:80/uploads/-/system/project/avatar/${project.id}/logo.png`);
    const served = await app.inject({ method: 'GET', url: new URL(projectAvatar).pathname, headers: { 'private-token': ADMIN } });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload).toEqual(png);
    // The group is private: without a token its avatar is not found, as the group is not.
    expect((await app.inject({ method: 'GET', url: new URL(group.json().avatar_url).pathname })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: new URL(group.json().avatar_url).pathname, headers: { 'private-token': ADMIN } })).statusCode).toBe(200);
  });

  test('GET /users/:id/memberships lists direct memberships, by type', async () => {
    const rows = (await inject({ method: 'GET', url: `/users/${dev.id}/memberships` })).json();
    expect(rows).toEqual([{ source_id: top.id, source_name: 'Top', source_type: 'Namespace', access_level: 30 }]);
    expect((await inject({ method: 'GET', url: `/users/${dev.id}/memberships?type=Project` })).json()).toEqual([]);
    expect((await inject({ method: 'GET', url: `/users/${dev.id}/memberships?type=Invalid` })).json()).toEqual({ error: 'type does not have a valid value' });
  });
});

describe('writes clients send otherwise', () => {
  test('PUT /projects/:id with only a description, multipart POST /users', async () => {
    const put = await inject({ method: 'PUT', url: `/projects/${project.id}`, payload: { description: 'About' } });
    expect(put.json().description).toBe('About');
    const boundary = 'b0undary';
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = field('username', 'multi') + field('name', 'Multi') + field('email', 'multi@example.com') + field('password', 'Secret-12345') + field('skip_confirmation', 'true') + `--${boundary}--\r\n`;
    const created = await inject({ method: 'POST', url: '/users', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(created.statusCode).toBe(201);
    expect(created.json().username).toBe('multi');
  });

  test('a token is revoked with DELETE /personal_access_tokens/:id', async () => {
    const token = await post(`/users/${dev.id}/personal_access_tokens`, { name: 'gone', scopes: ['api'] });
    expect((await inject({ method: 'DELETE', url: `/personal_access_tokens/${token.id}` })).statusCode).toBe(204);
    expect((await inject({ method: 'GET', url: '/user', token: token.token })).statusCode).toBe(401);
    expect((await inject({ method: 'DELETE', url: '/personal_access_tokens/999999' })).statusCode).toBe(404);
  });
});

describe('a user\'s addresses (GET and DELETE /users/:id/emails)', () => {
  test('the list holds the confirmed primary address first, then the secondary ones; a secondary one is removed', async () => {
    const confirmed = await post('/users', { username: 'eve', name: 'Eve', email: 'eve@example.com', password: 'Secret-12345', skip_confirmation: true });
    const second = await post(`/users/${confirmed.id}/emails`, { email: 'eve-2@example.com' });
    const third = await post(`/users/${confirmed.id}/emails`, { email: 'eve-3@example.com', skip_confirmation: true });
    const list = await inject({ method: 'GET', url: `/users/${confirmed.id}/emails` });
    expect(list.headers['x-total']).toBe('3');
    const rows = list.json() as { id: number; email: string; confirmed_at: string | null }[];
    expect(rows.map((r) => [r.email, r.confirmed_at !== null])).toEqual([['eve@example.com', true], ['eve-2@example.com', false], ['eve-3@example.com', true]]);
    expect(rows.slice(1)).toEqual([second, third]);
    expect(rows[0]!.id).toBeLessThan(second.id);
    // An unconfirmed primary address has no Email row.
    expect((await inject({ method: 'GET', url: `/users/${ann.id}/emails` })).json()).toEqual([]);

    expect((await inject({ method: 'DELETE', url: `/users/${confirmed.id}/emails/${second.id}` })).statusCode).toBe(204);
    expect((await inject({ method: 'GET', url: `/users/${confirmed.id}/emails` })).json().map((r: { email: string }) => r.email)).toEqual(['eve@example.com', 'eve-3@example.com']);
    const again = await inject({ method: 'DELETE', url: `/users/${confirmed.id}/emails/${second.id}` });
    expect([again.statusCode, again.json()]).toEqual([404, { message: '404 Email Not Found' }]);
    // Another user's row is not this user's.
    expect((await inject({ method: 'DELETE', url: `/users/${ann.id}/emails/${third.id}` })).statusCode).toBe(404);
    // Emails::DestroyService raises for the primary address's row: GitLab's 500.
    const primary = await inject({ method: 'DELETE', url: `/users/${confirmed.id}/emails/${rows[0]!.id}` });
    expect([primary.statusCode, primary.json()]).toEqual([500, { message: '500 Internal Server Error' }]);
  });

  test('refusals: others than administrators, a user that is not there, an email_id that is not a number', async () => {
    expect((await inject({ method: 'GET', url: `/users/${dev.id}/emails`, token: devToken })).statusCode).toBe(403);
    expect((await inject({ method: 'GET', url: '/users/999999/emails' })).json()).toEqual({ message: '404 User Not Found' });
    const bad = await inject({ method: 'DELETE', url: `/users/${dev.id}/emails/x`, token: devToken });
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'email_id is invalid' }]);
  });
});

describe('sudo (lib/api/helpers.rb sudo!)', () => {
  test('the administrator acts as the named user, by username (parameter) or id (header)', async () => {
    expect((await inject({ method: 'GET', url: '/user?sudo=dev' })).json().username).toBe('dev');
    expect((await inject({ method: 'GET', url: '/user', headers: { sudo: String(dev.id) } })).json().username).toBe('dev');
    const asDev = await inject({ method: 'POST', url: `/groups/${top.id}/members`, payload: { user_id: ann.id, access_level: 10, sudo: 'dev' } });
    expect(asDev.statusCode).toBe(403);
  });

  test('refusals in GitLab\'s order and words', async () => {
    expect((await inject({ method: 'GET', url: '/user?sudo=ann', token: devToken })).json()).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
    const plain = (await post(`/users/1/personal_access_tokens`, { name: 'no-sudo', scopes: ['api'] })).token;
    expect((await inject({ method: 'GET', url: '/user?sudo=ann', token: plain })).json()).toMatchObject({ error: 'insufficient_scope', scope: 'sudo' });
    expect((await inject({ method: 'GET', url: '/user', headers: { sudo: 'nobody' } })).json()).toEqual({ message: "404 User with ID or username 'nobody' Not Found" });
    expect((await app.inject({ method: 'GET', url: '/api/v4/user?sudo=ann' })).statusCode).toBe(401);
  });
});

describe('array parameters as Rack and Grape read them', () => {
  test('user_ids: bracket, comma and repeated plain key; invitations: bracket form body, JSON array, JSON number', async () => {
    const ids = async (query: string) => (await inject({ method: 'GET', url: `/groups/${top.id}/members?${query}` })).json().map((m: { id: number }) => m.id);
    expect(await ids(`user_ids[]=1&user_ids[]=${dev.id}`)).toEqual([1, dev.id]);
    expect(await ids(`user_ids=1,${dev.id}`)).toEqual([1, dev.id]);
    expect(await ids(`user_ids=1&user_ids=${dev.id}`)).toEqual([dev.id]);
    const form = await inject({ method: 'POST', url: `/groups/${top.id}/invitations`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email[]=x%40example.com&email[]=y%40example.com&access_level=10' });
    expect(form.json()).toEqual({ status: 'success' });
    const json = await inject({ method: 'POST', url: `/groups/${top.id}/invitations`, payload: { user_id: [String(ann.id)], access_level: 10 } });
    expect(json.json()).toEqual({ status: 'success' });
    const number = await inject({ method: 'POST', url: `/projects/${project.id}/invitations`, payload: { user_id: ann.id, access_level: 10 } });
    expect(number.json()).toEqual({ message: '400 Bad request - Must provide either email or user_id as a parameter' });
    const invited = (await inject({ method: 'GET', url: `/groups/${top.id}/invitations` })).json().map((i: { invite_email: string }) => i.invite_email);
    expect(invited).toEqual(['x@example.com', 'y@example.com']);
  });
});

describe('protected branches (lib/api/protected_branches.rb)', () => {
  test('a Maintainer protects a branch with the default levels (201), a Developer may not (403), a name protected already is 409; a Developer then may not write there', async () => {
    const protect = (name: string, token?: string) => inject({ method: 'POST', url: `/projects/${project.id}/protected_branches`, payload: { name }, token });
    expect((await protect('guarded', devToken)).statusCode).toBe(403);
    const created = await protect('guarded');
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'guarded', push_access_levels: [{ access_level: 40 }], merge_access_levels: [{ access_level: 40 }] });
    expect((await protect('guarded')).json()).toEqual({ message: "Protected branch 'guarded' already exists" });
    await post(`/projects/${project.id}/repository/branches`, { branch: 'guarded', ref: 'main' });
    const write = await inject({ method: 'POST', url: `/projects/${project.id}/repository/files/x.txt`, payload: { branch: 'guarded', commit_message: 'm', content: 'x' }, token: devToken });
    expect([write.statusCode, write.json()]).toEqual([400, { message: 'You are not allowed to push into this branch' }]);
  });
});
