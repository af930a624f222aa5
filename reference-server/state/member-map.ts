// The members of the store: the membership records, whose user, level and expiry changes reach the
// indexes by source and by user (MemberMap), so that a source's member lists are kept until it changes.
import type { Member } from './model.js';
import { now } from './time.js';

/** The fields of a membership that the lists built from it depend on (user lists, members/all rows). */
const TRACKED = ['userId', 'accessLevel', 'expiresAt'] as const;
type TrackedField = (typeof TRACKED)[number];
type Watcher = (member: Member, field: TrackedField, previous: unknown) => void;

/**
 * A membership record as the store makes it: plain fields, except that its user, level and expiry
 * are accessors, so that whoever changes them, the member map's indexes and the lists kept from
 * them hear of it. (Accessors on the class, not on each record: reads stay as fast as a field's.)
 */
export class MemberRecord implements Member {
  id: number;
  source: Member['source'];
  inviteEmail: string | null;
  inviteToken: string | null;
  createdById: number | null;
  createdAt: string;
  updatedAt: string | undefined;
  state: Member['state'];
  ldap: boolean;
  override: boolean;
  inviteSource: string;
  memberRoleId: number | null;
  #userId: number | null;
  #accessLevel: number;
  #expiresAt: string | null;
  #watcher: Watcher | undefined;

  constructor(fields: Member) {
    this.id = fields.id;
    this.source = fields.source;
    this.#userId = fields.userId;
    this.inviteEmail = fields.inviteEmail;
    this.inviteToken = fields.inviteToken;
    this.#accessLevel = fields.accessLevel;
    this.#expiresAt = fields.expiresAt;
    this.createdById = fields.createdById;
    this.createdAt = fields.createdAt;
    this.updatedAt = fields.updatedAt;
    this.state = fields.state;
    this.ldap = fields.ldap;
    this.override = fields.override;
    this.inviteSource = fields.inviteSource;
    this.memberRoleId = fields.memberRoleId;
  }

  get userId(): number | null {
    return this.#userId;
  }

  set userId(value: number | null) {
    const previous = this.#userId;
    this.#userId = value;
    if (value !== previous) this.#watcher?.(this, 'userId', previous);
  }

  get accessLevel(): number {
    return this.#accessLevel;
  }

  set accessLevel(value: number) {
    const previous = this.#accessLevel;
    this.#accessLevel = value;
    if (value !== previous) this.changed('accessLevel', previous);
  }

  get expiresAt(): string | null {
    return this.#expiresAt;
  }

  set expiresAt(value: string | null) {
    const previous = this.#expiresAt;
    this.#expiresAt = value;
    if (value !== previous) this.changed('expiresAt', previous);
  }

  private changed(field: TrackedField, previous: unknown): void {
    this.updatedAt = now();
    this.#watcher?.(this, field, previous);
  }

  /** Who hears of changes: the member map that holds the record. */
  watch(watcher: Watcher | undefined): void {
    this.#watcher = watcher;
  }

  /** All fields, as the plain record they stand for. */
  toJSON(): Member {
    return {
      id: this.id,
      source: this.source,
      userId: this.userId,
      inviteEmail: this.inviteEmail,
      inviteToken: this.inviteToken,
      accessLevel: this.accessLevel,
      expiresAt: this.expiresAt,
      createdById: this.createdById,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      state: this.state,
      ldap: this.ldap,
      override: this.override,
      inviteSource: this.inviteSource,
      memberRoleId: this.memberRoleId,
    };
  }
}

/** What the index keeps about one group or project. */
interface SourceIndex {
  /** Its membership records (users and invitations) by id; ids grow, so insertion order is id order. */
  members: Map<number, Member>;
  /** Its user memberships by user id (a user has one record in a source; the oldest if ever more). */
  byUser: Map<number, Member>;
  /** A value that changes whenever a membership of the source is added, removed or changed. */
  version: number;
  /** The records as a list, and the user memberships among them, made on first use after a change. */
  list?: readonly Member[];
  users?: readonly Member[];
}

/**
 * All members by id, with indexes by source and by user so that a group's or project's members,
 * or a user's membership in one, are found without scanning every membership of the instance.
 * Changes to a record's user, level or expiry reach the indexes (see MemberRecord), so lists
 * derived from a source's members can be kept until its version changes.
 */
export class MemberMap extends Map<number, Member> {
  private readonly bySource = new Map<string, SourceIndex>();
  private readonly byUser = new Map<number, Set<Member>>();
  /** Versions come from one clock, so that a version never repeats for a source. */
  private clock = 0;
  private readonly watcher: Watcher = (member, field, previous) => {
    if (this.get(member.id) !== member) return;
    const index = this.indexOf(member.source);
    if (field !== 'userId') return this.changed(index);
    this.unlink(member, index, previous as number | null);
    this.link(member, index);
  };

  override set(id: number, member: Member): this {
    const previous = this.get(id);
    if (previous === member) return this;
    if (previous) this.delete(id);
    super.set(id, member);
    const index = this.indexOf(member.source);
    index.members.set(id, member);
    if (member instanceof MemberRecord) member.watch(this.watcher);
    else this.trackPlain(member);
    this.link(member, index);
    return this;
  }

  override delete(id: number): boolean {
    const member = this.get(id);
    if (member) {
      const index = this.indexOf(member.source);
      this.unlink(member, index, member.userId);
      index.members.delete(id);
      this.changed(index);
      if (member instanceof MemberRecord) member.watch(undefined);
    }
    return super.delete(id);
  }

  // Kept with delete and set so that the indexes can never disagree with the map, whoever calls it.
  override clear(): void {
    for (const member of this.values()) if (member instanceof MemberRecord) member.watch(undefined);
    this.bySource.clear();
    this.byUser.clear();
    super.clear();
  }

  /** The members recorded on a source, in id order (the same list until the source's memberships change). */
  ofSource(source: { kind: string; id: number }): readonly Member[] {
    const index = this.bySource.get(sourceKey(source));
    if (!index) return [];
    return (index.list ??= [...index.members.values()]);
  }

  /** The user memberships (not invitations) of a source, in id order. */
  usersOf(source: { kind: string; id: number }): readonly Member[] {
    const index = this.bySource.get(sourceKey(source));
    if (!index) return [];
    // A record has either a user or an invite token, never both or neither.
    return (index.users ??= this.ofSource(source).filter((m) => m.userId !== null));
  }

  /** The user membership of `userId` in a source. */
  userIn(source: { kind: string; id: number }, userId: number): Member | undefined {
    return this.bySource.get(sourceKey(source))?.byUser.get(userId);
  }

  /** Every membership of a user, in id order. */
  ofUser(userId: number): Member[] {
    return [...(this.byUser.get(userId) ?? [])].sort((a, b) => a.id - b.id);
  }

  /** Changes whenever a membership of the source is added, removed or changed. */
  versionOf(source: { kind: string; id: number }): number {
    return this.bySource.get(sourceKey(source))?.version ?? 0;
  }

  private indexOf(source: { kind: string; id: number }): SourceIndex {
    const key = sourceKey(source);
    let index = this.bySource.get(key);
    if (!index) this.bySource.set(key, (index = { members: new Map(), byUser: new Map(), version: 0 }));
    return index;
  }

  private changed(index: SourceIndex): void {
    index.version = ++this.clock;
    index.list = undefined;
    index.users = undefined;
  }

  private link(member: Member, index: SourceIndex): void {
    this.changed(index);
    if (member.userId === null) return;
    const current = index.byUser.get(member.userId);
    if (!current || current.id > member.id) index.byUser.set(member.userId, member);
    let mine = this.byUser.get(member.userId);
    if (!mine) this.byUser.set(member.userId, (mine = new Set()));
    mine.add(member);
  }

  /** Takes the record out of the user indexes, under the user id it was indexed with. */
  private unlink(member: Member, index: SourceIndex, userId: number | null): void {
    if (userId === null) return;
    const mine = this.byUser.get(userId);
    mine?.delete(member);
    if (mine?.size === 0) this.byUser.delete(userId);
    if (index.byUser.get(userId) !== member) return;
    index.byUser.delete(userId);
    // Another record of the same user in the source (never made by the API) takes its place.
    for (const other of index.members.values()) {
      if (other !== member && other.userId === userId) {
        index.byUser.set(userId, other);
        break;
      }
    }
  }

  /** A record made elsewhere than Store.addMember: the same tracking, with accessors on the record itself. */
  private trackPlain(member: Member): void {
    for (const field of TRACKED) {
      if (Object.getOwnPropertyDescriptor(member, field)?.set) continue; // already tracked
      let value: unknown = member[field];
      Object.defineProperty(member, field, {
        enumerable: true,
        configurable: true,
        get: () => value,
        set: (next: unknown) => {
          const previous = value;
          value = next;
          if (next !== previous) this.watcher(member, field, previous);
        },
      });
    }
  }
}

function sourceKey(source: { kind: string; id: number }): string {
  return `${source.kind}:${source.id}`;
}
