// PUT and DELETE …/members/:user_id: who may change a membership, as GitLab's member policies say
// (spec/policies/group_member_policy_spec.rb, spec/policies/project_member_policy_spec.rb).
import { expectEqual, expectOk, expectStatus } from '../../runner/core/checks.js';
import { apiPath } from '../../runner/core/client.js';
import { ACCESS } from '../../runner/core/vocabulary.js';
import { endpoint, fixture } from './kit.js';
import { expectAnonymous401, expectForbidden, GITLAB, memberPath, readMember } from './helpers.js';

/** A group and a project (in a group of its own) with the shared actors in their roles: the tests add members of their own. */
const sources = fixture({ name: 'members-edit-policy', scope: 'file', build: (t) => t.roleSources() });

/** An internal group with the shared actors in their roles (group_member_policy_spec "for an internal group"). */
const internalGroup = fixture({ name: 'members-internal-group', scope: 'file', build: (t) => t.roleGroup({ visibility: 'internal' }) });

const edit = endpoint('edit', { fixtures: { sources } });

edit.test(
  {
    case: 'own-membership',
    title: 'a Guest raising their own membership to Developer gets 403 and stays a Guest',
    clauses: ['members.edit.own-membership', 'members.manage.role'],
  },
  async ({ sources, ...kit }) => {
    const { kind, as, withToken } = kit;
    const source = sources[kind];
    const guest = await kit.member(source, ACCESS.GUEST);
    const res = await withToken(guest.tokens.api, 'the Guest themselves').put(memberPath(source, guest.id), { body: { access_level: ACCESS.DEVELOPER } });
    expectForbidden(res, `${GITLAB.forbidden}; app/policies/${kind}_member_policy.rb (update_${kind}_member needs admin_${kind}_member)`);
    expectEqual((await readMember(as('owner'), source, guest.id)).access_level, ACCESS.GUEST, 'the Guest\'s own level, unchanged');
  },
);

edit.test(
  {
    case: 'internal-anonymous',
    title: 'on an internal group, a PUT of a member without a token is refused with 401; the member is unchanged',
    clauses: ['members.auth.anonymous'],
    only: { kind: 'group', why: 'group_member_policy_spec reads an internal group' },
    fixtures: { internalGroup },
  },
  async ({ as, internalGroup, ...kit }) => {
    const user = await kit.member(internalGroup, ACCESS.REPORTER);
    expectAnonymous401(await as('anonymous').put(memberPath(internalGroup, user.id), { body: { access_level: ACCESS.MAINTAINER } }));
    expectEqual((await readMember(as('owner'), internalGroup, user.id)).access_level, ACCESS.REPORTER, 'the member\'s level, unchanged');
  },
);

const remove = endpoint('remove', { fixtures: { internalGroup } });

remove.test(
  {
    case: 'internal-anonymous',
    title: 'on an internal group, a DELETE of a member without a token is refused with 401; the member stays',
    clauses: ['members.auth.anonymous'],
    only: { kind: 'group', why: 'group_member_policy_spec reads an internal group' },
  },
  async ({ as, internalGroup, ...kit }) => {
    const user = await kit.member(internalGroup, ACCESS.REPORTER);
    expectAnonymous401(await as('anonymous').delete(memberPath(internalGroup, user.id)));
    expectEqual((await readMember(as('owner'), internalGroup, user.id)).access_level, ACCESS.REPORTER, 'the member, still there');
  },
);

edit.test(
  {
    case: 'admin-raises-to-owner',
    title: 'an administrator raises a project member to Owner: 200, read back at 50',
    clauses: ['members.edit.admin-project-owner'],
    only: { kind: 'project', why: 'the Owner rule of project_member.rb; a group\'s Owners give Owner themselves' },
    // An administrator's right beyond the spec's roles: GitLab's rule, a parity check.
    level: 'parity',
  },
  async ({ sources, ...kit }) => {
    const { as } = kit;
    const { project: source } = sources;
    const user = await kit.member(source, ACCESS.DEVELOPER);
    const res = await as('admin').put(memberPath(source, user.id), { body: { access_level: ACCESS.OWNER } });
    expectOk(res, 200, 'member');
    expectEqual((await readMember(as('owner'), source, user.id)).access_level, ACCESS.OWNER, 'the member read back as Owner');
  },
);

edit.test(
  {
    case: 'raised-writes-at-once',
    title: 'a Guest raised to Developer writes a file to a new branch in the next request (the Guest\'s write was 403)',
    clauses: ['members.access.at-once'],
    only: { kind: 'project', why: 'project_member_spec\'s authorization refresh, read through the project\'s repository' },
    // GitLab refreshes the member's authorizations when the membership is saved: its model's rule, a parity check.
    level: 'parity',
  },
  async ({ sources, ...kit }) => {
    const { as, withToken } = kit;
    const { project: source } = sources;
    const user = await kit.member(source, ACCESS.GUEST);
    const branch = kit.names.slug('raised');
    // To a new branch: the default branch is protected from Developers' pushes by default.
    const write = () =>
      withToken(user.tokens.api, 'the member').post(apiPath`/projects/${source.id}/repository/files/${`${branch}.txt`}`, {
        body: { branch, start_branch: source.defaultBranch, content: 'written at once\n', commit_message: 'a raised member writes' },
      });
    expectStatus(await write(), 403, 'a Guest\'s write refused');
    expectOk(await as('maintainer').put(memberPath(source, user.id), { body: { access_level: ACCESS.DEVELOPER } }), 200, 'member');
    expectStatus(await write(), 201, 'the write of the member raised to Developer');
  },
);
