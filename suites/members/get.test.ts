// GET /groups/:id/members/:user_id and GET /projects/:id/members/:user_id: one direct member.
import { expectEqual, expectOk, expectTrue, parity, expectSetUp } from '../../runner/core/checks.js';
import { endpoint, fixture, type Hierarchy, type MembersContext } from './kit.js';
import { ACCESS, dateIn, sourceNotFound, type SourceKind, type SourceRef } from '../../runner/core/vocabulary.js';
import {
  expectNonMembersRead,
  expectNotMember,
  expectParamError,
  expectReadMatrix,
  expectSourceNotFound,
  findIn,
  inTemporarySource,
  listAll,
  memberPath,
  membersPath,
  publicSources,
  readMember,
  LEVEL,
  GITLAB,
  sharedHierarchy,
  samlGroup,
} from './helpers.js';
import { minimalAccessCase } from './cases.js';
import { projectBot } from '../common/project-bot.js';

const expiry = dateIn(12);

/**
 * A source of the kind below a group with a member of its own (`inherited`, not a direct member), and
 * `a` its direct Reporter with an expiry: in the run's EE hierarchy (MembersContext.sharedHierarchy), the
 * subgroup below the root for a group, the project below the subgroup for a project; the shared
 * actors hold their roles there by inheritance.
 */
async function build(t: MembersContext & { sharedHierarchy: Hierarchy }, kind: SourceKind) {
  const { root, sub, project } = t.sharedHierarchy;
  const [parent, source] = kind === 'group' ? [root, sub] : [sub, project];
  const inherited = await t.member(parent, ACCESS.MAINTAINER);
  const a = await t.lease();
  const added = await t.admin.post(membersPath(source), { body: { user_id: a.id, access_level: ACCESS.REPORTER, expires_at: expiry } });
  expectSetUp(added, 'adding a member with an expiry');
  return { source, inherited, a };
}

const sources = fixture({ name: 'members-members-get', scope: 'file', fixtures: { sharedHierarchy }, build: async (t) => ({ group: await build(t, 'group'), project: await build(t, 'project') }) });

const suite = endpoint('get', { fixtures: { sources } });

suite.test(
  {
    case: 'direct',
    title: 'a direct member reads back with its level, expiry and creator',
    clauses: ['members.get.direct', 'members.entity.shape', 'members.entity.created-by'],
  },
  async ({ kind, as, run, sources }) => {
    const { source, a } = sources[kind];
    const member = await readMember(as('guest'), source, a.id);
    expectEqual([member.id, member.username, member.name], [a.id, a.username, a.name], 'id, username and name of the member');
    expectEqual([member.access_level, member.expires_at], [ACCESS.REPORTER, expiry], 'access_level and expires_at');
    expectEqual(member.created_by?.id, run.adminId, 'created_by to be the administrator who added the member');
    expectEqual(member.email, undefined, 'no email for a Guest viewer');
  },
);

suite.test(
  {
    case: 'inherited-is-not-direct',
    title: 'a member of the group above is not a direct member: 404 "404 Not found"',
    clauses: ['members.get.direct'],
  },
  async ({ kind, as, sources }) => {
    const { source, inherited } = sources[kind];
    for (const role of ['owner', 'maintainer'] as const) await expectNotMember(as(role), source, inherited.id);
  },
);

suite.test(
  {
    case: 'creator-is-owner',
    title: 'the administrator who created a subgroup is its direct Owner, readable also through the subgroup\'s full path',
    clauses: ['members.get.direct', 'members.id.path-or-number'],
    only: { kind: 'group', why: 'GitLab makes the creator of a group its direct Owner; the creator of a project in a group may or may not become a direct member of it (see withoutAdmin)' },
  },
  async ({ as, run, sources }) => {
    const { source } = sources.group;
    expectOk(await as('owner').get(memberPath(source, run.adminId)), 200, 'member');
    const member = await readMember(as('owner'), { kind: 'group', id: source.fullPath }, run.adminId);
    expectEqual(member.access_level, ACCESS.OWNER, 'the creator of the subgroup, its owner');
  },
);

suite.test(
  {
    case: 'unknown-and-invalid',
    title: 'an unknown user gives 404 "404 Not found"; a user_id that is not a number gives 400',
    clauses: ['members.get.direct', 'members.get.user-id-integer', 'members.errors.shape'],
  },
  async ({ kind, as, run, sources }) => {
    const { source } = sources[kind];
    await expectNotMember(as('developer'), source, 2147483000);
    await expectNotMember(as('owner'), source, run.actors.outsider.id);
    for (const userId of ['someone', '1x']) expectParamError(await as('owner').get(memberPath(source, userId)), 'user_id', `${GITLAB.api} (requires :user_id, type: Integer); ${GITLAB.grape}`);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'every member of a private group or project may read a member; an outsider gets 404, nobody 401',
    clauses: ['members.read.visibility', 'members.auth.anonymous'],
  },
  async ({ kind, as, sources }) => {
    const { source, a } = sources[kind];
    await expectReadMatrix(as, memberPath(source, a.id), sourceNotFound(kind), 'member', false);
  },
);

suite.test(
  {
    case: 'by-path',
    title: 'the source may be named by its URL-encoded full path; an unknown one gives 404 "404 Group Not Found" / "404 Project Not Found"',
    clauses: ['members.id.path-or-number', 'members.read.visibility'],
  },
  async ({ kind, as, sources }) => {
    const { source, a } = sources[kind];
    expectTrue(source.fullPath.includes('/'), 'the full path to contain a slash (test setup)', source.fullPath);
    const member = await readMember(as('guest'), { kind, id: source.fullPath }, a.id);
    expectEqual([member.id, member.access_level], [a.id, ACCESS.REPORTER], `the member read through the ${kind}'s path`);
    expectSourceNotFound(await as('guest').get(memberPath({ kind, id: `${source.fullPath}-nowhere` }, a.id)), kind);
    expectSourceNotFound(await as('guest').get(memberPath({ kind, id: 2147483000 }, a.id)), kind);
  },
);

suite.test(
  {
    case: 'email',
    title: 'an owner does not see the member\'s email; an email shown to an administrator is the member\'s (GitLab: always shown to administrators)',
    clauses: ['members.entity.email-admin', 'members.entity.email-hidden'],
    requires: { capabilities: ['premium'] },
  },
  async ({ kind, as, log, sources }) => {
    const { source, a } = sources[kind];
    const shown = (await readMember(as('admin'), source, a.id)).email;
    expectTrue(shown === undefined || shown === a.email, 'an email shown to the administrator to be the member\'s', `got ${String(shown)}`);
    parity({ log }, `${GITLAB.eeEntity} (email if current_user.can_admin_all_resources?)`, () => expectEqual(shown, a.email, 'the email, for the administrator'));
    expectEqual((await readMember(as('owner'), source, a.id)).email, undefined, `no email for the ${kind}'s owner`);
  },
);

suite.test(
  {
    case: 'saml-identity',
    title: 'owners see the SAML identity on a membership of a group with SSO (GitLab: administrators too), never on a project membership; a Developer sees none',
    clauses: ['members.entity.saml-identity'],
    requires: { capabilities: ['saml'], provisioned: ['saml'] },
    fixtures: { samlGroup },
  },
  async ({ samlGroup, ...kit }) => {
    const { kind, as, withToken, log } = kit;
    const fx = samlGroup;
    const viewer = await kit.lease();
    // On the SSO group itself; for a project, on a project made in it with the identified user as a direct member.
    const check = async (source: SourceRef) => {
      for (const [client, who] of [[withToken(fx.ownerToken, 'SAML group owner'), 'the owner'], [as('admin'), 'an administrator']] as const) {
        const identity = (await readMember(client, source, fx.user_id)).group_saml_identity;
        // A project membership never shows it: its source is a project, which has no read_group_saml_identity (GITLAB.eeEntity).
        if (kind === 'project') {
          expectEqual(identity, undefined, `no group_saml_identity on a project membership, for ${who}`);
          continue;
        }
        const check = () =>
          expectTrue(
            typeof identity === 'object' && identity !== null && identity.extern_uid !== '' && typeof identity.provider === 'string' && Number.isInteger(identity.saml_provider_id),
            `${who} to see group_saml_identity {extern_uid, provider, saml_provider_id}`,
            `got ${JSON.stringify(identity)}`,
          );
        // The spec's rule names group owners; GitLab's ability lets administrators see it too.
        if (who === 'the owner') check();
        else parity({ log }, `${GITLAB.eeEntity} (group_saml_identity if Ability.allowed?(current_user, :read_group_saml_identity, member.source))`, check);
      }
      // The group's member list shows the owner the identity as the single read does.
      if (kind === 'group') {
        const listed = findIn(await listAll(withToken(fx.ownerToken, 'SAML group owner'), membersPath(source), 'member'), fx.user_id, 'the member with a SAML identity');
        expectTrue(typeof listed.group_saml_identity === 'object' && listed.group_saml_identity !== null, 'the owner to see group_saml_identity in the member list', `got ${JSON.stringify(listed.group_saml_identity)}`);
      }
      await kit.add(source, viewer, ACCESS.DEVELOPER);
      try {
        const seen = await readMember(withToken(viewer.tokens.api, `a Developer of the ${kind}`), source, fx.user_id);
        expectEqual(seen.group_saml_identity, undefined, 'no group_saml_identity for a viewer who is not an owner');
        const listed = await listAll(withToken(viewer.tokens.api, `a Developer of the ${kind}`), membersPath(source), 'member');
        expectEqual(listed.filter((m) => m.group_saml_identity !== undefined).map((m) => m.username), [], 'no group_saml_identity in the member list for a viewer who is not an owner');
      } finally {
        await kit.remove(source, viewer);
      }
    };
    if (kind === 'group') return check({ kind: 'group', id: fx.group_id });
    return inTemporarySource(kit, kind, fx.group_id, 'saml-project', async (project) => {
      // As Owner: a direct membership may not be lower than the level the user holds in the group.
      await kit.add(project, { id: fx.user_id }, ACCESS.OWNER);
      await check(project);
    });
  },
);

suite.test(
  {
    case: 'public-source-single-member',
    title: 'a stranger and an access requester read a direct member of a public group or project (200, with the Member fields); the requester is no member (404)',
    clauses: ['members.public.read', 'members.entity.shape', 'members.requester.not-member'],
    fixtures: { publicSources },
  },
  async ({ kind, as, run, withToken, publicSources }) => {
    const sources = publicSources;
    const source = sources[kind];
    const developer = run.actors.developer;
    await expectNonMembersRead({ as, withToken }, sources.requester, memberPath(source, developer.id), developer, ACCESS.DEVELOPER);
    await expectNotMember(as('owner'), source, sources.requester.id);
  },
);

minimalAccessCase(suite, {
  title: 'a Minimal access member of a top-level group is read as a direct member (200, access_level 5)',
  clauses: ['members.get.direct'],
  async check({ as }, { group, user }) {
    const member = await readMember(as('admin'), group, user.id);
    expectEqual([member.id, member.access_level], [user.id, LEVEL.MINIMAL], 'id and access_level of the Minimal access member');
  },
});

suite.test(
  {
    case: 'added-by-nobody',
    title: 'a member nobody added carries no created_by (GitLab parity: absent, not null): the creator of a group, its Owner from the start; the bot user of a project\'s access token',
    clauses: ['members.entity.created-by-absent'],
    fixtures: { projectBot },
  },
  async ({ kind, as, run, projectBot, sources }) => {
    // A group's creator (the administrator, of the run's subgroup); a project's bot, made by its access token.
    const { project, bot } = projectBot;
    const [source, userId] = kind === 'group' ? [sources.group.source, run.adminId] : [project, bot.id];
    const res = await as('owner').get(memberPath(source, userId));
    expectOk(res, 200, 'member');
    const createdBy = (res.body as { created_by?: unknown }).created_by;
    expectTrue(createdBy === undefined || createdBy === null, 'no created_by for a member nobody added', `got ${JSON.stringify(createdBy)}`, res);
    parity(res, `${GITLAB.createdBy} (expose_nil: false)`, () => expectTrue(!Object.hasOwn(res.body as object, 'created_by'), 'created_by left out', `got ${JSON.stringify(createdBy)}`, res));
  },
);
