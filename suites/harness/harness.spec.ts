// Unit tests of the harness pieces that decide verdicts and keep secrets: configuration, redaction,
// version gating, gating reasons, the ledger, and the endpoint list kept in step with the spec's.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadManifest } from '../../fixtures/manifest.js';
import { CATALOG } from '../areas.js';
import { formsByKind } from './core/area.js';
import { retryDelayMs } from './core/client.js';
import { redact, registerSecret, REDACTED } from './core/redact.js';
import { versionAtLeast } from './core/version.js';
import { ConfigError, loadConfig, SETTINGS } from './run/config.js';
import { gate, type TestMeta } from './run/conformance.js';
import type { RunContext } from './run/context.js';
import { Ledger } from './run/ledger.js';
import { runWorld } from './run/run-world.js';
import { noteRunSources, World, type GroupInfo, type ProjectInfo } from './run/world.js';

const tmp = mkdtempSync(join(tmpdir(), 'conformance-harness-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const noDotenv = join(tmp, 'absent.env');

describe('configuration', () => {
  test('defaults fit the bundled reference server', () => {
    const config = loadConfig({}, noDotenv, CATALOG);
    expect(config.targetUrl).toBeUndefined();
    expect(config.capabilities).toContain('premium');
    expect(config.headerPrefix).toBe('X-Gitlab-');
    expect(config.areas).toEqual([]);
    expect(config.level).toBe('spec');
    expect(config.reportDir).toBe('reports');
  });

  test('a URL target needs an admin token and declares no capability by default', () => {
    expect(() => loadConfig({ CONFORMANCE_TARGET_URL: 'https://gitlab.example.com' }, noDotenv, CATALOG)).toThrow(/CONFORMANCE_ADMIN_TOKEN is required/);
    const config = loadConfig({ CONFORMANCE_TARGET_URL: 'https://gitlab.example.com/', CONFORMANCE_ADMIN_TOKEN: 'glpat-x' }, noDotenv, CATALOG);
    expect(config.targetUrl).toBe('https://gitlab.example.com');
    expect(config.capabilities).toEqual([]);
  });

  test('.env fills what the environment does not set; the environment wins', () => {
    const file = join(tmp, '.env');
    writeFileSync(file, 'CONFORMANCE_HEADER_PREFIX=X-Forge-\nCONFORMANCE_REPORT_DIR=out\n');
    const config = loadConfig({ CONFORMANCE_REPORT_DIR: 'from-env' }, file);
    expect(config.headerPrefix).toBe('X-Forge-');
    expect(config.reportDir).toBe('from-env');
  });

  test('the admin token may come from a file', () => {
    const file = join(tmp, 'token');
    writeFileSync(file, 'glpat-fromfile-123456\n');
    const config = loadConfig({ CONFORMANCE_TARGET_URL: 'http://h', CONFORMANCE_ADMIN_TOKEN_FILE: file }, noDotenv, CATALOG);
    expect(config.adminToken).toBe('glpat-fromfile-123456');
  });

  test.each([
    [{ CONFORMANCE_TARGET_URL: 'not a url', CONFORMANCE_ADMIN_TOKEN: 't' }, /not a URL/],
    [{ CONFORMANCE_TARGET_URL: 'ftp://h', CONFORMANCE_ADMIN_TOKEN: 't' }, /http or https/],
    [{ CONFORMANCE_TARGET_URL: 'http://h/api/v4', CONFORMANCE_ADMIN_TOKEN: 't' }, /must not end in \/api\/v4/],
    [{ CONFORMANCE_TARGET_URL: 'https://user:secret@gitlab.example.com', CONFORMANCE_ADMIN_TOKEN: 't' }, /must not carry a user or password/],
    [{ CONFORMANCE_CAPABILITIES: 'premium,gold' }, /unknown capability "gold"/],
    [{ CONFORMANCE_AREAS: 'files' }, /unknown area "files"/],
    [{ CONFORMANCE_HEADER_PREFIX: 'X Gitlab' }, /HEADER_PREFIX/],
    [{ CONFORMANCE_REQUEST_TIMEOUT_MS: 'soon' }, /TIMEOUT_MS/],
    [{ CONFORMANCE_FIXTURES: '/no/such/file.json' }, /does not exist/],
    [{ CONFORMANCE_ENDPOINTS: 'GET /nowhere' }, /unknown endpoint form "GET \/nowhere"/],
  ])('invalid settings stop with one clear line: %j', (env, message) => {
    expect(() => loadConfig(env, noDotenv, CATALOG)).toThrow(ConfigError);
    expect(() => loadConfig(env, noDotenv, CATALOG)).toThrow(message);
  });
});

describe('fixture manifest', () => {
  test('owner tokens come from the named environment variable', () => {
    const file = join(tmp, 'fixtures.json');
    writeFileSync(file, JSON.stringify({ ldap: { group_id: 1, user_id: 2, owner_token_env: 'LDAP_OWNER' } }));
    expect(loadManifest(file, { LDAP_OWNER: 'glpat-owner' }).ldap?.owner_token).toBe('glpat-owner');
    expect(() => loadManifest(file, {})).toThrow(/LDAP_OWNER, which is not set/);
  });
});

describe('redaction', () => {
  test('GitLab token forms, registered secrets and header values are masked', () => {
    registerSecret('my-custom-secret-value');
    const text = 'PRIVATE-TOKEN: abc123 glpat-AbCdEfGhIj1234567890 and my-custom-secret-value ?private_token=zzz Authorization: Bearer qqq';
    const out = redact(text);
    for (const secret of ['abc123', 'glpat-AbCdEfGhIj1234567890', 'my-custom-secret-value', 'zzz', 'qqq']) expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
    expect(redact('curl -H "PRIVATE-TOKEN: $TOKEN"')).toBe('curl -H "PRIVATE-TOKEN: $TOKEN"');
    expect(redact('PRIVATE-TOKEN: $abcdefSecretXYZ')).toBe('PRIVATE-TOKEN: [REDACTED]');
  });
});

describe('retries', () => {
  test('Retry-After in seconds is honoured (0 means at once), capped at 5 s; without it the attempt number is the wait', () => {
    expect([retryDelayMs('0', 1), retryDelayMs('3', 1), retryDelayMs('60', 1)]).toEqual([0, 3000, 5000]);
    expect([retryDelayMs(undefined, 1), retryDelayMs(undefined, 2), retryDelayMs('Wed, 21 Oct 2026 07:28:00 GMT', 2)]).toEqual([1000, 2000, 2000]);
  });
});

describe('version gating', () => {
  test.each([
    ['17.4.2-ee', '17.4', true],
    ['17.3.9', '17.4', false],
    ['18.0.0-pre', '17.4', true],
    ['15.7.0', '15.7', true],
    ['12.3.5', '12.4', false],
    ['unknown', '16.6', true],
  ])('%s is at least %s: %s', (version, minimum, expected) => {
    expect(versionAtLeast(version, minimum)).toBe(expected);
  });

  const meta: TestMeta = { id: 'x.y', title: 't', endpoint: 'GET /groups/:id/members', area: 'members', kind: 'group', clauses: ['c'], requires: { capabilities: ['premium'], minVersion: '17.0' }, level: 'spec' };
  const run = { areas: ['members'], endpoints: [], disabledTests: [], capabilities: ['premium'], version: '17.1.0', fixtures: {} } as unknown as RunContext;
  const said = (g: ReturnType<typeof gate>) => (g ? `${g.verdict}: ${g.reason}` : undefined);
  test('gate tells disabled from unsupported, with the reason', () => {
    expect(gate(meta, run)).toBeUndefined();
    expect(gate(meta, { ...run, areas: [] })).toBeUndefined();
    expect(said(gate(meta, { ...run, areas: ['invitations'] }))).toMatch(/^disabled: area members/);
    expect(said(gate(meta, { ...run, disabledTests: ['x.*'] }))).toMatch(/^disabled: turned off/);
    expect(gate(meta, { ...run, endpoints: ['GET /groups/:id/members'] })).toBeUndefined();
    expect(said(gate(meta, { ...run, endpoints: ['GET /projects/:id/members'] }))).toMatch(/^disabled: endpoint GET \/groups\/:id\/members is not selected/);
    expect(said(gate(meta, { ...run, capabilities: [] }))).toMatch(/^unsupported: needs capability "premium"/);
    expect(said(gate(meta, { ...run, version: '16.11.0' }))).toMatch(/^unsupported: needs GitLab 17.0/);
    expect(said(gate({ ...meta, requires: { fixtures: ['ldap'] } }, run))).toMatch(/^unsupported: needs the "ldap" fixture/);
  });
});

describe('ledger', () => {
  test('outstanding objects are those recorded and not removed, newest first; a cut line is skipped', () => {
    const path = join(tmp, 'ledger.jsonl');
    const ledger = new Ledger(path, 'r1');
    ledger.record('user', 1, 'u1');
    ledger.record('group', 2, 'g');
    ledger.record('project', 3, 'g/p');
    ledger.markRemoved('group', 2, 'g');
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"runId":"r1","kind":"us`);
    expect(Ledger.outstanding(path).map((e) => `${e.kind}:${e.id}`)).toEqual(['project:3', 'user:1']);
    expect(Ledger.outstanding(join(tmp, 'none.jsonl'))).toEqual([]);
  });
});

describe('user pool', () => {
  const users = [1, 2, 3].map((id) => ({ id, username: `pool_${id}`, name: `Pool ${id}`, email: `pool_${id}@example.com`, tokens: { api: `t${id}` } }));
  const seatless = [11, 12].map((id) => ({ ...users[0], id, username: `seatless_${id}` }));
  let runs = 0;
  /** A run of its own for each test: the claims and the spent list live beside its ledger. */
  const runOf = () =>
    ({ targetUrl: 'http://127.0.0.1:9', adminToken: 'x', requestTimeoutMs: 1000, prefix: 'cnf-test', ledgerPath: join(tmp, 'pool', 'ledger.jsonl'), runId: `r${++runs}`, pool: { seats: undefined, users, seatless } }) as unknown as RunContext;
  const idOf = (path: string) => [...path].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1_000_003, 7);
  const group = (path: string): GroupInfo => ({ kind: 'group', id: idOf(path), name: path, fullPath: path });
  const project = (path: string): ProjectInfo => ({ kind: 'project', id: idOf(path), fullPath: path, defaultBranch: 'main' });
  /**
   * A world whose pool never runs dry and that needs no target: a user beyond the pool is made here,
   * and taking a user back succeeds or not as told (each call noted).
   */
  const worldOf = (run = runOf(), takesBack = true) => {
    const world = new World(run, 'pool-test');
    let made = 100;
    world.seatedUser = async () => ({ ...users[0], id: ++made, username: `own_${made}` });
    world.user = async () => ({ ...users[0], id: ++made, username: `own_${made}` });
    const takenBack: number[] = [];
    (world as unknown as { takeBack: (user: { id: number }) => Promise<boolean> }).takeBack = async (user) => {
      takenBack.push(user.id);
      return takesBack;
    };
    return { world, takenBack };
  };

  test('a user is handed out once per namespace: again in another namespace, not in a subgroup or project of one it was handed out in', async () => {
    const { world } = worldOf();
    world.endBuild();
    const a = await world.userFor(group('a'));
    expect((await world.userFor(project('a/sub/p'))).id).not.toBe(a.id);
    expect((await world.userFor(group('b'))).id).toBe(a.id);
    // Users asked for at once are distinct.
    const [x, y] = await Promise.all([world.userFor(group('c')), world.userFor(group('c'))]);
    expect(x.id).not.toBe(y.id);
  });

  test('a share links two namespaces: a user handed out in either is not handed out in the other', async () => {
    const { world } = worldOf();
    world.endBuild();
    const a = await world.userFor(group('a'));
    const b = await world.userFor(group('b'));
    expect(b.id).toBe(a.id);
    (world as unknown as { link: (x: GroupInfo, y: GroupInfo) => void }).link(group('c'), group('a'));
    expect((await world.userFor(group('c'))).id).not.toBe(a.id);
  });

  test('in the namespace of a run world, which every file uses, a pool user is with one file at a time, until that file gives it back', async () => {
    const run = runOf();
    const [one, two] = [worldOf(run), worldOf(run)];
    for (const { world } of [one, two]) world.endBuild();
    noteRunSources({ shared: { kind: 'group', id: 1, fullPath: 'run-shared' } });
    const first = await one.world.userFor(project('run-shared/p'));
    const second = await two.world.userFor(group('run-shared'));
    expect([first.id, second.id]).toEqual([users[0].id, users[1].id]);
    // Not a namespace of the run: the file's own rule.
    expect((await two.world.userFor(group('not-shared'))).id).toBe(users[0].id);
    expect((await one.world.userFor(group('run-shared'))).id).toBe(users[2].id);
    expect((await two.world.userFor(group('run-shared'))).id).toBeGreaterThan(100);
    // The first file ends: its users are taken back from the run world's sources, and the other file may have them there.
    await one.world.cleanup();
    expect(one.takenBack.sort()).toEqual([users[0].id, users[2].id]);
    expect((await two.world.userFor(group('run-shared'))).id).toBe(users[0].id);
  });

  test('a share with a run world\'s group counts: a user new to the shared group is claimed in the run world too', async () => {
    const run = runOf();
    const [one, two] = [worldOf(run).world, worldOf(run).world];
    for (const world of [one, two]) world.endBuild();
    noteRunSources({ linked: { kind: 'group', id: 2, fullPath: 'run-linked' } });
    (one as unknown as { link: (x: GroupInfo, y: GroupInfo) => void }).link(group('run-linked'), group('own'));
    const a = await one.userFor(group('own'));
    expect((await two.userFor(group('run-linked'))).id).not.toBe(a.id);
  });

  test('a source kept for reuse goes to one test at a time, reset first; one that cannot be reset is replaced', async () => {
    const { world } = worldOf();
    world.endBuild();
    let made = 0;
    let resets = 0;
    let resetWorks = true;
    const make = async () => group(`kept-${++made}`);
    const reset = async () => {
      resets++;
      return resetWorks;
    };
    world.startTest();
    const [a, b] = [await world.reusable('slot', make, reset), await world.reusable('slot', make, reset)];
    expect([a.fullPath, b.fullPath, resets]).toEqual(['kept-1', 'kept-2', 0]);
    world.startTest();
    expect((await world.reusable('slot', make, reset)).fullPath).toBe('kept-1');
    expect((await world.reusable('other', make, reset)).fullPath).toBe('kept-3');
    expect(resets).toBe(1);
    world.startTest();
    resetWorks = false;
    expect((await world.reusable('slot', make, reset)).fullPath).toBe('kept-4');
    world.startTest();
    resetWorks = true;
    expect((await world.reusable('slot', make, reset)).fullPath).toBe('kept-4');
  });

  test('in a fixture\'s group a pool user is handed out once in the whole run, and not twice in one test', async () => {
    const run = runOf();
    const [one, two] = [worldOf(run).world, worldOf(run).world];
    const [a, b] = [await one.userIn('ldap'), await one.userIn('ldap')];
    expect(a.id).not.toBe(b.id);
    expect((await two.userIn('ldap')).id).toBe(users[2].id);
    expect((await two.userIn('ldap')).id).toBeGreaterThan(100);
    expect((await two.userIn('saml')).id).toBe(users[0].id);
  });

  test('users of the build, and users asked for without sources, are new to the whole world; a dry pool makes users of the world\'s own', async () => {
    const { world } = worldOf();
    const built = await world.userFor(group('a'));
    world.endBuild();
    const wide = await world.userFor();
    expect(wide.id).not.toBe(built.id);
    const third = await world.userFor(group('b'));
    expect([built.id, wide.id]).not.toContain(third.id);
    expect((await world.userFor(group('b'))).id).toBeGreaterThan(100);
  });

  test('when the pool runs dry a user of an earlier test is taken back; never one of the build or of the current test, nor one that could not be taken back', async () => {
    const { world, takenBack } = worldOf();
    const built = await world.userFor();
    world.endBuild();
    world.startTest();
    const [a, b] = [await world.userFor(group('a')), await world.userFor(group('a'))];
    expect((await world.userFor(group('a'))).id).toBeGreaterThan(100);
    expect(takenBack).toEqual([]);
    world.startTest();
    expect((await world.userFor(group('a'))).id).toBe(a.id);
    expect((await world.userFor(group('a'))).id).toBe(b.id);
    expect((await world.userFor(group('a'))).id).toBeGreaterThan(100);
    expect(takenBack).toEqual([a.id, b.id]);
    expect(takenBack).not.toContain(built.id);

    const failing = worldOf(runOf(), false);
    failing.world.endBuild();
    failing.world.startTest();
    for (const _ of users) await failing.world.userFor(group('a'));
    failing.world.startTest();
    expect((await failing.world.userFor(group('a'))).id).toBeGreaterThan(100);
    expect(failing.takenBack).toEqual(users.map((u) => u.id));
  });

  test('a seatless user serves each source of a file once and is taken out of it after the test; one that cannot be is spent for the whole run', async () => {
    const run = runOf();
    const { world } = worldOf(run);
    world.endBuild();
    world.startTest();
    const [x, y] = [await world.seatlessFor(group('g')), await world.seatlessFor(group('g'))];
    expect([x.id, y.id]).toEqual([11, 12]);
    expect((await world.seatlessFor(group('h'))).id).toBeGreaterThan(100);
    await world.endTest();
    world.startTest();
    expect((await world.seatlessFor(group('g'))).id).toBeGreaterThan(100);
    expect((await world.seatlessFor(group('h'))).id).toBe(11);
    await world.endTest();

    const failing = worldOf(run, false).world;
    failing.startTest();
    expect((await failing.seatlessFor(group('k'))).id).toBe(11);
    await failing.endTest();
    failing.startTest();
    expect((await world.seatlessFor(group('k'))).id).toBe(12);
    expect((await failing.seatlessFor(group('m'))).id).toBe(12);
  });
});

describe('run worlds', () => {
  const run = { targetUrl: 'http://127.0.0.1:9', adminToken: 'x', requestTimeoutMs: 1000, prefix: 'cnf-test', ledgerPath: join(tmp, 'rw', 'ledger.jsonl'), runId: 'rw1' } as unknown as RunContext;

  test('the first file to ask builds the world once; later askers get the same value without building', async () => {
    let builds = 0;
    const build = async () => ({ n: ++builds });
    const [a, b] = await Promise.all([runWorld(run, 'built-here', build), runWorld(run, 'built-here', build)]);
    expect([a, b, builds]).toEqual([{ n: 1 }, { n: 1 }, 1]);
    expect(JSON.parse(readFileSync(join(tmp, 'rw', 'world-rw1-built-here.json'), 'utf8'))).toEqual({ value: { n: 1 } });
  });

  test('a world another worker claimed is awaited on disk, its value (its tokens then masked) or its failure', async () => {
    mkdirSync(join(tmp, 'rw'), { recursive: true });
    const claimed = (scope: string) => join(tmp, 'rw', `world-rw1-${scope}.json`);
    writeFileSync(claimed('elsewhere'), '');
    writeFileSync(claimed('failed'), '');
    const never = async () => {
      throw new Error('built twice');
    };
    const value = runWorld(run, 'elsewhere', never);
    const failure = runWorld(run, 'failed', never);
    setTimeout(() => {
      writeFileSync(claimed('elsewhere'), JSON.stringify({ value: { id: 7, user: { tokens: { api: 'plain-secret-4242' } } } }));
      writeFileSync(claimed('failed'), JSON.stringify({ error: 'no group' }));
    }, 120);
    await expect(value).resolves.toEqual({ id: 7, user: { tokens: { api: 'plain-secret-4242' } } });
    // The users' tokens of a world built elsewhere are masked here too.
    expect(redact('token plain-secret-4242')).toBe(`token ${REDACTED}`);
    await expect(failure).rejects.toThrow(/failed in another file: no group/);
  });
});

describe('endpoint list', () => {
  const forms = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
  // The areas' `endpoints` only: their extensions (GitLab endpoints beyond the spec) are not the spec's forms.
  const registered = CATALOG.areas.flatMap((area) => Object.values(area.endpoints).flatMap((f) => formsByKind(f).map(([, form]) => `${form}\t${area.name}`)));
  test('the registered areas declare exactly the 47 forms of docs/endpoints.txt, each in its area', () => {
    const lines = forms(join(import.meta.dirname, '..', '..', 'docs', 'endpoints.txt'));
    expect(lines).toHaveLength(47);
    expect([...registered].sort()).toEqual([...lines].sort());
    expect([...CATALOG.extensionArea.keys()].filter((form) => lines.some((l) => l.startsWith(`${form}\t`))), 'extensions that are spec forms').toEqual([]);
  });
  const shared = join(import.meta.dirname, '..', '..', '..', 'shared', 'spec', 'endpoints.txt');
  test.skipIf(!existsSync(shared))('docs/endpoints.txt is the spec\'s own list (../shared/spec/endpoints.txt)', () => {
    expect(forms(join(import.meta.dirname, '..', '..', 'docs', 'endpoints.txt'))).toEqual(forms(shared));
  });
});

describe('README', () => {
  test('lists every setting, with its default', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    for (const setting of SETTINGS) expect(readme, setting.env).toContain(`| \`${setting.env}\` |`);
  });
});
