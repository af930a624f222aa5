// Shared by the real-client specs: run a client's drive script against a reference server and read
// its checks (one JSON line each: the form it drove, how, whether it passed, and why not).
import { spawn, spawnSync } from 'node:child_process';
import type { ReferenceServer } from '../server.js';

export interface Check {
  form: string;
  via: string;
  ok: boolean;
  detail: string;
}

export interface Drive {
  checks: Check[];
  code: number | null;
  stderr: string;
}

/** Runs `command` and answers its trimmed output, or why it could not run. */
export function probe(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): { version?: string; missing?: string } {
  const run = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000, env });
  if (run.error) return { missing: `${command}: ${(run.error as NodeJS.ErrnoException).code ?? run.error.message}` };
  if (run.status === 0) return { version: run.stdout.trim() };
  return { missing: run.stderr.trim().split('\n').pop() || `exit ${run.status}` };
}

/** Runs a command without blocking (a build), answering its exit code and error output. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Runs the script without blocking: the server answers it from this very process. */
export function drive(target: ReferenceServer, command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Drive> {
  return new Promise((resolve, reject) => {
    const childEnv = { ...process.env, ...env, GITLAB_URL: target.url, GITLAB_TOKEN: target.adminToken, GITLAB_FIXTURES: JSON.stringify(target.fixtures) };
    const child = spawn(command, args, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const checks = stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Check);
      resolve({ checks, code, stderr });
    });
  });
}
