// DELETE /groups/:id/members/:user_id/override
import { fixture } from '../../fixtures/manifest.js';
import { expectEqual, expectError, expectOk, expectStatus } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import {
  exclusively,
  expectAnonymous401,
  expectForbidden,
  LEVEL,
  overridePath,
  readMember,
  useMembersWorld,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'override-remove');


const world = useMembersWorld('remove-member-override', async (t) => {
  const group = await t.roleGroup();
  const plain = await t.user();
  await t.add(group, plain, LEVEL.REPORTER);
  return { group, plain };
});

suite.test(
  {
    case: 'clears',
    title: 'after an override, DELETE returns the LDAP-synced member with override false, and the flag reads back false',
    clauses: ['members.override.clear', 'members.entity.override-ldap'],
    requires: { capabilities: ['premium', 'ldap'], fixtures: ['ldap'] },
  },
  async ({ withToken, run }) => {
    const fx = fixture(run.fixtures, 'ldap')!;
    const group = { kind: 'group' as const, id: fx.group_id };
    const owner = withToken(fx.ownerToken, 'LDAP group owner');
    await exclusively(run, 'ldap', async () => {
      expectStatus(await owner.post(overridePath(group, fx.user_id)), [200, 201], 'overriding the member first');
      const res = await owner.delete(overridePath(group, fx.user_id));
      expectOk(res, 200, 'member');
      expectEqual([(res.body as MemberBody).id, (res.body as MemberBody).override], [fx.user_id, false], 'the member with override false', res);
      expectEqual((await readMember(owner, group, fx.user_id)).override, false, 'the override flag read back');
    });
  },
);

suite.test(
  {
    case: 'refused',
    title: 'a member who is not LDAP-synced gives 403, an unknown member 404; a Developer 403, an outsider 404, nobody 401',
    clauses: ['members.override.refused', 'members.auth.anonymous'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, run }) => {
    const { group, plain } = world();
    expectForbidden(await as('owner').delete(overridePath(group, plain.id)));
    expectError(await as('owner').delete(overridePath(group, run.actors.outsider.id)), 404, { message: '404 Not found' });
    expectForbidden(await as('developer').delete(overridePath(group, plain.id)));
    expectError(await as('outsider').delete(overridePath(group, plain.id)), 404, { message: '404 Group Not Found' });
    expectAnonymous401(await as('anonymous').delete(overridePath(group, plain.id)));
    expectEqual((await readMember(as('owner'), group, plain.id)).access_level, LEVEL.REPORTER, 'the member, unchanged');
  },
);
