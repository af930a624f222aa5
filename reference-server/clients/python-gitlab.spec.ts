// A second real GitLab client against the reference server: python-gitlab (Debian's python3-gitlab,
// 3.x) runs python_gitlab_drive.py, which builds its world through the API with the administrator's
// token and exercises all 47 endpoint forms (its managers where it has them, gl.http_* where it has
// not) and the errors it raises. The script prints one JSON line per check; every check must pass
// and every form must be driven. Without /usr/bin/python3 or its gitlab module the test is skipped,
// saying so.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CATALOG } from '../../suites/areas.js';
import { startReferenceServer, type ReferenceServer } from '../server.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(import.meta.dirname, 'python_gitlab_drive.py');
const ADMIN = 'glpat-python-gitlab-admin-00';

interface Check {
  form: string;
  via: 'manager' | 'http';
  ok: boolean;
  detail: string;
}

/** python-gitlab's version, or why it cannot be used. */
function probe(): { version?: string; missing?: string } {
  if (!existsSync(PYTHON)) return { missing: `${PYTHON} not found` };
  const run = spawnSync(PYTHON, ['-c', 'import gitlab; print(gitlab.__version__)'], { encoding: 'utf8', timeout: 30_000 });
  if (run.status === 0) return { version: run.stdout.trim() };
  return { missing: run.stderr.trim().split('\n').pop() || `exit ${run.status}` };
}

const pythonGitlab = probe();
let server: ReferenceServer | undefined;

beforeAll(async () => {
  if (pythonGitlab.version) server = await startReferenceServer({ adminToken: ADMIN });
});

afterAll(async () => {
  await server?.close();
});

/** Runs the script without blocking: the server answers it from this very process. */
function drive(target: ReferenceServer): Promise<{ checks: Check[]; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, GITLAB_URL: target.url, GITLAB_TOKEN: target.adminToken, GITLAB_FIXTURES: JSON.stringify(target.fixtures) };
    const child = spawn(PYTHON, [SCRIPT], { env, stdio: ['ignore', 'pipe', 'pipe'] });
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

describe('python-gitlab against the reference server', () => {
  test('drives all 47 endpoint forms and gets GitLab\'s errors', async (ctx) => {
    if (!pythonGitlab.version) ctx.skip(`python-gitlab not installed: ${pythonGitlab.missing} (apt-get install python3-gitlab)`);
    const { checks, code, stderr } = await drive(server!);
    expect(checks.filter((c) => !c.ok), stderr.slice(-2000)).toEqual([]);
    expect(code, stderr.slice(-2000)).toBe(0);
    const driven = new Set(checks.map((c) => c.form));
    expect([...CATALOG.endpointArea.keys()].filter((form) => !driven.has(form))).toEqual([]);
    expect(checks.length).toBeGreaterThan(47);
  });
});
