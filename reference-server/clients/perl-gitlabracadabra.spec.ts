// Two more real clients against the reference server: GitLab::API::v4 (Debian's libgitlab-api-v4-perl)
// drives every endpoint form (perl_gitlab_drive.pl: create_user answers nothing, so it finds users with
// GET /users?username=; an array in its query is a plain repeated key unless named `key[]`; sudo as a
// header), and gitlabracadabra (Debian's gitlabracadabra) applies members and shares from YAML
// (gitlabracadabra_drive.py: the members forms, idempotent on a second run). Each prints one JSON line
// per check; every check must pass and every form it reaches be driven. A client that is not installed
// is skipped, naming the package.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../server.js';
import { undriven, type DriverName } from './claims.js';
import { drive, probe, type Drive } from './drive.js';

const ADMIN = 'glpat-perl-racadabra-admin-01';

const perl = probe('/usr/bin/perl', ['-MGitLab::API::v4', '-e', 'print $GitLab::API::v4::VERSION']);
const racadabra = existsSync('/usr/bin/gitlabracadabra') ? probe('/usr/bin/gitlabracadabra', ['--version']) : { missing: '/usr/bin/gitlabracadabra not found' };

let perlServer: ReferenceServer | undefined;
let racadabraServer: ReferenceServer | undefined;

beforeAll(async () => {
  // One server each: both make users and groups of the same names.
  if (perl.version) perlServer = await startReferenceServer({ adminToken: ADMIN });
  if (racadabra.version) racadabraServer = await startReferenceServer({ adminToken: ADMIN });
});

afterAll(async () => {
  await perlServer?.close();
  await racadabraServer?.close();
});

function expectAllPassed(run: Drive, driver: DriverName): void {
  expect(run.checks.filter((c) => !c.ok), run.stderr.slice(-2000)).toEqual([]);
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
  expect(undriven(driver, run.checks), `forms ${driver} claims (claims.ts) that its run did not drive`).toEqual([]);
}

// A client process (and go-gitlab's build) may take minutes on a loaded machine.
describe('real clients against the reference server', { timeout: 600_000 }, () => {
  test('GitLab::API::v4 drives every endpoint form, with user_ids[] and sudo', async (ctx) => {
    if (!perl.version) ctx.skip(`GitLab::API::v4 is not installed: ${perl.missing} (apt-get install libgitlab-api-v4-perl)`);
    expectAllPassed(await drive(perlServer!, '/usr/bin/perl', [join(import.meta.dirname, 'perl_gitlab_drive.pl')]), 'perl-gitlab-api-v4');
  });

  test('gitlabracadabra applies members and shares from YAML, and changes nothing the second time', async (ctx) => {
    if (!racadabra.version) ctx.skip(`gitlabracadabra is not installed: ${racadabra.missing} (apt-get install gitlabracadabra)`);
    expectAllPassed(await drive(racadabraServer!, '/usr/bin/python3', [join(import.meta.dirname, 'gitlabracadabra_drive.py')]), 'gitlabracadabra');
  });
});
