// The members suite's read-backs: the Member, Membership and pending-member shapes, every page of a
// list, one member read back, member ids, the membership state.
import { type Client, type Exchange, type Query } from '../../runner/core/client.js';
import { expectEqual, expectError, expectOk, fail, parity } from '../../runner/core/checks.js';
import { type SourceKind } from '../../runner/core/vocabulary.js';
import { type RunContext } from '../../runner/run/context.js';
import { listAll as listPages, readOk } from '../common/read.js';
import { GITLAB } from './clauses.js';
import { allMemberPath, allMembersPath, memberPath, membersPath, pendingPath, type SourceRef } from './paths.js';

export interface MemberBody {
  id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
  web_url: string;
  access_level: number;
  created_at: string;
  expires_at: string | null;
  created_by?: { id: number; username: string };
  email?: string;
  group_saml_identity?: { extern_uid: string; provider: string; saml_provider_id: number } | null;
  override?: boolean;
  membership_state?: string;
  is_using_seat?: boolean;
}

/** A billable member's membership (spec: Resources/Membership). */
export interface Membership {
  id: number;
  source_id: number;
  source_full_name: string;
  source_members_url: string;
  expires_at: string | null;
  access_level: { string_value: string; integer_value: number };
}

/** Every item of a paginated list (common/read.ts listAll): member rows unless told otherwise. */
export const listAll = <T = MemberBody>(client: Client, path: string, schema: string, query: Query = {}): Promise<T[]> => listPages<T>(client, path, schema, query);

/** An entry of a top-level group's pending members (spec: Resources/Pending member). */
export interface PendingMember {
  id: number;
  name?: string;
  username?: string;
  /** The spec promises it for people without an account; GitLab sends it always (the account's primary email). */
  email?: string;
  web_url?: string;
  avatar_url: string | null;
  approved: boolean;
  invited: boolean;
}

/** The pending members of a top-level group, every page (200, PendingMember schema). */
export function pendingMembers(client: Client, group: SourceRef): Promise<PendingMember[]> {
  return listAll<PendingMember>(client, pendingPath(group), 'pending-member');
}

/**
 * A part of a user's name to search by, in capitals: the last name, which the suite's usernames do
 * not contain (they carry the first name). User.search matches parts of three characters or more,
 * so a shorter last name gives way to the longest word of the name.
 */
export function nameSearchTerm(name: string): string {
  const words = name.split(' ');
  const last = words[words.length - 1];
  return (last.length >= 3 ? last : words.reduce((a, b) => (b.length > a.length ? b : a))).toUpperCase();
}
export const idsOf = (items: { id: number }[]) => items.map((i) => i.id).sort((a, b) => a - b);
export const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/**
 * Member ids without the administrator's: GitLab may make the creator of a project in a group
 * (the administrator, in the suite's worlds) a direct member of it, or not.
 */
export const withoutAdmin = (run: RunContext, ids: number[]) => ids.filter((id) => id !== run.adminId);

/**
 * Direct member ids as a test can know them: a group's creator (the administrator) is always its
 * direct Owner, so a group's are kept whole; a project's go without the administrator (withoutAdmin).
 */
export const knownDirect = (run: RunContext, kind: SourceKind, ids: number[]) => (kind === 'group' ? ids : withoutAdmin(run, ids));

/** The members of a source as its owner-level reader (`client`) sees them: direct or all. */
export async function memberIds(client: Client, source: SourceRef, all = false): Promise<number[]> {
  return idsOf(await listAll(client, all ? allMembersPath(source) : membersPath(source), 'member'));
}

/** One direct member read back (200, Member schema). */
export function readMember(client: Client, source: SourceRef, userId: number): Promise<MemberBody> {
  return readOk(client, memberPath(source, userId), 'member');
}

/** One member among all (direct, inherited, invited) read back (200, Member schema). */
export function readAnyMember(client: Client, source: SourceRef, userId: number): Promise<MemberBody> {
  return readOk(client, allMemberPath(source, userId), 'member');
}

/** The user is not a direct member of the source: 404 (GitLab parity: "404 Not found", GITLAB.recordNotFound). */
export async function expectNotMember(client: Client, source: SourceRef, userId: number): Promise<void> {
  expectError(await client.get(memberPath(source, userId)), 404, { message: '404 Not found', gitlab: GITLAB.recordNotFound });
}

/**
 * The state of a user's membership in a source, observed as the spec lets a client observe it: the
 * state filter of …/members/all (spec: Endpoints/Members, Premium) lists the user under `state` and
 * not under the other. GitLab parity: the membership_state field of the user's direct membership
 * there (a GitLab field the spec's Member table does not list).
 */
export async function expectMembershipState(client: Client, source: SourceRef, userId: number, state: 'awaiting' | 'active', what: string): Promise<void> {
  const other = state === 'active' ? 'awaiting' : 'active';
  const expected: [string, number[]][] = [[state, [userId]], [other, []]];
  for (const [filter, wanted] of expected) {
    const res = await client.get(allMembersPath(source), { query: { state: filter, user_ids: String(userId), per_page: 100 } });
    expectOk(res, 200, 'member', { list: true });
    expectEqual(idsOf(res.body as MemberBody[]), wanted, `${what}: the user ${wanted.length > 0 ? 'among' : 'not among'} the ${filter} members of the ${source.kind} (…/members/all?state=${filter})`, res);
  }
  const res = await client.get(memberPath(source, userId));
  expectOk(res, 200, 'member');
  parity(res, `${GITLAB.eeEntity} (membership_state)`, () => {
    expectEqual((res.body as MemberBody).membership_state, state, `${what}: membership_state of the direct membership`, res);
  });
}

export function findIn<T extends { id: number }>(items: T[], id: number, what: string, exchange?: Exchange): T {
  const item = items.find((i) => i.id === id);
  if (!item) fail(`expected ${what}`, `no item with id ${id} among ids ${items.map((i) => i.id).join(', ') || '(none)'}`, exchange);
  return item;
}

