// Unit tests of the harness pieces that decide verdicts and keep secrets: configuration, redaction,
// version gating, gating reasons, the ledger, and the endpoint list kept in step with the spec's.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadManifest } from '../fixtures/manifest.js';
import { CATALOG, ENDPOINT_FORMS } from '../suites/areas.js';
import { formsByKind } from './core/area.js';
import { retryDelayMs } from './core/client.js';
import { redact, redactValue, registerSecret, registerSecretsIn, REDACTED } from './core/redact.js';
import { versionAtLeast } from './core/version.js';
import { ConfigError, loadConfig } from './run/config.js';
import { gate, type TestMeta } from './run/conformance.js';
import type { RunContext } from './run/context.js';
import { Ledger } from './run/ledger.js';

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
    expect(() => loadConfig({ CONFORMANCE_TARGET_URL: 'https://gitlab.example.com' }, noDotenv, CATALOG)).toThrow(/an administrator's token \(scope api\) is required with CONFORMANCE_TARGET_URL/);
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

  test('token fields (invite_token), URL credentials and what a request sends are masked, whoever registered them; JSON, masks and $TOKEN stay', () => {
    expect(redactValue({ invite_token: 'inv1te-t0ken-abc', n: null, message: 'got {"invite_token":"inv1te-t0ken-def"}' })).toEqual({ invite_token: REDACTED, n: null, message: `got {"invite_token":"${REDACTED}"}` });
    expect(redact("expected { invite_token: 'inv1te-t0ken-ghi' }")).toBe(`expected { invite_token: '${REDACTED}' }`);
    expect(redact('{"invite_token":null,"token_count":12345678}')).toBe('{"invite_token":null,"token_count":12345678}');
    expect(redact('https://al1ce:Pa55-w0rd@example.com/x.git https://tok3n-value@example.org ssh://git:Pa55-g1t@example.org ssh://git@example.com')).toBe(
      `https://${REDACTED}:${REDACTED}@example.com/x.git https://${REDACTED}@example.org ssh://git:${REDACTED}@example.org ssh://git@example.com`,
    );
    expect(redact('https://*****:*****@example.com ?access_token=abcdefgh1')).toBe(`https://*****:*****@example.com ?access_token=${REDACTED}`);
    // The HTML report's cURL line, escaped: the placeholder is no secret.
    expect(redact('-H &quot;PRIVATE-TOKEN: $TOKEN&quot;')).toBe('-H &quot;PRIVATE-TOKEN: $TOKEN&quot;');
    registerSecretsIn({ url: 'https://bob-user:Pa55-four@example.org/x', rows: [{ invite_token: 'qwertyuiop' }] });
    expect(redact('Pa55-four bob-user qwertyuiop')).toBe(`${REDACTED} ${REDACTED} ${REDACTED}`);
  });

  test('registered secrets are masked in the order they came, among thousands, also one that a mask before it makes appear', () => {
    for (let i = 0; i < 5000; i++) registerSecret(`many-secret-${i}-value`);
    // The first masks its whole, and the second no longer occurs there; the fourth occurs once the third is masked.
    registerSecret('xyzzy-overlap-abc');
    registerSecret('overlap-abc');
    registerSecret('dactylo');
    registerSecret('plugh[REDACTED]');
    expect(redact('xyzzy-overlap-abc many-secret-4321-value plugh')).toBe(`${REDACTED} ${REDACTED} plugh`);
    expect(redact('say plughdactylo and overlap-abc')).toBe(`say ${REDACTED} and ${REDACTED}`);
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

  const meta: TestMeta = { id: 'x.y', title: 't', endpoint: 'GET /groups/:id/members', area: 'members', kind: 'group', clauses: ['c'], requires: { capabilities: ['premium'], minVersion: '17.0' }, level: 'spec', fixtures: [], needs: [] };
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
    expect(said(gate({ ...meta, requires: { provisioned: ['ldap'] } }, run))).toMatch(/^unsupported: needs the provisioned "ldap" object/);
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
    expect(Ledger.outstanding(path).map((e) => `${e.kind}:${e.kind === 'setting' ? e.name : e.id}`)).toEqual(['project:3', 'user:1']);
    expect(Ledger.outstanding(join(tmp, 'none.jsonl'))).toEqual([]);
  });

  test('a setting is outstanding from its first line (the value before the run) until it is put back', () => {
    const path = join(tmp, 'settings.jsonl');
    const ledger = new Ledger(path, 'r1');
    const restore = (value: boolean) => ({ path: '/application/settings', body: { s: value } });
    ledger.recordSetting('s', restore(false));
    ledger.recordSetting('s', restore(true));
    expect(Ledger.outstanding(path)).toMatchObject([{ kind: 'setting', name: 's', restore: restore(false) }]);
    ledger.markRestored('s', restore(false));
    expect(Ledger.outstanding(path)).toEqual([]);
  });
});

describe('endpoint list', () => {
  const forms = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
  // The areas' `endpoints` only: their extensions (GitLab endpoints beyond the spec) are not the spec's forms.
  const registered = CATALOG.areas.flatMap((area) => Object.values(area.endpoints).flatMap((f) => formsByKind(f).map(([, form]) => `${form}\t${area.name}`)));
  test('the registered areas declare exactly the forms of docs/endpoints.txt, each in its area', () => {
    const lines = forms(join(import.meta.dirname, '..', 'docs', 'endpoints.txt'));
    expect(lines).toHaveLength(ENDPOINT_FORMS);
    expect([...registered].sort()).toEqual([...lines].sort());
    expect([...CATALOG.extensionArea.keys()].filter((form) => lines.some((l) => l.startsWith(`${form}\t`))), 'extensions that are spec forms').toEqual([]);
  });
  const shared = join(import.meta.dirname, '..', '..', 'shared', 'spec', 'endpoints.txt');
  test.skipIf(!existsSync(shared))('docs/endpoints.txt is the spec\'s own list (../shared/spec/endpoints.txt)', () => {
    expect(forms(join(import.meta.dirname, '..', 'docs', 'endpoints.txt'))).toEqual(forms(shared));
  });
});

