// The runner as a CI user meets it: the real command in a child process against a reference
// server started here, so that the server's state can be inspected afterwards (nothing the run
// created may be left) and faults can be switched on (failures, 429s, a dead or refusing target).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { validateAgainst } from '../schemas/registry.js';
import type { Results } from '../runner/report/results.js';
import { ADMIN_TOKEN, cleanUpChildren, cli, issuedTokens, leftovers, results, server, target, tempDir } from './cli-child.js';

const SMALL = ['--endpoint', 'HEAD /projects/:id/repository/files/:file_path/raw'];
/** A small selection whose answers are JSON (for faults that spoil JSON). */
const SMALL_JSON = ['--endpoint', 'GET /projects/:id/repository/files/:file_path/blame'];

afterAll(cleanUpChildren);

// Twelve tests run their CLI runs side by side: on 2 cores a test of three runs took 101 s in CI.
describe('the gitlab-api-conformance command: help, reports, selection, failures', { timeout: 300_000 }, () => {
  test.concurrent('--help prints the usage; a bad flag or setting exits 2 with one clear line', async () => {
    const help = await cli(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--expected-failures FILE/);
    // Each command has its own help, with its options and an example; --version says the package's.
    const version = await cli(['--version'], {});
    expect(version.stdout.trim()).toBe(`gitlab-api-conformance ${JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).version}`);
    const helps = await Promise.all(['record', 'sweep', 'list', 'serve', 'diff'].map((command) => cli([command, '--help'], {})));
    expect(helps.map((h) => h.code)).toEqual([0, 0, 0, 0, 0]);
    expect(helps[0].stdout).toMatch(/^Usage: gitlab-api-conformance record --out FILE \[--concurrent\][\s\S]*Example:/);
    expect(helps[1].stdout).toMatch(/^Usage: gitlab-api-conformance sweep --target URL[\s\S]*--dry-run[\s\S]*Example:/);
    expect(helps[2].stdout).toMatch(/^Usage: gitlab-api-conformance list[\s\S]*--json[\s\S]*Example:/);
    expect(helps[3].stdout).toMatch(/--seed/);
    expect(helps[4].stdout).toMatch(/--noise FILE/);
    // `list` names what a test needs, the setting value of its phase too.
    const listed = await cli(['list', '--grep', 'members\\.add\\.group\\.(setting-off|add-single):'], {});
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^members\.add\.group\.add-single {2}POST \/groups\/:id\/members {2}\[members\.promotion\.add-single\] {2}needs: promotion_management, enable_member_promotion_management=true, set-up application-settings-read$/m);
    expect(listed.stdout).toMatch(/^members\.add\.group\.setting-off .* enable_member_promotion_management=false/m);
    // Listing makes no run: no reference server, no users, no ledger folder where it ran.
    expect(existsSync(join(listed.dir, '.conformance')), 'list wrote a run ledger').toBe(false);
    const bad = await cli(['--shard', 'half'], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--shard must look like 1\/3/);
    const badEnv = await cli([], { CONFORMANCE_TARGET_URL: 'https://gitlab.example.com' });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toMatch(/an administrator's token \(scope api\) is required with CONFORMANCE_TARGET_URL: give it with CONFORMANCE_ADMIN_TOKEN/);
    const badFlag = await cli(['--target', 'https://gitlab.example.com'], {});
    expect(badFlag.stderr).toMatch(/is required with --target: give it with --token-file FILE/);
  });

  test.concurrent('diff has its own help; a call it cannot serve exits 2', async () => {
    const help = await cli(['diff', '--help'], {});
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/--noise FILE/);
    const missing = await cli(['diff', 'baseline.jsonl', 'candidate.jsonl'], {});
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toMatch(/baseline\.jsonl: cannot be read \(ENOENT\)/);
  });

  test.concurrent('a passing run exits 0, writes the five reports (results.json valid) and leaves nothing behind', async () => {
    const s = await server();
    const run = await cli(SMALL, target(s));
    expect(run.code, run.stderr).toBe(0);
    const dir = join(run.dir, 'reports');
    expect(readdirSync(dir).sort()).toEqual(['clauses.json', 'junit.xml', 'report.html', 'results.json', 'summary.md']);
    const res = results(run);
    expect(validateAgainst('results', res)).toEqual([]);
    expect(res.tests.filter((t) => t.verdict === 'pass').length).toBeGreaterThan(0);
    expect(res.tests.every((t) => t.verdict === 'pass' || t.verdict === 'disabled')).toBe(true);
    expect(res.tests.find((t) => t.endpoint === 'GET /projects/:id/repository/files/:file_path')?.reason).toMatch(/endpoint .* is not selected/);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<testsuite name="repository-files"/);
    expect(run.stdout).toMatch(/repository-files\s+\d+\s+0\s+0/);
    expect(leftovers(s)).toEqual([]);
  });

  test.concurrent('--grep, --shard, --concurrency and --report-dir select, split and place the run', async () => {
    const s = await server();
    const grep = await cli(['--area', 'repository-files', '--grep', 'raw-head', '--concurrency', '1', '--report-dir', 'out/grep'], target(s));
    expect(grep.code, grep.stderr).toBe(0);
    const selected = JSON.parse(readFileSync(join(grep.dir, 'out', 'grep', 'results.json'), 'utf8')) as Results;
    expect(selected.tests.filter((t) => t.verdict === 'pass').map((t) => t.id).sort()).toEqual(['files.raw-head.errors', 'files.raw-head.every-metadata-header', 'files.raw-head.lfs-missing-object', 'files.raw-head.metadata-only']);
    expect(selected.tests.filter((t) => t.verdict !== 'pass').every((t) => t.verdict === 'disabled' && /not selected/.test(t.reason ?? ''))).toBe(true);

    const shards = await Promise.all(['1/2', '2/2'].map((shard) => cli(['--area', 'repository-files', '--shard', shard], target(s))));
    const ran = shards.map((run) => results(run).tests.filter((t) => t.verdict === 'pass').map((t) => t.id));
    expect(shards.map((run) => run.code)).toEqual([0, 0]);
    expect(ran[0].length).toBeGreaterThan(0);
    expect(ran[1].length).toBeGreaterThan(0);
    expect(ran[0].filter((id) => ran[1].includes(id))).toEqual([]);
    expect(ran[0].length + ran[1].length).toBe(selected.tests.length);
    expect(leftovers(s)).toEqual([]);
  });

  test.concurrent('a failing run exits 1 with evidence; no report, log or output holds any token issued in the run', async () => {
    const s = await server({ faults: ['non-json'] });
    const issued = issuedTokens(s);
    const run = await cli([...SMALL_JSON, '--area', 'repository-files'], target(s));
    expect(run.code, run.stderr).toBe(1);
    const res = results(run);
    const failed = res.tests.filter((t) => t.verdict === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0].evidence?.length).toBeGreaterThan(0);
    expect(readFileSync(join(run.dir, 'reports', 'report.html'), 'utf8')).toMatch(/curl -sS -X GET/);
    const tokens = issued;
    expect(tokens.length).toBeGreaterThan(10);
    const texts = [run.stdout, run.stderr, ...['reports', '.conformance'].flatMap((d) => readdirSync(join(run.dir, d)).map((f) => readFileSync(join(run.dir, d, f), 'utf8')))];
    for (const token of tokens) for (const text of texts) expect(text.includes(token), `token ${token.slice(0, 8)}… leaked`).toBe(false);
    expect(leftovers(s)).toEqual([]);
  });
});

describe('the gitlab-api-conformance command against targets: gating, baselines, retries, dead targets', { timeout: 300_000 }, () => {
  test.concurrent('gating: a test for a newer version than the target is unsupported, with the reason', async () => {
    const s = await server({ version: '15.0.0-ee' });
    const run = await cli(['--endpoint', 'GET /projects/:id/repository/files/:file_path/raw'], target(s));
    expect(run.code, run.stderr).toBe(0);
    const lfs = results(run).tests.find((t) => t.id === 'files.raw.lfs');
    expect(lfs?.verdict).toBe('unsupported');
    expect(lfs?.reason).toMatch(/needs GitLab 15\.7 or later, the target reports 15\.0\.0-ee/);
  });

  test.concurrent('gating: a GitLab 17.10 gets the mirrors\' host_keys tests unsupported (19.0), and the public key (17.9) tested', async () => {
    const s = await server({ version: '17.10.0-ee' });
    const run = await cli(['--area', 'remote-mirrors', '--grep', '^mirrors\\.(create|update|public-key)\\.[a-z-]*(host-keys|ssh-key)'], target(s));
    expect(run.code, run.stderr).toBe(0);
    const tests = results(run).tests.filter((t) => t.verdict !== 'disabled');
    const hostKeys = tests.filter((t) => t.id.includes('.host-keys'));
    expect(hostKeys.map((t) => t.id).sort()).toEqual(
      ['create.host-keys', 'create.host-keys-invalid', 'create.host-keys-plus-restored', 'create.host-keys-types', 'update.host-keys', 'update.host-keys-invalid'].map((c) => `mirrors.${c}`),
    );
    for (const t of hostKeys) {
      expect(t.verdict, t.id).toBe('unsupported');
      expect(t.reason).toMatch(/needs GitLab 19\.0 or later, the target reports 17\.10\.0-ee/);
    }
    expect(tests.find((t) => t.id === 'mirrors.public-key.ssh-key')?.verdict).toBe('pass');
  });

  test.concurrent('baselines: listed failures pass the gate; a listed test that passes is stale and fails it', async () => {
    const s = await server({ faults: ['non-json'] });
    const first = await cli(SMALL_JSON, target(s));
    const failing = results(first).tests.filter((t) => t.verdict === 'fail').map((t) => t.id);
    expect(failing.length).toBeGreaterThan(0);
    const baseline = join(first.dir, 'baseline.yml');
    writeFileSync(baseline, failing.map((id) => `- id: ${id}\n  reason: vendor returns HTML\n  link: https://issues.example.com/1`).join('\n'));
    const gated = await cli([...SMALL_JSON, '--expected-failures', baseline], target(s));
    expect(gated.code, gated.stderr).toBe(0);
    expect(results(gated).tests.find((t) => t.id === failing[0])?.expected?.reason).toBe('vendor returns HTML');

    const clean = await server();
    const stale = await cli([...SMALL_JSON, '--expected-failures', baseline], target(clean));
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(new RegExp(`stale baseline entries .*${failing[0].replace(/\./g, '\\.')}`));
  });

  test.concurrent('429 answers are retried for reads, honouring Retry-After, and the run passes', async () => {
    const s = await server({ faults: ['rate-limit-first-get'] });
    const run = await cli(SMALL, target(s));
    expect(run.code, run.stderr).toBe(0);
    expect(s.faults.fired.get('rate-limit-first-get') ?? 0).toBeGreaterThan(0);
  });

  test.concurrent('a dead target, a refused admin token and a non-admin token end the run with exit 2 and a reason', async () => {
    const dead = await cli(SMALL, { CONFORMANCE_TARGET_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: ADMIN_TOKEN });
    expect(dead.code).toBe(2);
    expect(dead.stderr).toMatch(/connection refused/);
    const s = await server();
    const refused = await cli(SMALL, { CONFORMANCE_TARGET_URL: s.url, CONFORMANCE_ADMIN_TOKEN: 'glpat-wrong-token-1234567' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refused the admin token/);
    const user = s.store.createUser({ username: 'plain', name: 'Plain', email: 'plain@example.com' });
    const token = s.store.createToken(user.id, 't', ['api'], null).token;
    const notAdmin = await cli(SMALL, { CONFORMANCE_TARGET_URL: s.url, CONFORMANCE_ADMIN_TOKEN: token });
    expect(notAdmin.code).toBe(2);
    expect(notAdmin.stderr).toMatch(/not an administrator/);
    expect(`${refused.stderr}${notAdmin.stderr}`).not.toContain(token);
  });
});

describe('the gitlab-api-conformance command against slow or bounded targets', { timeout: 300_000 }, () => {
  test.concurrent('a target that hangs or answers 500 gives error verdicts in bounded time and is cleaned up', async () => {
    const hanging = await server({ faults: ['hang'] });
    // 2 s: the timeout holds for the set-up requests too, which a loaded machine may take over 300 ms to answer.
    const hung = await cli([...SMALL, '--timeout', '2000'], target(hanging));
    expect(hung.code, hung.stderr).toBe(1);
    expect(results(hung).tests.filter((t) => t.verdict === 'error').length).toBeGreaterThan(0);
    expect(results(hung).tests.find((t) => t.verdict === 'error')?.reason).toMatch(/no answer within 2000 ms/);
    expect(leftovers(hanging)).toEqual([]);
    const failing = await server({ faults: ['server-error'] });
    const broken = await cli(SMALL, target(failing));
    expect(broken.code).toBe(1);
    expect(results(broken).tests.some((t) => t.verdict === 'error' || t.verdict === 'fail')).toBe(true);
    expect(leftovers(failing)).toEqual([]);
  });

  test.concurrent('a target whose members API hangs gets the run made without the pool of users: error verdicts, exit 1, nothing left', async () => {
    const hanging = await server({ faults: ['hang'] });
    const run = await cli(['--endpoint', 'GET /groups/:id/members/:user_id', '--timeout', '2000'], target(hanging));
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/the pool of users could not be made, tests make their own/);
    expect(results(run).tests.filter((t) => t.verdict === 'error').length).toBeGreaterThan(0);
    expect(leftovers(hanging)).toEqual([]);
  });

  test.concurrent('--max-in-flight bounds the requests the target has in hand at once, over the whole run', async () => {
    // A latency keeps requests in flight long enough to pile up; the reference server counts how many it holds at once.
    const selection = ['--endpoint', 'GET /projects/:id/repository/files/:file_path', '--endpoint', 'GET /projects/:id/members'];
    const bounded = await server({ latencyMs: 20 });
    // Two worker threads, whose requests the one bound counts together.
    const run = await cli([...selection, '--max-in-flight', '3'], { ...target(bounded), CONFORMANCE_CONCURRENCY: '2' });
    expect(run.code, run.stderr).toBe(0);
    expect(bounded.inFlight.highest).toBeGreaterThan(1);
    expect(bounded.inFlight.highest).toBeLessThanOrEqual(3);
    expect(results(run).requests?.highestInFlight).toBeLessThanOrEqual(3);
    // The same run unbounded goes above it: the bound, not the selection, kept it at 3.
    const free = await server({ latencyMs: 20 });
    const unbounded = await cli([...selection, '--max-in-flight', '0'], { ...target(free), CONFORMANCE_CONCURRENCY: '2' });
    expect(unbounded.code, unbounded.stderr).toBe(0);
    expect(free.inFlight.highest).toBeGreaterThan(3);
  });
});

describe('the gitlab-api-conformance command stopped or cut short: signals, a lost target, an empty selection', { timeout: 300_000 }, () => {
  test.concurrent('Ctrl-C stops the run, exits 2, and nothing the run created is left', async () => {
    const s = await server({ latencyMs: 15 });
    const run = await cli(['--area', 'repository-files'], target(s), {
      onStderr: (text, interrupt) => {
        if (/conformance: files \d+\/\d+ · [1-9]\d* tests ended/.test(text)) interrupt();
      },
    });
    expect(run.stderr).toMatch(/interrupted/);
    expect(run.code).toBe(2);
    expect(leftovers(s)).toEqual([]);
    // Every report says so; the tests that did not run are `not-run`, and the catalog is not judged on them.
    const res = results(run);
    expect(res.status).toBe('interrupted');
    expect(res.interruption).toBe('SIGINT');
    expect(res.summary['not-run']).toBeGreaterThan(0);
    expect(res.tests.filter((t) => t.verdict === 'disabled')).toEqual([]);
    const report = (name: string) => readFileSync(join(run.dir, 'reports', name), 'utf8');
    expect(report('summary.md')).toMatch(/^# GitLab API conformance: INTERRUPTED/);
    expect(report('report.html')).toMatch(/<div class="banner INTERRUPTED">INTERRUPTED \(SIGINT\)/);
    expect(report('junit.xml')).toMatch(/<testsuite name="run"[^>]*errors="1"[\s\S]*<error message="the run was interrupted \(SIGINT\)/);
    expect(run.stdout).toMatch(/^INTERRUPTED \(SIGINT\)/m);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/has no test|PASSED/);
  });

  test.concurrent('a target lost in the middle of a run stops it as interrupted (exit 2), not as hundreds of errors', async () => {
    const s = await server({ latencyMs: 15 });
    let closed = false;
    const run = await cli(['--area', 'members'], target(s), {
      onStderr: (text) => {
        if (!closed && /conformance: files \d+\/\d+ · [1-9]\d* tests ended/.test(text)) {
          closed = true;
          void s.close();
        }
      },
    });
    expect(run.code, run.stderr).toBe(2);
    const res = results(run);
    expect(res.status).toBe('interrupted');
    expect(res.interruption).toMatch(/^target lost: .* (did not answer \(|does not answer at the end of the run)/);
    expect(run.stdout).toMatch(/^INTERRUPTED \(target lost/m);
  });

  test.concurrent('a selection that matches no test exits 5 with one line, and its reports say nothing was checked', async () => {
    const s = await server();
    const run = await cli(['--area', 'repository-files', '--grep', 'zzzz-no-such-test'], target(s));
    expect(run.code, run.stderr).toBe(5);
    expect(run.stderr).toMatch(/^conformance: no test matched the selection \(areas repository-files, --grep "zzzz-no-such-test"\); nothing was checked$/m);
    const res = results(run);
    expect(res.status).toBe('empty');
    expect(readFileSync(join(run.dir, 'reports', 'summary.md'), 'utf8')).toMatch(/^# GitLab API conformance: NOTHING CHECKED/);
    expect(readFileSync(join(run.dir, 'reports', 'junit.xml'), 'utf8')).toMatch(/<error message="nothing was checked/);
    expect(run.stdout).toMatch(/clauses covered by the selected tests 0\/0/);
  });
});

describe('the gitlab-api-conformance command: one root cause, the instance setting it changes', { timeout: 300_000 }, () => {
  test.concurrent('one broken write is one root cause: a create answering 200 fails the tests that check its status, and no set-up', async () => {
    const s = await server({ faults: ['files.create-200'] });
    const run = await cli(['--area', 'repository-files'], target(s));
    expect(run.code, run.stderr).toBe(1);
    const res = results(run);
    const failing = res.tests.filter((t) => t.verdict === 'fail');
    expect(failing.length, failing.map((t) => t.id).join(', ')).toBeGreaterThan(0);
    expect(failing.length, failing.map((t) => t.id).join(', ')).toBeLessThanOrEqual(3);
    // Set-up writes ask only for a success: none of them stops on the 200.
    expect(res.tests.filter((t) => t.verdict === 'error').map((t) => t.id)).toEqual([]);
    expect(failing.every((t) => t.cause?.endpoint === 'POST /projects/:id/repository/files/:file_path' && t.cause.got === 200)).toBe(true);
    // The terminal names the cause, the failing tests and the report; the report's repro runs.
    expect(run.stdout).toMatch(new RegExp(`Root causes \\(1\\):\n  POST /projects/:id/repository/files/:file_path answered HTTP 200: ${failing.length} tests? fails? on it`));
    for (const t of failing) expect(run.stdout).toContain(`fail  ${t.id}: `);
    expect(run.stdout).toMatch(/FAILED at the spec level\. Report: \/.*\/reports\/report\.html/);
    const html = readFileSync(join(run.dir, 'reports', 'report.html'), 'utf8');
    expect(html).toMatch(/# as maintainer: export TOKEN=&lt;the api token of user cnf_[0-9a-f]+_\w+: a run with --keep leaves it in \.conformance\/kept-[0-9a-f]+\.tokens\.json&gt;\ncurl -sS -X POST [^\n]* -H &quot;PRIVATE-TOKEN: \$TOKEN&quot;/);
    expect(readFileSync(join(run.dir, 'reports', 'summary.md'), 'utf8')).toMatch(/## Root causes\n\n[^\n]*\n\n- `POST \/projects\/:id\/repository\/files\/:file_path answered HTTP 200/);
    expect(leftovers(s)).toEqual([]);
  });

  test.concurrent('promotion approval: the setting is set once per phase (off, then on) and is as the run found it afterwards, off or on', async () => {
    for (const found of [false, true]) {
      const s = await server();
      // Every value the setting takes, in order: a change only.
      let value = found;
      const taken: boolean[] = [];
      Object.defineProperty(s.store.settings, 'enableMemberPromotionManagement', {
        get: () => value,
        set: (v: boolean) => {
          if (v !== value) taken.push(v);
          value = v;
        },
      });
      // Tests of both values on both kinds: the off phase, then the on phase; the teardown puts back the value found.
      const run = await cli(['--area', 'members', '--grep', '^members\\.(add|edit)\\.(group|project)\\.(setting-off|edit-setting-off|add-single|edit):'], { ...target(s), CONFORMANCE_CAPABILITIES: 'premium,ultimate,promotion_management' });
      expect(run.code, run.stderr).toBe(0);
      expect(results(run).tests.filter((t) => t.verdict === 'pass').length).toBe(8);
      expect(taken).toEqual(found ? [false, true] : [true, false]);
      expect(s.store.settings.enableMemberPromotionManagement).toBe(found);
      expect(leftovers(s)).toEqual([]);
    }
  });

  test.concurrent('a run killed while the promotion setting is on leaves it in the ledger: sweep puts it back', async () => {
    const s = await server();
    let killedOn = false;
    const run = await cli(['--area', 'members', '--grep', '^members\\.add\\.group\\.add-single:'], { ...target(s), CONFORMANCE_CAPABILITIES: 'premium,ultimate,promotion_management' }, {
      onStart: (child) => {
        const watch = setInterval(() => {
          if (!s.store.settings.enableMemberPromotionManagement) return;
          killedOn = true;
          child.kill('SIGKILL');
          clearInterval(watch);
        }, 2);
        child.on('close', () => clearInterval(watch));
      },
    });
    expect(killedOn, run.stderr).toBe(true);
    expect(run.code).toBeNull();
    const swept = await cli(['sweep'], target(s), { dir: run.dir });
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.stdout).toMatch(/put back 1 instance setting/);
    expect(s.store.settings.enableMemberPromotionManagement).toBe(false);
    expect(leftovers(s)).toEqual([]);
  });
});

describe('the gitlab-api-conformance command cleaning up: delayed deletion, --keep, sweep', { timeout: 300_000 }, () => {
  test.concurrent('against delayed deletion (GitLab 17 and 18) a run leaves only its top-level groups pending deletion, with what they hold', async () => {
    const s = await server({ delayedDeletion: true });
    // The invitation lists' world has subgroups and projects; the mirrors' has projects in groups. The
    // members list's enterprise test deletes a project of its own that the clean-up then finds marked already.
    const selection = ['GET /groups/:id/invitations', 'GET /projects/:id/invitations', 'GET /projects/:id/remote_mirrors', 'GET /projects/:id/members'].flatMap((form) => ['--endpoint', form]);
    const grep = ['--grep', '^(invitations|mirrors)\\.|^members\\.list\\.project\\.enterprise-email:'];
    const fixtures = join(tempDir('conformance-fixtures-'), 'fixtures.json');
    writeFileSync(fixtures, JSON.stringify(s.fixtures));
    const run = await cli([...selection, ...grep], { ...target(s), CONFORMANCE_CAPABILITIES: 'enterprise_users', CONFORMANCE_FIXTURES: fixtures }, { timeoutMs: 150_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(results(run).tests.find((t) => t.id === 'members.list.project.enterprise-email')?.verdict).toBe('pass');
    expect(run.stderr).not.toMatch(/clean-up left/);
    const groups = [...s.store.groups.values()].filter((g) => g.path.startsWith('cnf-'));
    const tops = groups.filter((g) => g.parentId === null);
    expect(tops.length).toBeGreaterThan(0);
    // GitLab takes permanently_remove for subgroups and projects only (lib/api/groups.rb): each top-level
    // group the run made is marked, and goes with everything in it when the instance's delay has passed.
    expect(tops.filter((g) => !g.markedForDeletionOn).map((g) => g.path)).toEqual([]);
    expect(tops.every((g) => g.path.endsWith(`-deletion_scheduled-${g.id}`))).toBe(true);
    const topOf = (groupId: number): number => {
      const g = s.store.groups.get(groupId)!;
      return g.parentId === null ? g.id : topOf(g.parentId);
    };
    const pending = new Set(tops.map((g) => g.id));
    expect(groups.filter((g) => !pending.has(topOf(g.id))).map((g) => g.path)).toEqual([]);
    const projects = [...s.store.projects.values()].filter((p) => p.path.startsWith('cnf-'));
    expect(projects.filter((p) => p.namespace.kind !== 'group' || !pending.has(topOf(p.namespace.id))).map((p) => p.path)).toEqual([]);
    expect(leftovers(s).filter((l) => l.startsWith('user '))).toEqual([]);
    // None of the run's files stays (run worlds, claims of pool users), nor its ledger: the groups pending deletion count as removed.
    expect(readdirSync(join(run.dir, '.conformance'))).toEqual([]);
  });

  test.concurrent('--keep leaves what a run made for a repro by hand, its tokens in a file of the owner\'s alone; sweep removes it', async () => {
    const s = await server();
    const bundled = await cli(['--keep', '--grep', 'files.head.metadata-headers'], {});
    expect(bundled.code).toBe(2);
    expect(bundled.stderr).toMatch(/--keep needs --target/);
    const run = await cli(['--area', 'repository-files', '--grep', 'files.head.'], target(s), { dir: tempDir() });
    expect(run.code, run.stderr).toBe(0);
    expect(leftovers(s)).toEqual([]);
    const kept = await cli(['--area', 'repository-files', '--grep', 'files.head.', '--keep'], target(s), { dir: run.dir });
    expect(kept.code, kept.stderr).toBe(0);
    expect(leftovers(s).length).toBeGreaterThan(0);
    const tokensFile = readdirSync(join(kept.dir, '.conformance')).find((f) => f.endsWith('.tokens.json'));
    expect(tokensFile).toBeDefined();
    const path = join(kept.dir, '.conformance', tokensFile!);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const { users } = JSON.parse(readFileSync(path, 'utf8')) as { users: { role: string; tokens: { api: string } }[] };
    const owner = users.find((u) => u.role === 'owner')!;
    // The token works (the repro can be sent) and is printed nowhere.
    const me = await fetch(`${s.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': owner.tokens.api } });
    expect(me.status).toBe(200);
    expect(`${kept.stdout}${kept.stderr}`.includes(owner.tokens.api)).toBe(false);
    expect(kept.stderr).toMatch(/--keep: what the run made on .* stays \(ledger .*\); .*Remove it all with: gitlab-api-conformance sweep --target/);
    const ledger = /\(ledger ([^)]+)\)/.exec(kept.stderr)![1];
    const swept = await cli(['sweep', '--ledger', ledger], target(s), { dir: kept.dir });
    expect(swept.code, swept.stderr).toBe(0);
    expect(leftovers(s)).toEqual([]);
    // The tokens file goes with the ledger: its users are gone.
    expect(readdirSync(join(kept.dir, '.conformance'))).toEqual([]);
  });

  test.concurrent('sweep removes what a killed run left, by run prefix', async () => {
    const s = await server();
    const prefix = 'cnf-aaaaaa000000';
    const group = s.store.createGroup({ name: `${prefix}-g`, path: `${prefix}-g`, parentId: null, visibility: 'private' });
    s.store.createProject({ name: `${prefix}-p`, path: `${prefix}-p`, namespace: { kind: 'group', id: group.id }, visibility: 'private', creatorId: 1, defaultBranch: 'main' });
    s.store.createUser({ username: `${prefix.replace(/-/g, '_')}_u`, name: 'Left', email: 'left@example.com' });
    s.store.createGroup({ name: 'keep-me', path: 'keep-me', parentId: null, visibility: 'private' });
    const run = await cli(['sweep', '--prefix', prefix], target(s));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/removed 3 object/);
    expect(leftovers(s)).toEqual([]);
    expect([...s.store.groups.values()].some((g) => g.path === 'keep-me')).toBe(true);
    expect(existsSync(join(run.dir, 'reports'))).toBe(false);
  });
});
