// Hand-made transcripts for the differential's unit tests: `recordRun` writes what a run of a small
// world would record (members, memberships, pending members, files, mirrors, invitations), with the
// run's own ids, names, prefix, origin, times and commit ids taken from its parameters, so that two
// runs of one target differ only where normalization must hide it.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExchangeLine, SymbolEntry, TestLine, TranscriptHeader } from './transcript.js';

export interface RunParameters {
  runId: string;
  port: number;
  /** The first id each sequence hands out in this run (users, groups, projects, members, mirrors). */
  userIds: number;
  groupIds: number;
  projectIds: number;
  memberIds: number;
  mirrorIds: number;
  /** When the run ran. */
  time: string;
  /** Surnames of the run's users (names the faker drew). */
  surname: string;
  /** Seeds the run's commit ids. */
  commitSeed: string;
}

export const RUN_A: RunParameters = { runId: '2611262000ab12', port: 41234, userIds: 14, groupIds: 52, projectIds: 5, memberIds: 300, mirrorIds: 7, time: '2026-11-26T20:00:01.123Z', surname: 'Fulano', commitSeed: 'a' };
export const RUN_B: RunParameters = { runId: '2612011530cd34', port: 39001, userIds: 201, groupIds: 9, projectIds: 9, memberIds: 4100, mirrorIds: 88, time: '2026-12-01T15:30:59.987Z', surname: 'Beltrano', commitSeed: 'b' };

/** A line of a transcript, as written (a hand-made one may be anything). */
export type Line = object;

export const sha = (seed: string) => createHash('sha1').update(seed).digest('hex');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
/** Git's blob id of a content. */
export const gitBlobId = (content: Buffer) => createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');

const sshString = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
/** An ed25519 public key in OpenSSH form, its 32 bytes drawn from `seed`, and its SHA-256 fingerprint. */
export function sshKey(seed: string): { text: string; fingerprint: string } {
  const blob = Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(createHash('sha256').update(seed).digest())]);
  return { text: `ssh-ed25519 ${blob.toString('base64')}`, fingerprint: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}` };
}

export function headerLine(p: RunParameters, over: Partial<TranscriptHeader> = {}): TranscriptHeader {
  return {
    type: 'header',
    format: 'gitlab-api-conformance-transcript',
    version: 1,
    recordedAt: p.time,
    runId: p.runId,
    prefix: `cnf-${p.runId}`,
    target: { origin: `http://127.0.0.1:${p.port}`, version: '18.6.0-ee', referenceServer: true },
    suite: { version: '0.1.0' },
    level: 'spec',
    capabilities: ['premium', 'ultimate'],
    selection: { areas: [], endpoints: [], disabled: [] },
    ...over,
  };
}

export function testLine(id: string, over: Partial<TestLine> = {}): TestLine {
  return { type: 'test', id, area: 'members', endpoint: 'GET /groups/:id/members', kind: 'group', clauses: ['members.list.direct'], verdict: 'pass', parity: 'pass', reason: null, symbols: [], ...over };
}

export function exchangeLine(test: string, index: number, over: Partial<ExchangeLine> & { status?: number; body?: unknown; headers?: Record<string, string> } = {}): ExchangeLine {
  const { status = 200, body = {}, headers = { 'content-type': 'application/json' }, ...rest } = over;
  return {
    type: 'exchange',
    test,
    index,
    actor: 'owner',
    request: { method: 'GET', path: '/api/v4/version' },
    response: { status, headers, body, bodyEncoding: body === undefined ? 'none' : 'json' },
    ...rest,
  };
}

/** The lines of one run of the hand-made world. */
export function runLines(p: RunParameters): Line[] {
  const prefix = `cnf-${p.runId}`;
  const under = prefix.replace(/-/g, '_');
  const origin = `http://127.0.0.1:${p.port}`;
  const owner = { id: p.userIds, username: `${under}_members_owner_1`, name: `Owner ${p.surname}`, email: `${under}_members_owner_1@example.com` };
  const pool = { id: p.userIds + 3, username: `${under}_members_pool_2`, name: `Pool ${p.surname}`, email: `${under}_members_pool_2@example.com` };
  const admin = { id: 1, username: 'root', name: 'Administrator', email: 'admin@example.com' };
  // The group and the project have equal ids in RUN_B (independent sequences).
  const group = { id: p.groupIds, path: `${prefix}-members-grp-3`, full_path: `${prefix}-root/${prefix}-members-grp-3` };
  const project = { id: p.projectIds, path: `${prefix}-members-prj-4`, full_path: `${prefix}-root/${prefix}-members-prj-4` };
  const userValues = (u: typeof owner) => ({ username: u.username, name: u.name, email: u.email });
  const userBasic = (u: typeof owner) => ({
    id: u.id,
    username: u.username,
    name: u.name,
    state: 'active',
    locked: false,
    avatar_url: `https://www.gravatar.com/avatar/${md5(u.email)}?s=80&d=identicon`,
    web_url: `${origin}/${u.username}`,
  });
  const symbols: SymbolEntry[] = [
    { symbol: 'user:owner', kind: 'user', id: owner.id, values: userValues(owner) },
    { symbol: 'user#1', kind: 'user', id: pool.id, values: userValues(pool) },
    { symbol: 'user:admin', kind: 'user', id: admin.id, values: { username: admin.username } },
    { symbol: 'group#1', kind: 'group', id: group.id, values: { path: group.path, full_path: group.full_path } },
    { symbol: 'project#1', kind: 'project', id: project.id, values: { path: project.path, full_path: project.full_path } },
  ];
  const member = (u: typeof owner, level: number) => ({ ...userBasic(u), access_level: level, created_at: p.time, created_by: userBasic(admin), expires_at: null, membership_state: 'active' });
  const json = { 'content-type': 'application/json', 'x-request-id': `req-${p.runId}`, 'x-runtime': '0.0123', etag: `W/"${md5(p.runId)}"`, 'content-length': String(300 + p.port) };
  const day = p.time.slice(0, 10);
  const commit1 = sha(`${p.commitSeed}1`);
  const commit2 = sha(`${p.commitSeed}2`);
  // A README that names its project, as GitLab writes it: its hashes follow the run's names.
  const readme = Buffer.from(`# ${project.path}\n`);
  const readmeBlob = gitBlobId(readme);
  const hostKey = sshKey(`${p.commitSeed}-host`);
  const mirrorA = p.mirrorIds;
  const mirrorB = p.mirrorIds + 1;
  const inviteEmail = `${under}_invitations_guest_5@example.com`;
  const mirror = (id: number, url: string) => ({ id, enabled: false, url, update_status: 'none', last_error: null, last_update_at: null, last_successful_update_at: null, last_update_started_at: null, only_protected_branches: false, keep_divergent_refs: false, auth_method: 'password' });
  const ex = (test: string, index: number, actor: string, request: ExchangeLine['request'], status: number, headers: Record<string, string>, body: unknown, bodyEncoding: ExchangeLine['response']['bodyEncoding'] = 'json'): Line => ({
    type: 'exchange',
    test,
    index,
    actor,
    request,
    response: { status, headers: { ...headers }, ...(body === undefined ? {} : { body: structuredClone(body) }), bodyEncoding },
    durationMs: 3 + index,
  });
  const gp = `/api/v4/groups/${group.id}`;
  const pp = `/api/v4/projects/${project.id}`;
  const file = `/api/v4/projects/${encodeURIComponent(project.full_path)}/repository/files/docs%2Freadme%2Emd`;
  return [
    headerLine(p),
    testLine('members.list.group.basic', { symbols }),
    ex('members.list.group.basic', 0, 'owner', { method: 'GET', path: `${gp}/members`, query: { per_page: '2' } }, 200, { ...json, link: `<${origin}${gp}/members?id=${group.id}&page=2&per_page=2>; rel="next"`, 'x-total': '3', 'x-next-page': '2' }, [member(owner, 50), member(pool, 30)]),
    ex('members.list.group.basic', 1, 'owner', { method: 'GET', path: `${pp}/members/all/${pool.id}` }, 200, json, member(pool, 30)),
    ex('members.list.group.basic', 2, 'owner', { method: 'POST', path: `${pp}/members`, body: { user_id: String(pool.id), access_level: 30, expires_at: day } }, 201, json, { ...member(pool, 30), expires_at: day }),
    testLine('members.billable.memberships', { endpoint: 'GET /groups/:id/billable_members/:user_id/memberships', clauses: ['members.billable.memberships'], symbols }),
    ex('members.billable.memberships', 0, 'owner', { method: 'GET', path: `${gp}/billable_members/${pool.id}/memberships` }, 200, json, [
      { id: p.memberIds, source_id: group.id, source_full_name: `Root / ${group.path}`, source_members_url: `${origin}/groups/${group.full_path}/-/group_members`, created_at: p.time, expires_at: null, access_level: { string_value: 'Developer', integer_value: 30 } },
      { id: p.memberIds + 1, source_id: project.id, source_full_name: `Root / ${project.path}`, source_members_url: `${origin}/${project.full_path}/-/project_members`, created_at: p.time, expires_at: day, access_level: { string_value: 'Guest', integer_value: 10 } },
    ]),
    ex('members.billable.memberships', 1, 'owner', { method: 'GET', path: `${gp}/pending_members` }, 200, json, [
      { id: p.memberIds + 2, email: inviteEmail, invited: true, avatar_url: `https://www.gravatar.com/avatar/${md5(inviteEmail)}?s=80&d=identicon`, approved: false },
    ]),
    ex('members.billable.memberships', 2, 'owner', { method: 'PUT', path: `${gp}/members/${p.memberIds + 2}/approve` }, 204, { 'x-request-id': `r2-${p.runId}` }, undefined, 'none'),
    testLine('files.get.blame', { area: 'repository-files', endpoint: 'GET /projects/:id/repository/files/:file_path/blame', kind: null, clauses: ['files.blame.shape'], symbols }),
    ex('files.get.blame', 0, 'maintainer', { method: 'HEAD', path: file, query: { ref: `${prefix}-branch-1` } }, 200, { 'x-gitlab-commit-id': commit2, 'x-gitlab-last-commit-id': commit2, 'x-gitlab-blob-id': readmeBlob, 'x-gitlab-ref': `${prefix}-branch-1`, 'x-gitlab-size': '12', 'content-length': '0' }, undefined, 'none'),
    ex('files.get.blame', 1, 'maintainer', { method: 'GET', path: `${file}/blame`, query: { ref: commit2 } }, 200, json, [
      { commit: { id: commit1, short_id: commit1.slice(0, 8), parent_ids: [], message: 'first version', authored_date: p.time, author_name: owner.name, author_email: owner.email, committed_date: p.time, committer_name: owner.name, committer_email: owner.email }, lines: ['alpha'] },
      { commit: { id: commit2, short_id: commit2.slice(0, 8), parent_ids: [commit1], message: 'second version', authored_date: p.time, author_name: owner.name, author_email: owner.email, committed_date: p.time, committer_name: owner.name, committer_email: owner.email }, lines: ['beta'] },
    ]),
    ex('files.get.blame', 2, 'maintainer', { method: 'GET', path: `${file}/raw`, query: { ref: `${prefix}-branch-1` } }, 200, { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': `inline; filename="readme.md"` }, `alpha\nbeta\nwritten by ${owner.username} on ${day}\n`, 'text'),
    ex('files.get.blame', 3, 'maintainer', { method: 'GET', path: file, query: { ref: `${prefix}-branch-1` } }, 200, json, {
      file_name: 'readme.md',
      file_path: 'docs/readme.md',
      size: readme.length,
      encoding: 'base64',
      content_sha256: createHash('sha256').update(readme).digest('hex'),
      ref: `${prefix}-branch-1`,
      blob_id: readmeBlob,
      commit_id: commit2,
      last_commit_id: commit2,
      execute_filemode: false,
      content: readme.toString('base64'),
    }),
    testLine('mirrors.create.basic', { area: 'remote-mirrors', endpoint: 'POST /projects/:id/remote_mirrors', kind: null, clauses: ['mirrors.create.shape'], symbols }),
    ex('mirrors.create.basic', 0, 'maintainer', { method: 'POST', path: `${pp}/remote_mirrors`, body: { url: 'https://alice:secret@example.com/a.git' } }, 201, json, mirror(mirrorA, 'https://*****:*****@example.com/a.git')),
    ex('mirrors.create.basic', 1, 'maintainer', { method: 'POST', path: `${pp}/remote_mirrors`, body: { url: 'https://example.com/b.git', host_keys: [hostKey.text] } }, 201, json, { ...mirror(mirrorB, 'https://example.com/b.git'), host_keys: [{ fingerprint_sha256: hostKey.fingerprint }] }),
    ex('mirrors.create.basic', 2, 'maintainer', { method: 'GET', path: `${pp}/remote_mirrors/${mirrorA}` }, 200, json, mirror(mirrorA, 'https://*****:*****@example.com/a.git')),
    ex('mirrors.create.basic', 3, 'maintainer', { method: 'GET', path: `${pp}/remote_mirrors` }, 200, json, [mirror(mirrorA, 'https://*****:*****@example.com/a.git'), { ...mirror(mirrorB, 'https://example.com/b.git'), host_keys: [{ fingerprint_sha256: hostKey.fingerprint }] }]),
    testLine('invitations.create.group.by-email', { area: 'invitations', endpoint: 'POST /groups/:id/invitations', clauses: ['invitations.create.email'], symbols }),
    ex('invitations.create.group.by-email', 0, 'owner', { method: 'POST', path: `${gp}/invitations`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=${encodeURIComponent(inviteEmail)}&access_level=30` }, 201, json, { status: 'success' }),
    ex('invitations.create.group.by-email', 1, 'owner', { method: 'GET', path: `${gp}/invitations` }, 200, json, [
      { id: p.memberIds + 9, invite_email: inviteEmail, invite_token: sha(`${p.commitSeed}-invite`).slice(0, 20), created_at: p.time, access_level: 30, expires_at: null, user_name: owner.name, created_by_name: owner.name },
    ]),
    ex('invitations.create.group.by-email', 2, 'owner', { method: 'DELETE', path: `${gp}/invitations/${encodeURIComponent(inviteEmail)}` }, 204, {}, undefined, 'none'),
  ];
}

/** Writes lines as a transcript file in `dir`. */
export function writeTranscript(dir: string, name: string, lines: Line[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}

/** A deep copy of the lines with `change` applied to the exchange (test, index). */
export function changeExchange(lines: Line[], test: string, index: number, change: (e: ExchangeLine) => void): Line[] {
  const copy = structuredClone(lines);
  const target = (copy as Partial<ExchangeLine>[]).find((l) => l.type === 'exchange' && l.test === test && l.index === index) as ExchangeLine | undefined;
  if (!target) throw new Error(`no exchange ${test} #${index}`);
  change(target);
  return copy;
}
