// A new area is one folder plus one line per side (docs/CONTRIBUTING-AREAS.md). This proves it with
// the tiny area of runner/tiny-area/: registered beside the real areas, everything that lists
// areas takes it in, and its one test, written once, runs for groups and projects against a
// reference server that serves its route. Also: both registries name the same areas, and the lists
// that follow the areas (the fault catalogue and the faults a server knows, eslint's area folders,
// the extension forms) are derived from the registries, so the tiny area is in them too; its forms
// are extensions, so the spec's forms (contract/forms.ts) stay the 47.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createVitest } from 'vitest/node';
import { CATALOGUE, SERVER_AREAS } from '../reference-server/areas.js';
import { catalogueOf } from '../reference-server/faults/catalogue.js';
import { startReferenceServer } from '../reference-server/server.js';
import { pathToFileURL } from 'node:url';
import { AREAS, CATALOG, ENDPOINT_FORMS } from '../suites/areas.js';
import { catalogOf } from '../runner/core/area.js';
import type { Exchange } from '../runner/core/exchange.js';
import { exchangeLine, headerLine, RUN_A, testLine } from '../runner/differential/hand-made.js';
import { normalizeTest } from '../runner/differential/normalize.js';
import { readTranscript } from '../runner/differential/transcript.js';
import { touches } from '../runner/run/frame.js';
import { loadConfig } from '../runner/run/config.js';
import { ConformanceReporter } from '../runner/report/reporter.js';
import type { Results } from '../runner/report/results.js';
import { tiny } from '../runner/tiny-area/area.js';
import { tinyServer } from '../runner/tiny-area/server.js';

const ROOT = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'conformance-tiny-area-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('registering areas', () => {
  test('the suite and the reference server register the same areas, in the same order', () => {
    expect(SERVER_AREAS.map((a) => a.name)).toEqual(CATALOG.areaNames);
  });

  test('the fault catalogue is the registered areas\' faults, then the cross-cutting ones; an area\'s faults come with its registration', async () => {
    expect(CATALOGUE).toEqual(catalogueOf(SERVER_AREAS));
    for (const area of SERVER_AREAS) expect(CATALOGUE.filter((f) => f.area === area.name).map((f) => f.name), area.name).toEqual(area.faults.map((f) => f.name));
    const areas = new Set<string>([...SERVER_AREAS.map((a) => a.name), 'cross-cutting']);
    expect(CATALOGUE.filter((f) => !areas.has(f.area)).map((f) => f.name)).toEqual([]);
    const withTiny = catalogueOf([...SERVER_AREAS, tinyServer]);
    expect(withTiny.filter((f) => (f.area as string) === 'tiny').map((f) => f.name)).toEqual(['tiny.pong-off-by-one']);
    expect(withTiny.length).toBe(CATALOGUE.length + 1);
    // A server with the tiny area knows its fault and commits it; one without it does not know it.
    const server = await startReferenceServer({ areas: [...SERVER_AREAS, tinyServer], faults: ['tiny.pong-off-by-one'] });
    try {
      const res = await fetch(`${server.url}/api/v4/groups/1/tiny_ping`, { headers: { 'private-token': server.adminToken } });
      expect(await res.json()).toEqual({ pong: 2 });
    } finally {
      await server.close();
    }
    await expect(startReferenceServer({ faults: ['tiny.pong-off-by-one'] })).rejects.toThrow(/unknown fault/);
  });

  test('eslint\'s layering rules take in every area\'s folder, read from suites/ (no list to extend)', async () => {
    const config = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as { default: { rules?: Record<string, unknown> }[] };
    const zones = config.default.flatMap((c) => ((c.rules?.['import-x/no-restricted-paths'] as [string, { zones: { target: string | string[]; from: string | string[] }[] }] | undefined)?.[1].zones ?? []));
    const core = zones.find((z) => z.target === 'runner/core')!;
    const areaZone = zones.find((z) => Array.isArray(z.target) && z.target.includes('suites/common'))!;
    for (const name of CATALOG.areaNames) {
      expect(core.from, `core may not import ${name}`).toContain(`suites/${name}`);
      expect(areaZone.target, `${name} is under the areas' rule`).toContain(`suites/${name}`);
    }
  });

  test('the lending policy takes users back where the areas\' role-granting writes named them, the tiny area\'s too', () => {
    expect(CATALOG.roleGrantingWrites.map((w) => w.collection).sort()).toEqual(['access_requests', 'billable_members', 'invitations', 'members']);
    const user = { id: 31, username: 'tiny_user', name: 'Tiny', email: 'tiny@example.com', tokens: { api: 'glpat-tiny-31' } };
    const write = (url: string, requestBody?: unknown, token?: string) => ({ actor: 'x', method: 'POST', url, requestBody, status: 201, headers: {}, body: {}, bytes: Buffer.alloc(0), durationMs: 0, retries: 0, token }) as Exchange;
    const guest = [write('/api/v4/groups/5/tiny_guests', { guest_id: 31 })];
    expect(touches(guest, [user], CATALOG.roleGrantingWrites).touched).toEqual([]);
    expect(touches(guest, [user], catalogOf([...AREAS, tiny]).roleGrantingWrites).touched).toEqual([{ userId: 31, source: { kind: 'group', ref: '5' }, requested: false }]);
    // The registered areas' own: a membership by username, an invitation by address, an access request the user sends.
    expect(touches([write('/api/v4/projects/7/members', { username: 'tiny_user', access_level: 30 })], [user], CATALOG.roleGrantingWrites).touched).toEqual([{ userId: 31, source: { kind: 'project', ref: '7' }, requested: false }]);
    expect(touches([write('/api/v4/groups/5/invitations?email=tiny%40example.com')], [user], CATALOG.roleGrantingWrites).touched).toEqual([{ userId: 31, source: { kind: 'group', ref: '5' }, requested: false }]);
    expect(touches([write('/api/v4/groups/5/access_requests', undefined, 'glpat-tiny-31')], [user], CATALOG.roleGrantingWrites).touched).toEqual([{ userId: 31, source: { kind: 'group', ref: '5' }, requested: true }]);
  });

  test('the differential reads ids in paths by the collections the areas declare, as the transcript\'s header carries them', () => {
    const withTiny = catalogOf([...AREAS, tiny]).collectionIdKinds;
    expect(CATALOG.collectionIdKinds).toEqual({ members: 'user', billable_members: 'user', access_requests: 'user', remote_mirrors: 'mirror' });
    expect(withTiny).toEqual({ ...CATALOG.collectionIdKinds, tiny_guests: 'user', tiny_pings: 'ping' });
    const path = (collections: Record<string, string>) =>
      normalizeTest(headerLine(RUN_A, { collections }), { line: testLine('t'), lineNo: 2, exchanges: [exchangeLine('t', 0, { request: { method: 'GET', path: '/api/v4/projects/3/tiny_pings/9' } })] })[0].path;
    expect(path(CATALOG.collectionIdKinds)).toBe('/api/v4/projects/<project~1>/tiny_pings/9');
    expect(path(withTiny)).toBe('/api/v4/projects/<project~1>/tiny_pings/<ping~1>');
  });
});

describe('registering a tiny area', () => {
  test('a tiny area registered with one line is taken in by the settings, the endpoint list and the clause catalog, and its test runs for both kinds, at once', { timeout: 300_000 }, async () => {
    const catalog = catalogOf([...AREAS, tiny]);
    expect(catalog.areaNames).toContain('tiny');
    // Its forms are extensions: the spec's forms (contract/forms.ts) stay the 47.
    expect(catalog.extensionArea.get('GET /projects/:id/tiny_ping')).toBe('tiny');
    expect(catalog.clauses.map((c) => c.id)).toContain('tiny.ping.answers');
    expect(catalog.endpointArea.size, 'the spec forms are the contract\'s').toBe(ENDPOINT_FORMS);
    const dotenv = join(work, 'absent.env');
    expect(loadConfig({ CONFORMANCE_AREAS: 'tiny' }, dotenv, catalog).areas).toEqual(['tiny']);
    expect(() => loadConfig({ CONFORMANCE_AREAS: 'tiny' }, dotenv, CATALOG)).toThrow(/unknown area "tiny"/);

    const server = await startReferenceServer({ areas: [...SERVER_AREAS, tinyServer] });
    const fixtures = join(work, 'fixtures.json');
    writeFileSync(fixtures, JSON.stringify(server.fixtures));
    const saved = { ...process.env };
    Object.assign(process.env, {
      CONFORMANCE_TARGET_URL: server.url,
      CONFORMANCE_ADMIN_TOKEN: server.adminToken,
      CONFORMANCE_CAPABILITIES: 'premium,ultimate,ldap,saml,promotion_management,enterprise_users',
      CONFORMANCE_FIXTURES: fixtures,
      CONFORMANCE_REPORT_DIR: join(work, 'reports'),
      CONFORMANCE_TRANSCRIPT: join(work, 'transcript.jsonl'),
    });
    const vitest = await createVitest('test', {
      root: ROOT,
      config: false,
      // The reporter reads the projects whose name starts with "conformance".
      name: 'conformance-tiny',
      include: ['runner/tiny-area/*.tiny.ts'],
      globalSetup: ['suites/global-setup.ts'],
      pool: 'threads',
      isolate: false,
      watch: false,
      reporters: [new ConformanceReporter(catalog, loadConfig(process.env, dotenv, catalog))],
    });
    let concurrent: (boolean | undefined)[] = [];
    try {
      await vitest.start();
      // The wrapper marks each test concurrent itself: vitest reads sequence.concurrent from a root
      // config only, so a project's setting once left the tests of every file running one by one.
      concurrent = vitest.state.getFiles().flatMap((file) => file.tasks.map((task) => task.concurrent));
    } finally {
      await vitest.close();
      await server.close();
      process.env = saved;
    }
    const results = JSON.parse(readFileSync(join(work, 'reports', 'results.json'), 'utf8')) as Results;
    expect(results.tests.map((t) => [t.id, t.kind, t.verdict])).toEqual([
      ['tiny.ping.group.answers', 'group', 'pass'],
      ['tiny.ping.project.answers', 'project', 'pass'],
    ]);
    expect(concurrent, 'the tests of a file, marked to run at once').toEqual([true, true]);
    expect(readTranscript(join(work, 'transcript.jsonl')).header.collections, 'the recorder writes the areas\' collections').toEqual(catalog.collectionIdKinds);
  });
});
