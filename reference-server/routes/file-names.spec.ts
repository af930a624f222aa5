// Property test (fast-check) of the file names the repository-file routes take (issue #49): reads of a
// file named with a character above U+00FF, or with a control character, answered 500 after its create
// answered 201 (Node refuses such header values: ERR_INVALID_CHAR in X-Gitlab-File-Name). Over real
// HTTP, since Node's own checks of what a server writes are the point: each generated name is created
// through the API and read back four ways (GET, raw, blame, HEAD): never a 5xx; a created file reads
// back with its content, its name in X-Gitlab-File-Name as the UTF-8 bytes GitLab sends. Replay a
// failure with FUZZ_SEED=<seed>.
import fc from 'fast-check';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2_147_483_647;
const ADMIN = 'glpat-file-names-admin-00000';
const agent = new Agent({ keepAlive: true });
let server: ReferenceServer;
let projectId = 0;

beforeAll(async () => {
  server = await startReferenceServer({ adminToken: ADMIN });
  const admin = server.store.users.get(1)!;
  projectId = server.store.createProject({ name: 'names', path: 'names', namespace: { kind: 'user', id: admin.id }, visibility: 'private', creatorId: admin.id, defaultBranch: 'main' }).id;
});
afterAll(async () => {
  agent.destroy();
  await server.close();
});

/** One request; the headers as raw bytes (latin1 strings of what came on the wire). */
function call(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/api/v4${path}`, { method, agent, headers: { 'private-token': ADMIN, ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The path as a client sends it: dots escaped too, or `..` would be taken as a step up the URL. */
const encoded = (name: string) => encodeURIComponent(name).replace(/\./g, '%2E');

/** The bytes of `text` in UTF-8, as a header value reads in Node (one character a byte; the spaces around it are no part of it). */
const wire = (text: string) => Buffer.from(text, 'utf8').toString('latin1').replace(/^[ \t]+|[ \t]+$/g, '');

/** Names of every kind: any Unicode (astral, right-to-left, combining), controls, dots, slashes, long. */
const segment = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
  fc.constantFrom('日本.txt', '😀.md', 'ملف.txt', '\u200fmark.txt', 'a\rb', 'a\nb', 'tab\there', 'del\x7f', 'nul\0', '.', '..', '...', '.git', ' sp ', 'a\\..\\b', '%2e%2e', '"q"'),
  fc.string({ unit: fc.constantFrom('a', 'é', '日', '.', ' ', '\u0301'), minLength: 100, maxLength: 300 }),
);
const names = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));

test('every generated file name: created through the API and read back four ways, never a 5xx; a created file reads back with its content', { timeout: 120_000 }, async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(names, async (name) => {
      const path = encoded(name);
      const content = `file ${n++}\n`;
      const created = await call('POST', `/projects/${projectId}/repository/files/${path}`, { branch: 'main', content, commit_message: 'name' });
      expect(created.status, `create ${JSON.stringify(name)}: ${created.text}`).toBeLessThan(500);
      const reads = {
        get: await call('GET', `/projects/${projectId}/repository/files/${path}?ref=main`),
        raw: await call('GET', `/projects/${projectId}/repository/files/${path}/raw?ref=main`),
        blame: await call('GET', `/projects/${projectId}/repository/files/${path}/blame?ref=main`),
        head: await call('HEAD', `/projects/${projectId}/repository/files/${path}?ref=main`),
      };
      for (const [form, res] of Object.entries(reads)) expect(res.status, `${form} of ${JSON.stringify(name)} (created: ${created.status}): ${res.text}`).toBeLessThan(500);
      if (created.status !== 201) return;
      for (const [form, res] of Object.entries(reads)) expect(res.status, `${form} of ${JSON.stringify(name)}: ${res.text}`).toBe(200);
      expect(reads.raw.text, 'raw content').toBe(content);
      const body = JSON.parse(reads.get.text) as { file_name: string; file_path: string; content: string };
      expect(Buffer.from(body.content, 'base64').toString(), 'content').toBe(content);
      expect(body.file_path, 'file_path').toBe(name);
      const fileName = name.split('/').pop()!;
      expect(body.file_name, 'file_name').toBe(fileName);
      // The header is the name's UTF-8 bytes, or absent where Puma leaves out a value with a control
      // character (lib/puma/request.rb str_headers: illegal_header_value?).
      for (const [form, res] of Object.entries(reads)) {
        expect(res.headers['x-gitlab-file-name'], `${form}: X-Gitlab-File-Name`).toBe(/[\x00-\x08\x0a-\x1f\x7f]/.test(fileName) ? undefined : wire(fileName));
      }
    }),
    { seed: SEED, numRuns: 150 },
  );
});

test('names GitLab refuses at create (a line feed, a traversal) get its 400', async () => {
  // (`.` and `..` alone never reach the route: the router takes them as steps of the URL.)
  for (const name of ['a\nb', 'dir/x\n', 'a/../b', '../a', 'a/..', 'a\\..\\b', '..\\a', 'a\\..']) {
    const res = await call('POST', `/projects/${projectId}/repository/files/${encoded(name)}`, { branch: 'main', content: 'x', commit_message: 'refused' });
    expect([res.status, res.text], JSON.stringify(name)).toEqual([400, '{"error":"file_path should be a valid file path"}']);
  }
});
