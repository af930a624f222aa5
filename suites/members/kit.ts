// The members area's kit, extended once: what every members test and fixture build makes and leases
// besides the base kit (groups and projects with or without the shared actors in their roles, users
// made members, memberships given and taken as the administrator), its `endpoint` and its `fixture`.
import { describeExchange, expectSetUp } from '../../runner/core/checks.js';
import { HarnessError } from '../../runner/core/errors.js';
import type { GroupInfo, ProjectInfo, SourceInfo, SourceKind, Visibility } from '../../runner/core/vocabulary.js';
import { areaKit } from '../../runner/run/conformance.js';
import type { ActorInfo } from '../../runner/run/context.js';
import type { BuildContext, SetupContext } from '../../runner/run/fixture.js';
import type { Maker } from '../../runner/run/maker.js';
import { members } from './area.js';
import { memberPath, membersPath, type SourceRef } from './paths.js';

type GroupOptions = { visibility?: Visibility; parent?: GroupInfo; top?: boolean };
type ProjectOptions = { group?: GroupInfo; visibility?: Visibility };

/** What the members kit adds (each test's and each build's, for the one it is made for). */
export interface MembersKit {
  /** A group (private unless told; below the run's root, or `top`) with every shared role actor as a direct member at its level. */
  roleGroup(options?: GroupOptions): Promise<GroupInfo>;
  /** A group with no member but the administrator who creates it. */
  group(options?: GroupOptions): Promise<GroupInfo>;
  /** A project (in `group`, private unless told) with every shared role actor as a direct member. */
  roleProject(options?: ProjectOptions): Promise<ProjectInfo>;
  project(options?: ProjectOptions): Promise<ProjectInfo>;
  /** A role group, and a role project in a group of its own: the two sources of a test written for both kinds. */
  roleSources(): Promise<{ group: GroupInfo; project: ProjectInfo }>;
  /** One of them, as `kind` says: for a fixture built per kind. */
  roleSource(kind: SourceKind): Promise<GroupInfo | ProjectInfo>;
  /** A top-level role group, a subgroup in it and a project in the subgroup: the hierarchy of the EE group endpoints. */
  hierarchy(): Promise<Hierarchy>;
  /** A new user with no membership at all: holds no seat. */
  newcomer(): Promise<ActorInfo>;
  /**
   * A user who holds no seat (Frame.leaseSeatless), for the promotion-approval tests; taken out of
   * what it was given after the test. Not for a test in which an administrator gives it a seat with
   * approval on (use newcomer()).
   */
  seatless(): Promise<ActorInfo>;
  /**
   * A user lent to the test or fixture (`lease`: one of the run's pool, new to the domains of its
   * fixtures, who already holds a seat) made a direct member of `source` at `level`.
   */
  member(source: SourceInfo, level: number): Promise<ActorInfo>;
  /** Gives a user a role as the administrator (setup; the target contract has no other way). */
  add(source: SourceRef, user: { id: number }, level: number): Promise<void>;
  /** Takes a direct membership away again, as the administrator (restoring a fixture; set-up takes 200 or 204). */
  remove(source: SourceRef, user: { id: number }): Promise<void>;
}

/** A top-level role group, a subgroup in it and a project in the subgroup. */
export interface Hierarchy {
  root: GroupInfo;
  sub: GroupInfo;
  project: ProjectInfo;
}

export async function buildHierarchy(make: Maker): Promise<Hierarchy> {
  const root = await make.group({ top: true, hint: 'members', roles: true });
  const sub = await make.group({ parent: root, hint: 'members' });
  return { root, sub, project: await make.project({ group: sub, hint: 'members' }) };
}

function membersKit(ctx: BuildContext): MembersKit {
  const { make, admin } = ctx;
  const kit: MembersKit = {
    group: (options = {}) => make.group({ ...options, hint: 'members' }),
    roleGroup: (options = {}) => make.group({ ...options, hint: 'members', roles: true }),
    project: (options = {}) => make.project({ ...options, hint: 'members' }),
    roleProject: (options = {}) => make.project({ ...options, hint: 'members', roles: true }),
    async roleSources() {
      const [group, project] = await Promise.all([kit.roleGroup(), kit.group().then((parent) => kit.roleProject({ group: parent }))]);
      return { group, project };
    },
    roleSource: (kind) => (kind === 'group' ? kit.roleGroup() : kit.group().then((parent) => kit.roleProject({ group: parent }))),
    hierarchy: () => buildHierarchy(make),
    newcomer: () => make.user(),
    seatless: () => ctx.leaseSeatless(),
    async member(source, level) {
      const user = await ctx.lease();
      await kit.add(source, user, level);
      return user;
    },
    async add(source, user, level) {
      const res = await admin.post(membersPath(source), { body: { user_id: user.id, access_level: level } });
      expectSetUp(res, `adding user ${user.id} to ${source.kind} ${source.id} at level ${level}`);
    },
    async remove(source, user) {
      const res = await admin.delete(memberPath(source, user.id));
      if (![200, 204].includes(res.status)) throw new HarnessError(`clean-up failed: could not remove user ${user.id} from ${source.kind} ${source.id}${describeExchange(res)}`);
    },
  };
  return kit;
}

export const { endpoint, fixture } = areaKit(members, { extend: membersKit });

/** A members test's or fixture build's context with the members kit: what the helpers that make sources for them take. */
export type MembersContext = SetupContext & MembersKit;
