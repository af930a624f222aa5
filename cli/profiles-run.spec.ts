// The whole suite against the reference server playing each GitLab release and tier of
// reference-server/profile.ts (`--gitlab`): the run passes (what the release or tier lacks is
// `unsupported`, with its reason), its clean-up leaves nothing (what GitLab keeps pending deletion
// counts as removed, and is said so), it keeps no ledger, and a `sweep` after it has nothing to do.
// Each run is the real command in a child process, declaring the capabilities such a target has.
// Two runs at a time (AT_ONCE).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, cleanUpChildren, cli, fullTarget, resultsIn, server, target, tempDir } from './cli-child.js';
import { parseProfile } from '../reference-server/profile.js';
import type { ReferenceServer } from '../reference-server/server.js';
import { Ledger, type LedgerKind } from '../runner/run/ledger.js';
import { normalizeTarget } from '../runner/run/instance-identity.js';
import type { Results } from '../runner/report/results.js';

const RUN_MS = 900_000;
/** Runs at once: each is about a whole run of CPU, and the machine may have two cores. */
const AT_ONCE = 2;

let running = 0;
const waiting: (() => void)[] = [];
/** `work` once fewer than AT_ONCE runs are going. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

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
    const run = await inTurn(() => cli(['--report-dir', reports], env, { dir, timeoutMs: (RUN_MS - 30_000) / 2 }));
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
    // The reports count it too, written again after the clean-up: results.json and summary.md.
    const summary = readFileSync(join(reports, 'summary.md'), 'utf8');
    const reported = (JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as Results).cleanUp?.pending ?? [];
    if (expected.pending) {
      expect(reported.join('; ')).toMatch(expected.pending);
      expect(summary).toMatch(new RegExp(`^Clean-up: .*${expected.pending.source}`, 'm'));
    } else expect([reported, summary]).toEqual([[], expect.not.stringMatching(/pending deletion/)]);
    const kept = existsSync(join(dir, '.conformance')) ? readdirSync(join(dir, '.conformance')).filter((f) => f.startsWith('ledger-')) : [];
    expect(kept, 'ledgers kept').toEqual([]);
    const swept = await cli(['sweep'], target(s), { dir });
    expect(swept.code, swept.stdout + swept.stderr).toBe(0);
    console.log(`--gitlab ${name}: ${results.tests.filter((t) => t.verdict === 'pass').length} pass, ${results.tests.filter((t) => t.verdict === 'unsupported').length} unsupported; run ${Math.round(run.ms / 1000)} s`);
  });
});

describe('sweep after GitLab keeps things pending deletion, or after a server that is gone', () => {
  /** A ledger in `dir`, as a run against `s` writes it, of `runId`, listing `objects`; `instanceOf` another creation time plays another instance. */
  function ledgerFor(s: ReferenceServer, dir: string, runId: string, objects: [LedgerKind, number, string][], createdAt?: string): string {
    const path = join(dir, '.conformance', `ledger-${runId}.jsonl`);
    const ledger = new Ledger(path, runId);
    const root = s.store.users.get(1)!;
    ledger.writeHeader(normalizeTarget(s.url), { adminId: 1, username: root.username, createdAt: createdAt ?? root.createdAt });
    for (const [kind, id, name] of objects) ledger.record(kind, id, name);
    return path;
  }

  test('a ledger whose objects are all pending deletion: sweep exits 0, says until when, and drops the ledger', { timeout: 120_000 }, async () => {
    const s = await server({ gitlab: '17.10-ee-premium' });
    const dir = tempDir();
    const runId = '261207bb0001';
    const group = s.store.createGroup({ name: `cnf-${runId}-g`, path: `cnf-${runId}-g`, parentId: null, visibility: 'private' });
    const ledger = ledgerFor(s, dir, runId, [['group', group.id, group.path]]);
    // A test deleted it: marked (GitLab 17 Premium keeps a group's path).
    expect((await fetch(`${s.url}/api/v4/groups/${group.id}`, { method: 'DELETE', headers: { 'PRIVATE-TOKEN': ADMIN_TOKEN } })).status).toBe(202);
    const swept = await cli(['sweep'], target(s), { dir });
    expect(swept.code, swept.stdout + swept.stderr).toBe(0);
    expect(swept.stdout).toMatch(/sweep: removed 1 object\(s\); of them 1 group pending deletion until \d{4}-\d\d-\d\d: GitLab removes it/);
    expect(existsSync(ledger)).toBe(false);
    expect(s.store.groups.get(group.id)?.markedForDeletionOn).toBeTruthy();
  });

  test('a ledger of another instance at this URL (a server since gone) is listed and left; the sweep exits 0; sweep --forget drops it', { timeout: 120_000 }, async () => {
    const s = await server();
    const dir = tempDir();
    const runId = '261207bb0002';
    const group = s.store.createGroup({ name: `cnf-${runId}-g`, path: `cnf-${runId}-g`, parentId: null, visibility: 'private' });
    const ledger = ledgerFor(s, dir, runId, [['group', group.id, group.path]], '2020-01-01T00:00:00.000Z');
    const swept = await cli(['sweep'], target(s), { dir });
    expect(swept.code, swept.stdout + swept.stderr).toBe(0);
    expect(swept.stderr).toContain(`sweep: ledger ${join('.conformance', `ledger-${runId}.jsonl`)} left alone: it was written on another instance`);
    expect(swept.stderr).toContain(`sweep --forget ${runId}`);
    expect(existsSync(ledger)).toBe(true);
    expect(s.store.groups.has(group.id)).toBe(true);
    const forgot = await cli(['sweep', '--forget', runId], {}, { dir });
    expect(forgot.code, forgot.stderr).toBe(0);
    expect(existsSync(ledger)).toBe(false);
    expect(s.store.groups.has(group.id)).toBe(true);
    const unknown = await cli(['sweep', '--forget', runId], {}, { dir });
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringMatching(/no ledger/)]);
  });
});
