// The command ends with the process that started it (lifetime.ts): started through `npx
// gitlab-reference-server` in this clone, SIGINT to npx alone and SIGKILL of npx each leave nothing
// serving and no fixture file behind; started with `node` by a parent that is then killed outright, the
// same; with --detach it outlives a parent that exits, until a signal stops it. (The units of
// lifetime.ts: lifetime.unit.spec.ts.)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = resolve(ROOT, 'bin', 'gitlab-reference-server.js');
const TIMEOUT_MS = 180_000;

interface Started {
  launcher: ChildProcess;
  url: string;
  manifest: string;
}

/** Starts `command` and waits for the server's URL and manifest path in what it prints. */
function start(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<Started> {
  return new Promise((done, fail) => {
    const launcher = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (\S+)/.exec(output)?.[1];
      const manifest = /fixtures in (\S+\.json)/.exec(output)?.[1];
      if (url && manifest) done({ launcher, url, manifest });
    };
    launcher.stdout.on('data', read);
    launcher.stderr.on('data', read);
    launcher.on('error', fail);
    launcher.on('exit', () => fail(new Error(`the launcher ended before the server listened:\n${output}`)));
  });
}

async function serving(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/-/reference/health`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/** Waits up to 10 s for the server to stop answering and its manifest to go. */
async function gone({ url, manifest }: Pick<Started, 'url' | 'manifest'>): Promise<{ serving: boolean; manifestLeft: boolean }> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && ((await serving(url)) || existsSync(manifest))) await new Promise((r) => setTimeout(r, 200));
  return { serving: await serving(url), manifestLeft: existsSync(manifest) };
}

const NPX = ['npx', ['--yes', 'gitlab-reference-server', '--port', '0']] as const;

test('SIGINT to npx alone stops the server it started and removes its fixture file', { timeout: TIMEOUT_MS }, async () => {
  const started = await start(...NPX);
  expect(await serving(started.url)).toBe(true);
  started.launcher.kill('SIGINT');
  expect(await gone(started), 'wanted: nothing serving and no manifest 10 s after SIGINT to npx').toEqual({ serving: false, manifestLeft: false });
});

test('SIGKILL of npx stops the server it started and removes its fixture file', { timeout: TIMEOUT_MS }, async () => {
  const started = await start(...NPX);
  started.launcher.kill('SIGKILL');
  expect(await gone(started), 'wanted: nothing serving and no manifest 10 s after SIGKILL of npx').toEqual({ serving: false, manifestLeft: false });
});

test('started with node, the server stops when its parent is killed outright', { timeout: TIMEOUT_MS }, async () => {
  // A parent that starts the server and waits, then is SIGKILLed: no signal reaches the server.
  const parent = `require('node:child_process').spawn(process.execPath, [${JSON.stringify(BIN)}, '--port', '0'], { stdio: 'inherit' }); setInterval(() => {}, 60000);`;
  // Not as npm's child: none of the variables npm sets (this spec may run under npx vitest).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const started = await start(process.execPath, ['-e', parent], env);
  started.launcher.kill('SIGKILL');
  expect(await gone(started), 'wanted: nothing serving and no manifest 10 s after SIGKILL of its parent').toEqual({ serving: false, manifestLeft: false });
});

test('with --detach it outlives a parent that exits (a script that starts it in the background), and SIGTERM stops it', { timeout: TIMEOUT_MS }, async () => {
  // As `gitlab-reference-server --detach > server.log &` in a script that then exits: the parent starts it, its output to a file, and ends.
  const log = join(mkdtempSync(join(tmpdir(), 'reference-server-detach-')), 'server.log');
  const parent = `const fd = require('node:fs').openSync(${JSON.stringify(log)}, 'w'); const c = require('node:child_process').spawn(process.execPath, [${JSON.stringify(BIN)}, '--port', '0', '--detach'], { stdio: ['ignore', fd, fd] }); console.log(c.pid); c.unref();`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const pid = Number(execFileSync(process.execPath, ['-e', parent], { env, encoding: 'utf8' }).trim());
  let started: Pick<Started, 'url' | 'manifest'> | undefined;
  for (const deadline = Date.now() + 60_000; started === undefined && Date.now() < deadline; await new Promise((done) => setTimeout(done, 200))) {
    const output = existsSync(log) ? readFileSync(log, 'utf8') : '';
    const url = /listening on (\S+)/.exec(output)?.[1];
    const manifest = /fixtures in (\S+\.json)/.exec(output)?.[1];
    if (url && manifest) started = { url, manifest };
  }
  if (started === undefined) throw new Error(`the detached server did not listen:\n${readFileSync(log, 'utf8')}`);
  try {
    // Past the watch's quarter-second polls: still serving after its parent ended.
    await new Promise((done) => setTimeout(done, 1_500));
    expect(await serving(started.url), 'wanted: still serving after its parent exited').toBe(true);
  } finally {
    process.kill(pid, 'SIGTERM');
  }
  expect(await gone(started), 'wanted: nothing serving and no manifest after SIGTERM').toEqual({ serving: false, manifestLeft: false });
});
