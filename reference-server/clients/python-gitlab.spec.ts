// A second real GitLab client against the reference server: python-gitlab (Debian's python3-gitlab,
// 3.x) runs python_gitlab_drive.py, which builds its world through the API with the administrator's
// token and exercises every endpoint form (its managers where it has them, gl.http_* where it has
// not) and the errors it raises. The script prints one JSON line per check; every check must pass
// and every form must be driven. Then, on a server of its own, python_gitlab_integration.py: the small
// integration of issue #52 (a project, files on a new branch, branches, commits and the tree, a member),
// checked against the server's request journal. Without /usr/bin/python3 or its gitlab module the tests
// are skipped, saying so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';
import { SPEC_FORMS } from '../../contract/forms.js';
import { undriven } from './claims.js';
import { drive, probe } from './drive.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(import.meta.dirname, 'python_gitlab_drive.py');
const INTEGRATION = join(import.meta.dirname, 'python_gitlab_integration.py');
const ADMIN = 'glpat-python-gitlab-admin-00';

/** python-gitlab's version, or why it cannot be used. */
const pythonGitlab = existsSync(PYTHON) ? probe(PYTHON, ['-c', 'import gitlab; print(gitlab.__version__)']) : { missing: `${PYTHON} not found` };
let server: ReferenceServer | undefined;
/** The integration's own server: its journal holds only the integration's requests. */
let integration: ReferenceServer | undefined;

beforeAll(async () => {
  if (pythonGitlab.version) [server, integration] = await Promise.all([startReferenceServer({ adminToken: ADMIN }), startReferenceServer({ adminToken: ADMIN })]);
});

afterAll(async () => {
  await Promise.all([server?.close(), integration?.close()]);
});

describe('python-gitlab against the reference server', () => {
  test('drives every endpoint form and gets GitLab\'s errors', async (ctx) => {
    if (!pythonGitlab.version) ctx.skip(`python-gitlab not installed: ${pythonGitlab.missing} (apt-get install python3-gitlab)`);
    const { checks, code, stderr } = await drive(server!, PYTHON, [SCRIPT]);
    expect(checks.filter((c) => !c.ok), stderr.slice(-2000)).toEqual([]);
    expect(code, stderr.slice(-2000)).toBe(0);
    expect(undriven('python-gitlab', checks), 'forms python-gitlab claims (claims.ts) that its run did not drive').toEqual([]);
    expect(checks.length).toBeGreaterThan(SPEC_FORMS.length);
  });
});

describe('python-gitlab: a small integration against the reference server', () => {
  test('project, files on a branch, branches, commits, tree, a member, then the journal', async (ctx) => {
    if (!pythonGitlab.version) ctx.skip(`python-gitlab not installed: ${pythonGitlab.missing} (apt-get install python3-gitlab)`);
    const { checks, code, stderr } = await drive(integration!, PYTHON, [INTEGRATION]);
    expect(checks.filter((c) => !c.ok), stderr.slice(-2000)).toEqual([]);
    expect(checks.map((c) => c.form)).toEqual(['create a project', 'commit files on a new branch', 'list and get branches', 'list and get commits', 'list the tree', 'add a member', 'the journal holds every request']);
    expect(code, stderr.slice(-2000)).toBe(0);
  });
});
