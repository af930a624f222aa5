// Seeding and reset: a seed's objects are served as the API made them, a bad seed is refused with
// the entry named, and POST /-/reference/reset (an administrator's token) brings the seeded state
// back after changes: users, memberships, files and the tokens handed out.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';
import { checkSeed, SeedError, type Seed } from './seed.js';

const ALICE = 'glpat-seed-alice-0000001';
const BOB = 'glpat-seed-bob-00000001';
const SEED: Seed = {
  users: [
    { username: 'alice', name: 'Alice', tokens: [{ token: ALICE }] },
    { username: 'bob', email: 'bob@example.org', tokens: [{ token: BOB, scopes: ['read_api'] }] },
    { username: 'erin' },
  ],
  groups: [{ path: 'demo', visibility: 'internal' }, { path: 'sub', parent: 'demo' }, { path: 'partners' }],
  projects: [
    {
      path: 'app',
      namespace: 'demo/sub',
      files: { 'README.md': '# app\n', 'src/main.txt': 'one' },
      branches: [{ name: 'feature', files: { 'src/main.txt': 'two' } }],
      protected_branches: ['main'],
    },
    { path: 'notes', namespace: 'alice' },
  ],
  members: [
    { user: 'alice', group: 'demo', access_level: 'owner' },
    { user: 'bob', project: 'demo/sub/app', access_level: 30, expires_at: '2999-01-01' },
  ],
  invitations: [{ email: 'carol@example.com', group: 'demo', access_level: 'reporter' }],
  mirrors: [{ project: 'demo/sub/app', url: 'https://user:secret@example.com/mirror.git', enabled: true }],
  access_requests: [{ user: 'erin', group: 'demo' }],
  shares: [{ with_group: 'partners', project: 'demo/sub/app', access_level: 'reporter', expires_at: '2999-06-30' }],
};

let server: ReferenceServer;
const api = async (path: string, token = server.adminToken, init: RequestInit = {}) => {
  const response = await fetch(`${server.url}/api/v4${path}`, { ...init, headers: { 'private-token': token, ...init.headers } });
  const json = response.headers.get('content-type')?.startsWith('application/json');
  return { status: response.status, body: json ? ((await response.json()) as unknown) : await response.text() };
};
const raw = (path: string) => (api(path) as Promise<{ body: string }>).then((r) => r.body);

beforeAll(async () => {
  server = await startReferenceServer({ seed: SEED });
});
afterAll(() => server.close());

describe('a seeded server', () => {
  test('serves the seeded users with their tokens, groups, projects with files on branches, members, invitations and mirrors', async () => {
    expect(((await api('/user', ALICE)).body as { username: string }).username).toBe('alice');
    expect((await api('/user', BOB)).body).toMatchObject({ username: 'bob' });
    // read_api: bob's token cannot write.
    expect((await api('/groups', BOB, { method: 'POST', body: new URLSearchParams({ name: 'x', path: 'x' }) })).status).toBe(403);
    expect((await api('/groups/demo%2Fsub')).body).toMatchObject({ full_path: 'demo/sub', visibility: 'internal' });
    expect((await api('/projects/alice%2Fnotes')).body).toMatchObject({ path_with_namespace: 'alice/notes', namespace: { kind: 'user' } });
    const file = (ref: string) => api(`/projects/demo%2Fsub%2Fapp/repository/files/src%2Fmain.txt/raw?ref=${ref}`).then((r) => r.body);
    expect(await raw('/projects/demo%2Fsub%2Fapp/repository/files/README.md/raw?ref=main')).toBe('# app\n');
    expect(await file('main')).toBe('one');
    expect(await file('feature')).toBe('two');
    expect((await api('/groups/demo/members')).body).toMatchObject([{ username: 'alice', access_level: 50 }]);
    expect((await api('/projects/demo%2Fsub%2Fapp/members/all')).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ username: 'alice', access_level: 50 }), expect.objectContaining({ username: 'bob', access_level: 30, expires_at: '2999-01-01' })]),
    );
    expect((await api('/groups/demo/invitations')).body).toMatchObject([{ invite_email: 'carol@example.com', access_level: 20 }]);
    expect((await api('/projects/demo%2Fsub%2Fapp/remote_mirrors')).body).toMatchObject([{ url: 'https://*****:*****@example.com/mirror.git', enabled: true }]);
  });

  test('serves the seeded access requests, shares and protected branches', async () => {
    expect((await api('/groups/demo/access_requests')).body).toMatchObject([{ username: 'erin' }]);
    expect((await api('/projects/demo%2Fsub%2Fapp')).body).toMatchObject({ shared_with_groups: [{ group_full_path: 'partners', group_access_level: 20, expires_at: '2999-06-30' }] });
    expect((await api('/projects/demo%2Fsub%2Fapp/repository/branches/main')).body).toMatchObject({ protected: true });
    expect((await api('/projects/demo%2Fsub%2Fapp/repository/branches/feature')).body).toMatchObject({ protected: false });
  });

  test('GET /-/reference/health answers 200 without a token', async () => {
    const response = await fetch(`${server.url}/-/reference/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  test('POST /-/reference/reset wants an administrator\'s token: 401 without one, 403 for a user', async () => {
    expect((await fetch(`${server.url}/-/reference/reset`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${server.url}/-/reference/reset`, { method: 'POST', headers: { 'private-token': 'glpat-nobody' } })).status).toBe(401);
    expect((await fetch(`${server.url}/-/reference/reset`, { method: 'POST', headers: { 'private-token': ALICE } })).status).toBe(403);
  });

  test('a reset after changes gives the seeded state back: users, memberships, files, tokens and ids', async () => {
    const before = {
      users: (await api('/users?per_page=100')).body,
      members: (await api('/groups/demo/members')).body,
      projectMembers: (await api('/projects/demo%2Fsub%2Fapp/members')).body,
      project: (await api('/projects/demo%2Fsub%2Fapp')).body,
    };
    const branchHead = ((await api('/projects/demo%2Fsub%2Fapp/repository/branches/main')).body as { commit: { id: string } }).commit.id;

    const form = (fields: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams(fields) });
    expect((await api('/users', server.adminToken, form({ username: 'dave', name: 'Dave', email: 'dave@example.com', password: 'Secret-password-1' }))).status).toBe(201);
    const bob = ((await api('/user', BOB)).body as { id: number }).id;
    expect((await api(`/projects/demo%2Fsub%2Fapp/members/${bob}`, server.adminToken, { method: 'DELETE' })).status).toBe(204);
    expect((await api('/groups/demo/members', server.adminToken, form({ user_id: String(bob), access_level: '10' }))).status).toBe(201);
    expect((await api('/projects/demo%2Fsub%2Fapp/repository/files/src%2Fmain.txt', ALICE, { method: 'PUT', body: new URLSearchParams({ branch: 'main', content: 'changed', commit_message: 'c' }) })).status).toBe(200);
    expect((await api('/projects/demo%2Fsub%2Fapp', server.adminToken, { method: 'DELETE' })).status).toBe(202);

    const reset = await fetch(`${server.url}/-/reference/reset`, { method: 'POST', headers: { authorization: `Bearer ${server.adminToken}` } });
    expect(reset.status).toBe(204);

    expect((await api('/users?per_page=100')).body).toEqual(before.users);
    expect((await api('/groups/demo/members')).body).toEqual(before.members);
    expect((await api('/projects/demo%2Fsub%2Fapp/members')).body).toEqual(before.projectMembers);
    expect((await api('/projects/demo%2Fsub%2Fapp')).body).toEqual(before.project);
    expect(await raw('/projects/demo%2Fsub%2Fapp/repository/files/src%2Fmain.txt/raw?ref=main')).toBe('one');
    expect(((await api('/projects/demo%2Fsub%2Fapp/repository/branches/main')).body as { commit: { id: string } }).commit.id).toBe(branchHead);
    expect((await api('/user', ALICE)).status).toBe(200);
    expect((await api('/users?username=dave')).body).toEqual([]);
  });

  test('a reset starts the member removal limit anew: a group and user that get the same ids again have no count of before', async () => {
    // The clock stands still: the limit counts in periods of a minute, and none may end in between.
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const bob = ((await api('/user', BOB)).body as { id: number }).id;
      // A removal that fails its If-Unmodified-Since (412) changes nothing, and it counts.
      const remove = () => api(`/projects/demo%2Fsub%2Fapp/members/${bob}`, ALICE, { method: 'DELETE', headers: { 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' } });
      for (let i = 0; i < 60; i++) expect((await remove()).status).toBe(412);
      expect((await remove()).status).toBe(429);
      server.reset();
      expect((await remove()).status).toBe(412);
    } finally {
      clock.mockRestore();
    }
  });

  test('reset() in-process does the same, and the fixtures\' tokens stay valid', async () => {
    const bob = ((await api('/user', BOB)).body as { id: number }).id;
    expect((await api(`/projects/demo%2Fsub%2Fapp/members/${bob}`, server.adminToken, { method: 'DELETE' })).status).toBe(204);
    server.reset();
    expect((await api('/projects/demo%2Fsub%2Fapp/members')).body).toMatchObject([{ username: 'bob', access_level: 30 }]);
    expect((await api(`/groups/${server.fixtures.ldap!.group_id}/members`, server.fixtures.ldap!.owner_token)).status).toBe(200);
  });
});

describe('a bad seed', () => {
  const refused = (seed: unknown) => {
    try {
      checkSeed(seed);
    } catch (error) {
      expect(error).toBeInstanceOf(SeedError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };
  const applied = async (seed: Seed) => {
    const error = await startReferenceServer({ seed }).then(
      (s) => s.close().then(() => undefined),
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(SeedError);
    return error!.message;
  };

  test('is refused with the entry named: by the schema', () => {
    expect(refused({ users: [{ username: 'ok' }, { username: 'bad name' }] })).toMatch(/^seed: users\[1\] \(bad name\): username must match pattern/);
    expect(refused({ members: [{ user: 'alice', access_level: 'boss', group: 'demo' }] })).toMatch(/members\[0\] \(alice in demo\): access_level must be one of .*"developer"/);
    expect(refused({ members: [{ user: 'alice', access_level: 30 }] })).toBe('seed: members[0] (alice): give exactly one of "group" and "project"');
    expect(refused({ projects: [{ path: 'app', namespace: 'demo', colour: 'red' }] })).toBe('seed: projects[0] (demo/app): has an unknown field "colour"');
    expect(refused({ teams: [] })).toBe('seed: the seed must NOT have additional properties: "teams"');
  });

  test('is refused with the entry named: by what it refers to', async () => {
    expect(await applied({ members: [{ user: 'nobody', group: 'demo', access_level: 30 }] })).toBe('seed: members[0] (nobody in demo): no user "nobody"');
    expect(await applied({ users: [{ username: 'a' }], members: [{ user: 'a', project: 'x/y', access_level: 30 }] })).toBe('seed: members[0] (a in x/y): no project "x/y"');
    expect(await applied({ groups: [{ path: 'sub', parent: 'top' }] })).toMatch(/^seed: groups\[0\] \(sub\): no group "top"/);
    expect(await applied({ groups: [{ path: 'g' }], projects: [{ path: 'p', namespace: 'g', branches: [{ name: 'b' }] }] })).toMatch(/projects\[0\] \(g\/p\): branch "b": no branch "main"/);
    expect(await applied({ users: [{ username: 'root' }] })).toBe('seed: users[0] (root): username "root" is taken');
    expect(await applied({ groups: [{ path: 'g' }], projects: [{ path: 'p', namespace: 'g', protected_branches: ['main'] }] })).toMatch(/projects\[0\] \(g\/p\): protected branch "main": no such branch/);
    expect(await applied({ groups: [{ path: 'g' }], shares: [{ with_group: 'h', group: 'g', access_level: 30 }] })).toBe('seed: shares[0] (h in g): no group "h"');
    expect(await applied({ users: [{ username: 'u' }], groups: [{ path: 'g' }], members: [{ user: 'u', group: 'g', access_level: 30 }], access_requests: [{ user: 'u', group: 'g' }] })).toBe('seed: access_requests[0] (u in g): the user has access already');
  });

  test('in a YAML file, is refused with the file named', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cnf-seed-')), 'seed.yaml');
    writeFileSync(file, 'users:\n  - username: alice\n    tokens:\n      - token: short\n');
    await expect(startReferenceServer({ seed: file })).rejects.toThrow(`${file}: users[0] (alice): tokens.0.token must NOT have fewer than 8 characters`);
  });
});
