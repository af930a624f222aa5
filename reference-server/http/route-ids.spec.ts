// Routes by id: a route registered from its table carries its declaration, and `matches` selects it
// by that declaration (its method, a GET route's HEAD only when asked, one source kind when asked);
// the server refuses an API route registered without one, so that every fault can name its routes.
import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { buildApp } from '../server.js';
import { serverArea } from '../areas.js';
import { MEMBER_ROUTES } from '../routes/members/source-members.js';
import { matches, on, routeTable, type When } from './route-ids.js';

const ROUTES = routeTable({
  read: { method: 'GET', path: '/:kind/:id/thing' },
  write: { method: 'PUT', path: '/:kind/:id/thing' },
});

/** Which of the `whens` the request to `method url` matches, by their index. */
async function matched(method: 'GET' | 'HEAD' | 'PUT', url: string, whens: When[]): Promise<number[]> {
  const app = Fastify();
  const seen: number[] = [];
  app.addHook('preHandler', async (request) => {
    whens.forEach((when, i) => matches(request, when) && seen.push(i));
  });
  for (const kind of ['group', 'project'] as const) {
    on(app, ROUTES.read, { kind }, async () => ({}));
    on(app, ROUTES.write, { kind }, async () => ({}));
  }
  const res = await app.inject({ method, url });
  expect(res.statusCode).toBe(200);
  await app.close();
  return seen;
}

describe('routes by id', () => {
  const whens: When[] = [{ route: ROUTES.read }, { route: ROUTES.read, method: ['GET', 'HEAD'] }, { route: ROUTES.read, kind: 'project' }, { route: [ROUTES.read, ROUTES.write] }, { route: ROUTES.write, kind: 'group' }];

  test('a route is matched by its declaration, for both kinds unless one is asked for', async () => {
    expect(await matched('GET', '/groups/1/thing', whens)).toEqual([0, 1, 3]);
    expect(await matched('GET', '/projects/1/thing', whens)).toEqual([0, 1, 2, 3]);
    expect(await matched('PUT', '/groups/1/thing', whens)).toEqual([3, 4]);
    expect(await matched('PUT', '/projects/1/thing', whens)).toEqual([3]);
  });

  test("a GET route's HEAD request is matched only where HEAD is asked for", async () => {
    expect(await matched('HEAD', '/groups/1/thing', whens)).toEqual([1]);
  });

  test('a route of both kinds is registered one kind at a time', () => {
    expect(() => on(Fastify(), ROUTES.read, async () => ({}))).toThrow('registered one kind at a time');
  });

  test('the server refuses an API route registered without its declaration, and takes one registered with it', async () => {
    const undeclared = serverArea('undeclared', (app) => {
      app.get('/undeclared', async () => ({}));
    });
    expect(() => buildApp({ areas: [undeclared] })).not.toThrow();
    const { app } = buildApp({ areas: [undeclared] });
    await expect(app.ready()).rejects.toThrow('GET /api/v4/undeclared: a route of the API is registered from its table');
    const declared = serverArea('declared', (api) => on(api, MEMBER_ROUTES.list, { kind: 'group' }, async () => []));
    await expect(buildApp({ areas: [declared] }).app.ready()).resolves.toBeDefined();
  });
});
