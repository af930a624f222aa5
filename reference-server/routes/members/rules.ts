// The membership rules the members routes share: who may manage members, the hierarchy of a
// top-level group, the rows of /members/all, billable users, promotion queueing and the model
// validations of a membership (app/models/member.rb; app/services/members/).
import { ACCESS, ROLE_NAMES, type Group, type GroupLink, type Member, type Project, type Source, type User } from '../../state/model.js';
import { isExpired, today, type Store } from '../../state/store.js';

export const QUEUED = 'Request queued for administrator approval.';

/** Levels the Member model accepts (60, Admin, is a role name, not a membership level). */
const MEMBER_LEVELS: readonly number[] = [
  ACCESS.MINIMAL_ACCESS,
  ACCESS.GUEST,
  ACCESS.PLANNER,
  ACCESS.REPORTER,
  ACCESS.DEVELOPER,
  ACCESS.MAINTAINER,
  ACCESS.OWNER,
];

export const MEMBER_STATES = ['awaiting', 'active'] as const;

export function sourceOf(store: Store, member: Member): Source | undefined {
  return member.source.kind === 'group' ? store.groups.get(member.source.id) : store.projects.get(member.source.id);
}

/** The top-level group above a source; undefined for a project in a user namespace. */
export function rootGroupOf(store: Store, source: Source): Group | undefined {
  const group = source.kind === 'group' ? source : store.projectGroup(source);
  return group ? store.rootOf(group) : undefined;
}

/** The groups above a source, nearest first (for a group: the group itself and its ancestors). */
function groupChainOf(store: Store, source: Source): Group[] {
  if (source.kind === 'group') return store.groupChain(source);
  const group = store.projectGroup(source);
  return group ? store.groupChain(group) : [];
}

/** `admin_group_member` is Owner; `admin_project_member` is Maintainer or above. */
export function canAdminMembers(store: Store, source: Source, user: User): boolean {
  return store.accessLevel(source, user) >= (source.kind === 'group' ? ACCESS.OWNER : ACCESS.MAINTAINER);
}

/** `manage_owners`: only owners give or take the Owner role of a project. */
export function canManageOwners(store: Store, source: Source, user: User): boolean {
  return store.accessLevel(source, user) >= ACCESS.OWNER;
}

/** Direct members of a source that are users (not pending invitations), in id order. */
export function userMembers(store: Store, source: Source): readonly Member[] {
  return store.userMembers(source);
}

export function directUserMember(store: Store, source: Source, userId: number): Member | undefined {
  return store.userMember(source, userId);
}

/** A group with its subgroups and the projects in all of them (for a top-level group: its hierarchy). */
export function hierarchy(store: Store, root: Group): { groups: Group[]; projects: Project[] } {
  return { groups: [root, ...store.descendantGroups(root)], projects: store.projectsInHierarchy(root) };
}

/** Every membership record (users and invitations) of the groups and projects of a hierarchy. */
export function hierarchyMembers(store: Store, root: Group): Member[] {
  const { groups, projects } = hierarchy(store, root);
  return [...groups, ...projects].flatMap((source) => store.directMembers(source)).sort((a, b) => a.id - b.id);
}

/**
 * GroupMember#last_owner_of_the_group? (app/models/group_member.rb): the member is an Owner and no
 * other Owner membership is left among Group#member_owners_excluding_project_bots (app/models/group.rb):
 * for a top-level group its direct members; for a subgroup members_with_parents, the memberships of
 * the group and its ancestors and those of the groups shared with them (at most at the share's level),
 * one row per membership (the same user's Owner membership of an ancestor counts as another owner).
 * Project bots are left out. Member.owners reads the user's state, not the membership's (awaiting owners count).
 */
export function isLastOwner(store: Store, group: Group, member: Member): boolean {
  if (member.accessLevel !== ACCESS.OWNER) return false;
  return !ownerMemberships(store, group).some((m) => m.id !== member.id);
}

/** Group#member_owners_excluding_project_bots: the Owner memberships that keep a group owned. */
function ownerMemberships(store: Store, group: Group): Member[] {
  const owners = (source: Group, cap: number = ACCESS.OWNER) =>
    cap < ACCESS.OWNER ? [] : userMembers(store, source).filter((m) => m.accessLevel === ACCESS.OWNER && store.userOrNone(m.userId)?.userType !== 'project_bot');
  if (group.parentId === null) return owners(group);
  return store.groupChain(group).flatMap((g) => [
    ...owners(g),
    // members_from_self_and_ancestor_group_shares: LEAST(group_access, access_level).
    ...g.sharedWith.filter((link) => !isExpired(link.expiresAt)).flatMap((link) => {
      const invited = store.groups.get(link.groupId);
      return invited ? owners(invited, link.accessLevel) : [];
    }),
  ]);
}

// ---- /members/all --------------------------------------------------------------------------

export interface MemberRow {
  member: Member;
  /** The level this row gives: the member's own, capped by the share link for invited groups. */
  accessLevel: number;
  /** A member of an invited private group the viewer may neither read nor manage: its source stays hidden. */
  sourceHidden: boolean;
}

export const directRow = (member: Member): MemberRow => ({ member, accessLevel: member.accessLevel, sourceHidden: false });

/** Members of these sources count, each at most at `cap`; `sourceHidden` for an invited group hidden from the viewer. */
interface Contribution {
  sources: readonly Source[];
  cap?: number;
  sourceHidden: boolean;
}

/** The rows of /members/all for one source, kept with what they were made from. */
interface RowsView {
  key: string;
  rows: readonly MemberRow[];
  byUser?: Map<number, MemberRow>;
}

/** One view per source (gone with it): the rows stay until a membership, link or the viewer's sight of them changes. */
const views = new WeakMap<Source, RowsView>();

/**
 * Direct, inherited and invited-group members of a source, one row per user with the highest
 * level (GroupMembersFinder, MembersFinder). Members of an invited group are shown when the viewer
 * can see that group, or is a member of the source itself (GitLab 17.4: then even members of
 * invited private groups, whose source is hidden from the viewer). Minimal-access members are left out.
 * The rows are in member id order; they are made again only when what they come from changes (the
 * memberships of the sources involved, the links, the viewer's sight of invited groups, the date).
 */
export function allMemberRows(store: Store, source: Source, viewer: User): readonly MemberRow[] {
  return allMembersView(store, source, viewer).rows;
}

/** The /members/all row of one user, if any. */
export function allMemberRow(store: Store, source: Source, viewer: User, userId: number): MemberRow | undefined {
  const view = allMembersView(store, source, viewer);
  view.byUser ??= new Map(view.rows.map((row) => [row.member.userId!, row]));
  return view.byUser.get(userId);
}

function allMembersView(store: Store, source: Source, viewer: User): RowsView {
  const contributions = memberContributions(store, source, viewer);
  const key = [
    today(),
    ...contributions.map((c) => `${c.cap ?? ''}/${c.sourceHidden ? 'h' : ''}/${c.sources.map((s) => `${s.kind}${s.id}.${store.members.versionOf(s)}`).join(',')}`),
  ].join('|');
  let view = views.get(source);
  if (view?.key !== key) views.set(source, (view = { key, rows: buildRows(store, source, contributions) }));
  return view;
}

/** Where the rows of /members/all come from, as far as the viewer may see. */
function memberContributions(store: Store, source: Source, viewer: User): Contribution[] {
  const chain = groupChainOf(store, source);
  const contributions: Contribution[] = [{ sources: source.kind === 'project' ? [source, ...chain] : chain, sourceHidden: false }];

  const memberOfSource = store.accessLevel(source, viewer) >= ACCESS.GUEST;
  const managesMembers = canAdminMembers(store, source, viewer);
  const invite = (link: GroupLink, members: (invited: Group) => readonly Source[]) => {
    const invited = store.groups.get(link.groupId);
    if (!invited || isExpired(link.expiresAt)) return;
    const visible = store.canSee(invited, viewer);
    if (!memberOfSource && !visible) return;
    // A public invited group is visible to every signed-in viewer, so only private ones can be hidden.
    const sourceHidden = !visible && !managesMembers;
    contributions.push({ sources: members(invited), cap: link.accessLevel, sourceHidden });
  };
  // A project's invited groups count with their ancestors' members; groups shared into a group
  // (or into a project's ancestors) with their direct members only.
  if (source.kind === 'project') {
    for (const link of source.sharedWith) invite(link, (invited) => store.groupChain(invited));
  }
  for (const link of chain.flatMap((g) => g.sharedWith)) invite(link, (invited) => [invited]);
  return contributions;
}

function buildRows(store: Store, source: Source, contributions: readonly Contribution[]): MemberRow[] {
  const best = new Map<number, MemberRow>();
  for (const { sources, cap, sourceHidden } of contributions) {
    for (const s of sources) {
      for (const member of userMembers(store, s)) {
        if (isExpired(member.expiresAt) || member.accessLevel === ACCESS.MINIMAL_ACCESS) continue;
        const row = cap === undefined ? directRow(member) : { member, accessLevel: Math.min(cap, member.accessLevel), sourceHidden };
        const current = best.get(member.userId!);
        if (!current || row.accessLevel > current.accessLevel) best.set(member.userId!, row);
      }
    }
  }
  if (source.kind === 'project') {
    // MembersFinder keeps a user's project membership record, with the user's highest level.
    for (const [userId, row] of best) {
      const own = directUserMember(store, source, userId);
      if (own && own !== row.member) best.set(userId, { member: own, accessLevel: row.accessLevel, sourceHidden: false });
    }
  }
  return [...best.values()].sort((a, b) => a.member.id - b.member.id);
}

// ---- billable users --------------------------------------------------------------------------

export type MembershipType = 'group_member' | 'project_member' | 'group_invite' | 'project_invite';

/** Groups invited into the groups and projects of a hierarchy, with the kind of source they were invited into. */
function invitedGroups(store: Store, root: Group): { group: Group; into: 'group' | 'project' }[] {
  const { groups, projects } = hierarchy(store, root);
  const out: { group: Group; into: 'group' | 'project' }[] = [];
  for (const [sources, into] of [[groups, 'group'], [projects, 'project']] as const) {
    for (const source of sources) {
      for (const link of source.sharedWith) {
        const group = store.groups.get(link.groupId);
        if (group && !isExpired(link.expiresAt)) out.push({ group, into });
      }
    }
  }
  return out;
}

export function invitedGroupIds(store: Store, root: Group): Set<number> {
  return new Set(invitedGroups(store, root).map((i) => i.group.id));
}

/** The billed users of a top-level group and how each one is a member (the first type wins). */
export function billableUsers(store: Store, root: Group): Map<number, MembershipType> {
  const { groups, projects } = hierarchy(store, root);
  const out = new Map<number, MembershipType>();
  const add = (members: readonly Member[], type: MembershipType) => {
    for (const m of members) {
      if (store.users.get(m.userId!)?.state !== 'active' || isExpired(m.expiresAt)) continue;
      if (m.state === 'active' && !out.has(m.userId!)) out.set(m.userId!, type);
    }
  };
  for (const g of groups) add(userMembers(store, g), 'group_member');
  for (const p of projects) add(userMembers(store, p), 'project_member');
  const invited = invitedGroups(store, root);
  for (const into of ['group', 'project'] as const) {
    for (const i of invited.filter((x) => x.into === into)) add(userMembers(store, i.group), into === 'group' ? 'group_invite' : 'project_invite');
  }
  return out;
}

// ---- promotion management (EE, self-managed) -------------------------------------------------

/** A user takes a seat once they hold Reporter or above anywhere (Guest, Planner, Minimal access are free). */
function isBillableUser(store: Store, user: User): boolean {
  if (user.isAdmin) return true;
  for (const m of store.members.ofUser(user.id)) {
    if (m.accessLevel < ACCESS.REPORTER) continue;
    // Whether an awaiting membership holds a seat is unconfirmed (User.excluding_guests_and_requests).
    if (m.state === 'active') return true;
  }
  return false;
}

/**
 * With `enable_member_promotion_management` on, a non-administrator giving a billable role to a
 * user who holds no seat yet only queues the request for an administrator's approval.
 */
export function promotionQueued(store: Store, actor: User, target: User, level: number): boolean {
  return store.settings.enableMemberPromotionManagement && !actor.isAdmin && level >= ACCESS.REPORTER && !isBillableUser(store, target);
}

// ---- model validations of a membership -------------------------------------------------------

/**
 * Member#highest_group_member: the highest membership a user holds in the groups above a source (a
 * subgroup's or project's ancestors), whatever its state.
 */
function inheritedMembership(store: Store, source: Source, userId: number): { level: number; group: Group } | undefined {
  const ancestors = source.kind === 'group' ? store.groupChain(source).slice(1) : groupChainOf(store, source);
  let best: { level: number; group: Group } | undefined;
  for (const group of ancestors) {
    const member = directUserMember(store, group, userId);
    // Between two ancestors with the same level, which group GitLab names is unconfirmed (ORDER BY access_level, then any).
    if (member && (!best || member.accessLevel > best.level)) best = { level: member.accessLevel, group };
  }
  return best;
}

/** Member model validations: the level is a membership level, at least the inherited one, and the expiry is not past. */
export function membershipErrors(store: Store, source: Source, userId: number, level: number, expiresAt: string | null | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!MEMBER_LEVELS.includes(level)) {
    errors.access_level = ['is not included in the list'];
  } else if (level === ACCESS.MINIMAL_ACCESS && source.kind === 'project') {
    // ProjectMember#access_level_inclusion: Gitlab::Access.all_values, which has no Minimal access (app/models/project_member.rb).
    errors.access_level = ['is not included in the list'];
  } else if (level === ACCESS.MINIMAL_ACCESS && source.kind === 'group' && source.parentId !== null) {
    // EE GroupMember#access_level_inclusion: Minimal access is a top-level group's level only.
    errors.access_level = ['is not included in the list', 'supported on top level groups only'];
  } else {
    const inherited = inheritedMembership(store, source, userId);
    if (inherited && inherited.level > level) {
      errors.access_level = [`should be greater than or equal to ${ROLE_NAMES[inherited.level]} inherited membership from group ${inherited.group.name}`];
    }
  }
  if (expiresAt && isExpired(expiresAt)) errors.expires_at = ['cannot be a date in the past'];
  // validates :user_id, uniqueness (unscoped), if: :project_bot?: a bot holds its own project's membership only.
  const bot = store.users.get(userId)?.userType === 'project_bot';
  if (bot && store.members.ofUser(userId).some((m) => m.source.kind !== source.kind || m.source.id !== source.id)) {
    errors.user_id = ['project bots cannot be added to other groups / projects'];
  }
  return errors;
}

/** ActiveModel's `full_messages.to_sentence`: "Access level is not included in the list". */
export function fullMessages(errors: Record<string, string[]>): string {
  const messages = Object.entries(errors).flatMap(([field, texts]) => {
    // ActiveSupport's humanize: a trailing "_id" goes ("user_id" is "User").
    const name = field.replace(/_id$/, '').replace(/_/g, ' ');
    return texts.map((text) => `${name[0].toUpperCase()}${name.slice(1)} ${text}`);
  });
  return toSentence(messages);
}

/** Rails' `Array#to_sentence`. */
export function toSentence(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}
