// Shared pieces of the invitations suite: the per-file world (a private group with one shared actor
// per role, a subgroup and a private project in it), invitation URLs, invite calls with checks of
// their answers, read-backs through the invitation list and the members API, the role matrix, and
// the promotion-approval setting.
import { apiPath, segment, type Client, type Exchange } from '../harness/core/client.js';
import { expectEqual, expectError, expectHeader, expectOk, expectStatus, expectTrue } from '../harness/core/checks.js';
import { useWorld, type Kit } from '../harness/run/conformance.js';
import { QUEUED } from '../common/promotion.js';
import { ROLES, type ActorName } from '../harness/core/vocabulary.js';
import { type ActorInfo } from '../harness/run/context.js';
import type { GroupInfo, ProjectInfo, SourceInfo } from '../harness/run/world.js';

export const GUEST = 10;
export const REPORTER = 20;
export const DEVELOPER = 30;
export const MAINTAINER = 40;
export const OWNER = 50;

export const MUST_PROVIDE = '400 Bad request - Must provide either email or user_id as a parameter';

/** A group or project by numeric id or full path (spec: Conventions). */
export type SourceRef = { kind: SourceInfo['kind']; id: number | string };

export interface InvitationsWorld {
  group: GroupInfo;
  subgroup: GroupInfo;
  project: ProjectInfo;
  /** The source of the file's endpoint form: the group or the project. */
  source: SourceInfo;
  /** A new address on example.com that belongs to nobody. */
  email(hint?: string): string;
  /** A new user, a member of nothing, with tokens. */
  user(hint?: string): Promise<ActorInfo>;
  /** A new source of the file's kind, with the shared actors in their roles: for tests that count. */
  fresh(): Promise<SourceInfo>;
}

export function useInvitationsWorld(scope: string, kind: SourceInfo['kind']): () => InvitationsWorld {
  return useWorld(scope, async (world) => {
    const roleGroup = async (parent?: GroupInfo) => {
      const group = await world.group({ parent, hint: 'invitations' });
      await world.addRoleMembers(group);
      return group;
    };
    const group = await roleGroup();
    const subgroup = await world.group({ parent: group, hint: 'sub' });
    // Projects inherit the roles of the group; invitations need no repository.
    const newProject = () => world.project({ group, hint: 'invitations', empty: true });
    const project = await newProject();
    return {
      group,
      subgroup,
      project,
      source: kind === 'group' ? group : project,
      email: (hint) => world.factories.email(hint),
      user: (hint) => world.user(hint),
      fresh: () => (kind === 'group' ? roleGroup() : newProject()),
    };
  });
}

/** A date `days` from today (UTC), YYYY-MM-DD. */
export function dateIn(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The date of a date or timestamp: invitation expiry is a date in GitLab, a timestamp in the spec. */
export function datePart(value: string | null | undefined): string | null | undefined {
  return typeof value === 'string' ? value.slice(0, 10) : value;
}

/** The same address with its local part in upper case. */
export function otherCase(email: string): string {
  const at = email.indexOf('@');
  return email.slice(0, at).toUpperCase() + email.slice(at);
}

export const sourceUrl = (source: SourceRef) => (source.kind === 'group' ? apiPath`/groups/${source.id}` : apiPath`/projects/${source.id}`);
export const invitationsUrl = (source: SourceRef) => `${sourceUrl(source)}/invitations`;
export const invitationUrl = (source: SourceRef, email: string) => `${invitationsUrl(source)}/${segment(email)}`;
const memberUrl = (source: SourceRef, userId: number) => `${sourceUrl(source)}/members/${userId}`;
export const notFoundMessage = (source: SourceRef) => (source.kind === 'group' ? '404 Group Not Found' : '404 Project Not Found');

// ---- inviting ------------------------------------------------------------------------------

export interface InviteResult {
  status: string;
  message?: string | Record<string, string>;
  queued_users?: Record<string, string>;
  reason?: string;
}

export function invite(client: Client, source: SourceRef, body: Record<string, unknown>): Promise<Exchange> {
  return client.post(invitationsUrl(source), { body });
}

/** 201 {"status":"success"}: every recipient was invited or added. */
export function expectInviteSuccess(res: Exchange): InviteResult {
  expectOk(res, 201, 'invitation-result');
  const body = res.body as InviteResult;
  expectEqual(body.status, 'success', 'status "success"', res);
  return body;
}

/** 201 with status "error" and a message object naming exactly the failing recipients, each with its text. */
export function expectInviteErrors(res: Exchange, failures: Record<string, string | RegExp>): void {
  expectOk(res, 201, 'invitation-result');
  const body = res.body as InviteResult;
  expectEqual(body.status, 'error', 'status "error"', res);
  const message = typeof body.message === 'object' ? body.message : {};
  expectEqual(Object.keys(message).sort(), Object.keys(failures).sort(), 'message to name exactly the failing recipients', res);
  for (const [who, text] of Object.entries(failures)) {
    const actual = message[who];
    const ok = text instanceof RegExp ? text.test(actual) : actual === text;
    expectTrue(ok, `the message for ${who}`, `wanted ${String(text)}, got ${JSON.stringify(actual)}`, res);
  }
}

/** Invites one address or several and insists it worked (the set-up of a test). */
export async function inviteOk(client: Client, source: SourceRef, email: string | string[], accessLevel = GUEST, extra: Record<string, unknown> = {}): Promise<void> {
  expectInviteSuccess(await invite(client, source, { email: [email].flat().join(','), access_level: accessLevel, ...extra }));
}

/** PUT …/invitations/:email. */
export function update(client: Client, source: SourceRef, email: string, body: Record<string, unknown>): Promise<Exchange> {
  return client.put(invitationUrl(source, email), { body });
}

/** A 200 update answer carrying the new access level and expiry date. */
export function expectUpdated(res: Exchange, accessLevel: number, expiresAt: string | null): void {
  expectOk(res, 200, 'invitation-update');
  const body = res.body as { access_level: number; expires_at: string | null };
  expectEqual(body.access_level, accessLevel, 'access_level in the answer', res);
  expectEqual(datePart(body.expires_at), expiresAt, 'the expiry date in the answer', res);
}

// ---- reading back --------------------------------------------------------------------------

export interface Invitation {
  id?: number;
  invite_email: string;
  created_at: string;
  access_level: number;
  expires_at: string | null;
  user_name?: string;
  created_by_name: string | null;
}

/** A list answer: 200, every item an Invitation; the addresses. */
export function expectList(res: Exchange): string[] {
  expectOk(res, 200, 'invitation', { list: true });
  return (res.body as Invitation[]).map((i) => i.invite_email);
}

/** Every pending invitation of a source, read by the admin (one page of 100 covers a test file). */
export async function invitationsOf(admin: Client, source: SourceRef): Promise<Invitation[]> {
  const res = await admin.get(invitationsUrl(source), { query: { per_page: 100 } });
  expectList(res);
  return res.body as Invitation[];
}

/** The address is listed once, at `accessLevel` and, when given, expiring on `expiresAt` (null: no expiry). */
export async function expectInvited(admin: Client, source: SourceRef, email: string, accessLevel: number, expiresAt?: string | null): Promise<Invitation> {
  const matches = (await invitationsOf(admin, source)).filter((i) => i.invite_email === email);
  expectEqual(matches.length, 1, `one pending invitation for ${email} in the list of ${source.kind} ${source.id}`);
  expectEqual(matches[0].access_level, accessLevel, `the invitation of ${email} to have access_level ${accessLevel}`);
  if (expiresAt !== undefined) expectEqual(datePart(matches[0].expires_at), expiresAt, `the invitation of ${email} to expire on ${expiresAt}`);
  return matches[0];
}

export async function expectNotInvited(admin: Client, source: SourceRef, ...emails: string[]): Promise<void> {
  const listed = new Set((await invitationsOf(admin, source)).map((i) => i.invite_email));
  for (const email of emails) expectTrue(!listed.has(email), `no pending invitation for ${email}`, `the list of ${source.kind} ${source.id} shows one`);
}

/** The user is a direct member at `accessLevel` (GET …/members/:user_id), and now sees the private group or project. */
export async function expectMember(kit: Kit, source: SourceInfo, user: ActorInfo, accessLevel: number): Promise<void> {
  const res = await kit.as('admin').get(memberUrl(source, user.id));
  expectStatus(res, 200, `${user.username} to be a direct member of ${source.kind} ${source.fullPath}`);
  expectEqual((res.body as { access_level?: unknown }).access_level, accessLevel, `${user.username}'s access_level`, res);
  const own = await kit.withToken(user.tokens.api, user.username).get(sourceUrl(source));
  expectStatus(own, 200, `${user.username}, now a member, to see the private ${source.kind}`);
}

export async function expectNotMember(kit: Kit, source: SourceInfo, user: ActorInfo): Promise<void> {
  expectStatus(await kit.as('admin').get(memberUrl(source, user.id)), 404, `${user.username} not to be a direct member of ${source.kind} ${source.fullPath}`);
  const own = await kit.withToken(user.tokens.api, user.username).get(sourceUrl(source));
  expectStatus(own, 404, `${user.username}, not a member, not to see the private ${source.kind}`);
}

// ---- list behaviour shared by the group and project forms ----------------------------------

/** query matches invite_email exactly: the address itself, not a part of it, not in other letter case; empty lists all. */
export async function checkQuery(kit: Kit, source: SourceInfo, email: (hint?: string) => string): Promise<void> {
  const owner = kit.as('owner');
  const address = email('query');
  const longer = address.replace('@', '_more@');
  await inviteOk(owner, source, [address, longer]);
  const find = async (query: string) => expectList(await owner.get(invitationsUrl(source), { query: { query } })).sort();
  expectEqual(await find(address), [address], 'only the invitation of exactly that address');
  expectEqual(await find(address.split('@')[0]), [], 'no invitation for a part of an address');
  expectEqual(await find(otherCase(address)), [], 'no invitation for the address in other letter case');
  expectEqual(await find(''), [address, longer].sort(), 'every invitation for an empty query');
}

/** Three invitations, two per page: page 1, page 2 and the empty page 3, with GitLab's headers. */
export async function checkPagination(kit: Kit, source: SourceInfo, email: (hint?: string) => string): Promise<void> {
  const owner = kit.as('owner');
  const invited = [email(), email(), email()];
  await inviteOk(owner, source, invited);
  const page = (n: number) => owner.get(invitationsUrl(source), { query: { per_page: 2, page: n } });

  const first = await page(1);
  const second = await page(2);
  const onFirst = expectList(first);
  const onSecond = expectList(second);
  expectEqual([onFirst.length, onSecond.length], [2, 1], 'two invitations on page 1 and one on page 2');
  expectEqual([...onFirst, ...onSecond].sort(), [...invited].sort(), 'the pages together to hold each invitation once');
  const totals = { 'X-Total': '3', 'X-Total-Pages': '2', 'X-Per-Page': '2' };
  for (const [name, value] of Object.entries({ ...totals, 'X-Page': '1', 'X-Next-Page': '2', 'X-Prev-Page': '' })) expectHeader(first, name, value);
  for (const [name, value] of Object.entries({ ...totals, 'X-Page': '2', 'X-Next-Page': '', 'X-Prev-Page': '1' })) expectHeader(second, name, value);
  const next = expectHeader(first, 'Link').split(',').find((link) => link.includes('rel="next"')) ?? '';
  expectTrue(/[?&]page=2[&>]/.test(next), 'Link rel="next" on page 1 to point to page 2', `it is ${JSON.stringify(next)}`, first);
  expectTrue(expectHeader(second, 'Link').includes('rel="prev"'), 'Link rel="prev" on page 2', '', second);
  expectEqual(expectList(await page(3)), [], 'an empty array for a page past the end');
}

// ---- permissions ---------------------------------------------------------------------------

/** Who may administer members: Owner of a group; Maintainer or Owner of a project (gitlab-facts §3). */
function adminRoles(source: SourceRef): ActorName[] {
  return source.kind === 'group' ? ['owner'] : ['owner', 'maintainer'];
}

/**
 * Everyone else is refused: 403 for members below the needed role, 404 for an outsider of the
 * private source, 401 without a token. `send` makes the request as one caller.
 */
export async function expectRefused(kit: Kit, source: SourceRef, send: (client: Client) => Promise<Exchange>): Promise<void> {
  const below = ROLES.filter((role) => !adminRoles(source).includes(role));
  for (const role of below) expectError(await send(kit.as(role)), 403, { message: '403 Forbidden' });
  expectError(await send(kit.as('outsider')), 404, { message: notFoundMessage(source) });
  expectError(await send(kit.as('anonymous')), 401, { message: '401 Unauthorized' });
}

// ---- promotion approval --------------------------------------------------------------------

/**
 * With promotion approval on: existing users invited above Guest, by user_id or by address, are
 * queued under their username and not added; a Guest and an address without an account are not queued.
 */
export async function expectPromotionsQueued(kit: Kit, source: SourceInfo, world: InvitationsWorld): Promise<void> {
  const owner = kit.as('owner');
  const admin = kit.as('admin');
  const [byId, byEmail, guest] = [await world.user('promoted'), await world.user('promoted'), await world.user('guest')];

  for (const [user, body] of [
    [byId, { user_id: byId.id, access_level: DEVELOPER }],
    [byEmail, { email: byEmail.email, access_level: MAINTAINER }],
  ] as const) {
    const res = await invite(owner, source, body);
    const result = expectInviteSuccess(res);
    expectEqual(result.queued_users, { [user.username]: QUEUED }, `${user.username} to be queued for approval`, res);
    await expectNotMember(kit, source, user);
    await expectNotInvited(admin, source, user.email);
  }

  const asGuest = expectInviteSuccess(await invite(owner, source, { user_id: guest.id, access_level: GUEST }));
  expectEqual(asGuest.queued_users, undefined, 'no queued users for a Guest invitation');
  await expectMember(kit, source, guest, GUEST);

  const address = world.email();
  const pending = expectInviteSuccess(await invite(owner, source, { email: address, access_level: DEVELOPER }));
  expectEqual(pending.queued_users, undefined, 'no queued users for an address without an account');
  await expectInvited(admin, source, address, DEVELOPER);
}
