// The command line of the reference server: --help lists --vary and every --without name, and a
// seed or a name it does not take stops it with exit code 2 before it listens.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { EXTRA_SETUP_ENDPOINT_NAMES } from '../contract/extra-setup-endpoints.js';

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
