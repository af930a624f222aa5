// Removing one object from a target with GitLab 17/18's delayed deletion (the reference server's
// `delayedDeletion`): what a test deleted once is marked for deletion already, and the run's clean-up
// still removes it where GitLab allows (projects and subgroups).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../reference-server/server.js';
import { apiPath, Client, DEFAULT_MAX_ANSWER_BYTES } from '../core/client.js';
import { removeObject } from './removal.js';

let server: ReferenceServer;
let admin: Client;

beforeAll(async () => {
  server = await startReferenceServer({ delayedDeletion: true });
  admin = new Client(server.url, server.adminToken, 'admin', { timeoutMs: 10_000, maxBytes: DEFAULT_MAX_ANSWER_BYTES });
});
afterAll(() => server.close());

function build(name: string) {
  const top = server.store.createGroup({ name, path: name, parentId: null, visibility: 'private' });
  const sub = server.store.createGroup({ name: `${name}-sub`, path: `${name}-sub`, parentId: top.id, visibility: 'private' });
  const project = server.store.createProject({ name: `${name}-p`, path: `${name}-p`, namespace: { kind: 'group', id: top.id }, visibility: 'private', creatorId: 1, defaultBranch: 'main' });
  return { top, sub, project };
}

describe('removeObject with delayed deletion', () => {
  test('a project and a subgroup a test deleted once (marked: the next DELETE answers 400) are removed for good', async () => {
    const { sub, project } = build('marked-once');
    for (const path of [apiPath`/projects/${project.id}`, apiPath`/groups/${sub.id}`]) {
      expect((await admin.delete(path)).status).toBe(202);
      const again = await admin.delete(path);
      expect([again.status, again.body]).toEqual([400, { message: expect.stringMatching(/^(Project|Group) has been already marked for deletion$/) }]);
    }
    expect(await removeObject(admin, { kind: 'project', id: project.id, name: project.path })).toBe(true);
    expect(await removeObject(admin, { kind: 'group', id: sub.id, name: sub.path })).toBe(true);
    expect(server.store.projects.has(project.id)).toBe(false);
    expect(server.store.groups.has(sub.id)).toBe(false);
  });

  test('a top-level group deleted once stays pending (GitLab takes permanently_remove for subgroups only) and counts as removed', async () => {
    const { top } = build('top-marked');
    expect((await admin.delete(apiPath`/groups/${top.id}`)).status).toBe(202);
    expect(await removeObject(admin, { kind: 'group', id: top.id, name: top.path })).toBe(true);
    expect(server.store.groups.get(top.id)?.markedForDeletionOn).toBeTruthy();
  });

  test('another refusal of the first DELETE is not taken for a mark: the object is left', async () => {
    const { project } = build('refused');
    const guest = new Client(server.url, 'not-a-token', 'nobody', { timeoutMs: 10_000, maxBytes: DEFAULT_MAX_ANSWER_BYTES });
    expect(await removeObject(guest, { kind: 'project', id: project.id, name: project.path })).toBe(false);
    expect(server.store.projects.get(project.id)?.markedForDeletionOn).toBeFalsy();
  });
});
