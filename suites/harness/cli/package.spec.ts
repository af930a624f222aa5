// The package as a user gets it from the registry: `npm pack`, the tarball installed into an empty
// folder, and `npx gitlab-api-conformance` run there against the bundled reference server (one area,
// to stay fast). Also: the tarball holds what a run needs and none of the suite's own tests or
// tooling, and every package the shipped code imports is a runtime dependency.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Results } from '../report/results.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const MINUTE = 60_000;
const dirs: string[] = [];

// An installed node_modules takes a while to remove on a busy machine.
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 2 * MINUTE);

/** The environment of a user's shell: nothing of this test run, of npm's lifecycle or of a target. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) =>
        !k.startsWith('VITEST') &&
        !k.startsWith('CONFORMANCE_') &&
        !k.startsWith('npm_package_') &&
        !k.startsWith('npm_lifecycle_') &&
        !['NODE_ENV', 'TEST', 'INIT_CWD', 'npm_command', 'npm_config_local_prefix', 'NODE_OPTIONS'].includes(k),
    ),
  );
}

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

let dryRun: PackResult | undefined;
/** The tarball's file list (`npm pack --dry-run`), read once. */
function packedFiles(): string[] {
  dryRun ??= pack(['--dry-run']);
  return dryRun.files.map((f) => f.path);
}

describe('the package (npm pack)', () => {
  test('holds what a run needs, and none of the suite\'s own tests, reports or tooling', { timeout: 2 * MINUTE }, () => {
    const files = packedFiles();
    for (const needed of [
      'package.json',
      'README.md',
      'bin/gitlab-api-conformance.js',
      'suites/harness/cli/cli.ts',
      'suites/global-setup.ts',
      'suites/areas.ts',
      'schemas/registry.ts',
      'schemas/file.schema.json',
      'schemas/examples/INDEX.md',
      'reference-server/server.ts',
      'contract/fixture-manifest.ts',
      'fixtures/manifest.ts',
      'vitest.config.ts',
      'tsconfig.json',
      'scripts/gitlab-bootstrap.sh',
      'docs/ci/docker-compose.yml',
      'docs/ci/gitlab-ci.yml',
      'docs/ci/github-actions.yml',
    ]) {
      expect(files, needed).toContain(needed);
    }
    expect(files.filter((f) => f.endsWith('.test.ts')).length, 'the conformance tests').toBeGreaterThan(0);
    const unwanted = files.filter((f) =>
      /\.spec\.ts$|^(reports|\.conformance|bench|\.ci|coverage|\.stryker-tmp)\/|^(stryker\.config\.json|vitest\.mutation\.config\.ts|eslint\.config\.js|\.env.*|package-lock\.json)$/.test(f),
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

  test(
    'installed from its tarball into an empty folder, `npx gitlab-api-conformance` runs one area against the bundled server and passes',
    { timeout: 15 * MINUTE },
    () => {
      const base = mkdtempSync(join(tmpdir(), 'cnf-package-'));
      dirs.push(base);
      const packDir = join(base, 'pack');
      const app = join(base, 'app');
      const reports = join(base, 'reports');
      mkdirSync(packDir);
      mkdirSync(app);

      const tarball = join(packDir, pack(['--pack-destination', packDir]).filename);
      expect(existsSync(tarball), tarball).toBe(true);

      writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'cnf-package-check', version: '1.0.0', private: true }, null, 2)}\n`);
      const install = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], app, 10 * MINUTE);
      expect(install.status, tail(install)).toBe(0);
      expect(existsSync(join(app, 'node_modules', '.bin', 'gitlab-api-conformance'))).toBe(true);

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
});
