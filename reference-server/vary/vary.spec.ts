// The vary layer against `buildApp({ vary: seed })`, in contrast with the seedless server: group and
// project ids collide, unknown fields appear on every object, timestamps take another precision,
// only the lists lists.ts marks as open change order (and GitLab's order is kept elsewhere), headers
// and keys move, and the same seed answers the same requests the same way.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, describe, expect, test } from 'vitest';
import { buildApp } from '../server.js';

type Json = Record<string, unknown>;
const ADMIN = 'glpat-vary-unit-admin-00000';
const SEEDS = Array.from({ length: 12 }, (_, i) => i + 1);

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

interface Answer {
  status: number;
  text: string;
  body: unknown;
  headers: Record<string, unknown>;
}

async function call(app: FastifyInstance, method: InjectOptions['method'], url: string, payload?: Json): Promise<Answer> {
  const res = await app.inject({ method, url: `/api/v4${url}`, headers: { 'private-token': ADMIN }, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, text: res.body, body: res.body === '' ? undefined : JSON.parse(res.body), headers: res.headers };
}

interface World {
  app: FastifyInstance;
  get: (url: string) => Promise<Answer>;
  groups: number[];
  projects: number[];
  top: number;
  project: number;
  users: Json[];
}

/** The same small world on a server: groups and projects in turn, users as members, shares, mirrors, a commit. */
async function world(vary?: number): Promise<World> {
  const app = buildApp({ adminToken: ADMIN, ...(vary === undefined ? {} : { vary }) }).app;
  apps.push(app);
  const made = async (method: InjectOptions['method'], url: string, payload: Json) => {
    const res = await call(app, method, url, payload);
    if (res.status >= 300) throw new Error(`set-up ${method} ${url}: ${res.status} ${res.text}`);
    return res.body as Json;
  };
  const groups: number[] = [];
  const projects: number[] = [];
  for (let i = 0; i < 10; i++) {
    groups.push((await made('POST', '/groups', { name: `g${i}`, path: `g${i}`, visibility: 'public' })).id as number);
    projects.push((await made('POST', '/projects', { name: `p${i}`, namespace_id: groups[0], visibility: 'public', initialize_with_readme: true })).id as number);
  }
  const [top, project] = [groups[0], projects[0]];
  const users: Json[] = [];
  // Created in an order that is neither GitLab's search order nor its reverse (searchOrder in lists.ts).
  for (const name of ['Vary Beta', 'Alpha Vary', 'vary', 'Vary Alpha', 'Other One', 'Other Two']) {
    const username = name.toLowerCase().replace(/ /g, '-');
    const user = await made('POST', '/users', { username, name, email: `${username}@example.com`, password: 'Secret-12345', skip_confirmation: true });
    users.push(user);
    await made('POST', `/groups/${top}/members`, { user_id: user.id, access_level: 30, ...(name === 'Other Two' ? { expires_at: '2099-01-01' } : {}) });
  }
  for (const group of groups.slice(1, 5)) await made('POST', `/projects/${project}/share`, { group_id: group, group_access: 20 });
  for (const name of ['a', 'b', 'c']) await made('POST', `/projects/${project}/remote_mirrors`, { url: `https://example.com/${name}.git` });
  return { app, get: (url) => call(app, 'GET', url), groups, projects, top, project, users };
}

const base = await world();
const varied = new Map<number, World>();
for (const seed of SEEDS) varied.set(seed, await world(seed));
const each = <T>(fn: (w: World, seed: number) => T | Promise<T>): Promise<T[]> => Promise.all(SEEDS.map((seed) => fn(varied.get(seed)!, seed)));

/** Every object in a JSON value, with the key it hangs under. */
function objects(value: unknown, key = ''): [string, Json][] {
  if (Array.isArray(value)) return value.flatMap((item) => objects(item, key));
  if (value === null || typeof value !== 'object') return [];
  const object = value as Json;
  return [[key, object], ...Object.entries(object).flatMap(([k, v]) => objects(v, k))];
}

const names = (answer: Answer) => (answer.body as Json[]).map((row) => row.name);
const without = (answer: Answer) => Object.keys(answer.headers).filter((name) => name !== 'date');

describe('vary: ids', () => {
  test('the seedless server counts every sequence from 1', () => {
    expect(base.groups[0]).toBe(1);
    expect(base.projects[0]).toBe(1);
  });

  test('groups and projects draw from two sequences that collide, for every seed', async () => {
    await each((w, seed) => {
      const shared = w.projects.filter((id) => w.groups.includes(id));
      expect(shared.length, `seed ${seed}: group ids ${w.groups}, project ids ${w.projects}`).toBeGreaterThan(0);
    });
  });

  test('the same group or project id names the one it names, the group on /groups and the project on /projects', async () => {
    await each(async (w) => {
      const id = w.projects.find((p) => w.groups.includes(p))!;
      expect(((await w.get(`/groups/${id}`)).body as Json).name).toMatch(/^g\d$/);
      expect(((await w.get(`/projects/${id}`)).body as Json).name).toMatch(/^p\d$/);
    });
  });

  test('user ids start elsewhere and, for some seeds, skip', () => {
    const ids = SEEDS.map((seed) => varied.get(seed)!.users.map((u) => u.id as number));
    expect(new Set(ids.map((list) => list[0])).size).toBeGreaterThan(SEEDS.length / 2);
    expect(ids.some((list) => list.some((id, i) => i > 0 && id - list[i - 1] > 1))).toBe(true);
  });
});

describe('vary: answers', () => {
  test('every object of an answer carries unknown fields, nested ones and error bodies too; data maps do not', async () => {
    await each(async (w) => {
      const answers = [
        await w.get(`/groups/${w.top}/members`),
        await w.get(`/projects/${w.project}/members/all`),
        await w.get(`/projects/${w.project}`),
        await w.get(`/projects/${w.project}/repository/files/README.md/blame?ref=main`),
        await w.get('/no/such/route'),
        await call(w.app, 'POST', '/groups', { name: 'bad path', path: '-bad' }),
      ];
      for (const answer of answers) {
        for (const [key, object] of objects(answer.body)) {
          const extra = Object.keys(object).filter((k) => k.startsWith('x_vary_'));
          if (key === 'message' || key === 'trailers' || key === 'extended_trailers' || key.startsWith('x_vary_')) expect(key.startsWith('x_vary_') || extra.length === 0, `${key}: ${JSON.stringify(object)}`).toBe(true);
          else expect(extra.length, `${key}: ${JSON.stringify(object)}`).toBeGreaterThan(0);
        }
      }
    });
    expect(JSON.stringify((await base.get(`/groups/${base.top}/members`)).body)).not.toContain('x_vary_');
  });

  test('timestamps: whole seconds, milliseconds or microseconds as the seed chooses, UTC with Z; dates stay dates; commit dates keep milliseconds', async () => {
    const precisions = new Set<number>();
    await each(async (w) => {
      const members = (await w.get(`/groups/${w.top}/members`)).body as Json[];
      for (const member of members) {
        const match = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.(\d{3}|\d{6}))?Z$/.exec(member.created_at as string);
        expect(match, String(member.created_at)).not.toBeNull();
        precisions.add(match![1]?.length ?? 0);
      }
      expect(members.find((m) => m.name === 'Other Two')!.expires_at).toBe('2099-01-01');
      const [range] = (await w.get(`/projects/${w.project}/repository/files/README.md/blame?ref=main`)).body as { commit: Json }[];
      expect(range.commit.authored_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });
    expect([...precisions].sort()).toEqual([0, 3, 6]);
  });

  test('lists GitLab orders keep their order: members, mirrors, billable members without sort', async () => {
    const order = async (w: World) => ({
      members: names(await w.get(`/groups/${w.top}/members`)),
      mirrors: ((await w.get(`/projects/${w.project}/remote_mirrors`)).body as Json[]).map((m) => m.url),
      billable: names(await w.get(`/groups/${w.top}/billable_members`)),
      billableByName: names(await w.get(`/groups/${w.top}/billable_members?sort=name_desc`)),
    });
    const expected = await order(base);
    await each(async (w) => expect(await order(w)).toEqual(expected));
  });

  test('a member search comes in GitLab\'s order (exact name first, then by name), whatever order the members were added in', async () => {
    expect(names(await base.get(`/groups/${base.top}/members?query=vary`))).toEqual(['Vary Beta', 'Alpha Vary', 'vary', 'Vary Alpha']);
    await each(async (w) => {
      expect(names(await w.get(`/groups/${w.top}/members?query=vary`))).toEqual(['vary', 'Alpha Vary', 'Vary Alpha', 'Vary Beta']);
      expect(names(await w.get(`/groups/${w.top}/members/all?query=vary`))).toEqual(['vary', 'Alpha Vary', 'Vary Alpha', 'Vary Beta']);
    });
  });

  test('lists GitLab leaves open are shuffled for some seeds, with the same rows: billable members by sign-in (nobody signed in), a project\'s shares', async () => {
    const billable = names(await base.get(`/groups/${base.top}/billable_members?sort=recent_sign_in`));
    const shares = ((await base.get(`/projects/${base.project}`)).body as { shared_with_groups: Json[] }).shared_with_groups.map((s) => s.group_name);
    const orders = await each(async (w) => {
      const ours = names(await w.get(`/groups/${w.top}/billable_members?sort=recent_sign_in`));
      const theirShares = ((await w.get(`/projects/${w.project}`)).body as { shared_with_groups: Json[] }).shared_with_groups.map((s) => s.group_name);
      expect([...ours].sort()).toEqual([...billable].sort());
      expect([...theirShares].sort()).toEqual([...shares].sort());
      return [ours.join(), theirShares.join()];
    });
    expect(orders.some(([ours]) => ours !== billable.join())).toBe(true);
    expect(orders.some(([, theirs]) => theirs !== shares.join())).toBe(true);
  });
});

describe('vary: answers in other orders, and by seed', () => {
  test('keys, headers and the links of a Link header come in other orders; extra headers appear; strings are escaped otherwise', async () => {
    const members = (w: World) => `/groups/${w.top}/members?per_page=2&page=2`;
    const plain = await base.get(members(base));
    const answers = await each((w) => w.get(members(w)));
    const common = (a: Answer) => without(a).filter((name) => name in plain.headers).join();
    expect(answers.some((a) => common(a) !== without(plain).join())).toBe(true);
    expect(answers.some((a) => a.headers['x-request-id'] !== undefined)).toBe(true);
    const rels = (a: Answer) => String(a.headers.link).match(/rel="\w+"/g)!.join();
    expect(answers.some((a) => rels(a) !== rels(plain))).toBe(true);
    const keys = (a: Answer) => Object.keys((a.body as Json[])[0]).filter((k) => !k.startsWith('x_vary_')).join();
    expect(answers.some((a) => keys(a) !== keys(plain))).toBe(true);
    // avatar_url holds `&d=identicon`: written `\u0026` by some seeds, read back the same.
    expect(plain.text).toContain('&d=identicon');
    expect(answers.some((a) => a.text.includes('\\u0026d=identicon'))).toBe(true);
    for (const a of answers) expect(((a.body as Json[])[0].avatar_url as string).endsWith('&d=identicon')).toBe(true);
  });

  test('the same seed answers the same requests the same way; another seed otherwise', async () => {
    const again = await world(3);
    const urls = [`/groups/${again.top}/members`, `/projects/${again.project}`, `/groups/${again.top}/billable_members?sort=oldest_sign_in`, `/projects/${again.project}/remote_mirrors`];
    // The two worlds were made at other times: their timestamps differ, and nothing else may.
    const timeless = (a: Answer) => a.text.replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '<time>');
    for (const url of urls) {
      const [first, second] = [await varied.get(3)!.get(url), await again.get(url)];
      expect(timeless(second)).toBe(timeless(first));
      expect(without(second)).toEqual(without(first));
    }
    const other = await varied.get(4)!.get(urls[0]);
    expect(timeless(other)).not.toBe(timeless(await again.get(urls[0])));
  });
});
