// Containment (issue #25): the whole suite against the reference server playing a target that lacks
// one set-up endpoint beyond the target contract (`--without NAME`, contract/extra-setup-endpoints.ts),
// for each name. Only the tests that declare the name (themselves or through their fixtures) may change
// verdict, and each that does is `unsupported` with the reason "the target lacks …"; every other test
// passes at both levels as it does against the full server; the report lists what the target lacks.
// Each run is the real command in a child process against a server started here.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { EXTRA_SETUP_ENDPOINT_NAMES } from '../../../contract/extra-setup-endpoints.js';
import { startReferenceServer, type ReferenceServer } from '../../../reference-server/server.js';
import { CAPABILITIES } from '../run/config.js';
import type { Results } from '../report/results.js';

const BIN = resolve(import.meta.dirname, '..', '..', '..', 'bin', 'gitlab-api-conformance.js');
const ADMIN_TOKEN = 'glpat-without-run-admin-00';
const RUN_MS = 600_000;

let server: ReferenceServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

function cli(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('CONFORMANCE_') && k !== 'NODE_ENV' && k !== 'TEST'));
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...clean, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_MS - 10_000);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stderr });
    });
  });
}

test.each(EXTRA_SETUP_ENDPOINT_NAMES)('without %s, only the tests that need it change verdict, each unsupported with the reason', { timeout: RUN_MS }, async (name) => {
  // Without permanent removal only GitLab 17/18's delayed deletion has anything to lose.
  server = await startReferenceServer({ adminToken: ADMIN_TOKEN, without: [name], delayedDeletion: name === 'permanent-removal' });
  dir = mkdtempSync(join(tmpdir(), `conformance-without-${name}-`));
  const manifest = join(dir, 'fixtures.json');
  writeFileSync(manifest, JSON.stringify(server.fixtures));
  const reports = join(dir, 'reports');
  const run = await cli(['--report-dir', reports, '--level', 'parity'], {
    CONFORMANCE_TARGET_URL: server.url,
    CONFORMANCE_ADMIN_TOKEN: ADMIN_TOKEN,
    CONFORMANCE_CAPABILITIES: CAPABILITIES.join(','),
    CONFORMANCE_FIXTURES: manifest,
  }, dir);
  const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as Results;

  const dependents = results.tests.filter((t) => t.needs.includes(name));
  const others = results.tests.filter((t) => !t.needs.includes(name));
  const notPassing = others.filter((t) => t.verdict !== 'pass' || t.parity !== 'pass').map((t) => `${t.id} [${t.verdict}/${t.parity}]: ${(t.reason ?? '').split('\n')[0]}`);
  expect(notPassing, `tests that do not need ${name} must not change verdict`).toEqual([]);
  const changed = dependents.filter((t) => t.verdict !== 'pass' || t.parity !== 'pass');
  const badlyChanged = changed.filter((t) => t.verdict !== 'unsupported' || !(t.reason ?? '').includes(`(set-up "${name}")`)).map((t) => `${t.id} [${t.verdict}]: ${t.reason}`);
  expect(badlyChanged, `tests that need ${name} are unsupported, with the reason, or pass`).toEqual([]);
  const lacking = results.lackingSetup?.find((l) => l.need === name);
  if (changed.length > 0) expect(lacking?.tests, 'the report lists the set-up endpoint the target lacks, with the tests it cost').toBe(changed.length);
  else expect(lacking).toBeUndefined();
  console.log(`without ${name}: ${changed.length} of ${dependents.length} tests that need it unsupported; ${others.length} others pass`);
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
});
