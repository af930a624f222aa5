// A guard for the speed work on the file reads: the exact answers (status line, every header but
// Date, in order and as written, and the body's bytes) of GET/HEAD file, blame and raw over real
// HTTP, compared with file-reads.golden.txt. Any byte that changes fails the test; when a change is
// meant, review the diff and rewrite the file with `npx vitest run --project unit <this file> --update=all`.
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';
import type { Project, User } from '../state/model.js';

const ADMIN = 'glpat-golden-admin-0000000';
/** Tokens by a name the golden file shows in their place (a token never appears in output). */
const TOKENS = {
  admin: ADMIN,
  'developer read_api': 'glpat-golden-developer-read-api',
  'developer read_user': 'glpat-golden-developer-read-user',
  'outsider api': 'glpat-golden-outsider-api-0000',
  unknown: 'glpat-golden-not-a-token-00000',
};
type Caller = keyof typeof TOKENS | 'anonymous';

let servers: { gitlab: ReferenceServer; specOnly: ReferenceServer };
const agent = new Agent({ keepAlive: true });
const ids = { public: 0, private: 0, firstCommit: '', secondCommit: '' };

/** The same repositories in every server, from fixed signatures, so that every object id is the same on every run. */
function seed(server: ReferenceServer): void {
  const { store } = server;
  const admin = store.users.get(1)!;
  const developer = store.createUser({ username: 'dev', name: 'Dev Eloper', email: 'dev@example.com' });
  const outsider = store.createUser({ username: 'out', name: 'Out Sider', email: 'out@example.com' });
  store.createToken(developer.id, 'read', ['read_api'], null, TOKENS['developer read_api']);
  store.createToken(developer.id, 'user', ['read_user'], null, TOKENS['developer read_user']);
  store.createToken(outsider.id, 'all', ['api'], null, TOKENS['outsider api']);
  const group = store.createGroup({ name: 'golden', path: 'golden', parentId: null, visibility: 'public' });
  const open = store.createProject({ name: 'open', path: 'open', namespace: { kind: 'group', id: group.id }, visibility: 'public', creatorId: admin.id, defaultBranch: 'main' });
  const closed = store.createProject({ name: 'closed', path: 'closed', namespace: { kind: 'group', id: group.id }, visibility: 'private', creatorId: admin.id, defaultBranch: 'main' });
  store.addMember({ kind: 'project', id: closed.id }, { userId: developer.id, accessLevel: 30, createdById: admin.id });
  const commits = fill(open, admin);
  fill(closed, admin);
  ids.public = open.id;
  ids.private = closed.id;
  ids.firstCommit = commits[0];
  ids.secondCommit = commits[1];
}

/** A few files over several commits (one changed twice, for blame), an executable, a binary, an LFS file, a tag. */
function fill(project: Project, author: User): string[] {
  let time = 1_700_000_000;
  const write = (path: string, content: string | Buffer, kind: 'create' | 'update' = 'create', executable?: boolean) => {
    const signature = { name: author.name, email: author.email, time: (time += 60) };
    const action = { kind, path, content: Buffer.isBuffer(content) ? content : Buffer.from(content), executable };
    return project.repository.commit({ branch: 'main', action, message: `${kind} ${path}`, author: signature, committer: signature }).id;
  };
  const first = write('README.md', '# golden\n\nline 2\nline 3\n');
  const second = write('dir/sub/notes.txt', 'alpha\nbeta\ngamma\n');
  project.repository.tags.set('v1', second);
  write('README.md', '# golden\n\nline 2 changed\nline 3\nline 4\n', 'update');
  write('bin/run.sh', '#!/bin/sh\necho hi\n', 'create', true);
  write('data/blob.bin', Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 10]));
  write('dir/ünïcode name.txt', 'héllo\n');
  write('empty.txt', '');
  write('.gitattributes', '*.psd filter=lfs diff=lfs merge=lfs -text\n');
  write('art/picture.psd', 'not really a picture\n');
  project.repository.createBranch('feature', 'main');
  return [first, second];
}

beforeAll(async () => {
  servers = {
    gitlab: await startReferenceServer({ adminToken: ADMIN }),
    specOnly: await startReferenceServer({ adminToken: ADMIN, specOnly: true }),
  };
  seed(servers.gitlab);
  seed(servers.specOnly);
});

afterAll(async () => {
  agent.destroy();
  await Promise.all(Object.values(servers ?? {}).map((s) => s.close()));
});

/** One answer as text: request, status line, headers but Date, then the body (base64 when it is not UTF-8). */
function answer(server: ReferenceServer, method: string, path: string, caller: Caller): Promise<string> {
  const headers = caller === 'anonymous' ? {} : { 'private-token': TOKENS[caller] };
  return new Promise((done, fail) => {
    const req = request(`${server.url}${path}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i].toLowerCase() !== 'date') lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        const shown = Buffer.from(text, 'utf8').equals(body) ? text : `base64:${body.toString('base64')}`;
        done([`${method} ${path} as ${caller}`, `HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}`, ...lines, '', shown].join('\n'));
      });
    });
    req.on('error', fail);
    req.end();
  });
}

test('GET/HEAD file, blame and raw answer byte for byte as recorded', async () => {
  const files = (id: number, path: string, rest = '') => `/api/v4/projects/${id}/repository/files/${encodeURIComponent(path).replace(/\./g, '%2E')}${rest}`;
  const open = ids.public;
  const reads: [string, string, Caller][] = [
    ['GET', files(open, 'README.md', '?ref=main'), 'admin'],
    ['HEAD', files(open, 'README.md', '?ref=main'), 'admin'],
    ['GET', files(open, 'dir/sub/notes.txt', '?ref=main'), 'admin'],
    ['GET', files(open, 'dir/sub/notes.txt', '?ref=v1'), 'admin'],
    ['GET', files(open, 'README.md', '?ref=refs/heads/feature'), 'admin'],
    ['GET', files(open, 'README.md', '?ref=refs/tags/v1'), 'admin'],
    ['GET', files(open, 'README.md', `?ref=${ids.firstCommit}`), 'admin'],
    ['GET', files(open, 'README.md', `?ref=${ids.secondCommit.slice(0, 10)}`), 'admin'],
    ['GET', files(open, 'README.md', '?ref=HEAD'), 'admin'],
    ['GET', `/api/v4/projects/golden%2Fopen/repository/files/README.md?ref=main`, 'admin'],
    ['GET', files(open, 'bin/run.sh', '?ref=main'), 'admin'],
    ['GET', files(open, 'data/blob.bin', '?ref=main'), 'admin'],
    ['GET', files(open, 'dir/ünïcode name.txt', '?ref=main'), 'admin'],
    ['GET', files(open, 'empty.txt', '?ref=main'), 'admin'],
    ['GET', files(open, 'art/picture.psd', '?ref=main'), 'admin'],
    ['GET', files(open, 'README.md', '?ref=main&private_token=ignored'), 'anonymous'],
    ['GET', files(open, 'README.md', '?ref=main'), 'anonymous'],
    ['GET', files(open, 'missing.txt', '?ref=main'), 'admin'],
    ['HEAD', files(open, 'missing.txt', '?ref=main'), 'admin'],
    ['GET', files(open, 'dir', '?ref=main'), 'admin'],
    ['GET', files(open, 'README.md', '?ref=no-such-branch'), 'admin'],
    ['GET', files(open, 'README.md'), 'admin'],
    ['GET', files(open, 'README.md', '?ref='), 'admin'],
    ['GET', files(open, '../etc/passwd', '?ref=main'), 'admin'],
    ['GET', files(99999, 'README.md', '?ref=main'), 'admin'],
    ['GET', files(open, 'README.md', '?ref=main'), 'unknown'],
    ['GET', files(open, 'README.md', '?ref=main'), 'developer read_user'],
    ['GET', files(ids.private, 'README.md', '?ref=main'), 'anonymous'],
    ['HEAD', files(ids.private, 'README.md', '?ref=main'), 'anonymous'],
    ['GET', files(ids.private, 'README.md', '?ref=main'), 'outsider api'],
    ['GET', files(ids.private, 'README.md', '?ref=main'), 'developer read_api'],
    ['GET', files(ids.private, 'dir/sub/notes.txt', '?ref=v1'), 'developer read_api'],
    ['GET', files(open, 'README.md', '/blame?ref=main'), 'admin'],
    ['HEAD', files(open, 'README.md', '/blame?ref=main'), 'admin'],
    ['GET', files(open, 'README.md', '/blame?ref=main&range[start]=2&range[end]=4'), 'admin'],
    ['GET', files(open, 'README.md', '/blame?ref=main&range[start]=4&range[end]=2'), 'admin'],
    ['GET', files(open, 'missing.txt', '/blame?ref=main'), 'admin'],
    ['GET', files(ids.private, 'README.md', '/blame?ref=main'), 'developer read_api'],
    ['GET', files(open, 'README.md', '/raw?ref=main'), 'admin'],
    ['HEAD', files(open, 'README.md', '/raw?ref=main'), 'admin'],
    ['GET', files(open, 'README.md', '/raw'), 'admin'],
    ['GET', files(open, 'data/blob.bin', '/raw?ref=v1'), 'admin'],
    ['GET', files(open, 'data/blob.bin', '/raw?ref=main'), 'admin'],
    ['GET', files(open, 'dir/ünïcode name.txt', '/raw'), 'anonymous'],
    ['GET', files(open, 'art/picture.psd', '/raw?ref=main&lfs=true'), 'admin'],
    ['GET', files(open, 'art/picture.psd', '/raw?ref=main'), 'admin'],
    ['GET', files(open, 'missing.txt', '/raw?ref=main'), 'admin'],
    ['GET', files(ids.private, 'README.md', '/raw?ref=main'), 'anonymous'],
    ['GET', files(ids.private, 'README.md', '/raw?ref=main'), 'developer read_api'],
  ];
  const answers: string[] = [];
  for (const [name, server] of Object.entries(servers)) {
    // The spec-only twin rewrites some answers of these routes: a sample of its reads is kept too.
    const chosen = name === 'gitlab' ? reads : reads.filter((_, i) => i % 4 === 0);
    for (const [method, path, caller] of chosen) answers.push(`[${name}] ${await answer(server, method, path, caller)}`);
  }
  await expect(`${answers.join('\n\n----\n\n')}\n`).toMatchFileSnapshot('./file-reads.golden.txt');
});
