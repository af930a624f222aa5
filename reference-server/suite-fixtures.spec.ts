// suiteFixtures: false (the command's --no-suite-fixtures): only the administrator and the seed, in
// the admin listings and after a reset; by default the suite's fixture users and groups are there.
import { expect, test } from 'vitest';
import { startReferenceServer } from './server.js';

const ADMIN = 'glpat-suite-fixtures-spec-01';
const seed = { users: [{ username: 'alice' }], groups: [{ path: 'demo' }] };

async function listings(suiteFixtures: boolean | undefined) {
  const server = await startReferenceServer({ adminToken: ADMIN, seed, ...(suiteFixtures === undefined ? {} : { suiteFixtures }) });
  try {
    const names = async (path: string, key: string) =>
      ((await (await fetch(`${server.url}/api/v4${path}`, { headers: { 'private-token': ADMIN } })).json()) as Record<string, string>[]).map((o) => o[key]).sort();
    await fetch(`${server.url}/-/reference/reset`, { method: 'POST', headers: { 'private-token': ADMIN } });
    return { users: await names('/users?per_page=100', 'username'), groups: await names('/groups?per_page=100', 'full_path'), fixtures: server.fixtures };
  } finally {
    await server.close();
  }
}

test('without the suite\'s fixtures: the administrator and the seed only, and an empty manifest', async () => {
  expect(await listings(false)).toEqual({ users: ['alice', 'root'], groups: ['demo'], fixtures: {} });
});

test('by default the suite\'s fixture users and groups are there too', async () => {
  const { users, groups, fixtures } = await listings(undefined);
  expect(users).toContain('fixture-ldap-user');
  expect(groups).toEqual(expect.arrayContaining(['demo', 'fixture-ldap', 'fixture-saml', 'fixture-enterprise']));
  expect(fixtures.ldap?.group_id).toBeGreaterThan(0);
});
