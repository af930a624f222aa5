// The command line of the reference server: --help lists --vary and every --without name, and a
// seed or a name it does not take stops it with exit code 2 before it listens; started, it prints
// a command line with every capability and a fixture manifest, and SIGTERM ends it with the
// manifest removed. (The packed command on plain Node: cli/package.spec.ts.)
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { EXTRA_SETUP_ENDPOINT_NAMES } from '../contract/extra-setup-endpoints.js';
import { CAPABILITIES } from '../runner/run/config.js';
import { OFFERED_CAPABILITIES } from './cli.js';

const MAIN = resolve(import.meta.dirname, 'main.ts');
// Each start compiles main.ts with tsx: seconds, and far more on a loaded machine.
const TIMEOUT_MS = 180_000;

function run(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', MAIN, ...args], { encoding: 'utf8', timeout: TIMEOUT_MS - 10_000 }, (error, stdout, stderr) => {
      done({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

test('--help lists --vary SEED and every --without name', { timeout: TIMEOUT_MS }, async () => {
  const help = await run('--help');
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('--vary SEED');
  for (const name of EXTRA_SETUP_ENDPOINT_NAMES) expect(help.stdout).toContain(`${name}: `);
});

test('a seed that is no whole number from 0 to 2^32 - 1, or an unknown --without name, exits with 2', { timeout: TIMEOUT_MS }, async () => {
  const cases = [['--vary', 'abc'], ['--vary=-1'], ['--vary', '4294967296'], ['--without', 'no-such-endpoint']];
  const results = await Promise.all(cases.map((args) => run('--port', '0', ...args)));
  results.forEach((result, i) => {
    expect(result.status, cases[i].join(' ')).toBe(2);
    expect(result.stderr).toMatch(/--vary|--without/);
  });
});

test('the server offers every capability the suite knows', () => {
  expect(OFFERED_CAPABILITIES).toEqual([...CAPABILITIES]);
});

test('started on port 0, it prints its URL and a suite command line with every capability and its fixtures; SIGTERM ends it and removes them', { timeout: TIMEOUT_MS }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no hint within the time: ${out}`)), TIMEOUT_MS - 20_000);
    child.stdout.on('data', () => {
      if (out.includes('Stop it')) {
        clearTimeout(timer);
        done();
      }
    });
  });
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(out)?.[1];
  expect(url, out).toBeDefined();
  expect((await fetch(`${url}/-/reference/health`)).status).toBe(200);
  expect(out).toContain(`--target ${url} --capabilities ${CAPABILITIES.join(',')} --fixtures `);
  const manifest = /--fixtures (\S+)/.exec(out)![1];
  expect(Object.keys(JSON.parse(readFileSync(manifest, 'utf8')) as object)).toEqual(['ldap', 'saml', 'enterprise']);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(existsSync(manifest)).toBe(false);
  await expect(fetch(`${url}/-/reference/health`)).rejects.toThrow();
});
