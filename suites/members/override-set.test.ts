// POST /groups/:id/members/:user_id/override
import { expectEqual, expectOk, expectStatus, expectTrue, parity } from '../../runner/core/checks.js';
import { endpoint } from './kit.js';
import { expectForbidden, expectOverrideRefused, GITLAB, LEVEL, memberPath, OVERRIDE_SHOWN, overridePath, readMember, overrideGroup, withLdapFixture, type MemberBody, ldapGroup } from './helpers.js';


const sources = overrideGroup('set-member-override', LEVEL.DEVELOPER);

const suite = endpoint('override-set', { fixtures: { sources } });

suite.test(
  {
    case: 'set',
    title: 'an owner overrides an LDAP-synced member: override true, and the level may then be changed (restored afterwards)',
    clauses: ['members.override.set', 'members.entity.override-ldap', 'members.entity.shape'],
    requires: { capabilities: ['premium', 'ldap'], provisioned: ['ldap'] },
    fixtures: { ldapGroup },
  },
  async ({ ldapGroup, ...kit }) => {
    const { log } = kit;
    await withLdapFixture(kit, ldapGroup, async ({ fx, group, owner }) => {
      const before = await readMember(owner, group, fx.user_id);
      parity({ log }, OVERRIDE_SHOWN, () => expectEqual(before.override, false, 'the fixture member\'s override flag before the test'));
      const level = before.access_level;
      const other = level === LEVEL.REPORTER ? LEVEL.DEVELOPER : LEVEL.REPORTER;
      // Until overridden, the LDAP-synced level may not be changed (ee/app/policies/ee/group_member_policy.rb: rule { ldap & ~override }.prevent :update_group_member).
      expectForbidden(await owner.put(memberPath(group, fx.user_id), { body: { access_level: other } }), GITLAB.override);
      try {
        const res = await owner.post(overridePath(group, fx.user_id));
        // The spec shows no status; GitLab's route presents the member with Grape's POST status, 201 (GITLAB.eeApi: post ":id/members/:user_id/override", every version from 15.0).
        expectOk(res, 201, 'member');
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
  async ({ as, log, sources }) => {
    const { group, plain } = sources;
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
  async ({ as, run, sources }) => {
    const { group, plain } = sources;
    await expectOverrideRefused(as, group, plain, run.actors.outsider.id, (client, path) => client.post(path));
  },
);

suite.test(
  {
    case: 'non-owner-on-ldap-member',
    title: 'a Developer of the LDAP group cannot override its synced member (403); the flag stays false',
    clauses: ['members.override.refused'],
    requires: { capabilities: ['premium', 'ldap'], provisioned: ['ldap'] },
    fixtures: { ldapGroup },
  },
  async ({ ldapGroup, ...kit }) => {
    const { withToken, log } = kit;
    const viewer = await kit.lease();
    await withLdapFixture(kit, ldapGroup, async ({ fx, group, owner }) => {
      await kit.add(group, viewer, LEVEL.DEVELOPER);
      try {
        expectForbidden(await withToken(viewer.tokens.api, 'a Developer of the LDAP group').post(overridePath(group, fx.user_id)), GITLAB.override);
        const back = await readMember(owner, group, fx.user_id);
        parity({ log }, OVERRIDE_SHOWN, () => expectEqual(back.override, false, 'the override flag, unchanged'));
      } finally {
        await kit.remove(group, viewer);
      }
    });
  },
);

suite.test(
  {
    case: 'ldap-group-plain-member',
    title: 'in the LDAP-synced group, a member who is not LDAP-synced cannot be overridden (403); a user who is no member gets no server error',
    clauses: ['members.override.refused'],
    requires: { capabilities: ['premium', 'ldap'], provisioned: ['ldap'] },
    fixtures: { ldapGroup },
  },
  async ({ ldapGroup, ...kit }) => {
    const [plain, stranger] = [await kit.lease(), await kit.lease()];
    await withLdapFixture(kit, ldapGroup, async ({ group, owner }) => {
      await kit.add(group, plain, LEVEL.DEVELOPER);
      try {
        // The group passes the override check; the member does not (GroupMemberPolicy: rule { ~ldap }.prevent :override_group_member).
        expectForbidden(await owner.post(overridePath(group, plain.id)), GITLAB.override);
        expectEqual((await readMember(owner, group, plain.id)).access_level, LEVEL.DEVELOPER, 'the plain member\'s level, unchanged');
        // GitLab's find_member gives nil for a non-member there; what it answers then is not settled, a 5xx is never right.
        const nobody = await owner.post(overridePath(group, stranger.id));
        expectTrue(nobody.status < 500, 'no server error for a user who is no member', `got HTTP ${nobody.status}`, nobody);
      } finally {
        await kit.remove(group, plain);
      }
    });
  },
);
