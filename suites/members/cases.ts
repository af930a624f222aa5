// Cases more than one members endpoint runs, each added to an endpoint's suite by a factory
// (subgroup-and-roles, project-bot, requester-reads), and the last-owner set-ups of edit and remove.
import { type Client, type Exchange } from '../../runner/core/client.js';
import { expectEqual, expectTrue } from '../../runner/core/checks.js';
import type { Endpoint, Kit, TestSpec } from '../../runner/run/conformance.js';
import type { Fixture, Fixtures } from '../../runner/run/fixture.js';
import { type MembersKit } from './kit.js';
import { ACCESS, type GroupInfo } from '../../runner/core/vocabulary.js';
import type { ActorInfo } from '../../runner/run/context.js';
import { publicSources } from '../common/public-sources.js';
import { MANAGERS } from '../common/managers.js';
import { projectBot } from '../common/project-bot.js';
import { GITLAB } from './clauses.js';
import { memberPath, type SourceRef } from './paths.js';
import { expectBadRequest, expectForbidden, expectNonMembersRefused, expectOwnersOnly, MINIMAL_ACCESS_GROUPS, minimalAccessMember } from './helpers.js';
import { idsOf, listAll, memberIds, readMember, type MemberBody } from './read.js';

/** What a case factory adds its test to: an endpoint's suite (kit.ts endpoint). */
type Suite = Endpoint<MembersKit, Fixtures>;
/** A members test's kit, without its fixtures. */
type MembersTestKit = Kit & MembersKit;

/**
 * The `subgroup-and-roles` case of an EE endpoint of a top-level group (members.ee.top-level-only,
 * members.ee.admin-only, members.auth.anonymous): `send` on the subgroup gives 400 to its Owner; on
 * the top group its Maintainers, Developers and Guests are refused, an outsider gets 404 (or what
 * `outsider` checks) and nobody 401. `sources`: the fixture with the two groups, which `prepare` and
 * `after` are handed too. `prepare` runs first (its value goes to `send` and `after`), `after` checks
 * what stayed, which the title says in `stays`.
 */
export function subgroupAndRolesCase<S extends { root: GroupInfo; sub: GroupInfo }, P = undefined>(
  suite: Suite,
  sources: Fixture<S>,
  c: {
    stays?: string;
    prepare?: (kit: MembersTestKit, sources: S) => Promise<P>;
    send: (client: Client, group: GroupInfo, prepared: P) => Promise<Exchange>;
    outsider?: (res: Exchange) => void;
    after?: (kit: MembersTestKit, prepared: P, sources: S) => Promise<void>;
  },
): void {
  suite.test(
    {
      case: 'subgroup-and-roles',
      title: `a subgroup gives 400; Maintainers, Developers and Guests are refused (400 or 403; GitLab: 400), an outsider gets 404, nobody 401${c.stays === undefined ? '' : `; ${c.stays}`}`,
      clauses: ['members.ee.top-level-only', 'members.ee.admin-only', 'members.auth.anonymous'],
      requires: { capabilities: ['premium'] },
      fixtures: { sources } },
    async ({ sources, ...kit }) => {
      const { as } = kit;
      const { root, sub } = sources;
      const prepared = (await c.prepare?.(kit, sources)) as P;
      expectBadRequest(await c.send(as('owner'), sub, prepared));
      await expectOwnersOnly(as, (client) => c.send(client, root, prepared), c.outsider);
      await c.after?.(kit, prepared, sources);
    },
  );
}

/**
 * The `project-bot` case of a write to a project's membership of its access token's bot
 * (members.project-bot.kept): refused to every manager of the project, its Owner too (403), and the
 * bot stays a Maintainer. `done`: what the write would have done ("edited"); `stays`: the title's end.
 */
export function projectBotKeptCase(suite: Suite, c: { done: string; stays: string; send: (client: Client, path: string) => Promise<Exchange> }): void {
  suite.test(
    {
      case: 'project-bot',
      title: `the bot user of the project's access token is not ${c.done}, not even by the project's Owner (403); ${c.stays}`,
      clauses: ['members.project-bot.kept'],
      only: { kind: 'project', why: 'a project access token\'s bot is a member of its project only' },
      fixtures: { projectBot } },
    async ({ as, projectBot }) => {
      const { project, bot } = projectBot;
      for (const role of MANAGERS.project) expectForbidden(await c.send(as(role), memberPath(project, bot.id)), GITLAB.projectBot);
      expectEqual((await readMember(as('owner'), project, bot.id)).access_level, ACCESS.MAINTAINER, 'the bot, still a Maintainer of its project');
    },
  );
}

/**
 * The `public-source-writes-forbidden` case of a write to a membership (members.public.writes-refused):
 * on a public group or project a stranger and an access requester are refused `send` on the
 * Developer's membership (its `path`) with 403, not 404, and the Developer stays at its level (`kept`:
 * what the check says of it). `done`: what the write would have done ("edit"); `stays`: the title's end.
 */
export function publicWritesRefusedCase(suite: Suite, c: { done: string; stays: string; kept: string; send: (client: Client, path: string) => Promise<Exchange> }): void {
  suite.test(
    {
      case: 'public-source-writes-forbidden',
      title: `on a public group or project a stranger and an access requester may not ${c.done} a member (403, not 404); ${c.stays}`,
      clauses: ['members.public.writes-refused'],
      fixtures: { publicSources },
    },
    async ({ kind, as, run, withToken, publicSources: sources }) => {
      const source = sources[kind];
      const developer = run.actors.developer.id;
      await expectNonMembersRefused({ as, withToken }, sources.requester, (client) => c.send(client, memberPath(source, developer)));
      expectEqual((await readMember(as('owner'), source, developer)).access_level, ACCESS.DEVELOPER, c.kept);
    },
  );
}

/**
 * The `requester-reads` case of a members list (members.public.read, members.requester.not-member):
 * a user whose access request to a public group or project is pending reads the list (`path`) of
 * the source, which holds its members but not the requester. `lists`: what the title says it lists.
 */
export function requesterReadsCase(suite: Suite, c: { lists: string; path: (source: SourceRef) => string }): void {
  suite.test(
    {
      case: 'requester-reads',
      title: `a user whose access request to a public group or project is pending lists ${c.lists} (200) and is not among them`,
      clauses: ['members.public.read', 'members.requester.not-member'],
      fixtures: { publicSources } },
    async ({ kind, run, withToken, publicSources: sources }) => {
      const pending = sources.requester;
      const ids = idsOf(await listAll(withToken(pending.tokens.api, 'access requester'), c.path(sources[kind]), 'member'));
      expectTrue(ids.includes(run.actors.developer.id), 'the members, the Developer among them, to be listed to the requester', `ids: ${ids.join(', ')}`);
      expectTrue(!ids.includes(pending.id), 'the requester not to be listed among the members', `ids: ${ids.join(', ')}`);
    },
  );
}

/**
 * The `minimal-access` case of a members endpoint (members.minimal-access and the endpoint's
 * `clauses`; top-level groups only, Premium): `check` on a user lent to the test made a Minimal
 * access member of the group of `sources` (a fixture whose group's roles the check acts as) or,
 * without it, of a new top-level group whose only other member is the administrator who made it.
 */
export function minimalAccessCase(
  suite: Suite,
  c: { title: string; clauses: string[]; sources?: Fixture<{ group: GroupInfo }>; check: (kit: MembersTestKit, member: { group: GroupInfo; user: ActorInfo }) => Promise<void> },
): void {
  const spec: TestSpec = { case: 'minimal-access', title: c.title, clauses: ['members.minimal-access', ...c.clauses], only: MINIMAL_ACCESS_GROUPS, requires: { capabilities: ['premium'] } };
  if (c.sources) suite.test({ ...spec, fixtures: { sources: c.sources } }, async ({ sources, ...kit }) => c.check(kit, await minimalAccessMember(kit, sources.group)));
  else suite.test(spec, async ({ ...kit }) => c.check(kit, await minimalAccessMember(kit)));
}

// ---- the last-owner cases of edit and remove ---------------------------------------------------

/**
 * The `last-owner` case of a write to a group membership (`clause`): the last owner of a top-level
 * group (groupWithLastOwner) is refused each of `writes` with 403, not even an administrator may
 * (GroupMemberPolicy's last_owner rule prevents the write, and wins over an administrator's enable),
 * and `stays` checks the membership read back after them. `why`: why it holds for groups only.
 */
export function lastOwnerCase(
  suite: Suite,
  c: { title: string; clause: string; why: string; writes: ((admin: Client, path: string) => Promise<Exchange>)[]; stays: (member: MemberBody) => void },
): void {
  suite.test(
    { case: 'last-owner', title: c.title, clauses: [c.clause], only: { kind: 'group', why: c.why } },
    async ({ ...kit }) => {
      const { as, run } = kit;
      const alone = await groupWithLastOwner(kit, as('admin'), run.adminId);
      for (const write of c.writes) expectForbidden(await write(as('admin'), memberPath(alone, run.adminId)), GITLAB.lastOwner);
      c.stays(await readMember(as('admin'), alone, run.adminId));
    },
  );
}

/**
 * A top-level group whose only member is the administrator who made it, its Owner (both read back):
 * its last owner, for GitLab counts a top-level group's direct Owners only
 * (Group#member_owners_excluding_project_bots).
 */
export async function groupWithLastOwner(tk: MembersKit, admin: Client, adminId: number): Promise<GroupInfo> {
  const alone = await tk.group({ top: true });
  expectEqual(await memberIds(admin, alone), [adminId], `the group's direct members: the administrator who made it (GitLab: ${GITLAB.creatorOwns})`);
  expectEqual((await readMember(admin, alone, adminId)).access_level, ACCESS.OWNER, 'the administrator, the group\'s Owner');
  return alone;
}

/**
 * A subgroup whose only direct member is the administrator who made it and its parent, and the
 * parent, which the administrator owns (both read back): the subgroup has no last owner, for
 * GroupMember#last_owner_of_the_group? counts a subgroup's members_with_parents.
 */
export async function subgroupOwnedAbove(tk: MembersKit, admin: Client, adminId: number): Promise<{ parent: GroupInfo; sub: GroupInfo }> {
  const parent = await tk.group();
  const sub = await tk.group({ parent });
  expectEqual(await memberIds(admin, sub), [adminId], `the subgroup's direct members: the administrator who made it (GitLab: ${GITLAB.creatorOwns})`);
  expectEqual((await readMember(admin, parent, adminId)).access_level, ACCESS.OWNER, 'the parent\'s Owner: the administrator who made it');
  return { parent, sub };
}
