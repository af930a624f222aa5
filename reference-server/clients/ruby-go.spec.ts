// More real GitLab clients against the reference server, as the python-gitlab spec does it: the Ruby
// `gitlab` gem (Debian's ruby-gitlab, 4.x) and go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev,
// built offline from /usr/share/gocode with Debian's golang-go). Each drive script builds its world
// through the API and drives every endpoint form, with the array forms the client sends (Rack's
// bracket form `user_ids[]=…`, a hash as `range[start]=…`) and `sudo`; it prints one JSON line per
// check. Every check must pass and every form be driven. A client that is not installed is skipped,
// naming the package.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';
import { undriven, type DriverName } from './claims.js';
import { drive, probe, run, type Drive } from './drive.js';

const ADMIN = 'glpat-real-clients-admin-0001';

const GOPATH = '/usr/share/gocode';
const GO_PACKAGE = join(GOPATH, 'src/github.com/xanzy/go-gitlab');
const goBuild = mkdtempSync(join(tmpdir(), 'go-gitlab-drive-'));
// Debian's Go packages are a GOPATH tree: GOPATH mode, no module proxy, no network.
// The build cache outlives the run (a cold build of go-gitlab takes a while), the binary does not.
const GO_ENV = { GO111MODULE: 'off', GOPATH, GOFLAGS: '', GOCACHE: join(tmpdir(), 'gitlab-api-conformance-go-cache'), GOPROXY: 'off' };

const ruby = existsSync('/usr/bin/ruby')
  ? probe('/usr/bin/ruby', ['-e', 'require "gitlab"; print Gitlab::VERSION'])
  : { missing: '/usr/bin/ruby not found' };
const goGitlab = !existsSync(GO_PACKAGE) ? { missing: `${GO_PACKAGE} not found` } : probe('go', ['version']);

let server: ReferenceServer | undefined;

beforeAll(async () => {
  if (ruby.version || goGitlab.version) server = await startReferenceServer({ adminToken: ADMIN });
});

afterAll(async () => {
  await server?.close();
  rmSync(goBuild, { recursive: true, force: true });
});

function expectAllPassed(run: Drive, driver: DriverName): void {
  expect(run.checks.filter((c) => !c.ok), run.stderr.slice(-2000)).toEqual([]);
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
  expect(undriven(driver, run.checks), `forms ${driver} claims (claims.ts) that its run did not drive`).toEqual([]);
}

// A client process (and go-gitlab's build) may take minutes on a loaded machine.
describe('real clients against the reference server', { timeout: 600_000 }, () => {
  test('the Ruby gitlab gem drives every endpoint form, with bracket arrays and sudo', async (ctx) => {
    if (!ruby.version) ctx.skip(`the Ruby gitlab gem is not installed: ${ruby.missing} (apt-get install ruby-gitlab)`);
    expectAllPassed(await drive(server!, '/usr/bin/ruby', [join(import.meta.dirname, 'ruby_gitlab_drive.rb')]), 'ruby-gitlab');
  });

  test('go-gitlab drives every endpoint form, with bracket arrays and sudo', async (ctx) => {
    if (!goGitlab.version) ctx.skip(`go-gitlab cannot be built: ${goGitlab.missing} (apt-get install golang-go golang-github-xanzy-go-gitlab-dev)`);
    // With Go and go-gitlab installed the driver must build: a failed build fails the test.
    const build = await run('go', ['build', '-o', join(goBuild, 'drive'), join(import.meta.dirname, 'go_gitlab_drive.go')], { ...process.env, ...GO_ENV });
    expect(build.code, build.stderr).toBe(0);
    expectAllPassed(await drive(server!, join(goBuild, 'drive'), []), 'go-gitlab');
  });
});
