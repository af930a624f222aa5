// DELETE /groups/:id/members/:user_id/override
import { expectEqual, expectOk, expectStatus, parity } from '../../runner/core/checks.js';
import { endpoint } from './kit.js';
import { expectForbidden, expectOverrideRefused, GITLAB, LEVEL, OVERRIDE_SHOWN, overridePath, readMember, overrideGroup, withLdapFixture, type MemberBody, ldapGroup } from './helpers.js';


const sources = overrideGroup('remove-member-override', LEVEL.REPORTER);

const suite = endpoint('override-remove', { fixtures: { sources } });

suite.test(
  {
    case: 'clears',
    title: 'after an override, DELETE returns the LDAP-synced member with override false, and the flag reads back false',
    clauses: ['members.override.clear', 'members.entity.override-ldap'],
    requires: { capabilities: ['premium', 'ldap'], provisioned: ['ldap'] },
    fixtures: { ldapGroup },
  },
  async ({ ldapGroup, ...kit }) => {
    const { log } = kit;
    await withLdapFixture(kit, ldapGroup, async ({ fx, group, owner }) => {
      expectStatus(await owner.post(overridePath(group, fx.user_id)), [200, 201], 'overriding the member first');
      const res = await owner.delete(overridePath(group, fx.user_id));
      // The spec gives no status; GitLab presents the member, which Grape answers with 200 for a DELETE.
      expectOk(res, 200, 'member');
      expectEqual([(res.body as MemberBody).id, (res.body as MemberBody).override], [fx.user_id, false], 'the member with override false', res);
      // A GET is no override operation: the spec does not promise the flag there (GitLab shows it on LDAP-synced members).
      const back = await readMember(owner, group, fx.user_id);
      parity({ log }, OVERRIDE_SHOWN, () => expectEqual(back.override, false, 'the override flag read back'));
    });
  },
);

suite.test(
  {
    case: 'refused',
    title: 'a member who is not LDAP-synced gives 403, a user who is no member 403 or 404 (GitLab on a group without LDAP sync: 403); a Developer 403, an outsider 404, nobody 401',
    clauses: ['members.override.refused', 'members.auth.anonymous'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, run, sources }) => {
    const { group, plain } = sources;
    expectForbidden(await as('owner').delete(overridePath(group, plain.id)), GITLAB.override);
    await expectOverrideRefused(as, group, plain, run.actors.outsider.id, (client, path) => client.delete(path));
    expectEqual((await readMember(as('owner'), group, plain.id)).access_level, LEVEL.REPORTER, 'the member, unchanged');
  },
);
