// The reference server's own package (gitlab-reference-server, packages/reference-server/) as a user
// gets it before it is published: `npm run pack:reference-server`'s tarball installed into an empty
// project (docs/reference-server.md). There it takes at most 15 MB with none of the suite's test
// tooling (issue #52), `npx gitlab-reference-server` answers, and plain Node imports its library.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { installedSize, installTarball, pack, startAndAsk, userEnv } from '../bench/server-install.js';

const ROOT = resolve(import.meta.dirname, '..');
const MINUTE = 60_000;
const MAX_INSTALLED_BYTES = 15_000_000;
const ADMIN = 'glpat-server-package-admin-01';
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 2 * MINUTE);

let project: string | undefined;
/** The packed package installed into an empty project, made once for the file. */
function installed(): string {
  if (project) return project;
  const packDir = mkdtempSync(join(tmpdir(), 'cnf-server-pack-'));
  dirs.push(packDir);
  project = installTarball(pack('server', packDir));
  dirs.push(project);
  return project;
}

describe('gitlab-reference-server, installed from its packed tarball', () => {
  test('takes at most 15 MB in node_modules (on disk), without the suite or its test tooling', { timeout: 10 * MINUTE }, () => {
    const app = installed();
    const size = installedSize(app);
    expect(size.diskBytes, `node_modules: ${size.diskBytes} bytes on disk, ${size.packages} packages; wanted at most ${MAX_INSTALLED_BYTES} (issue #52)`).toBeLessThanOrEqual(MAX_INSTALLED_BYTES);
    for (const tooling of ['gitlab-api-conformance', 'vitest', 'vite', 'esbuild', 'tsx', 'typescript']) {
      expect(existsSync(join(app, 'node_modules', tooling)), `${tooling} installed with the server`).toBe(false);
    }
  });

  test('`npx gitlab-reference-server --port 0` answers GET /api/v4/version as GitLab does, and ends on SIGTERM', { timeout: 5 * MINUTE }, async () => {
    const server = await startAndAsk('npx', ['gitlab-reference-server'], installed(), ADMIN);
    try {
      expect(server.version.status, server.output()).toBe(200);
      expect(JSON.parse(server.version.body)).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), revision: expect.any(String) });
      // The suite is not installed here: its command is named as npx finds it once installed.
      expect(server.output()).toContain('npx gitlab-api-conformance --target');
    } finally {
      await server.stop();
    }
    // npx ends at once; the server below it follows (reference-server/lifetime.ts).
    const deadline = Date.now() + 10_000;
    while ((await fetch(`${server.url}/-/reference/health`).then(() => true, () => false)) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 200));
    await expect(fetch(`${server.url}/-/reference/health`), 'still serving 10 s after SIGTERM to npx').rejects.toThrow();
  });

  test('plain Node imports `gitlab-reference-server` (no loader): seeded, it answers and resets; the schemas resolve', { timeout: 5 * MINUTE }, () => {
    const script = `
      const { startReferenceServer, RESET_PATH } = await import('gitlab-reference-server');
      const server = await startReferenceServer({ seed: { users: [{ username: 'alice' }], projects: [{ path: 'app', namespace: 'alice', files: { 'a.txt': 'seeded' } }] } });
      const api = (path, init = {}) => fetch(server.url + '/api/v4' + path, { ...init, headers: { 'private-token': server.adminToken } });
      const read = async () => (await api('/projects/alice%2Fapp/repository/files/a.txt/raw?ref=main')).text();
      const before = await read();
      await api('/projects/alice%2Fapp/repository/files/a.txt', { method: 'PUT', body: new URLSearchParams({ branch: 'main', content: 'changed', commit_message: 'c' }) });
      const changed = await read();
      const reset = (await fetch(server.url + RESET_PATH, { method: 'POST', headers: { 'private-token': server.adminToken } })).status;
      const after = await read();
      await server.close();
      const { createRequire } = await import('node:module');
      const require = createRequire(process.cwd() + '/');
      const schemas = ['seed', 'state', 'stubs'].map((name) => require('gitlab-reference-server/' + name + '.schema.json').$schema !== undefined);
      console.log(JSON.stringify({ before, changed, reset, after, schemas }));
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: installed(), env: userEnv(), encoding: 'utf8', timeout: 2 * MINUTE });
    expect(result.status, `${result.stdout}\n${result.stderr}`.slice(-3000)).toBe(0);
    expect(JSON.parse(result.stdout.trim().split('\n').pop()!)).toEqual({ before: 'seeded', changed: 'changed', reset: 204, after: 'seeded', schemas: [true, true, true] });
  });
});

describe('packages/reference-server/package.json', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', 'reference-server', 'package.json'), 'utf8')) as Record<string, unknown>;
  const suite = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;

  test('the same version, licence and Node as the suite, its own bin, and no dependency to install (all bundled)', () => {
    expect(manifest).toMatchObject({ version: suite.version, license: suite.license, engines: suite.engines, type: 'module', bin: { 'gitlab-reference-server': 'bin/gitlab-reference-server.js' } });
    expect(manifest.dependencies).toBeUndefined();
  });

  test('the suite packs it by `npm run pack:reference-server`', () => {
    expect((suite.scripts as Record<string, string>)['pack:reference-server']).toBe('npm pack ./packages/reference-server');
  });
});
