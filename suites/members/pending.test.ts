// GET /groups/:id/pending_members
import { expectEqual, expectOk, expectTrue, parity, expectSetUp } from '../../runner/core/checks.js';
import { apiPath } from '../../runner/core/client.js';
import { endpoint, fixture } from './kit.js';
import {
  checkPagination,
  GITLAB,
  LEVEL,
  pendingMembers,
  pendingPath,
  statePath,
} from './helpers.js';
import { subgroupAndRolesCase } from './cases.js';


const sources = fixture({ name: 'members-get-pending-members', scope: 'file', build: async (t) => {
  const { root, sub, project } = await t.hierarchy();
  // a: awaiting in the root group; b: awaiting through its only membership, in the project; c: active.
  const [a, b, c] = [await t.lease(), await t.lease(), await t.lease()];
  await t.add(root, a, LEVEL.DEVELOPER);
  await t.add(project, b, LEVEL.REPORTER);
  await t.add(sub, c, LEVEL.DEVELOPER);
  for (const user of [a, b]) {
    const res = await t.admin.put(statePath(root, user.id), { body: { state: 'awaiting' } });
    expectSetUp(res, `making ${user.username} awaiting`);
  }
  // Two people invited without an account (invitations API), one into the subgroup, one into the project.
  const email = t.names.email('invitee');
  const projectEmail = t.names.email('invitee');
  for (const [path, address] of [[apiPath`/groups/${sub.id}/invitations`, email], [apiPath`/projects/${project.id}/invitations`, projectEmail]]) {
    const invite = await t.admin.post(path, { body: { email: address, access_level: LEVEL.DEVELOPER } });
    expectSetUp(invite, `inviting ${address}`, { usable: (body) => (body as { status?: unknown }).status === 'success' });
  }
  return { root, sub, a, b, c, email, projectEmail };
} });

const suite = endpoint('pending', { fixtures: { sources } });

suite.test(
  {
    case: 'list',
    title: 'awaiting members of the whole hierarchy and people invited without an account are listed; active members are not',
    clauses: ['members.pending.list'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, log, sources }) => {
    const { root, a, b, c, email, projectEmail } = sources;
    const items = await pendingMembers(as('owner'), root);
    for (const user of [a, b]) {
      const entries = items.filter((p) => p.username === user.username);
      expectEqual(entries.length, 1, `one entry for awaiting ${user.username}`);
      const [entry] = entries;
      // approved: GitLab's member.active? (ee/lib/api/entities/pending_member.rb); invited: "true when invited and not yet registered".
      expectEqual([entry.name, entry.approved, entry.invited], [user.name, false, false], `name, approved and invited of ${user.username}`);
      expectTrue(typeof entry.web_url === 'string', `a web_url for ${user.username}, who has an account`, `got ${String(entry.web_url)}`);
      // The spec promises email only for people without an account, and says nothing of what web_url points to.
      parity({ log }, `${GITLAB.pendingEntity} (email: object.invite_email || object.user.email; web_url: the user's profile)`, () => {
        expectEqual(entry.email, user.email, `the email of ${user.username}, who has an account (their primary email)`);
        expectTrue(typeof entry.web_url === 'string' && entry.web_url.endsWith(`/${user.username}`), `web_url of ${user.username} to end in /${user.username}`, `got ${String(entry.web_url)}`);
      });
    }
    expectEqual(items.some((p) => p.username === c.username), false, 'the active member among the pending ones');
    for (const address of [email, projectEmail]) {
      const invited = items.filter((p) => p.email === address);
      expectEqual(invited.length, 1, `one entry for the invited address ${address}`);
      expectEqual([invited[0].invited, invited[0].username, invited[0].name, invited[0].web_url], [true, undefined, undefined, undefined], 'invited true, and no username, name or web_url without an account');
    }
  },
);

suite.test(
  {
    case: 'pagination',
    title: 'page and per_page page through the pending members with GitLab\'s headers',
    clauses: ['members.pagination'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, sources }) => {
    const { root } = sources;
    const ids = (await pendingMembers(as('owner'), root)).map((p) => p.id);
    await checkPagination(as('owner'), pendingPath(root), 'pending-member', ids);
  },
);

subgroupAndRolesCase(suite, sources, {
  prepare: async ({ as }, { root }) => {
    expectOk(await as('owner').get(pendingPath(root)), 200, 'pending-member', { list: true });
  },
  send: (client, group) => client.get(pendingPath(group)),
});
