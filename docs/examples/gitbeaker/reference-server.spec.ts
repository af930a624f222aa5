// @gitbeaker/rest against the reference server in a vitest file: started once with a seed, reset
// before each test, closed after all. In your project the import is the package's library entry,
// as here (this repository's vitest config points it at the sources).
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from 'gitlab-api-conformance/reference-server';

let server: ReferenceServer;
let api: InstanceType<typeof Gitlab>;

beforeAll(async () => {
  server = await startReferenceServer({ seed: new URL('../seed.yaml', import.meta.url).pathname });
  api = new Gitlab({ host: server.url, token: server.adminToken });
});
beforeEach(() => server.reset());
afterAll(() => server.close());

test('reads the seeded project', async () => {
  const file = await api.RepositoryFiles.showRaw('demo/app', 'README.md', 'main');
  expect(file).toBe('# app\n');
  expect((await api.GroupMembers.all('demo')).map((m) => m.username)).toEqual(['alice']);
});

test('changes stay in their test', async () => {
  const [alice] = await api.Users.all({ username: 'alice' });
  await api.GroupMembers.remove('demo', alice.id);
  expect(await api.GroupMembers.all('demo')).toEqual([]);
});

test('the next test starts from the seed again', async () => {
  expect((await api.GroupMembers.all('demo')).map((m) => m.username)).toEqual(['alice']);
  const alice = new Gitlab({ host: server.url, token: 'glpat-example-alice-000001' });
  expect((await alice.Users.showCurrentUser()).username).toBe('alice');
});
