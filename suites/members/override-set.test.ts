// POST /groups/:id/members/:user_id/override
import { fixture } from '../../fixtures/manifest.js';
import { expectEqual, expectError, expectOk, expectStatus, parity } from '../harness/core/checks.js';
import { endpoint } from '../harness/run/conformance.js';
import {
  exclusively,
  expectAnonymous401,
  expectForbidden,
  expectSourceNotFound,
  GITLAB,
  LEVEL,
  memberPath,
  overridePath,
  readMember,
  useMembersWorld,
  type MemberBody,
} from './helpers.js';
import { members } from './area.js';

const suite = endpoint(members, 'override-set');

/** GitLab shows override on every answer about an LDAP-synced group member, GET included (the spec only in the override operations). */
const OVERRIDE_SHOWN = `${GITLAB.eeEntity} (expose :override, if: source_type == 'Namespace' && member.ldap?)`;


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
  async ({ withToken, run, log }) => {
    const fx = fixture(run.fixtures, 'ldap')!;
    const group = { kind: 'group' as const, id: fx.group_id };
    const owner = withToken(fx.ownerToken, 'LDAP group owner');
    await exclusively(run, 'ldap', async () => {
      const before = await readMember(owner, group, fx.user_id);
      parity({ log }, OVERRIDE_SHOWN, () => expectEqual(before.override, false, 'the fixture member\'s override flag before the test'));
      const level = before.access_level;
      const other = level === LEVEL.REPORTER ? LEVEL.DEVELOPER : LEVEL.REPORTER;
      // Until overridden, the LDAP-synced level may not be changed (ee/app/policies/ee/group_member_policy.rb: rule { ldap & ~override }.prevent :update_group_member).
      expectForbidden(await owner.put(memberPath(group, fx.user_id), { body: { access_level: other } }), GITLAB.override);
      try {
        const res = await owner.post(overridePath(group, fx.user_id));
        // The spec gives no status; GitLab's route presents the member with Grape's POST status, 201.
        expectOk(res, [200, 201], 'member');
        parity(res, `${GITLAB.eeApi} (post ":id/members/:user_id/override": present_members, Grape's POST status)`, () => expectStatus(res, 201));
        expectEqual([(res.body as MemberBody).id, (res.body as MemberBody).override], [fx.user_id, true], 'the member with override true', res);
        const back = await readMember(owner, group, fx.user_id);
        parity({ log }, OVERRIDE_SHOWN, () => expectEqual(back.override, true, 'the override flag read back'));
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
    title: 'a member who is not LDAP-synced cannot be overridden (403) and keeps its level (GitLab: shows no override flag)',
    clauses: ['members.override.refused', 'members.entity.override-ldap'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, log }) => {
    const { group, plain } = world();
    expectForbidden(await as('owner').post(overridePath(group, plain.id)), GITLAB.override);
    const back = await readMember(as('owner'), group, plain.id);
    expectEqual(back.access_level, LEVEL.DEVELOPER, 'the member\'s level, unchanged');
    parity({ log }, OVERRIDE_SHOWN, () => expectEqual(back.override, undefined, 'no override flag on a member who is not LDAP-synced'));
  },
);

suite.test(
  {
    case: 'refused',
    title: 'a user who is no member is refused (403 or 404; GitLab on a group without LDAP sync: 403); a Developer 403, an outsider 404, nobody 401',
    clauses: ['members.override.refused', 'members.auth.anonymous'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, run }) => {
    const { group, plain } = world();
    // GitLab authorizes override_group_member on the group (LDAP-synced groups only) before it looks the member up.
    const nobody = await as('owner').post(overridePath(group, run.actors.outsider.id));
    expectError(nobody, [403, 404]);
    parity(nobody, GITLAB.override, () => expectForbidden(nobody, GITLAB.override));
    expectForbidden(await as('developer').post(overridePath(group, plain.id)), GITLAB.override);
    expectSourceNotFound(await as('outsider').post(overridePath(group, plain.id)), 'group');
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
  async ({ withToken, run, log }) => {
    const fx = fixture(run.fixtures, 'ldap')!;
    const group = { kind: 'group' as const, id: fx.group_id };
    const { t } = world();
    const viewer = await t.user();
    await exclusively(run, 'ldap', async () => {
      await t.add(group, viewer, LEVEL.DEVELOPER);
      try {
        expectForbidden(await withToken(viewer.tokens.api, 'a Developer of the LDAP group').post(overridePath(group, fx.user_id)), GITLAB.override);
        const back = await readMember(withToken(fx.ownerToken, 'LDAP group owner'), group, fx.user_id);
        parity({ log }, OVERRIDE_SHOWN, () => expectEqual(back.override, false, 'the override flag, unchanged'));
      } finally {
        await t.remove(group, viewer);
      }
    });
  },
);
