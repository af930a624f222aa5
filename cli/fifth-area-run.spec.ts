// The recipe of docs/CONTRIBUTING-AREAS.md, followed in a copy of the tree: the spec reads the
// example's blocks from the guide (`file=` a new file, `add-to=` an import and a list entry for a
// registry), writes them into a copy of the repository's files (node_modules linked), and counts the
// files that changed. In the copy it then runs what a contributor runs: the type check, the linter
// on those files, the unit specs that check areas, forms, client claims and faults, and the area
// against the bundled reference server (it passes), then against one serving the area's fault (the
// test naming the fault's clause fails). Not the whole of `npm run test:fast` (its lint of the whole
// tree and its 600-odd unit tests would add minutes): the specs below are those an area touches.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Results } from '../runner/report/results.js';
import { cleanUpChildren, tempDir, userEnv } from './cli-child.js';

const ROOT = resolve(import.meta.dirname, '..');
const GUIDE = 'docs/CONTRIBUTING-AREAS.md';
/** The unit specs that check what an area declares: forms, registries, client claims, faults per clause. */
const AREA_SPECS = ['runner/harness.spec.ts', 'cli/area-registration.spec.ts', 'cli/clause-faults.spec.ts', 'reference-server/client-claims.spec.ts'];
const AREA = 'protected-branches';
const ADMIN = 'glpat-fifth-area-admin-00001';

interface Block {
  how: 'file' | 'add-to';
  path: string;
  text: string;
}

/** The guide's example blocks: ```ts file=PATH or ```ts add-to=PATH, unindented. */
function recipe(guide: string): Block[] {
  return [...guide.matchAll(/^( *)```ts (file|add-to)=(\S+)\n([\s\S]*?)^\1```$/gm)].map(([, indent, how, path, body]) => ({
    how: how as Block['how'],
    path,
    text: body.split('\n').map((line) => line.slice(indent.length)).join('\n'),
  }));
}

/** A registry's two lines: the import after the last import, the entry at the end of its exported list. */
function addTo(source: string, text: string): string {
  const [importLine, entry] = text.trim().split('\n');
  const lines = source.split('\n');
  lines.splice(lines.map((l) => l.startsWith('import ')).lastIndexOf(true) + 1, 0, importLine);
  const joined = lines.join('\n');
  const start = joined.search(/export const \w+ = \[/);
  const end = joined.indexOf('];', start);
  if (start < 0 || end < 0) throw new Error(`no exported list to add "${entry}" to`);
  return joined[end - 1] === '\n' ? `${joined.slice(0, end)}  ${entry},\n${joined.slice(end)}` : `${joined.slice(0, end)}, ${entry}${joined.slice(end)}`;
}

const hashOf = (path: string) => createHash('sha1').update(readFileSync(path)).digest('hex');

interface Ran {
  code: number | null;
  out: string;
  ms: number;
}

/** A command in the copy, with a user's environment. */
function run(copy: string, command: string, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const started = Date.now();
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: copy, env: { ...userEnv(), ...env } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, out, ms: Date.now() - started }));
  });
}

/** The reference server of the copy, with a fault on; resolves with its URL once it listens. */
function serve(copy: string, fault: string): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['bin/gitlab-api-conformance.js', 'serve', '--port', '0', '--admin-token', ADMIN, '--fault', fault], { cwd: copy, env: userEnv() });
    let out = '';
    const timer = setTimeout(() => fail(new Error(`the copy's server did not start: ${out}`)), 60_000);
    const read = (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+) /.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        done({ url, child });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('close', (code) => fail(new Error(`the copy's server ended (${code}): ${out}`)));
  });
}

const testsOf = (copy: string, reports: string) => (JSON.parse(readFileSync(join(copy, reports, 'results.json'), 'utf8')) as Results).tests.map((t) => ({ id: t.id, verdict: t.verdict, parity: t.parity }));

let copy = '';
let touched: string[] = [];
const timings: Record<string, number> = {};
let server: ChildProcess | undefined;

beforeAll(() => {
  copy = tempDir('conformance-fifth-area-');
  // The repository's files as they are in the work tree (committed or not, ignored ones left out).
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr}`);
  const files = [...new Set(listed.stdout.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f))))];
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const before = new Map(files.map((f) => [f, hashOf(join(copy, f))]));

  for (const block of recipe(readFileSync(join(copy, GUIDE), 'utf8'))) {
    const target = join(copy, block.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, block.how === 'file' ? block.text : addTo(readFileSync(target, 'utf8'), block.text));
  }
  touched = recipe(readFileSync(join(copy, GUIDE), 'utf8'))
    .map((b) => b.path)
    .filter((path, i, all) => all.indexOf(path) === i && before.get(path) !== hashOf(join(copy, path)));
});

afterAll(async () => {
  server?.kill('SIGTERM');
  await cleanUpChildren();
  console.log(`fifth area in a copy of the tree: ${Object.entries(timings).map(([what, ms]) => `${what} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
});

describe('a fifth area added the way docs/CONTRIBUTING-AREAS.md says', { timeout: 600_000 }, () => {
  test('touches at most 6 files, all of them the guide\'s', () => {
    expect(touched).toEqual(['suites/protected-branches/area.ts', 'suites/protected-branches/list.test.ts', 'suites/areas.ts', 'reference-server/routes/protected-branches.ts', 'reference-server/areas.ts']);
    expect(touched.length).toBeLessThanOrEqual(6);
  });

  test('type-checks, and the touched files lint clean', async () => {
    const [tsc, eslint] = await Promise.all([run(copy, 'npx', ['tsc', '--noEmit']), run(copy, 'npx', ['eslint', ...touched])]);
    timings.tsc = tsc.ms;
    timings.eslint = eslint.ms;
    expect(tsc.code, tsc.out).toBe(0);
    expect(eslint.code, eslint.out).toBe(0);
  });

  test('the unit specs that check areas, forms, client claims and faults per clause pass', async () => {
    const unit = await run(copy, 'npx', ['vitest', 'run', '--project', 'unit', ...AREA_SPECS]);
    timings['unit specs'] = unit.ms;
    expect(unit.code, unit.out.slice(-4000)).toBe(0);
    expect(unit.out.replace(/\x1b\[[0-9;]*m/g, ''), 'every spec file ran').toMatch(new RegExp(`Test Files\\s+${AREA_SPECS.length} passed \\(${AREA_SPECS.length}\\)`));
  });

  test('its run against the bundled reference server passes, and with its fault on the test naming the fault\'s clause fails', async () => {
    const clean = await run(copy, process.execPath, ['bin/gitlab-api-conformance.js', '--area', AREA, '--level', 'parity', '--report-dir', 'reports/clean']);
    timings['area run'] = clean.ms;
    expect(clean.code, clean.out.slice(-3000)).toBe(0);
    expect(testsOf(copy, 'reports/clean')).toEqual([{ id: 'protected.list.names', verdict: 'pass', parity: 'pass' }]);

    const started = Date.now();
    const faulty = await serve(copy, 'protected.names-upper-case');
    server = faulty.child;
    const caught = await run(copy, process.execPath, ['bin/gitlab-api-conformance.js', '--target', faulty.url, '--area', AREA, '--level', 'parity', '--report-dir', 'reports/fault'], { CONFORMANCE_ADMIN_TOKEN: ADMIN });
    timings['area run with its fault'] = Date.now() - started;
    expect(caught.code, caught.out.slice(-3000)).toBe(1);
    expect(testsOf(copy, 'reports/fault')).toEqual([{ id: 'protected.list.names', verdict: 'pass', parity: 'fail' }]);
  });
});
