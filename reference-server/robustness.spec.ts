// Property-based robustness of the reference server (fast-check): thousands of malformed and hostile
// requests to every route. Each gets an answer below 500, every 4xx in one of GitLab's error shapes,
// and requests that cannot write leave the world exactly as it was. The seed is printed; replay a
// failure with FUZZ_SEED=<seed> (and FUZZ_RUNS to change the number of requests).
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SPEC_FORM_NAMES } from '../contract/forms.js';
import { validateAgainst } from '../schemas/registry.js';
import { buildApp } from './server.js';
import type { Store } from './state/store.js';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2_147_483_647;
const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : 1500;

const SETUP_FORMS = [
  'GET /version', 'GET /user', 'GET /users', 'POST /users', 'DELETE /users/:user_id', 'POST /users/:user_id/personal_access_tokens',
  'GET /groups', 'POST /groups', 'GET /groups/:id', 'DELETE /groups/:id', 'POST /groups/:id/share',
  'GET /projects', 'POST /projects', 'GET /projects/:id', 'DELETE /projects/:id', 'POST /projects/:id/share',
  'POST /projects/:id/repository/branches', 'PUT /application/settings',
];
const FORMS = [...SPEC_FORM_NAMES, ...SETUP_FORMS];

let app: FastifyInstance;
let store: Store;
const ids = { groups: [] as string[], projects: [] as string[], users: [] as string[] };
const tokens = { admin: '', adminRead: '', developerRead: '', outsider: '' };

async function call(options: InjectOptions) {
  const res = await app.inject(options);
  if (res.statusCode >= 300) throw new Error(`fuzz set-up failed: ${options.method} ${options.url} → ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
}

beforeAll(async () => {
  ({ app, store } = buildApp({ adminToken: 'glpat-fuzz-admin-000000' }));
  await app.ready();
  tokens.admin = 'glpat-fuzz-admin-000000';
  const as = { 'private-token': tokens.admin };
  const group = await call({ method: 'POST', url: '/api/v4/groups', headers: as, payload: { name: 'fz', path: 'fz', visibility: 'public' } });
  const sub = await call({ method: 'POST', url: '/api/v4/groups', headers: as, payload: { name: 'sub', path: 'sub', parent_id: group.id, visibility: 'private' } });
  const pub = await call({ method: 'POST', url: '/api/v4/projects', headers: as, payload: { name: 'pub', namespace_id: group.id, visibility: 'public', initialize_with_readme: true } });
  const priv = await call({ method: 'POST', url: '/api/v4/projects', headers: as, payload: { name: 'priv', namespace_id: sub.id, visibility: 'private', initialize_with_readme: true } });
  const dev = await call({ method: 'POST', url: '/api/v4/users', headers: as, payload: { username: 'dev', name: 'Dev', email: 'dev@example.com', password: 'Secret-12345' } });
  const out = await call({ method: 'POST', url: '/api/v4/users', headers: as, payload: { username: 'out', name: 'Out', email: 'out@example.com', password: 'Secret-12345' } });
  await call({ method: 'POST', url: `/api/v4/groups/${group.id}/members`, headers: as, payload: { user_id: dev.id, access_level: 30 } });
  const pat = (userId: unknown, scopes: string[]) => call({ method: 'POST', url: `/api/v4/users/${userId}/personal_access_tokens`, headers: as, payload: { name: 't', scopes } });
  tokens.adminRead = (await pat(1, ['read_api'])).token as string;
  tokens.developerRead = (await pat(dev.id, ['read_api', 'read_repository'])).token as string;
  tokens.outsider = (await pat(out.id, ['read_api'])).token as string;
  ids.groups = [String(group.id), String(sub.id), 'fz', 'fz%2Fsub'];
  ids.projects = [String(pub.id), String(priv.id), 'fz%2Fpub', 'fz%2Fsub%2Fpriv'];
  ids.users = [String(dev.id), String(out.id), '1'];
  console.log(`robustness fuzz: seed ${SEED}, ${RUNS} requests per property (replay: FUZZ_SEED=${SEED})`);
});

afterAll(async () => {
  await app?.close();
});

/** Everything a request could change, as one comparable string. */
function snapshot(): string {
  return JSON.stringify({
    // last_activity_on records that a user made an API request, a read included: not a write.
    users: [...store.users.values()].map((u) => ({ ...u, lastActivityOn: undefined, samlIdentities: [...u.samlIdentities] })),
    tokens: [...store.tokens.values()],
    groups: [...store.groups.values()],
    projects: [...store.projects.values()].map((p) => ({
      ...p,
      repository: { branches: [...p.repository.branches], tags: [...p.repository.tags], commits: p.repository.commits.size, lfs: p.repository.lfsObjects.size },
      protectedBranches: [...p.protectedBranches],
      remoteMirrors: p.remoteMirrors.map((m) => ({ ...m, pushedRefs: [...m.pushedRefs] })),
    })),
    members: [...store.members.values()],
    settings: store.settings,
  });
}

const hostileSegment = fc.oneof(
  fc.constantFrom('..', '%2e%2e', '..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', 'a%00b', '%00', '%FF%FE', '-1', '0', '99999999999999999999999', '1e3', ' ', '%20', 'null', 'undefined', '[object Object]', '%252F', 'a%2F..%2Fb', '%E2%9C%93%F0%9F%98%80', '%u0041'),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.integer({ min: -5, max: 100_000 }).map(String),
  fc.constant('x'.repeat(5000)),
);

const segmentFor = (name: string): fc.Arbitrary<string> => {
  const known = name === 'id' ? [...ids.groups, ...ids.projects] : name === 'user_id' || name === 'member_id' ? ids.users : name === 'file_path' ? ['README%2Emd', 'README.md', 'no%2Fsuch'] : name === 'email' ? ['a%40example.com', 'nobody@example.com'] : ['1'];
  return fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...known) }, { weight: 3, arbitrary: hostileSegment });
};

const PARAM_NAMES = ['ref', 'page', 'per_page', 'range[start]', 'range[end]', 'lfs', 'query', 'user_ids', 'skip_users', 'state', 'search', 'sort', 'access_level', 'expires_at', 'email', 'user_id', 'username', 'branch', 'content', 'commit_message', 'encoding', 'url', 'enabled', 'name', 'path', 'visibility', 'scopes', 'group_id', 'group_access'];
const scalar = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constantFrom('', '-1', '0', 'true', 'null', '9'.repeat(40), '2024-13-45', 'a@b', 'ssh://localhost/x'));
const queryArb = fc.dictionary(fc.constantFrom(...PARAM_NAMES), fc.oneof(scalar.map(String), fc.array(scalar.map(String), { minLength: 2, maxLength: 3 })), { maxKeys: 4 });
const jsonValue = fc.oneof(scalar, fc.constant(null), fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), scalar, { maxKeys: 2 }));
const HUGE = 'x'.repeat(11 * 1024 * 1024);
const bodyArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...PARAM_NAMES), jsonValue, { maxKeys: 5 }).map((o) => ({ type: 'application/json', payload: JSON.stringify(o) })) },
  { weight: 2, arbitrary: fc.constantFrom('{', '{"a":', '[1,2', 'null', '"str"', '{"branch": }', '\u0000').map((payload) => ({ type: 'application/json', payload })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((payload) => ({ type: 'application/x-www-form-urlencoded', payload })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((payload) => ({ type: 'text/plain', payload })) },
  { weight: 1, arbitrary: fc.constant({ type: 'application/json', payload: `{"content":"${HUGE}"}` }) },
);

interface Planned {
  method: string;
  url: string;
  token: string | undefined;
  body: { type: string; payload: string } | undefined;
}

function requestArb(tokenPool: () => (string | undefined)[]): fc.Arbitrary<Planned> {
  return fc.constantFrom(...FORMS).chain((form) => {
    const [method, template] = form.split(' ');
    const names = [...template.matchAll(/:(\w+)/g)].map((m) => m[1]);
    return fc.record({
      segments: fc.tuple(...names.map(segmentFor)),
      query: queryArb,
      token: fc.constantFrom(...tokenPool()),
      body: method === 'GET' || method === 'HEAD' ? fc.constant(undefined) : bodyArb,
      duplicate: fc.boolean(),
    }).map(({ segments, query, token, body, duplicate }) => {
      let path = template;
      names.forEach((name, i) => (path = path.replace(`:${name}`, segments[i])));
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
      if (duplicate && params.size > 0) params.append([...params.keys()][0], 'duplicate');
      const qs = params.toString();
      return { method, url: `/api/v4${path}${qs ? `?${qs}` : ''}`, token, body };
    });
  });
}

async function send(planned: Planned) {
  const res = await app.inject({
    method: planned.method as InjectOptions['method'],
    url: planned.url,
    headers: { ...(planned.token ? { 'private-token': planned.token } : {}), ...(planned.body ? { 'content-type': planned.body.type } : {}) },
    payload: planned.body?.payload,
  });
  return res;
}

function describe4xx(planned: Planned, status: number, body: string): string {
  return `${planned.method} ${planned.url.slice(0, 300)} (token: ${planned.token ? 'yes' : 'none'}, body: ${planned.body?.payload.slice(0, 100) ?? 'none'}) → ${status} ${body.slice(0, 300)}`;
}

describe('reference server robustness', { timeout: 120_000 }, () => {
  test('hostile requests with any token never get a 5xx; every 4xx is in GitLab\'s error shape', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb(() => [undefined, 'glpat-garbage-0000000000', tokens.admin, tokens.adminRead, tokens.developerRead, tokens.outsider]), async (planned) => {
        const res = await send(planned);
        expect(res.statusCode, describe4xx(planned, res.statusCode, res.body)).toBeLessThan(500);
        if (res.statusCode >= 400 && planned.method !== 'HEAD') {
          let parsed: unknown;
          try {
            parsed = JSON.parse(res.body);
          } catch {
            parsed = res.body;
          }
          expect(validateAgainst('error', parsed), describe4xx(planned, res.statusCode, res.body)).toEqual([]);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('requests that cannot write (no token, a wrong one, read-only scopes) leave the world unchanged', async () => {
    const before = snapshot();
    await fc.assert(
      fc.asyncProperty(requestArb(() => [undefined, 'glpat-garbage-0000000000', tokens.adminRead, tokens.developerRead, tokens.outsider]), async (planned) => {
        const res = await send(planned);
        expect(res.statusCode, describe4xx(planned, res.statusCode, res.body)).toBeLessThan(500);
        if (planned.method !== 'GET' && planned.method !== 'HEAD') {
          expect(res.statusCode, `a write went through: ${describe4xx(planned, res.statusCode, res.body)}`).toBeGreaterThanOrEqual(400);
        }
      }),
      { seed: SEED + 1, numRuns: RUNS },
    );
    expect(snapshot()).toBe(before);
  });

  test('a body over the limit is refused with 413 in GitLab\'s shape and nothing is written', async () => {
    const before = snapshot();
    const res = await app.inject({
      method: 'POST',
      url: `/api/v4/projects/${ids.projects[0]}/repository/files/big.txt`,
      headers: { 'private-token': tokens.admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ branch: 'main', commit_message: 'big', content: HUGE }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: '413 Request Entity Too Large' });
    expect(snapshot()).toBe(before);
  });
});
