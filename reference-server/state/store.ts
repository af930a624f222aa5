// The store: every record of the reference server, with the lookups and permission rules that
// GitLab's finders and policies apply. Routes never touch the maps directly for rules; they ask here.
import { randomBytes } from 'node:crypto';
import { Repository } from '../git/repository.js';
import { AccessRequests } from './access-requests.js';
import { MemberMap, MemberRecord } from './member-map.js';
import { isExpired, now } from './time.js';
import {
  ACCESS,
  type ApplicationSettings,
  type Group,
  type Member,
  type PersonalAccessToken,
  type Project,
  type Source,
  type User,
  type Visibility,
} from './model.js';

export function newToken(): string {
  // GitLab personal access tokens: "glpat-" and 20 url-safe characters.
  return `glpat-${randomBytes(15).toString('base64url')}`;
}

/** The sequences records draw their ids from: one per table, as in GitLab (namespace: groups). */
export type IdKind = 'user' | 'token' | 'namespace' | 'project' | 'member' | 'mirror' | 'email';

/** Hands out the next id of a sequence; the default counts each from 1 (the vary layer has its own, vary/ids.ts). */
export type IdSource = (kind: IdKind) => number;

export class Store {
  private nextId: Record<IdKind, number> = { user: 1, token: 1, namespace: 1, project: 1, member: 1, mirror: 1, email: 1 };
  readonly users = new Map<number, User>();
  readonly tokens = new Map<string, PersonalAccessToken>();
  readonly groups = new Map<number, Group>();
  readonly projects = new Map<number, Project>();
  readonly members = new MemberMap();
  /** Pending access requests (POST …/access_requests), kept apart from memberships (access-requests.ts). */
  readonly accessRequests = new AccessRequests();
  readonly settings: ApplicationSettings = { enableMemberPromotionManagement: false };
  /**
   * The old full paths of renamed projects (lower case) and the project each now leads to: GitLab's
   * RedirectRoute rows, made when a project's path changes (app/models/concerns/routable.rb).
   */
  readonly projectRedirects = new Map<string, number>();

  constructor(private ids?: IdSource) {}

  /**
   * Takes over every record and id sequence of `other`, which is left unusable: the server's reset
   * builds its seeded state afresh in another store and moves it here, since routes and hooks hold this one.
   */
  takeOver(other: Store): void {
    for (const name of ['users', 'tokens', 'groups', 'projects', 'projectRedirects'] as const) {
      const mine = this[name] as Map<unknown, unknown>;
      mine.clear();
      for (const [key, value] of other[name]) mine.set(key, value);
    }
    this.members.clear();
    // set() hands each record to this map's watcher, away from the other store's.
    for (const member of other.members.values()) this.members.set(member.id, member);
    this.accessRequests.takeOver(other.accessRequests);
    Object.assign(this.settings, other.settings);
    this.nextId = { ...other.nextId };
    this.ids = other.ids;
  }

  /** The next id of each sequence (a saved state keeps them: state/state.ts). */
  nextIds(): Record<IdKind, number> {
    return { ...this.nextId };
  }

  /** Sets the next id of each sequence (a saved state loaded). */
  continueIds(next: Record<IdKind, number>): void {
    this.nextId = { ...next };
  }

  /** Keeps a membership record as it was saved, id and all (a saved state loaded). */
  restoreMember(fields: Member): Member {
    const member = new MemberRecord(fields);
    this.members.set(member.id, member);
    return member;
  }

  id(kind: IdKind): number {
    return this.ids ? this.ids(kind) : this.nextId[kind]++;
  }

  // ---- users and tokens -------------------------------------------------------------------

  createUser(fields: { username: string; name: string; email: string; isAdmin?: boolean; publicEmail?: string; confirmed?: boolean; userType?: User['userType'] }): User {
    const user: User = {
      id: this.id('user'),
      username: fields.username,
      name: fields.name,
      email: fields.email,
      publicEmail: fields.publicEmail ?? '',
      state: 'active',
      isAdmin: fields.isAdmin ?? false,
      createdAt: now(),
      lastActivityOn: null,
      lastLoginAt: null,
      samlIdentities: new Map(),
      confirmed: fields.confirmed ?? true,
      emails: [],
      ...(fields.userType ? { userType: fields.userType } : {}),
    };
    if (user.confirmed) user.primaryEmailId = this.id('email');
    this.users.set(user.id, user);
    return user;
  }

  createToken(userId: number, name: string, scopes: string[], expiresAt: string | null, token = newToken()): PersonalAccessToken {
    const pat: PersonalAccessToken = { id: this.id('token'), userId, name, token, scopes, expiresAt, revoked: false, createdAt: now() };
    this.tokens.set(token, pat);
    return pat;
  }

  /** A user by an id as a request writes it: digits only, anything else names no user. */
  userByIdText(text: string): User | undefined {
    return /^\d+$/.test(text) ? this.users.get(Number(text)) : undefined;
  }

  /** The user of a nullable reference (a member's user, who created it). */
  userOrNone(id: number | null): User | undefined {
    return id === null ? undefined : this.users.get(id);
  }

  userByUsername(username: string): User | undefined {
    const wanted = username.toLowerCase();
    for (const user of this.users.values()) if (user.username.toLowerCase() === wanted) return user;
    return undefined;
  }

  userByEmail(email: string): User | undefined {
    const wanted = email.toLowerCase();
    for (const user of this.users.values()) if (user.email.toLowerCase() === wanted) return user;
    return undefined;
  }

  /**
   * The user holding a confirmed address, primary or secondary: User.by_any_email(emails, confirmed: true)
   * (app/models/concerns/bulk_users_by_email_load.rb), the lookup that turns an invited address into a member.
   */
  userByConfirmedEmail(email: string): User | undefined {
    const wanted = email.toLowerCase();
    for (const user of this.users.values()) {
      if (user.confirmed && user.email.toLowerCase() === wanted) return user;
      if (user.emails.some((e) => e.confirmed && e.email.toLowerCase() === wanted)) return user;
    }
    return undefined;
  }

  /** Whether any user holds the address, as primary or secondary (Email's and User's uniqueness of email). */
  emailTaken(email: string): boolean {
    const wanted = email.toLowerCase();
    return [...this.users.values()].some((u) => u.email.toLowerCase() === wanted || u.emails.some((e) => e.email.toLowerCase() === wanted));
  }

  deleteUser(id: number): void {
    this.users.delete(id);
    for (const [key, token] of this.tokens) if (token.userId === id) this.tokens.delete(key);
    for (const member of this.members.ofUser(id)) this.members.delete(member.id);
    this.accessRequests.removeUser(id);
    for (const member of this.members.values()) if (member.createdById === id) member.createdById = null;
  }

  // ---- groups and projects ----------------------------------------------------------------

  createGroup(fields: { name: string; path: string; parentId: number | null; visibility: Visibility; description?: string }): Group {
    const group: Group = {
      kind: 'group',
      id: this.id('namespace'),
      name: fields.name,
      path: fields.path,
      parentId: fields.parentId,
      visibility: fields.visibility,
      createdAt: now(),
      description: fields.description ?? '',
      samlSsoEnabled: false,
      sharedWith: [],
    };
    this.groups.set(group.id, group);
    return group;
  }

  createProject(fields: {
    name: string;
    path: string;
    namespace: Project['namespace'];
    visibility: Visibility;
    creatorId: number;
    defaultBranch: string;
  }): Project {
    const project: Project = {
      kind: 'project',
      id: this.id('project'),
      name: fields.name,
      path: fields.path,
      namespace: fields.namespace,
      visibility: fields.visibility,
      createdAt: now(),
      creatorId: fields.creatorId,
      repository: new Repository(fields.defaultBranch),
      protectedBranches: new Set([fields.defaultBranch]),
      sharedWith: [],
      remoteMirrors: [],
    };
    this.projects.set(project.id, project);
    return project;
  }

  /** Deletes a group with its subgroups, projects, memberships and links to it. */
  deleteGroup(id: number): void {
    for (const sub of [...this.groups.values()]) if (sub.parentId === id) this.deleteGroup(sub.id);
    for (const project of [...this.projects.values()]) {
      if (project.namespace.kind === 'group' && project.namespace.id === id) this.deleteProject(project.id);
    }
    this.deleteMembersOf({ kind: 'group', id });
    for (const source of [...this.groups.values(), ...this.projects.values()]) {
      source.sharedWith = source.sharedWith.filter((link) => link.groupId !== id);
    }
    this.groups.delete(id);
  }

  deleteProject(id: number): void {
    this.deleteMembersOf({ kind: 'project', id });
    for (const [path, target] of this.projectRedirects) if (target === id) this.projectRedirects.delete(path);
    this.projects.delete(id);
  }

  private deleteMembersOf(source: Member['source']): void {
    this.accessRequests.removeSource(source);
    for (const member of this.members.ofSource(source)) this.members.delete(member.id);
  }

  groupFullPath(group: Group): string {
    const parts = this.groupChain(group).reverse().map((g) => g.path);
    return parts.join('/');
  }

  groupFullName(group: Group): string {
    return this.groupChain(group).reverse().map((g) => g.name).join(' / ');
  }

  /** The group and its ancestors, nearest first. */
  groupChain(group: Group): Group[] {
    const chain: Group[] = [];
    for (let g: Group | undefined = group; g; g = g.parentId === null ? undefined : this.groups.get(g.parentId)) chain.push(g);
    return chain;
  }

  rootOf(group: Group): Group {
    const chain = this.groupChain(group);
    return chain[chain.length - 1];
  }

  projectGroup(project: Project): Group | undefined {
    return project.namespace.kind === 'group' ? this.groups.get(project.namespace.id) : undefined;
  }

  projectFullPath(project: Project): string {
    const group = this.projectGroup(project);
    const owner = project.namespace.kind === 'user' ? this.users.get(project.namespace.id)?.username ?? 'deleted' : undefined;
    return `${group ? this.groupFullPath(group) : owner}/${project.path}`;
  }

  projectFullName(project: Project): string {
    const group = this.projectGroup(project);
    const owner = project.namespace.kind === 'user' ? this.users.get(project.namespace.id)?.name ?? 'deleted' : undefined;
    return `${group ? this.groupFullName(group) : owner} / ${project.name}`;
  }

  /** Finds a group by numeric id or URL-decoded full path (case-insensitive, as GitLab routes are). */
  findGroup(idOrPath: string): Group | undefined {
    if (/^\d+$/.test(idOrPath)) return this.groups.get(Number(idOrPath));
    const wanted = idOrPath.toLowerCase();
    for (const group of this.groups.values()) if (this.groupFullPath(group).toLowerCase() === wanted) return group;
    return undefined;
  }

  findProject(idOrPath: string): Project | undefined {
    if (/^\d+$/.test(idOrPath)) return this.projects.get(Number(idOrPath));
    const wanted = idOrPath.toLowerCase();
    for (const project of this.projects.values()) if (this.projectFullPath(project).toLowerCase() === wanted) return project;
    return undefined;
  }

  /**
   * A project by an old full path it was renamed from (find_by_full_path(id, follow_redirects: true)):
   * only when no project holds that path now.
   */
  redirectedProject(path: string): Project | undefined {
    const id = this.projectRedirects.get(path.toLowerCase());
    return id === undefined ? undefined : this.projects.get(id);
  }

  /** Changes a project's path and keeps its old full path as a redirect to it (Routable: RedirectRoute). */
  renameProject(project: Project, path: string): void {
    const old = this.projectFullPath(project);
    project.path = path;
    const current = this.projectFullPath(project).toLowerCase();
    // The project's new path is no redirect any more (a route replaces a redirect route of the same path).
    this.projectRedirects.delete(current);
    if (old.toLowerCase() !== current) this.projectRedirects.set(old.toLowerCase(), project.id);
  }

  /** All groups below `group` (not the group itself). */
  descendantGroups(group: Group): Group[] {
    const out: Group[] = [];
    const walk = (parentId: number) => {
      for (const g of this.groups.values()) if (g.parentId === parentId) {
        out.push(g);
        walk(g.id);
      }
    };
    walk(group.id);
    return out;
  }

  /** Projects in `group` and all its subgroups. */
  projectsInHierarchy(group: Group): Project[] {
    const ids = new Set([group.id, ...this.descendantGroups(group).map((g) => g.id)]);
    return [...this.projects.values()].filter((p) => p.namespace.kind === 'group' && ids.has(p.namespace.id));
  }

  // ---- memberships and permissions ---------------------------------------------------------

  sourceRef(source: Source): Member['source'] {
    return { kind: source.kind, id: source.id };
  }

  /** Members recorded directly on the source: active and awaiting users, and pending invitations (id order). */
  directMembers(source: Source): readonly Member[] {
    return this.members.ofSource(source);
  }

  /** The direct memberships of users (not pending invitations) in a source, in id order. */
  userMembers(source: Source): readonly Member[] {
    return this.members.usersOf(source);
  }

  /** The direct membership record of a user in a source, whatever its state. */
  userMember(source: Source, userId: number): Member | undefined {
    return this.members.userIn(source, userId);
  }

  /** Records a membership (or, with `inviteEmail` and `inviteToken`, a pending invitation). */
  addMember(source: Member['source'], fields: Partial<Omit<Member, 'id' | 'source'>> & { accessLevel: number }): Member {
    const member = new MemberRecord({
      id: this.id('member'),
      source,
      userId: null,
      inviteEmail: null,
      inviteToken: null,
      expiresAt: null,
      createdById: null,
      createdAt: now(),
      state: 'active',
      ldap: false,
      override: false,
      inviteSource: 'members-api',
      memberRoleId: null,
      ...fields,
    });
    this.members.set(member.id, member);
    // A user's access request to the source becomes this membership (Members::CreatorService clears requested_at).
    if (member.userId !== null) this.accessRequests.remove(source, member.userId);
    return member;
  }

  /** The direct, accepted (non-invitation) membership of a user in a source. */
  directMembership(source: Source, userId: number): Member | undefined {
    const member = this.members.userIn(source, userId);
    // A record with a user has no invite token; the scan is for one made otherwise.
    if (!member || member.inviteToken === null) return member;
    return this.directMembers(source).find((m) => m.userId === userId && m.inviteToken === null);
  }

  private isEffective(member: Member): boolean {
    return member.userId !== null && member.inviteToken === null && member.state === 'active' && !isExpired(member.expiresAt);
  }

  /** Access a user gets from a group: own membership in it or an ancestor, and links of groups shared into them. */
  groupAccess(group: Group, userId: number, seen = new Set<number>()): number {
    if (seen.has(group.id)) return 0;
    seen.add(group.id);
    let level = 0;
    for (const g of this.groupChain(group)) {
      const own = this.directMembership(g, userId);
      if (own && this.isEffective(own)) level = Math.max(level, own.accessLevel);
      for (const link of g.sharedWith) {
        if (isExpired(link.expiresAt)) continue;
        const invited = this.groups.get(link.groupId);
        if (invited) level = Math.max(level, Math.min(link.accessLevel, this.groupAccess(invited, userId, new Set(seen))));
      }
    }
    return level;
  }

  projectAccess(project: Project, userId: number): number {
    let level = 0;
    const own = this.directMembership(project, userId);
    if (own && this.isEffective(own)) level = own.accessLevel;
    const group = this.projectGroup(project);
    if (group) level = Math.max(level, this.groupAccess(group, userId));
    if (project.namespace.kind === 'user' && project.namespace.id === userId) level = Math.max(level, ACCESS.OWNER);
    for (const link of project.sharedWith) {
      if (isExpired(link.expiresAt)) continue;
      const invited = this.groups.get(link.groupId);
      if (invited) level = Math.max(level, Math.min(link.accessLevel, this.groupAccess(invited, userId)));
    }
    return level;
  }

  /** The access level of a user in a source; administrators count as owners. */
  accessLevel(source: Source, user: User | undefined): number {
    if (!user) return 0;
    if (user.isAdmin) return ACCESS.OWNER;
    return source.kind === 'group' ? this.groupAccess(source, user.id) : this.projectAccess(source, user.id);
  }

  /** Whether the user can see the source at all (GitLab answers 404 otherwise). */
  canSee(source: Source, user: User | undefined): boolean {
    if (source.visibility === 'public') return true;
    if (!user) return false;
    if (source.visibility === 'internal' || user.isAdmin) return true;
    if (this.accessLevel(source, user) > 0) return true;
    // A private group is visible to members of anything inside it.
    if (source.kind === 'group') {
      if (this.descendantGroups(source).some((g) => this.groupAccess(g, user.id) > 0)) return true;
      if (this.projectsInHierarchy(source).some((p) => this.projectAccess(p, user.id) > 0)) return true;
    }
    return false;
  }
}


export type { Source };
// The clock of the records, where the routes have always found it.
export { isExpired, now, today } from './time.js';
