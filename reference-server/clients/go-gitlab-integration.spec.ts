// The done-criterion for the repository reads, with go-gitlab (Debian's
// golang-github-xanzy-go-gitlab-dev, built offline as ruby-go.spec.ts builds its driver):
// go_gitlab_integration.go makes a project, commits files on a new branch, lists branches, commits and
// the tree, adds a member, then checks the server's request journal holds every request it made.
// Skipped, naming the packages, where go-gitlab cannot be built.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';
import { drive, probe, run } from './drive.js';

const ADMIN = 'glpat-go-integration-admin-01';
const GOPATH = '/usr/share/gocode';
const GO_PACKAGE = join(GOPATH, 'src/github.com/xanzy/go-gitlab');
const goBuild = mkdtempSync(join(tmpdir(), 'go-gitlab-integration-'));
// As ruby-go.spec.ts: GOPATH mode, no module proxy, no network; the build cache is shared with it.
const GO_ENV = { GO111MODULE: 'off', GOPATH, GOFLAGS: '', GOCACHE: join(tmpdir(), 'gitlab-api-conformance-go-cache'), GOPROXY: 'off' };
const goGitlab = !existsSync(GO_PACKAGE) ? { missing: `${GO_PACKAGE} not found` } : probe('go', ['version']);

let server: ReferenceServer | undefined;

beforeAll(async () => {
  if (goGitlab.version) server = await startReferenceServer({ adminToken: ADMIN });
});

afterAll(async () => {
  await server?.close();
  rmSync(goBuild, { recursive: true, force: true });
});

describe('go-gitlab: a small integration against the reference server', { timeout: 600_000 }, () => {
  test('project, files on a branch, branches, commits, tree, a member, then the journal', async (ctx) => {
    if (!goGitlab.version) ctx.skip(`go-gitlab cannot be built: ${goGitlab.missing} (apt-get install golang-go golang-github-xanzy-go-gitlab-dev)`);
    const build = await run('go', ['build', '-o', join(goBuild, 'integration'), join(import.meta.dirname, 'go_gitlab_integration.go')], { ...process.env, ...GO_ENV });
    expect(build.code, build.stderr).toBe(0);
    const { checks, code, stderr } = await drive(server!, join(goBuild, 'integration'), []);
    expect(checks.filter((c) => !c.ok), stderr).toEqual([]);
    expect(checks.map((c) => c.form)).toEqual(['create a project', 'commit files on a new branch', 'list and get branches', 'list and get commits', 'list the tree', 'add a member', 'the journal holds every request']);
    expect(code, stderr).toBe(0);
  });
});
