// Shared pieces of the members suite: endpoint paths (paths.ts), the fixtures of its test files
// (groups and projects with the shared actors in their roles, users lent to tests, the run's
// hierarchies, the provisioned groups of the target manifest), read-backs, the pagination check.
import { apiPath, type Client, type Exchange, type Query } from '../../runner/core/client.js';
import { describeExchange, expectEqual, expectError, expectHeader, expectOk, expectStatus, expectTrue, expectValidationError, fail, parity } from '../../runner/core/checks.js';
import { manifestEntry, type FixtureName, type ResolvedFixture } from '../../fixtures/manifest.js';
import type { Kit } from '../../runner/run/conformance.js';
import type { SetupContext } from '../../runner/run/fixture.js';
import { buildHierarchy, fixture, type MembersKit } from './kit.js';
import { HarnessError } from '../../runner/core/errors.js';
import { type ActorName, type GroupInfo, type ProjectInfo, type SourceKind, type Visibility } from '../../runner/core/vocabulary.js';
import { type ActorInfo } from '../../runner/run/context.js';
import { publicSources } from '../common/public-sources.js';
import { MANAGERS, manager } from '../common/managers.js';
import { GITLAB } from './clauses.js';

export { GITLAB };

export const LEVEL = { MINIMAL: 5, GUEST: 10, REPORTER: 20, DEVELOPER: 30, MAINTAINER: 40, OWNER: 50 } as const;

// ---- paths ----------------------------------------------------------------------------------

import { idsOf, sorted, type MemberBody } from './read.js';
import { accessRequestsPath, overridePath, type SourceRef } from './paths.js';

export * from './paths.js';
export * from './read.js';

// ---- the world of a test file ----------------------------------------------------------------

/**
 * The run's hierarchy of that shape, shared by the files whose tests each work with members of their
 * own and read lists member by member, never whole (get, edit, remove, approve, state, the billable
 * member files but the list's).
 */
export const sharedHierarchy = fixture({ name: 'members-hierarchy', scope: 'run', build: ({ make }) => buildHierarchy(make) });

/**
 * A source of the kind two levels below a top group: the run's hierarchy (sharedHierarchy, which the
 * test reads) with its project, or with a subgroup of the test's own in its subgroup for a group.
 */
export async function belowHierarchy(t: MembersKit, hierarchy: { root: GroupInfo; sub: GroupInfo; project: ProjectInfo }, kind: SourceKind): Promise<{ top: GroupInfo; mid: GroupInfo; source: GroupInfo | ProjectInfo }> {
  const { root, sub, project } = hierarchy;
  return { top: root, mid: sub, source: kind === 'project' ? project : await t.group({ parent: sub }) };
}

/** Why the Minimal access tests run for groups only. */
export const MINIMAL_ACCESS_GROUPS = { kind: 'group', why: 'Minimal access (5) is a level of top-level groups only (ee/app/models/ee/group_member.rb access_level_inclusion); a project does not take it' } as const;

/** A user lent to the test made a Minimal access member of `group` (a top-level group; a new one, its creator the administrator, unless given). */
export async function minimalAccessMember(t: Pick<SetupContext, 'lease'> & MembersKit, group?: GroupInfo): Promise<{ group: GroupInfo; user: ActorInfo }> {
  const top = group ?? (await t.group({ top: true }));
  const user = await t.lease();
  await t.add(top, user, LEVEL.MINIMAL);
  return { group: top, user };
}

/** A new group or project, as `kind` says, inside `parent` (private unless told), with no member but the administrator (below ancestors with memberships). */
export function sourceIn(t: MembersKit, kind: SourceKind, parent: GroupInfo, visibility?: Visibility): Promise<GroupInfo | ProjectInfo> {
  return kind === 'group' ? t.group({ parent, visibility }) : t.project({ group: parent, visibility });
}

/** The same with every shared role actor as a direct member at its level (roleGroup, roleProject); public or private as told. */
export function roleSourceIn(t: MembersKit, kind: SourceKind, parent: GroupInfo, visibility?: Visibility): Promise<GroupInfo | ProjectInfo> {
  return kind === 'group' ? t.roleGroup({ parent, visibility }) : t.roleProject({ group: parent, visibility });
}

/** Shares a group or project with `withGroup` at `level`: the invited group's members become its members, up to that level. */
export function shareWith(ctx: Pick<SetupContext, 'make'>, source: GroupInfo | ProjectInfo, withGroup: GroupInfo, level: number): Promise<void> {
  return ctx.make.share(source, withGroup, level);
}

/**
 * A subgroup or project made for one test inside a group the suite does not own (a fixture's), and
 * deleted again after `body`, so that the fixture group is left as it was for the tests using it at
 * the same time.
 */
export async function inTemporarySource<T>(ctx: Pick<SetupContext, 'make' | 'admin'>, kind: SourceKind, parentId: number, hint: string, body: (source: GroupInfo | ProjectInfo) => Promise<T>): Promise<T> {
  const parent: GroupInfo = { kind: 'group', id: parentId, name: String(parentId), fullPath: String(parentId) };
  const source = kind === 'group' ? await ctx.make.group({ parent, hint }) : await ctx.make.project({ group: parent, hint });
  const remove = async () => {
    const res = await ctx.admin.delete(kind === 'group' ? apiPath`/groups/${source.id}` : apiPath`/projects/${source.id}`);
    if (![202, 204].includes(res.status)) throw new HarnessError(`clean-up failed: could not delete the temporary ${kind} ${source.fullPath}${describeExchange(res)}`);
  };
  let result: T;
  try {
    result = await body(source);
  } catch (error) {
    // The test's own failure comes first; the run's clean-up tries the deletion again.
    await remove().catch(() => undefined);
    throw error;
  }
  await remove();
  return result;
}

// ---- public sources and access requesters ------------------------------------------------------

/** A user lent to the test (holding a seat, as the kit's lease) who asks for access to the public `source` (POST …/access_requests): an access requester. */
export async function requester(ctx: Pick<SetupContext, 'lease' | 'make'>, source: GroupInfo | ProjectInfo): Promise<ActorInfo> {
  const user = await ctx.lease();
  await ctx.make.requestAccess(source, user);
  return user;
}

export { publicSources };

/** The add files' sources: a group and a project (in a group of its own), each with the shared actors in their roles. */
export const addSources = fixture({ name: 'members-add', scope: 'file', build: (t) => t.roleSources() });

/**
 * A project in the administrator's own namespace (no group above it) with the shared role actors as
 * its direct members, and nobody else: the run's, which the tests only read.
 */
export const personalProject = fixture({ name: 'members-personal', scope: 'run', build: ({ make }) => make.project({ hint: 'personal', empty: true, roles: true }) });

/** A private group with the shared role actors, a private subgroup with a project in it: the run's. */
const privateParentSources = fixture({
  name: 'members-private-parent',
  scope: 'run',
  async build({ make }) {
    const parent = await make.group({ hint: 'members', roles: true });
    const sub = await make.group({ parent, hint: 'members' });
    await make.project({ group: sub, hint: 'members', empty: true });
    return { parent, sub };
  } });

/**
 * The run's private parent group with its subgroup, and a user of the file's own who is a Developer
 * of the subgroup only: GitLab's members spec "with a subgroup" (the project lets the subgroup member
 * see the parent group: GroupPolicy has_projects).
 */
export const privateParent = fixture({
  name: 'members-private-parent-member',
  scope: 'file',
  fixtures: { privateParentSources },
  async build({ privateParentSources: { parent, sub }, member }) {
    return { parent, sub, subMember: await member(sub, LEVEL.DEVELOPER) };
  } });

/**
 * A member of a subgroup only asks for the members of the private parent group: 403 (members.read.private-parent).
 * The spec shows no minimum role nor status (Authentication 7, Errors); GitLab's code settles them: the
 * subgroup member sees the parent group but may not read its members (GITLAB.readGroupMember;
 * spec/requests/api/members_spec.rb "subgroup member cannot get parent group members list"). Parity: the text.
 */
export function expectParentMembersRefused(res: Exchange): void {
  expectForbidden(res, GITLAB.readGroupMember);
}

/** The ids of the users whose access request to `source` is pending (GET …/access_requests, as one who manages its members). */
export async function pendingRequesterIds(client: Client, source: SourceRef): Promise<number[]> {
  const res = await client.get(accessRequestsPath(source), { query: { per_page: 100 } });
  expectStatus(res, 200, 'the access requests to be readable by a member manager (GET …/access_requests)');
  expectTrue(Array.isArray(res.body), 'the access requests to be a list', '', res);
  return idsOf(res.body as { id: number }[]);
}

/** The non-members of a public source: a stranger (the shared outsider) and `requester`, whose access request is pending; each with how a message names it. */
export function nonMembers(kit: Pick<Kit, 'as' | 'withToken'>, requester: ActorInfo): [Client, string][] {
  return [
    [kit.as('outsider'), 'a stranger'],
    [kit.withToken(requester.tokens.api, 'access requester'), 'the access requester'],
  ];
}

/**
 * On a public source the non-members are refused a member write with 403, not the 404 of a private
 * source (members.public.writes-refused; GitLab parity: "403 Forbidden").
 */
export async function expectNonMembersRefused(kit: Pick<Kit, 'as' | 'withToken'>, requester: ActorInfo, send: (client: Client) => Promise<Exchange>): Promise<void> {
  for (const [client] of nonMembers(kit, requester)) expectForbidden(await send(client), `${GITLAB.publicSource}; ${GITLAB.forbidden}`);
}

/**
 * On a public source the non-members read `path`, a single member: 200, the Member entity of `member`
 * at `level` (members.public.read), its user fields (state, avatar_url, web_url) as the source's
 * Owner reads them: an active user, the profile at <base>/<username> (GitLab parity: user_url).
 */
export async function expectNonMembersRead(kit: Pick<Kit, 'as' | 'withToken'>, requester: ActorInfo, path: string, member: ActorInfo, level: number): Promise<void> {
  const byOwner = await kit.as('owner').get(path);
  expectOk(byOwner, 200, 'member');
  const seen = byOwner.body as MemberBody;
  expectEqual(seen.state, 'active', `the state of ${member.username}, an active user`, byOwner);
  parity(byOwner, 'lib/api/entities/user_basic.rb (web_url: Gitlab::Routing.url_helpers.user_url(user)); spec/requests/api/members_spec.rb (as a non-member: web_url)', () => {
    expectTrue(seen.web_url.endsWith(`/${member.username}`), `the web_url of ${member.username} to be the profile URL <base>/${member.username}`, `got ${seen.web_url}`, byOwner);
  });
  for (const [client, who] of nonMembers(kit, requester)) {
    const res = await client.get(path);
    expectOk(res, 200, 'member');
    const body = res.body as MemberBody;
    expectEqual([body.id, body.username, body.name, body.access_level], [member.id, member.username, member.name, level], `the member's id, username, name and access_level, read by ${who}`, res);
    expectEqual([body.state, body.avatar_url, body.web_url], [seen.state, seen.avatar_url, seen.web_url], `the member's state, avatar_url and web_url read by ${who}, as the Owner reads them`, res);
  }
}

/** The status of a request adding several users: GitLab's member creators report "success" or "error" (app/services/members/create_service.rb). */
export function expectAddStatus(res: Exchange, what = 'the status of the request'): string {
  expectOk(res, 201, 'member-add-result');
  const status = (res.body as { status?: unknown }).status;
  expectTrue(status === 'success' || status === 'error', `${what} to be "success" or "error"`, String(status), res);
  return status as string;
}

// ---- checks shared by many files -------------------------------------------------------------

/**
 * GitLab's offset pagination of a list whose full content is `expectedIds`: two items per page,
 * the X-* headers and Link relations on the first and last page, and [] past the end. The spec names
 * page and per_page only and no header: the headers (GITLAB.pagination) are parity.
 */
export async function checkPagination(client: Client, path: string, schema: string, expectedIds: number[], query: Query = {}): Promise<void> {
  const total = expectedIds.length;
  expectTrue(total >= 3, 'at least three items to page through (test setup)', `had ${total}`);
  const pages = Math.ceil(total / 2);
  const seen: number[] = [];
  for (let page = 1; page <= pages; page++) {
    const res = await client.get(path, { query: { ...query, per_page: 2, page } });
    expectOk(res, 200, schema, { list: true });
    const body = res.body as { id: number }[];
    expectEqual(body.length, page < pages ? 2 : total - 2 * (pages - 1), `the number of items on page ${page} of ${pages}`, res);
    seen.push(...body.map((i) => i.id));
    // The spec names no pagination header: GitLab's X-* and Link headers are parity (clients use them).
    parity(res, GITLAB.pagination, () => {
      expectHeader(res, 'X-Page', String(page));
      expectHeader(res, 'X-Per-Page', '2');
      expectHeader(res, 'X-Total', String(total));
      expectHeader(res, 'X-Total-Pages', String(pages));
      expectHeader(res, 'X-Next-Page', page < pages ? String(page + 1) : '');
      expectHeader(res, 'X-Prev-Page', page > 1 ? String(page - 1) : '');
      const link = expectHeader(res, 'Link');
      for (const rel of ['first', 'last', ...(page < pages ? ['next'] : []), ...(page > 1 ? ['prev'] : [])]) {
        expectTrue(link.includes(`rel="${rel}"`), `the Link header of page ${page} to have rel="${rel}"`, `Link: ${link}`, res);
      }
      if (page === 1) {
        const next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] ?? '';
        expectTrue(/[?&]page=2(&|$)/.test(next) && /[?&]per_page=2(&|$)/.test(next), 'the next link to name page=2 and per_page=2', `next: ${next}`, res);
      }
    });
  }
  expectEqual(sorted(seen), sorted(expectedIds), 'the pages together to hold every item exactly once');
  const past = await client.get(path, { query: { ...query, per_page: 2, page: pages + 1 } });
  expectOk(past, 200, schema, { list: true });
  expectEqual(past.body, [], 'a page past the end to be an empty list', past);
}

/** The request is refused without a token: 401 (GitLab: before { authenticate! }; parity: {"message":"401 Unauthorized"}). */
export function expectAnonymous401(res: Exchange): void {
  expectError(res, 401, { message: '401 Unauthorized', gitlab: GITLAB.unauthorized });
}

/** 403 for a member without the right (GitLab's authorize! / AccessDeniedError; parity: {"message":"403 Forbidden"}). */
export function expectForbidden(res: Exchange, gitlab: string = GITLAB.forbidden): void {
  expectError(res, 403, { message: '403 Forbidden', gitlab });
}

/** An owner's read_api token on a write: 403 (parity: {"error":"insufficient_scope"}). */
export function expectInsufficientScope(res: Exchange): void {
  expectError(res, 403, { error: 'insufficient_scope', gitlab: GITLAB.scope });
}

/** The source is unknown or hidden from the caller: 404 (parity: "404 Group Not Found" / "404 Project Not Found"). */
export function expectSourceNotFound(res: Exchange, kind: 'group' | 'project'): void {
  expectError(res, 404, { message: kind === 'group' ? '404 Group Not Found' : '404 Project Not Found', gitlab: GITLAB.sourceNotFound });
}

/**
 * The EE group endpoints on a subgroup: 400 (GitLab's bad_request! unless group.root?, which the
 * spec's "top-level groups only" leaves without a status; parity: {"message":"400 Bad request"}).
 */
export function expectBadRequest(res: Exchange): void {
  expectError(res, 400, { message: '400 Bad request', gitlab: GITLAB.eeBadRequest });
}

/**
 * The EE group endpoints for a member who may not administer the group's members: the spec requires
 * the right (Authentication 4) and shows no status (Errors: "… status codes for failures on other
 * endpoints: not shown"); GitLab's code answers 400, in every version from 15.0 (GITLAB.eeBadRequest:
 * bad_request! unless can?(…)). Parity: the text {"message":"400 Bad request"}.
 */
export function expectAdminRefused(res: Exchange): void {
  expectError(res, 400, { message: '400 Bad request', gitlab: GITLAB.eeBadRequest });
}

/**
 * The callers an EE endpoint of a top-level group refuses (members.ee.admin-only, members.auth.anonymous):
 * its Maintainers, Developers and Guests (expectAdminRefused), an outsider 404 (the group hidden, unless
 * `outsider` checks otherwise) and nobody 401.
 */
export async function expectOwnersOnly(
  as: (actor: ActorName | 'anonymous') => Client,
  send: (client: Client) => Promise<Exchange>,
  outsider = (res: Exchange) => expectSourceNotFound(res, 'group'),
): Promise<void> {
  for (const role of ['maintainer', 'developer', 'guest'] as const) expectAdminRefused(await send(as(role)));
  outsider(await send(as('outsider')));
  expectAnonymous401(await send(as('anonymous')));
}

/** A 400 parameter error (GitLab's Grape validation; parity: {"error": …} naming the parameter). */
export function expectParamError(res: Exchange, param: string, gitlab: string = GITLAB.grape): void {
  expectError(res, 400, { error: new RegExp(`\\b${param.replace(/[[\]]/g, '\\$&')}\\b`), gitlab });
}

/** per_page=0: 400 (GitLab's Grape except_values; parity: {"error":"per_page has a value not allowed"}). */
export function expectPerPageZeroRefused(res: Exchange): void {
  // The spec leaves per_page's values open (Limits 2): GitLab's refusal is parity.
  parity(res, GITLAB.perPageZero, () => expectError(res, 400, { error: 'per_page has a value not allowed', gitlab: GITLAB.perPageZero }));
}

/**
 * The Member model's refusal of a level below an inherited one: a 400 validation error on
 * access_level; GitLab parity: the text naming the highest inherited membership (GITLAB.inheritedLevel).
 */
export function expectInheritedLevelError(res: Exchange, role: string, groupName: string): void {
  expectValidationError(res, 'access_level');
  parity(res, GITLAB.inheritedLevel, () => {
    const texts = (res.body as { message: Record<string, unknown> }).message.access_level;
    expectEqual(texts, [`should be greater than or equal to ${role} inherited membership from group ${groupName}`], 'the access_level error naming the highest inherited membership', res);
  });
}

/**
 * A success the spec answers with "Response: not shown" (member and billable-member removal,
 * approve, approve_all): what GitLab's code settles, 204 with no body in every version from 15.0
 * (`gitlab` cites where: destroy_conditionally!, no_content!).
 */
export function expectNotShownSuccess(res: Exchange, gitlab: string = GITLAB.destroyed): void {
  expectStatus(res, 204, `the spec shows no response; GitLab's code answers 204 (${gitlab})`);
  expectEqual(res.body, undefined, 'an empty body', res);
}

/** The roles of the matrix: the shared actors made members at their level. */
const MATRIX_ROLES = ['owner', 'maintainer', 'developer', 'guest'] as const;

/** The role matrix of a request every member may make: members 200, an outsider 404, nobody 401. */
export async function expectReadMatrix(as: (actor: ActorName | 'anonymous') => Client, path: string, notFound: string, schema: string, list: boolean): Promise<void> {
  for (const role of MATRIX_ROLES) expectOk(await as(role).get(path), 200, schema, { list });
  expectError(await as('outsider').get(path), 404, { message: notFound, gitlab: GITLAB.sourceNotFound });
  expectAnonymous401(await as('anonymous').get(path));
}

/** The member roles that manage members (add, edit, remove), highest first: Owner in a group, Owner and Maintainer in a project (members.manage.role). */
export { MANAGERS, manager };

/** The member roles below those who manage members: under Owner in a group, under Maintainer in a project. */
const NON_MANAGERS = { group: ['maintainer', 'developer', 'reporter', 'guest'], project: ['developer', 'reporter', 'guest'] } as const;

/**
 * The role matrix of a write only managers may make: 403 for every member role below them
 * (GITLAB.managers), 404 for an outsider of the private source, 401 for nobody; texts at parity.
 */
export async function expectWriteRefused(as: (actor: ActorName | 'anonymous') => Client, source: SourceRef, send: (client: Client) => Promise<Exchange>): Promise<void> {
  for (const role of NON_MANAGERS[source.kind]) expectForbidden(await send(as(role)), `${GITLAB.managers}; ${GITLAB.forbidden}`);
  expectSourceNotFound(await send(as('outsider')), source.kind);
  expectAnonymous401(await send(as('anonymous')));
}

/**
 * The refusals both override endpoints share (members.override.refused, members.auth.anonymous): for a
 * user who is no member 403 or 404 (GitLab authorizes override_group_member on the group, LDAP-synced
 * groups only, before it looks the member up: 403), and on `member` a Developer 403, an outsider 404,
 * nobody 401. `send` makes the endpoint's request on an override path.
 */
export async function expectOverrideRefused(
  as: (actor: ActorName | 'anonymous') => Client,
  group: SourceRef,
  member: { id: number },
  nonMemberId: number,
  send: (client: Client, path: string) => Promise<Exchange>,
): Promise<void> {
  const nobody = await send(as('owner'), overridePath(group, nonMemberId));
  expectError(nobody, [403, 404]);
  parity(nobody, GITLAB.override, () => expectForbidden(nobody, GITLAB.override));
  expectForbidden(await send(as('developer'), overridePath(group, member.id)), GITLAB.override);
  expectSourceNotFound(await send(as('outsider'), overridePath(group, member.id)), 'group');
  expectAnonymous401(await send(as('anonymous'), overridePath(group, member.id)));
}

/** Polls `check` until it holds, for answers GitLab completes asynchronously (billable removal: GITLAB.scheduleDeletion schedules it). */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) fail(`expected ${what}`, `it did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// ---- fixtures and global settings ------------------------------------------------------------

/** The file fixture of the override endpoints: a group with the shared actors in their roles, and `plain`, a member of it who is not LDAP-synced, at `level`. */
export function overrideGroup(name: string, level: number) {
  return fixture({
    name: `members-${name}`,
    scope: 'file',
    async build({ roleGroup, member }) {
      const group = await roleGroup();
      return { group, plain: await member(group, level) };
    } });
}

/** GitLab shows override on every answer about an LDAP-synced group member, GET included (the spec only in the override operations). */
export const OVERRIDE_SHOWN = `${GITLAB.eeEntity} (expose :override, if: source_type == 'Namespace' && member.ldap?)`;

/**
 * A provisioned group of the target manifest (TARGET-CONTRACT.md §1), with its entry: the run does not own it,
 * and its tests change it (memberships, overrides, subgroups), so they run one at a time, also
 * across the runs of the instance (a lease on the target, runner/run/target-lease.ts).
 */
function manifestGroup<K extends FixtureName>(name: K) {
  return fixture({
    name: `${name}-group`,
    scope: 'run',
    alone: 'the run does not own the group, and its tests change it (memberships, overrides, subgroups)',
    // Other runs of the instance use it too: one test of them all at a time.
    leaseOnTarget: `fixture-${name}`,
    requires: { provisioned: [name] },
    async build({ run }) {
      const fx = manifestEntry(run.fixtures, name)!;
      return { ...fx, group: { kind: 'group' as const, id: fx.group_id, fullPath: '' } };
    } });
}

export const ldapGroup = manifestGroup('ldap');
export const samlGroup = manifestGroup('saml');
export const enterpriseGroup = manifestGroup('enterprise');

/** Runs `body` on the LDAP group of the target's manifest (`fx`: the test's ldapGroup), with its entry, its group and a client of the group's owner. */
export async function withLdapFixture(
  kit: Pick<Kit, 'withToken'>,
  fx: ResolvedFixture<'ldap'>,
  body: (ldap: { fx: ResolvedFixture<'ldap'>; group: SourceRef; owner: Client }) => Promise<void>,
): Promise<void> {
  await body({ fx, group: { kind: 'group', id: fx.group_id }, owner: kit.withToken(fx.ownerToken, 'LDAP group owner') });
}
