// Removing one object from a target with GitLab 17/18's delayed deletion (the reference server's
// `delayedDeletion`): what a test deleted once is marked for deletion already, and the run's clean-up
// still removes it where GitLab allows (projects and subgroups).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../reference-server/server.js';
import { apiPath, Client, DEFAULT_MAX_ANSWER_BYTES } from '../core/client.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describePending, removeObject, sweepLedger, withoutDeletionRenames } from './removal.js';
import { Ledger } from './ledger.js';
import { normalizeTarget } from './instance-identity.js';

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

// GitLab 17 Premium (the reference server's --gitlab 17.10-ee-premium): a deleted project is marked
// and renamed `<path>-deleted-<id>` (ee/app/services/projects/mark_for_deletion_service.rb), a group
// is marked and keeps its path (ee/app/services/groups/mark_for_deletion_service.rb).
describe('sweepLedger against GitLab 17.10 EE Premium', () => {
  test('a project a test deleted (renamed -deleted-<id>) is still the run\'s and removed; the top-level group is pending deletion with its day, not left; the ledger goes', async () => {
    const premium = await startReferenceServer({ gitlab: '17.10-ee-premium' });
    try {
      const client = new Client(premium.url, premium.adminToken, 'admin', { timeoutMs: 10_000, maxBytes: DEFAULT_MAX_ANSWER_BYTES });
      const runId = '261207aa0001';
      const top = premium.store.createGroup({ name: `cnf-${runId}-g`, path: `cnf-${runId}-g`, parentId: null, visibility: 'private' });
      const project = premium.store.createProject({ name: `cnf-${runId}-p`, path: `cnf-${runId}-p`, namespace: { kind: 'group', id: top.id }, visibility: 'private', creatorId: 1, defaultBranch: 'main' });
      const other = premium.store.createProject({ name: `cnf-${runId}-q`, path: `cnf-${runId}-q`, namespace: { kind: 'user', id: 1 }, visibility: 'private', creatorId: 1, defaultBranch: 'main' });
      const dir = mkdtempSync(join(tmpdir(), 'removal-spec-'));
      const path = join(dir, `ledger-${runId}.jsonl`);
      const ledger = new Ledger(path, runId);
      const root = premium.store.users.get(1)!;
      ledger.writeHeader(normalizeTarget(premium.url), { adminId: 1, username: root.username, createdAt: root.createdAt });
      ledger.record('group', top.id, top.path);
      ledger.record('project', project.id, `${top.path}/${project.path}`);
      ledger.record('project', other.id, `root/${other.path}`);
      // A test deleted the user's project: marked, renamed.
      expect((await client.delete(apiPath`/projects/${other.id}`)).status).toBe(202);
      expect(premium.store.projects.get(other.id)?.path).toBe(`cnf-${runId}-q-deleted-${other.id}`);
      const result = await sweepLedger(client, path, { target: premium.url });
      expect(result.left).toEqual([]);
      expect(premium.store.projects.has(other.id)).toBe(false);
      const group = premium.store.groups.get(top.id);
      expect([group?.path, Boolean(group?.markedForDeletionOn)]).toEqual([top.path, true]);
      const until = new Date(Date.parse(group!.markedForDeletionOn!) + 7 * 86_400_000).toISOString().slice(0, 10);
      expect(result.pending).toEqual([{ kind: 'group', name: top.path, until }]);
      expect(describePending(result.pending)).toEqual([`1 group pending deletion until ${until}: GitLab removes it`]);
      expect(existsSync(path)).toBe(false);
      rmSync(dir, { recursive: true, force: true });
    } finally {
      await premium.close();
    }
  });

  test('withoutDeletionRenames takes both renames off every part of a full path', () => {
    expect(withoutDeletionRenames('cnf-a-deletion_scheduled-4/cnf-a-p-deleted-30')).toBe('cnf-a/cnf-a-p');
    expect(withoutDeletionRenames('cnf-a-deleted-x/p')).toBe('cnf-a-deleted-x/p');
  });
});
