// The done-criterion for the repository reads, with python-gitlab (Debian's python3-gitlab):
// python_gitlab_integration.py makes a project, commits files on a new branch, lists branches, commits
// and the tree, adds a member, then checks the server's request journal holds every request it made.
// Skipped, saying so, without /usr/bin/python3 or its gitlab module.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';
import { drive, probe } from './drive.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(import.meta.dirname, 'python_gitlab_integration.py');
const ADMIN = 'glpat-python-integration-0001';

const pythonGitlab = existsSync(PYTHON) ? probe(PYTHON, ['-c', 'import gitlab; print(gitlab.__version__)']) : { missing: `${PYTHON} not found` };
let server: ReferenceServer | undefined;

beforeAll(async () => {
  if (pythonGitlab.version) server = await startReferenceServer({ adminToken: ADMIN });
});

afterAll(async () => {
  await server?.close();
});

describe('python-gitlab: a small integration against the reference server', () => {
  test('project, files on a branch, branches, commits, tree, a member, then the journal', async (ctx) => {
    if (!pythonGitlab.version) ctx.skip(`python-gitlab unavailable: ${pythonGitlab.missing}`);
    const { checks, code, stderr } = await drive(server!, PYTHON, [SCRIPT]);
    expect(checks.filter((c) => !c.ok), stderr).toEqual([]);
    expect(checks.map((c) => c.form)).toEqual(['create a project', 'commit files on a new branch', 'list and get branches', 'list and get commits', 'list the tree', 'add a member', 'the journal holds every request']);
    expect(code, stderr).toBe(0);
  });
});
