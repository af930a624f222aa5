// GET /groups/:id/members/all/:user_id and GET /projects/:id/members/all/:user_id: one direct,
// inherited or invited member of a group or project.
import { expectEqual, expectError, expectOk, parity } from '../../runner/core/checks.js';
import { endpoint, fixture, type MembersContext } from './kit.js';
import { ACCESS, sourceNotFound, type SourceKind } from '../../runner/core/vocabulary.js';
import type { GroupInfo } from '../../runner/core/vocabulary.js';
import {
  allMemberPath,
  expectNonMembersRead,
  expectParamError,
  expectParentMembersRefused,
  expectReadMatrix,
  GITLAB,
  privateParent,
  publicSources,
  readAnyMember,
  shareWith,
  sourceIn,
  type MemberBody,
} from './helpers.js';

/** GitLab's lookup among all members: find_by! → 404 "404 Not found". */
const NOT_FOUND = `${GITLAB.api} (get ":id/members/all/:user_id": find_all_members(source).find_by!); lib/api/api.rb (rescue_from ActiveRecord::RecordNotFound)`;

/**
 * The source of the kind in a role group, with x and y members of both, shared with a public group;
 * and a public source shared with a private group.
 */
async function build(t: MembersContext, kind: SourceKind, invitedPublic: GroupInfo, invitedPrivate: GroupInfo) {
  const top = await t.roleGroup();
  const source = await sourceIn(t, kind, top);
  // x: Developer above, Owner of the source; y: Reporter of the source, Maintainer above (in that
  // order: a membership may not be lower than an inherited one).
  const [x, y] = [await t.lease(), await t.lease()];
  await t.add(top, x, ACCESS.DEVELOPER);
  await t.add(source, x, ACCESS.OWNER);
  await t.add(source, y, ACCESS.REPORTER);
  await t.add(top, y, ACCESS.MAINTAINER);
  await shareWith(t, source, invitedPublic, ACCESS.MAINTAINER);
  const shared = await sourceIn(t, kind, await t.group({ visibility: 'public' }), 'public');
  const sm = await t.member(shared, ACCESS.DEVELOPER);
  await shareWith(t, shared, invitedPrivate, ACCESS.DEVELOPER);
  return { source, shared, x, y, sm };
}

const sources = fixture({ name: 'members-members-get-all', scope: 'file', fixtures: { privateParent }, build: async (t) => {
  const invitedPublic = await t.group({ visibility: 'public' });
  const p = await t.member(invitedPublic, ACCESS.MAINTAINER);
  const invitedPrivate = await t.group();
  const r = await t.member(invitedPrivate, ACCESS.DEVELOPER);
  return {
    group: await build(t, 'group', invitedPublic, invitedPrivate),
    project: await build(t, 'project', invitedPublic, invitedPrivate),
    p,
    r,
    private: t.privateParent,
  };
} });

const suite = endpoint('get-all', { fixtures: { sources } });

suite.test(
  {
    case: 'inherited-and-invited',
    title: 'an inherited member and a member of an invited group are found, with their levels',
    clauses: ['members.get-all.member', 'members.entity.shape'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, run, sources }) => {
    const { source } = sources[kind];
    const { p } = sources;
    for (const role of ['maintainer', 'guest'] as const) {
      const inherited = await readAnyMember(as('guest'), source, run.actors[role].id);
      expectEqual([inherited.id, inherited.access_level], [run.actors[role].id, role === 'maintainer' ? ACCESS.MAINTAINER : ACCESS.GUEST], `the ${role} of the group above, inherited`);
    }
    const invited = await readAnyMember(as('developer'), source, p.id);
    expectEqual([invited.id, invited.access_level], [p.id, ACCESS.MAINTAINER], 'the Maintainer of the invited group');
  },
);

suite.test(
  {
    case: 'highest-level',
    title: 'a user who is a member of the source and of the group above it is found with the higher level',
    clauses: ['members.get-all.member', 'members.all.highest-level'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, sources }) => {
    const { source, x, y } = sources[kind];
    expectEqual((await readAnyMember(as('owner'), source, x.id)).access_level, ACCESS.OWNER, 'x: Developer above, Owner of the source → 50');
    expectEqual((await readAnyMember(as('guest'), source, y.id)).access_level, ACCESS.MAINTAINER, 'y: Reporter of the source, Maintainer above → 40');
  },
);

suite.test(
  {
    case: 'not-a-member',
    title: 'a user who is no member in any way gives 404 "404 Not found"; a user_id that is not a number gives 400',
    clauses: ['members.get-all.member', 'members.get.user-id-integer'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, run, sources }) => {
    const { source } = sources[kind];
    expectError(await as('owner').get(allMemberPath(source, run.actors.outsider.id)), 404, { message: '404 Not found', gitlab: NOT_FOUND });
    expectParamError(await as('owner').get(allMemberPath(source, 'x1')), 'user_id', `${GITLAB.api} (requires :user_id, type: Integer); ${GITLAB.grape}`);
  },
);

suite.test(
  {
    case: 'invited-private',
    title: 'a member of an invited private group is not found for an outsider, and is found for a member of the shared group or project',
    clauses: ['members.get-all.member', 'members.all.invited-visible', 'members.all.invited-private-to-source-members'],
    requires: { minVersion: '17.0' },
  },
  async ({ kind, as, withToken, sources }) => {
    const { shared, sm } = sources[kind];
    const { r } = sources;
    expectError(await as('outsider').get(allMemberPath(shared, r.id)), 404, { message: '404 Not found', gitlab: NOT_FOUND });
    expectEqual((await readAnyMember(withToken(sm.tokens.api, `a member of the shared ${kind}`), shared, r.id)).id, r.id, `the private invited group's member, for a member of the shared ${kind}`);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'inherited members of a private group or project may read a member; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
    requires: { minVersion: '12.4' },
  },
  async ({ kind, as, sources }) => {
    const { source, x } = sources[kind];
    await expectReadMatrix(as, allMemberPath(source, x.id), sourceNotFound(kind), 'member', false);
  },
);

suite.test(
  {
    case: 'public-source-single-member',
    title: 'a stranger and an access requester read a member among all members of a public group or project (200, with the Member fields)',
    clauses: ['members.public.read', 'members.entity.shape'],
    fixtures: { publicSources },
  },
  async ({ kind, as, run, withToken, publicSources }) => {
    const sources = publicSources;
    const source = sources[kind];
    const developer = run.actors.developer;
    await expectNonMembersRead({ as, withToken }, sources.requester, allMemberPath(source, developer.id), developer, ACCESS.DEVELOPER);
  },
);

suite.test(
  {
    case: 'subgroup-member-private-parent',
    title: 'a member of a subgroup only may not read a member among all members of the private parent group: 403 or 404 (GitLab: 403 "403 Forbidden")',
    clauses: ['members.read.private-parent'],
    only: { kind: 'group', why: 'only a group has subgroups whose members may see it without being its members' },
  },
  async ({ run, withToken, sources }) => {
    const { parent, subMember } = sources.private;
    const client = withToken(subMember.tokens.api, 'a member of the subgroup only');
    expectParentMembersRefused(await client.get(allMemberPath(parent, run.actors.owner.id)));
  },
);

suite.test(
  {
    case: 'invited-private-created-by',
    title: 'a member of an invited private group, read one by one: a member of the shared group or project gets it without created_by (GitLab parity), its manager with created_by',
    clauses: ['members.entity.created-by', 'members.all.invited-private-to-source-members'],
    requires: { minVersion: '17.0' },
  },
  async ({ kind, as, withToken, run, sources }) => {
    const { shared, sm } = sources[kind];
    const { r } = sources;
    const bySourceMember = await withToken(sm.tokens.api, `a member of the shared ${kind}`).get(allMemberPath(shared, r.id));
    expectOk(bySourceMember, 200, 'member');
    // GitLab hides who added a member of a private group the viewer cannot see (present_members_with_invited_private_group_accessibility).
    parity(bySourceMember, `${GITLAB.createdBy}; spec/requests/api/members_spec.rb (GET …/members/all/:user_id: hides the created_by attribute of the invited group members)`, () => {
      expectEqual((bySourceMember.body as MemberBody).created_by, undefined, 'no created_by for a member of a group the viewer cannot see', bySourceMember);
    });
    // The administrator who made the shared source manages its members, and added r.
    const byManager = await as('admin').get(allMemberPath(shared, r.id));
    expectOk(byManager, 200, 'member');
    expectEqual((byManager.body as MemberBody).created_by?.id, run.adminId, 'created_by of the private invited group\'s member, shown to the manager of the shared source', byManager);
  },
);
