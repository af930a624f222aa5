// POST /groups/:id/members/:user_id/override
import { fixture } from '../../fixtures/manifest.js';
import { expectEqual, expectError, expectOk, expectStatus } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import {
  exclusively,
  expectAnonymous401,
  expectForbidden,
  LEVEL,
  memberPath,
  overridePath,
  readMember,
  useMembersWorld,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'override-set');


const world = useMembersWorld('set-member-override', async (t) => {
  const group = await t.roleGroup();
  const plain = await t.user();
  await t.add(group, plain, LEVEL.DEVELOPER);
  return { group, plain };
});

suite.test(
  {
    case: 'set',
    title: 'an owner overrides an LDAP-synced member: override true, and the level may then be changed (restored afterwards)',
    clauses: ['members.override.set', 'members.entity.override-ldap', 'members.entity.shape'],
    requires: { capabilities: ['premium', 'ldap'], fixtures: ['ldap'] },
  },
  async ({ withToken, run }) => {
    const fx = fixture(run.fixtures, 'ldap')!;
    const group = { kind: 'group' as const, id: fx.group_id };
    const owner = withToken(fx.ownerToken, 'LDAP group owner');
    await exclusively(run, 'ldap', async () => {
      const before = await readMember(owner, group, fx.user_id);
      expectEqual(before.override, false, 'the fixture member\'s override flag before the test');
      const level = before.access_level;
      const other = level === LEVEL.REPORTER ? LEVEL.DEVELOPER : LEVEL.REPORTER;
      // Until overridden, the LDAP-synced level may not be changed (EE GroupMemberPolicy; unconfirmed).
      expectStatus(await owner.put(memberPath(group, fx.user_id), { body: { access_level: other } }), 403, 'an LDAP-synced level is not edited without an override');
      try {
        const res = await owner.post(overridePath(group, fx.user_id));
        // Grape answers a POST with 201; the facts' table says 200 (gitlab-facts §4): both are accepted.
        expectOk(res, [200, 201], 'member');
        expectEqual([(res.body as MemberBody).id, (res.body as MemberBody).override], [fx.user_id, true], 'the member with override true', res);
        expectEqual((await readMember(owner, group, fx.user_id)).override, true, 'the override flag read back');
        expectOk(await owner.put(memberPath(group, fx.user_id), { body: { access_level: other } }), 200, 'member');
        expectEqual((await readMember(owner, group, fx.user_id)).access_level, other, 'the overridden level read back');
      } finally {
        expectStatus(await owner.put(memberPath(group, fx.user_id), { body: { access_level: level } }), [200, 403], 'restoring the fixture\'s level');
        expectStatus(await owner.delete(overridePath(group, fx.user_id)), 200, 'clearing the override again');
      }
      expectEqual((await readMember(owner, group, fx.user_id)).access_level, level, 'the fixture member\'s level, restored');
    });
  },
);

suite.test(
  {
    case: 'not-ldap',
    title: 'a member who is not LDAP-synced cannot be overridden (403) and shows no override flag',
    clauses: ['members.override.refused', 'members.entity.override-ldap'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as }) => {
    const { group, plain } = world();
    expectForbidden(await as('owner').post(overridePath(group, plain.id)));
    expectEqual((await readMember(as('owner'), group, plain.id)).override, undefined, 'no override flag on a member who is not LDAP-synced');
  },
);

suite.test(
  {
    case: 'refused',
    title: 'an unknown member gives 404 "404 Not found"; a Developer 403, an outsider 404, nobody 401',
    clauses: ['members.override.refused', 'members.auth.anonymous'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, run }) => {
    const { group, plain } = world();
    expectError(await as('owner').post(overridePath(group, run.actors.outsider.id)), 404, { message: '404 Not found' });
    expectForbidden(await as('developer').post(overridePath(group, plain.id)));
    expectError(await as('outsider').post(overridePath(group, plain.id)), 404, { message: '404 Group Not Found' });
    expectAnonymous401(await as('anonymous').post(overridePath(group, plain.id)));
  },
);

suite.test(
  {
    case: 'non-owner-on-ldap-member',
    title: 'a Developer of the LDAP group cannot override its synced member (403); the flag stays false',
    clauses: ['members.override.refused'],
    requires: { capabilities: ['premium', 'ldap'], fixtures: ['ldap'] },
  },
  async ({ withToken, run }) => {
    const fx = fixture(run.fixtures, 'ldap')!;
    const group = { kind: 'group' as const, id: fx.group_id };
    const { t } = world();
    const viewer = await t.user();
    await exclusively(run, 'ldap', async () => {
      await t.add(group, viewer, LEVEL.DEVELOPER);
      try {
        expectForbidden(await withToken(viewer.tokens.api, 'a Developer of the LDAP group').post(overridePath(group, fx.user_id)));
        expectEqual((await readMember(withToken(fx.ownerToken, 'LDAP group owner'), group, fx.user_id)).override, false, 'the override flag, unchanged');
      } finally {
        await t.remove(group, viewer);
      }
    });
  },
);
