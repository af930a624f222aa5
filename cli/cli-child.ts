// The command as a CI user meets it, for the CLI specs: the real command in a child process, in a
// fresh directory, against reference servers started in the spec's own process (so that their state
// can be inspected afterwards and faults switched on). A spec calls `afterAll(cleanUpChildren)`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../reference-server/server.js';
import type { Results } from '../runner/report/results.js';
import { CAPABILITIES } from '../runner/run/config.js';

export const BIN = resolve(import.meta.dirname, '..', 'bin', 'gitlab-api-conformance.js');
// Not in GitLab's token form on purpose: only registration (not the glpat- pattern) can mask it.
export const ADMIN_TOKEN = 'cli-spec-admin-secret-000';
const dirs: string[] = [];
const servers: ReferenceServer[] = [];

/** Closes the servers and removes the directories the spec made. */
export async function cleanUpChildren(): Promise<void> {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A directory removed by cleanUpChildren. */
export function tempDir(prefix = 'conformance-cli-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  dir: string;
  ms: number;
}

/** A reference server whose admin token is ADMIN_TOKEN, closed by cleanUpChildren. */
export async function server(options: ReferenceServerOptions & { port?: number } = {}): Promise<ReferenceServer> {
  const s = await startReferenceServer({ adminToken: ADMIN_TOKEN, ...options });
  servers.push(s);
  return s;
}

/** Every token `s` issues from now on (clean-up deletes the users, and their tokens with them), after ADMIN_TOKEN: a live list. */
export function issuedTokens(s: ReferenceServer): string[] {
  const issued = [ADMIN_TOKEN];
  const createToken = s.store.createToken.bind(s.store);
  s.store.createToken = (...args) => {
    const pat = createToken(...args);
    issued.push(pat.token);
    return pat;
  };
  return issued;
}

/** The environment of a user's shell: nothing of this test run (vitest's variables) or of a target. */
export function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('CONFORMANCE_') && k !== 'NODE_ENV' && k !== 'TEST'));
}

/** Runs the command in a fresh directory (or `dir`) with only the given CONFORMANCE_* settings. */
export function cli(
  args: string[],
  env: Record<string, string>,
  options: { onStderr?: (text: string, kill: () => void) => void; onStart?: (child: ChildProcess) => void; timeoutMs?: number; dir?: string } = {},
): Promise<CliRun> {
  const dir = options.dir ?? tempDir();
  const started = Date.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...userEnv(), ...env } });
    options.onStart?.(child);
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      options.onStderr?.(stderr, () => child.kill('SIGINT'));
    });
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, dir, ms: Date.now() - started });
    });
  });
}

/**
 * The settings of a small run against `s` (an area, an endpoint or a few tests): one file at a time,
 * in one worker thread. These runs go on side by side on a small machine, and every run loads all the
 * files of its areas (those of unselected tests too, to list them as disabled): each thread more loads
 * them again (a URL target's default of 8 starts eight) for a selection that one thread runs as fast.
 */
export const target = (s: ReferenceServer) => ({ CONFORMANCE_TARGET_URL: s.url, CONFORMANCE_ADMIN_TOKEN: ADMIN_TOKEN, CONFORMANCE_CONCURRENCY: '1' });

/**
 * The settings of a whole run against `s` as a target with every capability and the fixtures of its
 * manifest (written to `dir`): what the whole-suite specs (--vary, --without, the spec-only twin) run
 * with. Two files at once, the bundled server's default on 2 cores: a URL target's default of 8 starts
 * 8 worker threads, each loading the suite (a whole run 21 → 14 s of CPU); the --vary runs ask for their own.
 */
export function fullTarget(s: ReferenceServer, dir: string): Record<string, string> {
  const manifest = join(dir, 'fixtures.json');
  writeFileSync(manifest, JSON.stringify(s.fixtures));
  return { ...target(s), CONFORMANCE_CONCURRENCY: '2', CONFORMANCE_CAPABILITIES: CAPABILITIES.join(','), CONFORMANCE_FIXTURES: manifest };
}

/** The results a run wrote to `reports`, or an error with the end of its output when it wrote none. */
export function resultsIn(reports: string, run: CliRun): Results {
  try {
    return JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as Results;
  } catch {
    throw new Error(`the run wrote no results (exit ${run.code}):\n${run.stderr.slice(-3000)}`);
  }
}

/** Objects named with a run prefix that are still on the server. */
export function leftovers(s: ReferenceServer): string[] {
  const users = [...s.store.users.values()].filter((u) => u.username.startsWith('cnf_') || u.username.startsWith('cnf-')).map((u) => `user ${u.username}`);
  const groups = [...s.store.groups.values()].filter((g) => g.path.startsWith('cnf-')).map((g) => `group ${g.path}`);
  const projects = [...s.store.projects.values()].filter((p) => p.path.startsWith('cnf-')).map((p) => `project ${p.path}`);
  return [...users, ...groups, ...projects];
}

export function results(run: CliRun): Results {
  return resultsIn(join(run.dir, 'reports'), run);
}
