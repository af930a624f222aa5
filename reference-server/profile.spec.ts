// --gitlab profiles (profile.ts): each answers as its release and tier where the areas differ.
import { afterEach, describe, expect, test } from 'vitest';
import { buildApp } from './server.js';
import { parseProfile } from './profile.js';

const apps: ReturnType<typeof buildApp>[] = [];
afterEach(async () => {
  for (const built of apps.splice(0)) await built.app.close();
});

function as(gitlab: string | undefined) {
  const built = buildApp(gitlab === undefined ? {} : { gitlab });
  apps.push(built);
  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    built.app.inject({ method, url: `/api/v4${url}`, headers: { 'private-token': built.adminToken }, ...(payload ? { payload } : {}) });
  return { built, send };
}

describe('parseProfile', () => {
  test('the release, edition and tier, with the capabilities such a target declares', () => {
    expect(parseProfile('16.11-ce')).toMatchObject({ version: '16.11.0-ce', tier: 'free', deletion: { kind: 'immediate' }, planner: false, mirrorPublicKey: false, capabilities: [] });
    expect(parseProfile('17.10-ee-premium')).toMatchObject({ version: '17.10.0-ee', deletion: { kind: 'marked', projectSuffix: 'deleted', groupSuffix: null }, planner: true, mirrorPublicKey: true });
    expect(parseProfile('17.10-ee-premium').capabilities).not.toContain('ultimate');
    expect(parseProfile('17.4-ee-ultimate').capabilities).not.toContain('promotion_management');
    expect(parseProfile('17.5-ee-ultimate').capabilities).toContain('promotion_management');
    expect(parseProfile('17.10-ee-free').deletion).toEqual({ kind: 'immediate' });
    expect(parseProfile('18.1-ee-free').deletion).toEqual({ kind: 'marked', projectSuffix: 'deleted', groupSuffix: null });
    expect(parseProfile('18.3-ee-ultimate').deletion).toEqual({ kind: 'marked', projectSuffix: 'deletion_scheduled', groupSuffix: 'deletion_scheduled' });
    expect(() => parseProfile('17.10-ce-premium')).toThrow(/no premium tier/);
    expect(() => parseProfile('17.10')).toThrow(/--gitlab must be/);
  });
});

describe('the server as a profile', () => {
  test('GET /version follows the profile; the default stays 19.0.0-ee', async () => {
    expect((await as('16.11-ce').send('GET', '/version')).json()).toMatchObject({ version: '16.11.0-ce', enterprise: false });
    expect((await as(undefined).send('GET', '/version')).json()).toMatchObject({ version: '19.0.0-ee', enterprise: true });
  });

  test('CE has no EE route (404 as an unknown route); EE has them', async () => {
    for (const [profile, status] of [['16.11-ce', 404], ['17.10-ee-premium', 200]] as const) {
      const { built, send } = as(profile);
      const group = built.store.createGroup({ name: 'g', path: 'g', parentId: null, visibility: 'private' });
      const res = await send('GET', `/groups/${group.id}/billable_members`);
      expect([profile, res.statusCode]).toEqual([profile, status]);
      if (status === 404) expect(res.json()).toEqual({ error: '404 Not Found' });
      expect((await send('GET', `/groups/${group.id}/pending_members`)).statusCode === 404).toBe(status === 404);
    }
  });

  test('the Planner level (15) is refused before 17.7, taken from 17.7', async () => {
    for (const [profile, status] of [['17.6-ee-premium', 400], ['17.7-ee-premium', 201]] as const) {
      const { built, send } = as(profile);
      const group = built.store.createGroup({ name: 'g', path: 'g', parentId: null, visibility: 'private' });
      const user = built.store.createUser({ username: 'u', name: 'U', email: 'u@example.com' });
      const res = await send('POST', `/groups/${group.id}/members`, { user_id: user.id, access_level: 15 });
      expect([profile, res.statusCode]).toEqual([profile, status]);
    }
  });

  test('deletion: at once on Free before 18.0; projects renamed -deleted-<id> and groups marked only on 17 Premium; -deletion_scheduled-<id> from 18.3', async () => {
    const cases = [
      ['16.11-ce', undefined, undefined],
      ['17.10-ee-premium', 'p-deleted-', 'g'],
      ['18.1-ee-free', 'p-deleted-', 'g'],
      ['18.3-ee-ultimate', 'p-deletion_scheduled-', 'g-deletion_scheduled-'],
    ] as const;
    for (const [profile, projectPath, groupPath] of cases) {
      const { built, send } = as(profile);
      const group = built.store.createGroup({ name: 'g', path: 'g', parentId: null, visibility: 'private' });
      const project = built.store.createProject({ name: 'p', path: 'p', namespace: { kind: 'user', id: 1 }, visibility: 'private', creatorId: 1, defaultBranch: 'main' });
      expect((await send('DELETE', `/projects/${project.id}`)).statusCode).toBe(202);
      expect((await send('DELETE', `/groups/${group.id}`)).statusCode).toBe(202);
      const p = built.store.projects.get(project.id);
      const g = built.store.groups.get(group.id);
      expect([profile, p?.path.replace(/\d+$/, '')]).toEqual([profile, projectPath]);
      expect([profile, g?.path.replace(/\d+$/, '')]).toEqual([profile, groupPath]);
      if (g) expect((await send('GET', `/groups/${group.id}`)).json()).toMatchObject({ marked_for_deletion_on: g.markedForDeletionOn });
    }
  });
});
