// A real GitLab client against the reference server: @gitbeaker/rest drives every endpoint form
// and checks what comes back. Where gitbeaker has no method for a form, its own requester sends the
// request (billable indirect, member state); HEAD forms, which gitbeaker cannot send, go through
// fetch. Two deviations of the client (43.x) are pinned, where GitLab and the spec agree with us:
// - ProjectRemoteMirrors.edit sends POST /projects/:id/remote_mirrors/:mirror_id; GitLab routes PUT.
// - GroupMembers.approveAll sends PUT /groups/:id/members/approve_all; GitLab routes POST, and the
//   PUT lands on PUT /groups/:id/members/:user_id, whose Integer user_id refuses "approve_all" (400).
// The reference server answers both as GitLab does; the test then uses the right method.
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SPEC_FORM_NAMES } from '../contract/forms.js';
import { undriven } from './clients/claims.js';
import { startReferenceServer, type ReferenceServer } from './server.js';

const ADMIN = 'glpat-gitbeaker-admin-0000';
let server: ReferenceServer;
let api: InstanceType<typeof Gitlab<false>>;
const driven = new Set<string>();
const used = (...forms: string[]) => forms.forEach((f) => driven.add(f));

type Row = Record<string, unknown>;
let group: Row;
let project: Row;
const users: Row[] = [];

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    return ((error as { cause?: { response?: Response } }).cause?.response?.status) ?? -1;
  }
}

beforeAll(async () => {
  server = await startReferenceServer({ adminToken: ADMIN });
  api = new Gitlab({ host: server.url, token: ADMIN, camelize: false });
  for (const name of ['ann', 'bob', 'cid', 'dee', 'eve']) {
    users.push((await api.Users.create({ email: `${name}@example.com`, username: name, name, password: 'Secret-pass-123', skipConfirmation: true })) as Row);
  }
  group = (await api.Groups.create('gb', 'gb', { visibility: 'private' })) as Row;
  project = (await api.Projects.create({ name: 'gbp', namespaceId: group.id as number, initializeWithReadme: true, visibility: 'private' })) as Row;
});

afterAll(async () => {
  await server?.close();
});

describe('@gitbeaker/rest against the reference server', () => {
  test('repository files: create, read, blame, raw, HEAD forms, update, delete', async () => {
    const pid = project.id as number;
    const created = await api.RepositoryFiles.create(pid, 'docs/guide.md', 'main', 'one\ntwo\n', 'add guide', { authorName: 'Ann', authorEmail: 'ann@example.com' });
    expect(created).toMatchObject({ file_path: 'docs/guide.md', branch: 'main' });
    const file = (await api.RepositoryFiles.show(pid, 'docs/guide.md', 'main')) as Row;
    expect(Buffer.from(file.content as string, 'base64').toString()).toBe('one\ntwo\n');
    expect(file.blob_id).toMatch(/^[0-9a-f]{40}$/);
    const blame = (await api.RepositoryFiles.allFileBlames(pid, 'docs/guide.md', 'main')) as Row[];
    expect(blame.flatMap((r) => r.lines as string[])).toEqual(['one', 'two']);
    const ranged = (await api.RepositoryFiles.allFileBlames(pid, 'docs/guide.md', 'main', { range: { start: 2, end: 2 } })) as Row[];
    expect(ranged.flatMap((r) => r.lines as string[])).toEqual(['two']);
    expect(String(await api.RepositoryFiles.showRaw(pid, 'docs/guide.md', 'main'))).toBe('one\ntwo\n');
    for (const suffix of ['', '/blame', '/raw']) {
      const head = await fetch(`${server.url}/api/v4/projects/${pid}/repository/files/docs%2Fguide%2Emd${suffix}?ref=main`, { method: 'HEAD', headers: { 'private-token': ADMIN } });
      expect(head.status).toBe(200);
      expect(head.headers.get('x-gitlab-blob-id')).toBe(file.blob_id);
    }
    expect(await api.RepositoryFiles.edit(pid, 'docs/guide.md', 'main', 'one\nTWO\n', 'edit guide')).toMatchObject({ file_path: 'docs/guide.md' });
    expect(String(await api.RepositoryFiles.showRaw(pid, 'docs/guide.md', 'main'))).toBe('one\nTWO\n');
    await api.RepositoryFiles.remove(pid, 'docs/guide.md', 'main', 'remove guide');
    expect(await status(api.RepositoryFiles.show(pid, 'docs/guide.md', 'main'))).toBe(404);
    used(
      'POST /projects/:id/repository/files/:file_path', 'GET /projects/:id/repository/files/:file_path', 'GET /projects/:id/repository/files/:file_path/blame',
      'GET /projects/:id/repository/files/:file_path/raw', 'HEAD /projects/:id/repository/files/:file_path', 'HEAD /projects/:id/repository/files/:file_path/blame',
      'HEAD /projects/:id/repository/files/:file_path/raw', 'PUT /projects/:id/repository/files/:file_path', 'DELETE /projects/:id/repository/files/:file_path',
    );
  });

  test('remote mirrors: create (masked), list, read, update, sync, delete', async () => {
    const pid = project.id as number;
    const mirror = (await api.ProjectRemoteMirrors.createPushMirror(pid, 'https://bot:s3cret@example.com/mirror.git', { enabled: true, keepDivergentRefs: true })) as Row;
    expect(mirror).toMatchObject({ enabled: true, keep_divergent_refs: true, update_status: 'none', url: 'https://*****:*****@example.com/mirror.git' });
    const list = (await api.ProjectRemoteMirrors.all(pid)) as Row[];
    expect(list.map((m) => m.id)).toEqual([mirror.id]);
    expect(await api.ProjectRemoteMirrors.show(pid, mirror.id as number)).toMatchObject({ id: mirror.id, enabled: true });
    expect(await status(api.ProjectRemoteMirrors.edit(pid, mirror.id as number, { onlyProtectedBranches: true }))).toBe(404);
    const edited = await api.ProjectRemoteMirrors.requester.put(`projects/${pid}/remote_mirrors/${mirror.id}`, { body: { only_protected_branches: true } });
    expect(edited.body).toMatchObject({ only_protected_branches: true });
    await api.ProjectRemoteMirrors.sync(pid, mirror.id as number);
    // The push takes a moment (half a second on the reference server): read until it has ended.
    await expect.poll(async () => ((await api.ProjectRemoteMirrors.show(pid, mirror.id as number)) as Row).update_status, { timeout: 10_000, interval: 100 }).toBe('finished');
    await api.ProjectRemoteMirrors.remove(pid, mirror.id as number);
    expect(await status(api.ProjectRemoteMirrors.show(pid, mirror.id as number))).toBe(404);
    used(
      'POST /projects/:id/remote_mirrors', 'GET /projects/:id/remote_mirrors', 'GET /projects/:id/remote_mirrors/:mirror_id',
      'PUT /projects/:id/remote_mirrors/:mirror_id', 'POST /projects/:id/remote_mirrors/:mirror_id/sync', 'DELETE /projects/:id/remote_mirrors/:mirror_id',
    );
  });

  test('invitations of groups and projects: invite, list, update, delete', async () => {
    for (const [resource, id, kind] of [[api.GroupInvitations, group.id, 'groups'], [api.ProjectInvitations, project.id, 'projects']] as const) {
      const email = `new-${kind}@example.com`;
      expect(await resource.add(id as number, 30, { email })).toMatchObject({ status: 'success' });
      const pending = (await resource.all(id as number, { query: email })) as Row[];
      expect(pending.map((i) => [i.invite_email, i.access_level])).toEqual([[email, 30]]);
      expect(await resource.edit(id as number, email, { accessLevel: 40 })).toMatchObject({ access_level: 40 });
      await resource.remove(id as number, email);
      expect(await resource.all(id as number)).toEqual([]);
      used(`POST /${kind}/:id/invitations`, `GET /${kind}/:id/invitations`, `PUT /${kind}/:id/invitations/:email`, `DELETE /${kind}/:id/invitations/:email`);
    }
  });
});

describe('@gitbeaker/rest against the reference server: members', () => {
  test('members of groups and projects: add, list, list all, read, read all, edit, remove', async () => {
    const [, bob, cid, dee] = users;
    const gid = group.id as number;
    const pid = project.id as number;
    expect(await api.GroupMembers.add(gid, 30, { userId: bob.id as number, expiresAt: '2099-01-31' })).toMatchObject({ id: bob.id, access_level: 30, expires_at: '2099-01-31' });
    expect(await api.ProjectMembers.add(pid, 20, { userId: cid.id as number })).toMatchObject({ id: cid.id, access_level: 20 });
    expect(((await api.GroupMembers.all(gid)) as Row[]).map((m) => m.id)).toContain(bob.id);
    expect(((await api.GroupMembers.all(gid, { includeInherited: true })) as Row[]).map((m) => m.id)).toContain(bob.id);
    expect(((await api.ProjectMembers.all(pid)) as Row[]).map((m) => m.id)).not.toContain(bob.id);
    const all = (await api.ProjectMembers.all(pid, { includeInherited: true })) as Row[];
    expect(all.find((m) => m.id === bob.id)?.access_level).toBe(30);
    expect(all.find((m) => m.id === cid.id)?.access_level).toBe(20);
    expect(await api.GroupMembers.show(gid, bob.id as number)).toMatchObject({ access_level: 30 });
    expect(await api.GroupMembers.show(gid, bob.id as number, { includeInherited: true })).toMatchObject({ access_level: 30 });
    expect(await api.ProjectMembers.show(pid, cid.id as number)).toMatchObject({ access_level: 20 });
    expect(await api.ProjectMembers.show(pid, bob.id as number, { includeInherited: true })).toMatchObject({ access_level: 30 });
    expect(await api.GroupMembers.edit(gid, bob.id as number, 40)).toMatchObject({ access_level: 40 });
    expect(await api.ProjectMembers.edit(pid, cid.id as number, 30)).toMatchObject({ access_level: 30 });
    await api.ProjectMembers.remove(pid, cid.id as number);
    expect(await status(api.ProjectMembers.show(pid, cid.id as number))).toBe(404);
    await api.GroupMembers.add(gid, 10, { userId: dee.id as number });
    await api.GroupMembers.remove(gid, dee.id as number);
    expect(await status(api.GroupMembers.show(gid, dee.id as number))).toBe(404);
    for (const kind of ['groups', 'projects'] as const) {
      used(
        `POST /${kind}/:id/members`, `GET /${kind}/:id/members`, `GET /${kind}/:id/members/all`, `GET /${kind}/:id/members/:user_id`,
        `GET /${kind}/:id/members/all/:user_id`, `PUT /${kind}/:id/members/:user_id`, `DELETE /${kind}/:id/members/:user_id`,
      );
    }
  });

  test('billable members, their memberships, state, pending members, approval, override', async () => {
    const [ann, bob, , , eve] = users;
    const gid = group.id as number;
    await api.GroupMembers.add(gid, 20, { userId: ann.id as number });
    await api.ProjectMembers.add(project.id as number, 30, { userId: eve.id as number });
    const billable = (await api.GroupMembers.allBillable(gid)) as Row[];
    expect(billable.map((m) => m.id)).toEqual(expect.arrayContaining([ann.id, eve.id]));
    const memberships = (await api.GroupMembers.allBillableMemberships(gid, eve.id as number)) as Row[];
    expect(memberships.map((m) => m.source_id)).toEqual([project.id]);
    const indirect = await api.GroupMembers.requester.get(`${gid}/billable_members/${eve.id}/indirect`);
    expect(indirect.status).toBe(200);
    expect(indirect.body).toEqual([]);
    await api.GroupMembers.removeBillable(gid, eve.id as number);
    expect(((await api.GroupMembers.allBillable(gid)) as Row[]).map((m) => m.id)).not.toContain(eve.id);

    const state = await api.GroupMembers.requester.put(`${gid}/members/${ann.id}/state`, { body: { state: 'awaiting' } });
    expect(state.body).toEqual({ success: true });
    const pending = (await api.GroupMembers.allPending(gid)) as Row[];
    expect(pending.map((m) => m.username)).toEqual(['ann']);
    await api.GroupMembers.approve(gid, pending[0].id as number);
    expect(await api.GroupMembers.allPending(gid)).toEqual([]);

    await api.GroupMembers.requester.put(`${gid}/members/${bob.id}/state`, { body: { state: 'awaiting' } });
    // The client's deviation: approveAll sends PUT, which GitLab reads as an edit of user "approve_all".
    expect(await status(api.GroupMembers.approveAll(gid))).toBe(400);
    const approveAll = await api.GroupMembers.requester.post(`${gid}/members/approve_all`);
    expect(approveAll.status).toBe(204);
    expect(await api.GroupMembers.allPending(gid)).toEqual([]);

    const ldap = server.fixtures.ldap!;
    const owner = new Gitlab({ host: server.url, token: ldap.owner_token!, camelize: false });
    expect(await owner.GroupMembers.setOverrideFlag(ldap.group_id, ldap.user_id)).toMatchObject({ id: ldap.user_id, override: true });
    expect(await owner.GroupMembers.removeOverrideFlag(ldap.group_id, ldap.user_id)).toMatchObject({ id: ldap.user_id, override: false });
    used(
      'GET /groups/:id/billable_members', 'GET /groups/:id/billable_members/:user_id/memberships', 'GET /groups/:id/billable_members/:user_id/indirect',
      'DELETE /groups/:id/billable_members/:user_id', 'PUT /groups/:id/members/:user_id/state', 'GET /groups/:id/pending_members',
      'PUT /groups/:id/members/:member_id/approve', 'POST /groups/:id/members/approve_all', 'POST /groups/:id/members/:user_id/override',
      'DELETE /groups/:id/members/:user_id/override',
    );
  });

  test('every endpoint form it claims was driven', () => {
    expect(undriven('gitbeaker', [...driven].map((form) => ({ form }))), 'forms gitbeaker claims (clients/claims.ts) that were not driven').toEqual([]);
    expect([...driven].filter((form) => !SPEC_FORM_NAMES.includes(form)), 'forms driven that are not the spec\'s (a misspelt form)').toEqual([]);
  });
});
