// Each spec-only variation, checked directly against `buildApp({ specOnly: true })`: what it changes,
// and what it leaves as the base server (and GitLab) answers it.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateAgainst } from '../../schemas/registry.js';
import { seedFixtures } from '../fixtures.js';
import { buildApp } from '../server.js';
import type { FixtureManifest } from '../../contract/fixture-manifest.js';
import { SPEC_ONLY_HEADER, VARIATIONS } from './index.js';

type Json = Record<string, unknown>;
const ADMIN = 'glpat-spec-only-admin-0000';

interface World {
  ids: Record<'group' | 'sub' | 'project' | 'publicProject' | 'owner' | 'maintainer' | 'developer' | 'outsider', number>;
  tokens: Record<'owner' | 'maintainer' | 'developer', string>;
}

let app: FastifyInstance;
/** The base server (no variations), for contrast. */
let base: FastifyInstance;
let fixtures: FixtureManifest;
let ids: World['ids'];
let tokens: World['tokens'];
let baseWorld: World;

async function call(server: FastifyInstance, method: InjectOptions['method'], url: string, token: string | undefined, payload?: Json) {
  const res = await server.inject({ method, url: `/api/v4${url}`, headers: token ? { 'private-token': token } : {}, ...(payload ? { payload } : {}) });
  const body = res.body === '' ? undefined : (JSON.parse(res.body) as unknown);
  return { status: res.statusCode, headers: res.headers, body: body as Json & Json[] };
}
const as = (token: string | undefined) => ({
  get: (url: string) => call(app, 'GET', url, token),
  head: (url: string) => call(app, 'HEAD', url, token),
  post: (url: string, payload: Json = {}) => call(app, 'POST', url, token, payload),
  put: (url: string, payload: Json = {}) => call(app, 'PUT', url, token, payload),
  delete: (url: string, payload?: Json) => call(app, 'DELETE', url, token, payload),
});
const admin = () => as(ADMIN);

/** Makes the same small world on a server: a private top-level group with a subgroup, two projects and three members. */
async function world(server: FastifyInstance): Promise<World> {
  const ids = { group: 0, sub: 0, project: 0, publicProject: 0, owner: 0, maintainer: 0, developer: 0, outsider: 0 };
  const tokens = { owner: '', maintainer: '', developer: '' };
  const ok = async (method: InjectOptions['method'], url: string, payload: Json) => {
    const res = await call(server, method, url, ADMIN, payload);
    if (res.status >= 300) throw new Error(`set-up ${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  ids.group = (await ok('POST', '/groups', { name: 'so', path: 'so', visibility: 'private' })).id as number;
  ids.sub = (await ok('POST', '/groups', { name: 'sub', path: 'sub', parent_id: ids.group })).id as number;
  ids.project = (await ok('POST', '/projects', { name: 'app', namespace_id: ids.group, visibility: 'private', initialize_with_readme: true })).id as number;
  const publicGroup = (await ok('POST', '/groups', { name: 'pub', path: 'pub', visibility: 'public' })).id as number;
  ids.publicProject = (await ok('POST', '/projects', { name: 'open', namespace_id: publicGroup, visibility: 'public', initialize_with_readme: true })).id as number;
  for (const name of ['owner', 'maintainer', 'developer', 'outsider'] as const) {
    const user = await ok('POST', '/users', { username: `so-${name}`, name: `So ${name}`, email: `so-${name}@example.com`, password: 'Secret-12345' });
    ids[name] = user.id as number;
    if (name !== 'outsider') tokens[name] = (await ok('POST', `/users/${user.id}/personal_access_tokens`, { name: 't', scopes: ['api'] })).token as string;
  }
  await ok('POST', `/groups/${ids.group}/members`, { user_id: ids.owner, access_level: 50 });
  await ok('POST', `/groups/${ids.group}/members`, { user_id: ids.maintainer, access_level: 40 });
  await ok('POST', `/groups/${ids.group}/members`, { user_id: ids.developer, access_level: 30 });
  return { ids, tokens };
}

beforeAll(async () => {
  const built = buildApp({ adminToken: ADMIN, specOnly: true });
  app = built.app;
  await app.ready();
  ({ ids, tokens } = await world(app));
  fixtures = seedFixtures(built.store);
  base = buildApp({ adminToken: ADMIN }).app;
  await base.ready();
  baseWorld = await world(base);
});

afterAll(async () => {
  await app?.close();
  await base?.close();
});

const file = (project: number, path = 'README.md', suffix = '') => `/projects/${project}/repository/files/${encodeURIComponent(path).replace(/\./g, '%2E')}${suffix}`;
const invite = (email: string, token = tokens.owner) => as(token).post(`/groups/${ids.group}/invitations`, { email, access_level: 30 });

test('every variation names the spec sentence that allows it', () => {
  expect(VARIATIONS.length).toBeGreaterThanOrEqual(18);
  for (const v of VARIATIONS) expect(v.spec, `${v.name} quotes the spec`).toMatch(/"[^"]{8,}"/);
  expect(new Set(VARIATIONS.map((v) => v.name)).size).toBe(VARIATIONS.length);
});

test('an answer a variation changed names it, with what it changed; an answer none changed names none', async () => {
  const list = await admin().get(`/groups/${ids.group}/members`);
  const marks = new Map(String(list.headers[SPEC_ONLY_HEADER]).split(', ').map((entry) => entry.split('=') as [string, string]));
  expect(marks.get('members-spec-fields')).toBe('body');
  expect(marks.get('pagination-headers-omitted')?.split('|')).toEqual(expect.arrayContaining(['header:x-total', 'header:link']));
  // The parameters a route reads, changed before it runs.
  expect((await admin().get(`/groups/${ids.group}/members?per_page=0`)).headers[SPEC_ONLY_HEADER]).toMatch(/(^|, )per-page-zero-as-default=request(,|$)/);
  // A status and a body of its own; the error text is replaced after it.
  const refused = await as(undefined).get(`${file(ids.project)}?ref=main`);
  expect(refused.status).toBe(401);
  expect(refused.headers[SPEC_ONLY_HEADER]).toBe('files-anonymous-401=status|body, other-error-texts=body');
  // The set-up endpoints are GitLab's, and an answer the variations leave as it is has no mark.
  expect((await admin().get(`/groups/${ids.group}`)).headers[SPEC_ONLY_HEADER]).toBeUndefined();
  expect((await admin().head(`${file(ids.project)}?ref=main`)).headers[SPEC_ONLY_HEADER]).toBeUndefined();
  // The base server names nothing.
  expect((await call(base, 'GET', `/groups/${baseWorld.ids.group}/members`, ADMIN)).headers[SPEC_ONLY_HEADER]).toBeUndefined();
});

describe('where the spec says "not shown", what GitLab\'s code settles stays', () => {
  // "Response: not shown" (DELETE file, mirror, member; approve_all), "Minimum role … not shown" and
  // "status codes for failures on other endpoints: not shown": GitLab's code settles them, so the
  // spec-only server answers them as GitLab does (docs/verdicts/levels.md).
  test('DELETE of a file, a mirror, a member and an invitation, and approve_all, answer 204 with no body', async () => {
    await admin().post(file(ids.project, 'gone.txt'), { branch: 'main', commit_message: 'add', content: 'x' });
    const removed = await admin().delete(file(ids.project, 'gone.txt'), { branch: 'main', commit_message: 'remove' });
    expect([removed.status, removed.body]).toEqual([204, undefined]);
    expect((await admin().get(`${file(ids.project, 'gone.txt')}?ref=main`)).status).toBe(404);

    const mirror = await admin().post(`/projects/${ids.project}/remote_mirrors`, { url: 'https://example.com/m.git' });
    expect(await admin().delete(`/projects/${ids.project}/remote_mirrors/${mirror.body.id}`)).toMatchObject({ status: 204, body: undefined });

    const user = await admin().post('/users', { username: 'so-leaver', name: 'Leaver', email: 'so-leaver@example.com', password: 'Secret-12345' });
    await admin().post(`/groups/${ids.group}/members`, { user_id: user.body.id, access_level: 10 });
    expect(await as(tokens.owner).delete(`/groups/${ids.group}/members/${user.body.id}`)).toMatchObject({ status: 204, body: undefined });

    await invite('so-dropped@example.com');
    const dropped = await as(tokens.owner).delete(`/groups/${ids.group}/invitations/so-dropped%40example.com`);
    expect([dropped.status, dropped.body]).toEqual([204, undefined]);
    expect(await as(tokens.owner).post(`/groups/${ids.group}/members/approve_all`)).toMatchObject({ status: 204, body: undefined });
  });

  test('mirrors: a Developer gets 401, as an anonymous caller of a public project', async () => {
    expect((await as(tokens.developer).get(`/projects/${ids.project}/remote_mirrors`)).status).toBe(401);
    expect((await as(undefined).get(`/projects/${ids.publicProject}/remote_mirrors`)).status).toBe(401);
  });

  test('billable and pending members: a Maintainer of the top-level group gets 400, as a subgroup does', async () => {
    expect((await as(tokens.maintainer).get(`/groups/${ids.group}/billable_members`)).status).toBe(400);
    expect((await as(tokens.maintainer).get(`/groups/${ids.group}/pending_members`)).status).toBe(400);
    expect((await as(tokens.owner).get(`/groups/${ids.sub}/billable_members`)).status).toBe(400);
  });
});

describe('a refusal the spec\'s words allow', () => {

  test('an anonymous read of a private project\'s file is 401 (not 404); a missing file of a public project stays 404', async () => {
    for (const suffix of ['', '/blame', '/raw']) expect((await as(undefined).get(`${file(ids.project, 'README.md', suffix)}?ref=main`)).status, suffix).toBe(401);
    expect((await as(undefined).head(`${file(ids.project)}?ref=main`)).status).toBe(401);
    expect((await as(undefined).get('/projects/999999/repository/files/README%2Emd?ref=main')).status).toBe(401);
    expect((await as(undefined).get(`${file(ids.publicProject, 'missing.txt')}?ref=main`)).status).toBe(404);
    expect((await as(undefined).get(`${file(ids.publicProject)}?ref=main`)).status).toBe(200);
  });
});

describe('(c) the order of checks where the spec gives none', () => {
  test('POST …/members for an existing member: 403 for a Developer (GitLab: 409), 409 for an Owner', async () => {
    expect((await as(tokens.developer).post(`/groups/${ids.group}/members`, { user_id: ids.maintainer, access_level: 30 })).status).toBe(403);
    expect((await as(tokens.owner).post(`/groups/${ids.group}/members`, { user_id: ids.maintainer, access_level: 30 })).status).toBe(409);
    const { ids: b, tokens: t } = baseWorld;
    expect((await call(base, 'POST', `/groups/${b.group}/members`, t.developer, { user_id: b.maintainer, access_level: 30 })).status).toBe(409);
  });

  test('PUT and DELETE …/members/:user_id of a non-member: 403 for a Developer (GitLab: 404), 404 for an Owner', async () => {
    const path = `/groups/${ids.group}/members/${ids.outsider}`;
    expect((await as(tokens.developer).put(path, { access_level: 30 })).status).toBe(403);
    expect((await as(tokens.developer).delete(path)).status).toBe(403);
    expect((await as(tokens.owner).put(path, { access_level: 30 })).status).toBe(404);
  });

  test('POST …/invitations with neither email nor user_id: 403 for a Developer (GitLab: 400), 400 for an Owner', async () => {
    expect((await as(tokens.developer).post(`/groups/${ids.group}/invitations`, { access_level: 30 })).status).toBe(403);
    expect((await as(tokens.owner).post(`/groups/${ids.group}/invitations`, { access_level: 30 })).status).toBe(400);
  });
});

describe('(d) where GitLab differs from the spec, the spec', () => {
  test('a PUT of a file with its current content is 400, as the spec says (GitLab makes an empty commit)', async () => {
    const current = await admin().get(`${file(ids.project)}?ref=main`);
    const same = Buffer.from(String(current.body.content), 'base64').toString('utf8');
    expect((await admin().put(file(ids.project), { branch: 'main', commit_message: 'same', content: same })).status).toBe(400);
  });

  test('more than 100 recipients: the failure is a map of each recipient to a text', async () => {
    const emails = Array.from({ length: 101 }, (_, i) => `so-bulk-${i}@example.com`);
    const res = await as(tokens.owner).post(`/groups/${ids.group}/invitations`, { email: emails.join(','), access_level: 30 });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['status', 'message']);
    expect(Object.keys(res.body.message as Json).sort()).toEqual([...emails].sort());
  });

  test('PUT …/invitations/:email without access_level sets it to 30 ("default 30")', async () => {
    await as(tokens.owner).post(`/groups/${ids.group}/invitations`, { email: 'so-lower@example.com', access_level: 10 });
    const res = await as(tokens.owner).put(`/groups/${ids.group}/invitations/so-lower%40example.com`, { expires_at: '2031-05-06' });
    expect(res).toMatchObject({ status: 200, body: { expires_at: '2031-05-06T00:00:00Z', access_level: 30 } });
    expect(Object.keys(res.body).sort()).toEqual(['access_level', 'expires_at']);
    expect((await as(tokens.owner).put(`/groups/${ids.group}/invitations/so-lower%40example.com`)).status).toBe(200);
  });

  test('the mirror url masks every user, git too', async () => {
    const res = await admin().post(`/projects/${ids.project}/remote_mirrors`, { url: 'ssh://git@example.com/a.git' });
    expect(res.body.url).toBe('ssh://*****@example.com/a.git');
    const host = await admin().post(`/projects/${ids.project}/remote_mirrors`, { url: 'https://git:8443/a.git' });
    expect(host.body.url).toBe('https://git:8443/a.git');
  });
});

describe('(b) fields the spec leaves optional or does not list', () => {
  test('a listed invitation has id and a timestamp expires_at, and no invite_token', async () => {
    await as(tokens.owner).post(`/groups/${ids.group}/invitations`, { email: 'so-listed@example.com', access_level: 30, expires_at: '2031-01-02' });
    const rows = (await as(tokens.owner).get(`/groups/${ids.group}/invitations?query=so-listed%40example.com`)).body;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ invite_email: 'so-listed@example.com', expires_at: '2031-01-02T00:00:00Z' });
    expect(typeof rows[0].id).toBe('number');
    expect(rows[0]).not.toHaveProperty('invite_token');
  });

  test('mirrors: no host_keys nor mirror_branch_regex; auth_method only outside the single read', async () => {
    const made = await admin().post(`/projects/${ids.project}/remote_mirrors`, { url: 'https://example.com/f.git', auth_method: 'password' });
    const one = await admin().get(`/projects/${ids.project}/remote_mirrors/${made.body.id}`);
    const list = await admin().get(`/projects/${ids.project}/remote_mirrors`);
    for (const body of [made.body, one.body, ...list.body]) {
      expect(body).not.toHaveProperty('host_keys');
      expect(body).not.toHaveProperty('mirror_branch_regex');
    }
    expect(made.body.auth_method).toBe('password');
    expect(one.body).not.toHaveProperty('auth_method');
    expect(validateAgainst('remote-mirror', one.body)).toEqual([]);
  });

  test('a member: no locked, membership_state, override or email; created_by without locked; seat information under another name', async () => {
    const member = (await as(tokens.owner).get(`/groups/${ids.group}/members/${ids.developer}`)).body;
    for (const key of ['locked', 'membership_state', 'override', 'email', 'is_using_seat']) expect(member, key).not.toHaveProperty(key);
    expect(Object.keys(member.created_by as Json).sort()).toEqual(['avatar_url', 'id', 'name', 'state', 'username', 'web_url']);
    expect(validateAgainst('member', member)).toEqual([]);
    const seats = (await as(tokens.owner).get(`/groups/${ids.group}/members?show_seat_info=true`)).body;
    expect(seats.every((m) => typeof m.seat_in_use === 'boolean' && m.is_using_seat === undefined)).toBe(true);
    const byAdmin = (await admin().get(`/groups/${ids.group}/members/${ids.developer}`)).body;
    expect(byAdmin).not.toHaveProperty('email');
  });

  test('override only in the answers of the override operations', async () => {
    const { group_id: group, user_id: user, owner_token: owner } = fixtures.ldap!;
    expect((await as(owner).get(`/groups/${group}/members/${user}`)).body).not.toHaveProperty('override');
    expect((await as(owner).post(`/groups/${group}/members/${user}/override`)).body.override).toBe(true);
    expect((await as(owner).delete(`/groups/${group}/members/${user}/override`)).body.override).toBe(false);
  });

  test('email and group_saml_identity as the visibility rules say: to group owners, not to an administrator as such', async () => {
    const enterprise = fixtures.enterprise!;
    const byOwner = (await as(enterprise.owner_token).get(`/groups/${enterprise.group_id}/members/${enterprise.enterprise_user_id}`)).body;
    expect(byOwner.email).toBe('fixture-enterprise-user@example.com');
    expect((await as(enterprise.owner_token).get(`/groups/${enterprise.group_id}/members/${enterprise.other_user_id}`)).body).not.toHaveProperty('email');
    expect((await admin().get(`/groups/${enterprise.group_id}/members/${enterprise.enterprise_user_id}`)).body).not.toHaveProperty('email');
    const billable = (await as(enterprise.owner_token).get(`/groups/${enterprise.group_id}/billable_members`)).body;
    expect(billable.find((m) => m.id === enterprise.enterprise_user_id)?.email).toBe('fixture-enterprise-user@example.com');
    expect(billable.filter((m) => m.email !== undefined)).toHaveLength(1);
    for (const row of billable) expect(row).not.toHaveProperty('is_last_owner');

    const saml = fixtures.saml!;
    expect((await as(saml.owner_token).get(`/groups/${saml.group_id}/members/${saml.user_id}`)).body.group_saml_identity).toMatchObject({ extern_uid: 'fixture-saml-user-uid' });
    expect((await admin().get(`/groups/${saml.group_id}/members/${saml.user_id}`)).body).not.toHaveProperty('group_saml_identity');
  });

  test('a pending member with an account has no email; a person invited without one has the invited address', async () => {
    const user = await admin().post('/users', { username: 'so-waiting', name: 'Waiting', email: 'so-waiting@example.com', password: 'Secret-12345' });
    await admin().post(`/groups/${ids.group}/members`, { user_id: user.body.id, access_level: 10 });
    await as(tokens.owner).put(`/groups/${ids.group}/members/${user.body.id}/state`, { state: 'awaiting' });
    await invite('so-pending@example.com');
    const rows = (await as(tokens.owner).get(`/groups/${ids.group}/pending_members?per_page=100`)).body;
    expect(rows.find((r) => r.username === 'so-waiting')).not.toHaveProperty('email');
    expect(rows.find((r) => r.email === 'so-pending@example.com')).toMatchObject({ invited: true });
  });

  test('lists carry no pagination headers; per_page=0 reads as absent; the mirror list is not paginated', async () => {
    const list = await as(tokens.owner).get(`/groups/${ids.group}/members?per_page=0`);
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(list.headers).filter((h) => h === 'link' || /^x-(total|page|per-page|next-page|prev-page|total-pages)$/.test(h))).toEqual([]);
    // More than GitLab's default page of 20: the whole list, whatever page and per_page say.
    for (let i = 1; i <= 21; i++) await admin().post(`/projects/${ids.project}/remote_mirrors`, { url: `https://example.com/p${i}.git` });
    const mirrors = await admin().get(`/projects/${ids.project}/remote_mirrors?per_page=1&page=2`);
    expect(mirrors.body.length).toBeGreaterThanOrEqual(21);
    expect((await admin().get(`/projects/${ids.project}/remote_mirrors`)).body.length).toBe(mirrors.body.length);
    expect((await call(base, 'GET', `/groups/${baseWorld.ids.group}/members?per_page=0`, baseWorld.tokens.owner)).status).toBe(400);
  });

  test('GET of a file carries no metadata headers; HEAD does', async () => {
    const get = await admin().get(`${file(ids.project)}?ref=main`);
    const head = await admin().head(`${file(ids.project)}?ref=main`);
    expect(Object.keys(get.headers).filter((h) => h.startsWith('x-gitlab-'))).toEqual([]);
    expect(head.headers['x-gitlab-blob-id']).toBe(get.body.blob_id);
  });
});

describe('(a) error texts', () => {
  test('every error text is another than GitLab\'s, in the same shape', async () => {
    const notFound = await as(tokens.owner).get(`/groups/${ids.group}/members/${ids.outsider}`);
    expect(notFound).toMatchObject({ status: 404, body: { message: 'Spec-only: not found' } });
    const missing = await admin().get(file(ids.project));
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body)).toEqual(['error']);
    expect(missing.body.error).toMatch(/^Spec-only: /);
    const invalid = await admin().post(`/projects/${ids.project}/remote_mirrors`, { url: 'https://127.0.0.1/x.git' });
    expect(invalid).toMatchObject({ status: 400, body: { message: { url: ['Spec-only: the request is not valid'] } } });
    for (const res of [notFound, missing, invalid]) expect(validateAgainst('error', res.body)).toEqual([]);
    expect((await call(base, 'GET', `/groups/${baseWorld.ids.group}/members/${baseWorld.ids.outsider}`, baseWorld.tokens.owner)).body).toEqual({ message: '404 Not found' });
  });

  test('per-recipient invitation failures keep their keys with other texts; the set-up routes keep GitLab\'s', async () => {
    await invite('so-twice@example.com');
    const res = await as(tokens.owner).post(`/groups/${ids.group}/invitations`, { email: 'SO-TWICE@example.com', access_level: 30 });
    expect(res.body.status).toBe('error');
    expect(Object.keys(res.body.message as Json)).toEqual(['SO-TWICE@example.com']);
    for (const text of Object.values(res.body.message as Json)) expect(text).toMatch(/^Spec-only: /);
    const duplicate = await admin().post('/users', { username: 'so-owner', name: 'x', email: 'so-x@example.com', password: 'Secret-12345' });
    expect(duplicate.body).toEqual({ message: 'Username has already been taken' });
  });

  test('the promotion queue text stays the spec\'s', async () => {
    await admin().put('/application/settings', { enable_member_promotion_management: true });
    try {
      const user = await admin().post('/users', { username: 'so-guest', name: 'Guest', email: 'so-guest@example.com', password: 'Secret-12345' });
      const res = await as(tokens.owner).post(`/groups/${ids.group}/members`, { user_id: user.body.id, access_level: 30 });
      expect(res.body).toEqual({ message: { 'so-guest': 'Request queued for administrator approval.' } });
    } finally {
      await admin().put('/application/settings', { enable_member_promotion_management: false });
    }
  });
});
