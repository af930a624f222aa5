// The repository reads beside the files API (repository-reads.ts): branches listed and deleted,
// commits listed and read, the tree, each over HTTP with GitLab's entities, errors and pagination headers.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../server.js';

const ADMIN = 'glpat-repo-reads-admin-0001';
const { app } = buildApp({ adminToken: ADMIN });
const inject = (options: InjectOptions & { token?: string }) => app.inject({ ...options, url: `/api/v4${options.url}`, headers: { 'private-token': options.token ?? ADMIN, ...options.headers } });
const post = async (url: string, payload: Record<string, unknown>, token?: string) => (await inject({ method: 'POST', url, payload, token })).json();
const get = (url: string, token?: string) => inject({ method: 'GET', url, token });

let project: { id: number; path_with_namespace: string };
let readmeCommit: string;
let reporterToken: string;
let developerToken: string;
let outsiderToken: string;
/** The commits on `feature`, newest first: lib/b.txt, lib/a.txt, docs/guide.md. */
const feature: string[] = [];

beforeAll(async () => {
  await app.ready();
  project = await post('/projects', { name: 'reads', visibility: 'private', initialize_with_readme: true });
  readmeCommit = (await get(`/projects/${project.id}/repository/branches/main`).then((r) => r.json())).commit.id;
  const write = (path: string, extra: Record<string, unknown>) =>
    post(`/projects/${project.id}/repository/files/${encodeURIComponent(path)}`, { branch: 'feature', content: `${path}\nline two\n`, commit_message: `Add ${path}`, ...extra });
  await write('docs/guide.md', { start_branch: 'main' });
  await write('lib/a.txt', {});
  await write('lib/b.txt', {});
  for (const name of ['fix-1', 'fix-2', 'Release']) await post(`/projects/${project.id}/repository/branches`, { branch: name, ref: 'main' });
  const user = async (username: string, level?: number) => {
    const u = await post('/users', { username, name: username, email: `${username}@example.com`, password: 'Secret-12345' });
    if (level) await post(`/projects/${project.id}/members`, { user_id: u.id, access_level: level });
    return (await post(`/users/${u.id}/personal_access_tokens`, { name: 't', scopes: ['api'] })).token as string;
  };
  reporterToken = await user('rita', 20);
  developerToken = await user('dave', 30);
  outsiderToken = await user('otto');
  const log = (await get(`/projects/${project.id}/repository/commits?ref_name=feature`)).json() as { id: string }[];
  feature.push(...log.slice(0, 3).map((c) => c.id));
});

afterAll(() => app.close());

describe('branches', () => {
  test('the list is sorted by name, each a Branch entity, offset-paginated with totals', async () => {
    // Names in git's byte order: the upper-case Release first.
    const all = await get(`/projects/${project.id}/repository/branches`);
    expect(all.json().map((b: { name: string }) => b.name)).toEqual(['Release', 'feature', 'fix-1', 'fix-2', 'main']);
    const res = await get(`/projects/${project.id}/repository/branches?per_page=2&page=2`);
    expect(res.json().map((b: { name: string }) => b.name)).toEqual(['fix-1', 'fix-2']);
    expect(res.headers).toMatchObject({ 'x-total': '5', 'x-total-pages': '3', 'x-page': '2', 'x-next-page': '3', 'x-prev-page': '1', 'x-per-page': '2' });
    expect(res.headers.link).toContain('rel="last"');
    const main = all.json()[4];
    expect(Object.keys(main)).toEqual(['name', 'commit', 'merged', 'protected', 'developers_can_push', 'developers_can_merge', 'can_push', 'default', 'web_url']);
    expect(main).toMatchObject({ default: true, commit: { id: readmeCommit, short_id: readmeCommit.slice(0, 8) } });
  });

  test('search is a case-insensitive part, ^ anchors the start and $ the end', async () => {
    const names = async (search: string) => (await get(`/projects/${project.id}/repository/branches?search=${encodeURIComponent(search)}`)).json().map((b: { name: string }) => b.name);
    expect(await names('FIX')).toEqual(['fix-1', 'fix-2']);
    expect(await names('^re')).toEqual(['Release']);
    expect(await names('2$')).toEqual(['fix-2']);
    expect(await names('nothing')).toEqual([]);
  });

  test('a private project\'s branches need read access: 404 for an outsider, a Reporter reads them', async () => {
    expect((await get(`/projects/${project.id}/repository/branches`, outsiderToken)).json()).toEqual({ message: '404 Project Not Found' });
    expect((await get(`/projects/${project.id}/repository/branches`, reporterToken)).statusCode).toBe(200);
  });

  test('DELETE: 204, then 404 Branch Not Found; a Reporter 403; the default branch and a protected one refused', async () => {
    expect((await inject({ method: 'DELETE', url: `/projects/${project.id}/repository/branches/fix-1`, token: reporterToken })).statusCode).toBe(403);
    expect((await inject({ method: 'DELETE', url: `/projects/${project.id}/repository/branches/fix-1`, token: developerToken })).statusCode).toBe(204);
    const again = await inject({ method: 'DELETE', url: `/projects/${project.id}/repository/branches/fix-1`, token: developerToken });
    expect([again.statusCode, again.json()]).toEqual([404, { message: '404 Branch Not Found' }]);
    expect((await get(`/projects/${project.id}/repository/branches/fix-1`)).statusCode).toBe(404);
    const defaultBranch = await inject({ method: 'DELETE', url: `/projects/${project.id}/repository/branches/main` });
    expect([defaultBranch.statusCode, defaultBranch.json()]).toEqual([400, { message: 'The default branch of a project cannot be deleted.' }]);
    await post(`/projects/${project.id}/protected_branches`, { name: 'fix-2' });
    const byDeveloper = await inject({ method: 'DELETE', url: `/projects/${project.id}/repository/branches/fix-2`, token: developerToken });
    expect(byDeveloper.statusCode).toBe(400);
    expect(byDeveloper.json().message).toMatch(/^You are not allowed to delete protected branches/);
    expect((await inject({ method: 'DELETE', url: `/projects/${project.id}/repository/branches/fix-2` })).statusCode).toBe(204);
  });
});

describe('commits', () => {
  test('the list follows ref_name newest first, the default branch without it; an unknown ref lists nothing', async () => {
    const ids = async (query: string) => (await get(`/projects/${project.id}/repository/commits${query}`)).json().map((c: { id: string }) => c.id);
    expect(await ids('?ref_name=feature')).toEqual([...feature, readmeCommit]);
    expect(await ids('')).toEqual([readmeCommit]);
    expect(await ids('?ref_name=no-such-ref')).toEqual([]);
  });

  test('path keeps the commits that changed a file or anything below a directory', async () => {
    const ids = async (path: string) => (await get(`/projects/${project.id}/repository/commits?ref_name=feature&path=${encodeURIComponent(path)}`)).json().map((c: { id: string }) => c.id);
    expect(await ids('lib')).toEqual(feature.slice(0, 2));
    expect(await ids('lib/a.txt')).toEqual([feature[1]]);
    expect(await ids('README.md')).toEqual([readmeCommit]);
  });

  test('pages without a count: a next page while a page is full, no X-Total', async () => {
    const first = await get(`/projects/${project.id}/repository/commits?ref_name=feature&per_page=2`);
    expect(first.json().map((c: { id: string }) => c.id)).toEqual(feature.slice(0, 2));
    expect(first.headers).toMatchObject({ 'x-page': '1', 'x-next-page': '2', 'x-per-page': '2' });
    expect(first.headers['x-total']).toBeUndefined();
    expect(first.headers.link).toMatch(/per_page=2&page=2>; rel="next", <[^>]*per_page=2&page=1>; rel="first"$/);
    const last = await get(`/projects/${project.id}/repository/commits?ref_name=feature&per_page=2&page=2`);
    expect(last.json().map((c: { id: string }) => c.id)).toEqual([feature[2], readmeCommit]);
    const beyond = await get(`/projects/${project.id}/repository/commits?ref_name=feature&per_page=2&page=3`);
    expect([beyond.json(), beyond.headers['x-next-page'], beyond.headers['x-prev-page']]).toEqual([[], '', '2']);
  });

  test('GET by sha, branch or abbreviation answers CommitDetail with stats; an unknown one 404 Commit Not Found', async () => {
    const res = await get(`/projects/${project.id}/repository/commits/${feature[0]}`);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['id', 'short_id', 'created_at', 'parent_ids', 'title', 'message', 'author_name', 'author_email', 'authored_date', 'committer_name', 'committer_email', 'committed_date', 'trailers', 'extended_trailers', 'web_url', 'stats', 'status', 'project_id', 'last_pipeline']);
    expect(body).toMatchObject({ id: feature[0], parent_ids: [feature[1]], title: 'Add lib/b.txt', stats: { additions: 2, deletions: 0, total: 2 }, project_id: project.id, web_url: expect.stringMatching(new RegExp(`/${project.path_with_namespace}/-/commit/${feature[0]}$`)) });
    expect((await get(`/projects/${project.id}/repository/commits/feature`)).json().id).toBe(feature[0]);
    expect((await get(`/projects/${project.id}/repository/commits/${feature[0].slice(0, 10)}?stats=false`)).json().stats).toBeUndefined();
    const missing = await get(`/projects/${project.id}/repository/commits/${'0'.repeat(40)}`);
    expect([missing.statusCode, missing.json()]).toEqual([404, { message: '404 Commit Not Found' }]);
    expect((await get(`/projects/${project.id}/repository/commits/${feature[0]}`, outsiderToken)).statusCode).toBe(404);
  });
});

describe('tree', () => {
  test('the root at a ref: trees before blobs, TreeObject entities with six-digit modes', async () => {
    const res = await get(`/projects/${project.id}/repository/tree?ref=feature`);
    expect(res.json().map((e: { path: string; type: string; mode: string }) => `${e.type} ${e.mode} ${e.path}`)).toEqual(['tree 040000 docs', 'tree 040000 lib', 'blob 100644 README.md']);
    expect(Object.keys(res.json()[0])).toEqual(['id', 'name', 'type', 'path', 'mode']);
    expect(res.json()[0].id).toMatch(/^[0-9a-f]{40}$/);
    expect(res.headers['x-total']).toBe('3');
  });

  test('path lists one directory, recursive everything below it, paginated', async () => {
    const paths = async (query: string) => (await get(`/projects/${project.id}/repository/tree?ref=feature&${query}`)).json().map((e: { path: string }) => e.path);
    expect(await paths('path=lib')).toEqual(['lib/a.txt', 'lib/b.txt']);
    expect(await paths('recursive=true')).toEqual(['docs', 'lib', 'README.md', 'docs/guide.md', 'lib/a.txt', 'lib/b.txt']);
    const page = await get(`/projects/${project.id}/repository/tree?ref=feature&recursive=true&per_page=4&page=2`);
    expect(page.json().map((e: { path: string }) => e.path)).toEqual(['lib/a.txt', 'lib/b.txt']);
    expect(page.headers).toMatchObject({ 'x-total': '6', 'x-total-pages': '2', 'x-prev-page': '1', 'x-next-page': '' });
  });

  test('the default branch without ref; 404 Tree Not Found for an unknown ref, GitLab\'s path error for a missing directory', async () => {
    expect((await get(`/projects/${project.id}/repository/tree`)).json().map((e: { path: string }) => e.path)).toEqual(['README.md']);
    const noRef = await get(`/projects/${project.id}/repository/tree?ref=nope`);
    expect([noRef.statusCode, noRef.json()]).toEqual([404, { message: '404 Tree Not Found' }]);
    const noPath = await get(`/projects/${project.id}/repository/tree?ref=feature&path=bogus`);
    expect([noPath.statusCode, noPath.json()]).toEqual([404, { message: '404 invalid revision or path Not Found' }]);
    expect((await get(`/projects/${project.id}/repository/tree`, outsiderToken)).statusCode).toBe(404);
  });
});
