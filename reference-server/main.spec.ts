// The command line of the reference server: --help lists --vary and every --without name, and a
// seed or a name it does not take stops it with exit code 2 before it listens.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { EXTRA_SETUP_ENDPOINT_NAMES } from '../contract/extra-setup-endpoints.js';

const MAIN = resolve(import.meta.dirname, 'main.ts');
const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], { encoding: 'utf8', timeout: 60_000 });

test('--help lists --vary SEED and every --without name', () => {
  const help = run('--help');
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('--vary SEED');
  for (const name of EXTRA_SETUP_ENDPOINT_NAMES) expect(help.stdout).toContain(`${name}: `);
});

test('a seed that is no whole number from 0 to 2^32 - 1, or an unknown --without name, exits with 2', () => {
  for (const args of [['--vary', 'abc'], ['--vary=-1'], ['--vary', '4294967296'], ['--without', 'no-such-endpoint']]) {
    const result = run('--port', '0', ...args);
    expect(result.status, args.join(' ')).toBe(2);
    expect(result.stderr).toMatch(/--vary|--without/);
  }
});
