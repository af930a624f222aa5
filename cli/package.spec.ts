// The package as a user gets it from the registry: `npm pack`, the tarball installed into an empty
// folder (once for the file), and there `npx gitlab-api-conformance` run against the bundled
// reference server (one area, to stay fast), `npx gitlab-reference-server` started with a seed and
// stopped by SIGTERM, and the compiled `gitlab-api-conformance/reference-server` imported from plain
// Node. Also: the tarball holds what a run needs and none of the suite's own tests or tooling, and
// every package the shipped code imports is a runtime dependency.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Results } from '../runner/report/results.js';
import { userEnv } from '../bench/server-install.js';

const ROOT = resolve(import.meta.dirname, '..');
const MINUTE = 60_000;
const dirs: string[] = [];

// An installed node_modules takes a while to remove on a busy machine.
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 2 * MINUTE);

function run(command: string, args: string[], cwd: string, timeout: number): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, env: userEnv(), encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return result;
}

const tail = (r: SpawnSyncReturns<string>) => `${r.stdout}\n${r.stderr}`.slice(-3000);

interface PackResult {
  filename: string;
  entryCount: number;
  size: number;
  files: { path: string }[];
}

function pack(args: string[]): PackResult {
  const result = run('npm', ['pack', '--json', ...args], ROOT, 2 * MINUTE);
  expect(result.status, tail(result)).toBe(0);
  // npm prints the JSON on stdout (warnings go to stderr).
  return (JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as PackResult[])[0];
}

let packed: { tarball: string; result: PackResult } | undefined;
/**
 * The tarball, packed once into a folder of its own: its file list is read from what npm printed
 * (a `--dry-run` first built dist/ once more, npm's `prepack`), and the install tests take it.
 */
function tarball(): { tarball: string; result: PackResult } {
  if (packed) return packed;
  const packDir = mkdtempSync(join(tmpdir(), 'cnf-pack-'));
  dirs.push(packDir);
  const result = pack(['--pack-destination', packDir]);
  return (packed = { tarball: join(packDir, result.filename), result });
}

/** The tarball's file list. */
const packedFiles = (): string[] => tarball().result.files.map((f) => f.path);

describe('the package (npm pack)', () => {
  test('holds what a run needs, and none of the suite\'s own tests, reports or tooling', { timeout: 2 * MINUTE }, () => {
    const files = packedFiles();
    for (const needed of [
      'package.json',
      'README.md',
      'bin/gitlab-api-conformance.js',
      'cli/cli.ts',
      'suites/global-setup.ts',
      'suites/areas.ts',
      'schemas/registry.ts',
      'schemas/file.schema.json',
      'schemas/examples/INDEX.md',
      'reference-server/server.ts',
      'dist/reference-server/index.js',
      'dist/reference-server/index.d.ts',
      'dist/reference-server/main.js',
      'bin/gitlab-reference-server.js',
      'dist/reference-server/seed/seed.schema.json',
      'reference-server/seed/seed.schema.json',
      'dist/reference-server/state/state.schema.json',
      'reference-server/state/state.schema.json',
      'contract/fixture-manifest.ts',
      'fixtures/manifest.ts',
      'vitest.config.ts',
      'tsconfig.json',
      '.env.example',
      'scripts/gitlab-bootstrap.sh',
      'docs/ci/docker-compose.yml',
      'docs/ci/gitlab-ci.yml',
      'docs/ci/github-actions.yml',
    ]) {
      expect(files, needed).toContain(needed);
    }
    expect(files.filter((f) => f.endsWith('.test.ts')).length, 'the conformance tests').toBeGreaterThan(0);
    const unwanted = files.filter((f) =>
      /\.spec\.ts$|^(reports|\.conformance|bench|\.ci|coverage|\.stryker-tmp)\/|^(stryker\.config\.json|vitest\.mutation\.config\.ts|eslint\.config\.js|\.env(?!\.example$).*|package-lock\.json)$/.test(f),
    );
    expect(unwanted).toEqual([]);
  });

  test('every package the shipped code imports is in dependencies', { timeout: 2 * MINUTE }, () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const shipped = packedFiles().filter((f) => /\.(ts|js)$/.test(f));
    const builtins = new Set(builtinModules);
    const missing = new Set<string>();
    for (const file of shipped) {
      const source = readFileSync(join(ROOT, file), 'utf8');
      for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'([^'.][^']*)'|\bimport\(\s*'([^'.][^']*)'\s*\)/g)) {
        const specifier = match[1] ?? match[2];
        if (specifier.startsWith('node:') || builtins.has(specifier)) continue;
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
        if (!(name in manifest.dependencies)) missing.add(`${name} (${file})`);
      }
    }
    expect([...missing]).toEqual([]);
  });

  test('the compiled reference server imports nothing of tsx and no TypeScript file', { timeout: 2 * MINUTE }, () => {
    const compiled = packedFiles().filter((f) => f.startsWith('dist/') && f.endsWith('.js'));
    expect(compiled.length).toBeGreaterThan(0);
    const offending = compiled.filter((f) => /from '(tsx[^']*|[^']*\.ts)'|import\('(tsx[^']*|[^']*\.ts)'\)/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(offending).toEqual([]);
  });
});

describe('the package (npm pack): its reference server', () => {
  test(
    'installed from its tarball into an empty folder, `npx gitlab-api-conformance` runs one area against the bundled server and passes',
    { timeout: 15 * MINUTE },
    () => {
      const app = installed();
      const reports = join(app, '..', 'reports');
      const conformance = run('npx', ['gitlab-api-conformance', '--area', 'repository-files', '--report-dir', reports], app, 5 * MINUTE);
      const resultsFile = join(reports, 'results.json');
      expect(existsSync(resultsFile), tail(conformance)).toBe(true);
      const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results;
      const notPassed = results.tests.filter((t) => t.verdict !== 'pass').map((t) => `${t.id}: ${t.verdict} ${t.reason ?? ''}`.slice(0, 400));
      expect(notPassed).toEqual([]);
      expect(conformance.status, tail(conformance)).toBe(0);
      expect(results.summary.pass).toBeGreaterThan(0);
      expect(results.summary.fail).toBe(0);
      expect(results.summary.error).toBe(0);
      expect(new Set(results.tests.filter((t) => t.verdict === 'pass').map((t) => t.area))).toEqual(new Set(['repository-files']));
      expect(existsSync(join(reports, 'junit.xml'))).toBe(true);
    },
  );

  test('`npx gitlab-reference-server --port 0 --seed seed.json` serves the seeded objects and ends on SIGTERM with no process left', { timeout: 15 * MINUTE }, async () => {
    const app = installed();
    const seed = join(app, 'seed.json');
    writeFileSync(seed, JSON.stringify({ users: [{ username: 'alice', tokens: [{ token: ALICE }] }], groups: [{ path: 'demo' }], members: [{ user: 'alice', group: 'demo', access_level: 'owner' }] }));
    const child = spawn('npx', ['gitlab-reference-server', '--port', '0', '--seed', seed], { cwd: app, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const url = await new Promise<string>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`not listening in time: ${out}`)), 2 * MINUTE);
      child.stdout.on('data', () => {
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(out)?.[1];
        if (found && out.includes('Stop it')) {
          clearTimeout(timer);
          done(found);
        }
      });
    });
    const members = await fetch(`${url}/api/v4/groups/demo/members`, { headers: { 'private-token': ALICE } });
    expect(members.status).toBe(200);
    expect(await members.json()).toMatchObject([{ username: 'alice', access_level: 50 }]);

    child.kill('SIGTERM');
    await exited;
    // npx leaves a shell between itself and the server, which passes on no signal: the server goes on its own.
    const deadline = Date.now() + 10_000;
    while (serving(seed).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(serving(seed)).toEqual([]);
    await expect(fetch(`${url}/-/reference/health`)).rejects.toThrow();
  });

  test('plain Node imports gitlab-api-conformance/reference-server (no tsx): it starts seeded, resets and stops', { timeout: 5 * MINUTE }, () => {
    const app = installed();
    const script = `
      const { startReferenceServer, RESET_PATH } = await import('gitlab-api-conformance/reference-server');
      const server = await startReferenceServer({ seed: { users: [{ username: 'alice', tokens: [{ token: '${ALICE}' }] }], projects: [{ path: 'app', namespace: 'alice', files: { 'a.txt': 'seeded' } }] } });
      const api = (path, init = {}) => fetch(server.url + '/api/v4' + path, { ...init, headers: { 'private-token': server.adminToken } });
      const read = async () => (await api('/projects/alice%2Fapp/repository/files/a.txt/raw?ref=main')).text();
      const before = await read();
      await api('/projects/alice%2Fapp/repository/files/a.txt', { method: 'PUT', body: new URLSearchParams({ branch: 'main', content: 'changed', commit_message: 'c' }) });
      const changed = await read();
      const reset = await fetch(server.url + RESET_PATH, { method: 'POST', headers: { 'private-token': server.adminToken } });
      const after = await read();
      await server.close();
      console.log(JSON.stringify({ before, changed, reset: reset.status, after, hooks: process.execArgv.some((a) => /^--(import|loader|experimental-loader|require)\b|^-r$/.test(a)) || (process.env.NODE_OPTIONS ?? '') !== '' }));
    `;
    // No --import, --loader or NODE_OPTIONS: nothing but Node loads the compiled code.
    const result = run(process.execPath, ['--input-type=module', '-e', script], app, 2 * MINUTE);
    expect(result.status, tail(result)).toBe(0);
    expect(JSON.parse(result.stdout.trim().split('\n').pop()!)).toEqual({ before: 'seeded', changed: 'changed', reset: 204, after: 'seeded', hooks: false });
  });
});

const ALICE = 'glpat-package-alice-00001';

/** The pids of processes whose command line names `marker` (the seed file of one start). */
function serving(marker: string): string[] {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
    } catch {
      return false; // gone meanwhile
    }
  });
}

let app: string | undefined;
/** The packed tarball installed into an empty folder, made on first use (one pack for the file). */
function installed(): string {
  if (app) return app;
  const folder = mkdtempSync(join(tmpdir(), 'cnf-package-'));
  dirs.push(folder);
  const file = tarball().tarball;
  expect(existsSync(file), file).toBe(true);
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'cnf-package-check', version: '1.0.0', private: true }, null, 2)}\n`);
  const install = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', file], folder, 10 * MINUTE);
  expect(install.status, tail(install)).toBe(0);
  expect(existsSync(join(folder, 'node_modules', '.bin', 'gitlab-api-conformance'))).toBe(true);
  expect(existsSync(join(folder, 'node_modules', '.bin', 'gitlab-reference-server'))).toBe(true);
  return (app = folder);
}
