// The whole suite against the reference server playing each GitLab release and tier of
// reference-server/profile.ts (`--gitlab`): the run passes (what the release or tier lacks is
// `unsupported`, with its reason), its clean-up leaves nothing (what GitLab keeps pending deletion
// counts as removed, and is said so), it keeps no ledger, and a `sweep` after it has nothing to do.
// Each run is the real command in a child process, declaring the capabilities such a target has.
// Two runs at a time: each is about a whole run of CPU.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanUpChildren, cli, fullTarget, resultsIn, server, target, tempDir } from './cli-child.js';
import { parseProfile } from '../reference-server/profile.js';

const RUN_MS = 600_000;

afterAll(cleanUpChildren);

interface Expected {
  /** A test the release or tier lacks, and the reason it is unsupported. */
  unsupported: [string, RegExp][];
  /** What the run's clean-up says GitLab keeps pending deletion. */
  pending: RegExp | undefined;
}

const PROFILES: Record<string, Expected> = {
  // Free before 18.0 deletes at once; no mirror public key before 17.9, no EE route on CE.
  '16.11-ce': {
    unsupported: [
      ['mirrors.public-key.ssh-key', /needs GitLab 17\.9 or later, the target reports 16\.11\.0-ce/],
      ['members.list-all.group.invited-private-to-guest', /needs GitLab 17\.0 or later/],
      ['members.billable.list', /needs capability "premium"/],
    ],
    pending: undefined,
  },
  // Premium before 18.0 marks: projects renamed -deleted-<id>, groups marked only.
  '17.10-ee-premium': { unsupported: [['members.add.group.member-role-id-type', /needs capability "ultimate"/]], pending: /\d+ groups? pending deletion until \d{4}-\d\d-\d\d: GitLab removes/ },
  // 18.0 to 18.2: Free marks too.
  '18.1-ee-free': { unsupported: [['members.billable.list', /needs capability "premium"/]], pending: /\d+ groups? pending deletion until \d{4}-\d\d-\d\d: GitLab removes/ },
  // From 18.3: -deletion_scheduled-<id> on groups and projects.
  '18.3-ee-ultimate': { unsupported: [['mirrors.create.host-keys', /needs GitLab 19\.0 or later/]], pending: /\d+ groups? pending deletion until \d{4}-\d\d-\d\d: GitLab removes/ },
};

describe.concurrent.each(Object.entries(PROFILES))('against --gitlab %s', (name, expected) => {
  test('the whole run passes, leaves nothing and keeps no ledger; a sweep after it exits 0', { timeout: RUN_MS }, async () => {
    const s = await server({ gitlab: name });
    const dir = tempDir(`conformance-profile-${name}-`);
    const reports = join(dir, 'reports');
    const env = { ...fullTarget(s, dir), CONFORMANCE_CAPABILITIES: parseProfile(name).capabilities.join(',') };
    const run = await cli(['--report-dir', reports], env, { dir, timeoutMs: RUN_MS - 30_000 });
    const results = resultsIn(reports, run);
    const bad = results.tests.filter((t) => t.verdict === 'fail' || t.verdict === 'error').map((t) => `${t.id} [${t.verdict}]: ${(t.reason ?? '').split('\n')[0]}`);
    expect(bad, `tests that fail against GitLab ${name}`).toEqual([]);
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    for (const [id, reason] of expected.unsupported) {
      const test = results.tests.find((t) => t.id === id);
      expect(test?.verdict, `${id} against ${name}`).toBe('unsupported');
      expect(test?.reason).toMatch(reason);
    }
    expect(run.stderr).not.toMatch(/clean-up left|could not undo|run `gitlab-api-conformance sweep/);
    if (expected.pending) expect(run.stderr).toMatch(expected.pending);
    else expect(run.stderr).not.toMatch(/pending deletion/);
    const kept = existsSync(join(dir, '.conformance')) ? readdirSync(join(dir, '.conformance')).filter((f) => f.startsWith('ledger-')) : [];
    expect(kept, 'ledgers kept').toEqual([]);
    const swept = await cli(['sweep'], target(s), { dir });
    expect(swept.code, swept.stdout + swept.stderr).toBe(0);
    console.log(`--gitlab ${name}: ${results.tests.filter((t) => t.verdict === 'pass').length} pass, ${results.tests.filter((t) => t.verdict === 'unsupported').length} unsupported; run ${Math.round(run.ms / 1000)} s`);
  });
});
