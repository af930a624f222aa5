// Makes the objects a fixture or test needs on the target, as the administrator, through the
// contract's set-up endpoints (and the few beyond it that a frame declares: setup-needs.ts). Every
// object goes into the run's ledger before it is used, and every group and project is made known
// to the lending policy (which domain it belongs to). Groups go below the run's root group unless
// they must be at the top (the EE member endpoints take top-level groups only), so that the run's
// clean-up removes one group where it would otherwise remove dozens: GitLab 17 and 18 keep a deleted
// top-level group pending deletion, and take `permanently_remove` for subgroups and projects only.
// Nothing is removed here: the run's clean-up removes what the ledger lists (removal.ts).
import { causeOf } from '../core/cause.js';
import { describeExchange } from '../core/checks.js';
import { apiPath, type Exchange } from '../core/client.js';
import { HarnessError } from '../core/errors.js';
import { registerSecret } from '../core/redact.js';
import { SETUP_NEEDS, type SetupNeed } from '../core/setup-needs.js';
import { dateIn, ROLES, ROLE_LEVEL, sourcePath, type GroupInfo, type ProjectInfo, type SourceInfo, type TokenScope, type Visibility } from '../core/vocabulary.js';
import type { ActorInfo } from './context.js';
import type { Names } from './names.js';
import type { Client } from '../core/client.js';
import type { RunContext } from './context.js';
import type { CoordinatorClient } from './coordinator.js';
import type { Slot, Symbols } from './symbols.js';
import { Ledger } from './ledger.js';
import type { SourceKey } from './lending.js';

export type { GroupInfo, ProjectInfo, SourceInfo, Visibility } from '../core/vocabulary.js';

/** A set-up request that did not succeed: the fixture or test that needed it cannot be checked. */
export class SetupError extends HarnessError {
  override name = 'SetupError';
  constructor(
    what: string,
    exchange: Exchange,
    expected: number[],
    /** The set-up endpoint beyond the target contract that failed, if it is one: its dependents are unsupported. */
    readonly need?: SetupNeed,
  ) {
    super(`set-up: could not ${what} (wanted HTTP ${expected.join('/')})${describeExchange(exchange)}`);
    this.rootCause = causeOf(exchange, `HTTP ${expected.join(' or ')}`, true);
    const body = exchange.body === undefined ? '' : ` ${JSON.stringify(exchange.body)}`;
    this.brief = `set-up: could not ${what} (wanted HTTP ${expected.join('/')}, got ${exchange.status}${body.length > 160 ? `${body.slice(0, 160)}…` : body})`;
  }

  /** One line: what could not be done and what the target answered. */
  readonly brief: string;
}

/** What a Maker needs of the frame it makes objects for (frame.ts's Frame; named here so that maker.ts does not import frame.ts, which imports it). */
export interface MakerFrame {
  readonly run: { context: RunContext; coordinator: CoordinatorClient };
  readonly admin: Client;
  readonly names: Names;
  readonly symbols: Symbols;
  /** Who owns the domains it makes. */
  readonly owner: string;
  /** Throws unless the frame declared the set-up need. */
  mayUse(need: SetupNeed): void;
}

export class Maker {
  constructor(private readonly frame: MakerFrame) {}

  private get run() {
    return this.frame.run;
  }

  /** Sends a set-up request; its body when the status is one of `expected`, else a SetupError (naming `need` when it is beyond the contract). */
  async setup(what: string, exchange: Promise<Exchange>, expected: number[] = [200, 201], need?: SetupNeed): Promise<Record<string, unknown>> {
    if (need) this.frame.mayUse(need);
    const res = await exchange;
    if (!expected.includes(res.status)) throw new SetupError(what, res, expected, need);
    return (res.body ?? {}) as Record<string, unknown>;
  }

  private ledger(kind: 'user' | 'group' | 'project', id: number, name: string): void {
    new Ledger(this.run.context.ledgerPath, this.run.context.runId).record(kind, id, name);
  }

  /**
   * A new user, a member of nothing, with a personal access token of each scope in `scopes` (`api`
   * unless told). `unconfirmed`: its primary address left unconfirmed (a set-up beyond the contract).
   */
  async user(hint?: string, scopes: readonly TokenScope[] = ['api'], options: { unconfirmed?: boolean; slot?: Slot } = {}): Promise<ActorInfo> {
    const slot = options.slot ?? this.frame.symbols.slot();
    const fields = this.frame.names.user(hint);
    // Without skip_confirmation an administrator's new user keeps an unconfirmed address (app/services/users/build_service.rb).
    const confirmation = options.unconfirmed ? {} : { skip_confirmation: true };
    const need = options.unconfirmed ? 'unconfirmed-users' : undefined;
    if (need) this.frame.mayUse(need);
    const created = await this.frame.admin.post('/users', { body: { ...fields, ...confirmation } });
    if (created.status !== 201) throw new SetupError(`create user ${fields.username}`, created, [201], need);
    const id = (created.body as { id: number }).id;
    this.ledger('user', id, fields.username);
    // An implementation without e-mail confirmation makes the user confirmed anyway: that is what it lacks
    // (GitLab shows confirmed_at, null while unconfirmed: lib/api/entities/user_public.rb).
    if (need && typeof (created.body as { confirmed_at?: unknown }).confirmed_at === 'string') {
      throw new SetupError(`leave the primary address of ${fields.username} unconfirmed (confirmed_at is set)`, created, [201], need);
    }
    const tokens = {} as ActorInfo['tokens'];
    const expires = dateIn(2);
    // The tokens at once: each is a round trip to the target, and none depends on another.
    await Promise.all(
      scopes.map(async (scope) => {
        const token = await this.setup(
          `create a ${scope} token for ${fields.username}`,
          this.frame.admin.post(apiPath`/users/${id}/personal_access_tokens`, { body: { name: `conformance-${scope}`, scopes: [scope], expires_at: expires } }),
        );
        registerSecret(token.token as string);
        // Recorded to be revoked at clean-up should the user not be the run's (its id given wrongly).
        if (typeof token.id === 'number') new Ledger(this.run.context.ledgerPath, this.run.context.runId).recordToken(token.id, id, `conformance-${scope}`);
        tokens[scope] = token.token as string;
      }),
    );
    const user = { id, username: fields.username, name: fields.name, email: fields.email, tokens };
    slot(user);
    return user;
  }

  /** A new user holding a seat, as the run's pool users do (a Reporter of the run's seat group). */
  async seatedUser(hint?: string, slot?: Slot): Promise<ActorInfo> {
    const user = await this.user(hint, undefined, { slot });
    const seats = this.run.context.pool.seats;
    if (seats) await this.addMember(seats, user.id, ROLE_LEVEL.reporter);
    return user;
  }

  /**
   * A group (private unless told): in `parent`, else below the run's root group, else (`top`) at the
   * top of the instance. With `roles`, every shared role actor a direct member at its level.
   */
  async group(options: { visibility?: Visibility; parent?: GroupInfo; top?: boolean; hint?: string; roles?: boolean } = {}): Promise<GroupInfo> {
    const slot = this.frame.symbols.slot();
    const path = this.frame.names.slug(options.hint);
    const parent = options.parent ?? (options.top ? undefined : this.run.context.root);
    const body = await this.setup(
      `create group ${path}`,
      this.frame.admin.post('/groups', { body: { name: path, path, visibility: options.visibility ?? 'private', parent_id: parent?.id } }),
    );
    const group: GroupInfo = { kind: 'group', id: body.id as number, name: body.name as string, fullPath: body.full_path as string };
    this.ledger('group', group.id, group.fullPath);
    slot(group);
    await this.known(group, options.parent);
    if (options.roles) await this.addRoles(group);
    return group;
  }

  /** A project with a repository (README on the default branch unless `empty`), in `group` or the administrator's namespace. */
  async project(options: { group?: GroupInfo; visibility?: Visibility; hint?: string; empty?: boolean; roles?: boolean } = {}): Promise<ProjectInfo> {
    const slot = this.frame.symbols.slot();
    const path = this.frame.names.slug(options.hint);
    const body = await this.setup(
      `create project ${path}`,
      this.frame.admin.post('/projects', {
        body: { name: path, path, namespace_id: options.group?.id, visibility: options.visibility ?? 'private', initialize_with_readme: !options.empty, default_branch: 'main' },
      }),
    );
    const project: ProjectInfo = { kind: 'project', id: body.id as number, fullPath: body.path_with_namespace as string, defaultBranch: (body.default_branch as string | null) ?? 'main' };
    this.ledger('project', project.id, project.fullPath);
    slot(project);
    await this.known(project, options.group);
    if (options.roles) await this.addRoles(project);
    return project;
  }

  /** Tells the lending policy of a new source: in its parent's domain, or a domain of the frame's owner. */
  private async known(source: SourceInfo, parent: GroupInfo | undefined): Promise<SourceKey> {
    const parentKey: SourceKey | undefined = parent && parent.id !== this.run.context.root?.id ? `group:${parent.id}` : undefined;
    return this.run.coordinator.lending.registerSource({ kind: source.kind, id: source.id, fullPath: source.fullPath }, parentKey, this.frame.owner);
  }

  /**
   * Gives users a role in a group or project, all in one request (a comma list of ids: lib/api/members.rb).
   * The contract has no set-up endpoint for memberships, so this uses the members API itself (as GitLab
   * QA does); a target that breaks it shows errors.
   */
  async addMember(source: SourceInfo, userIds: number | number[], accessLevel: number): Promise<void> {
    const ids = Array.isArray(userIds) ? userIds : [userIds];
    const res = await this.frame.admin.post(`${sourcePath(source)}/members`, { body: { user_id: ids.join(','), access_level: accessLevel } });
    // One user: the member (201). Several: {"status": "success"} (201), or "error" naming who failed.
    const ok = res.status === 201 && (ids.length === 1 || (res.body as { status?: unknown } | undefined)?.status === 'success');
    if (!ok) throw new SetupError(`add user(s) ${ids.join(',')} to ${source.kind} ${source.fullPath} at level ${accessLevel}`, res, [201]);
  }

  /** Gives every shared actor (owner, maintainer, developer, reporter, guest) its role in a source. */
  private async addRoles(source: SourceInfo): Promise<void> {
    await Promise.all(ROLES.map((role) => this.addMember(source, this.run.context.actors[role].id, ROLE_LEVEL[role])));
  }

  /** Shares a group or project with `withGroup` at `level`: the invited group's members become its members, up to that level. */
  async share(source: SourceInfo, withGroup: GroupInfo, level: number): Promise<void> {
    const path = source.kind === 'group' ? apiPath`/groups/${source.id}/share` : apiPath`/projects/${source.id}/share`;
    await this.setup(`share ${source.kind} ${source.fullPath} with ${withGroup.fullPath}`, this.frame.admin.post(path, { body: { group_id: withGroup.id, group_access: level } }), [201]);
  }

  async branch(project: ProjectInfo, name: string, ref = project.defaultBranch): Promise<void> {
    await this.setup(`create branch ${name} in ${project.fullPath}`, this.frame.admin.post(apiPath`/projects/${project.id}/repository/branches`, { body: { branch: name, ref } }), [201]);
  }

  /**
   * The user asks for access to a (public or internal) group or project, with their own token
   * (lib/api/access_requests.rb): GitLab's "access requester" of its members and invitations specs.
   */
  async requestAccess(source: SourceInfo, user: ActorInfo): Promise<void> {
    const client = this.frame.admin.withToken(user.tokens.api, `${user.username} (setup)`);
    await this.setup(`request access to ${source.kind} ${source.fullPath} as ${user.username}`, client.post(`${sourcePath(source)}/access_requests`), [201], 'access-requests');
  }

  /** A secondary address for a user, confirmed at once or left unconfirmed (lib/api/users.rb; app/services/emails/create_service.rb). */
  async addEmail(user: ActorInfo, email: string, confirmed: boolean): Promise<void> {
    const body = confirmed ? { email, skip_confirmation: true } : { email };
    await this.setup(`add the address ${email} to ${user.username}`, this.frame.admin.post(apiPath`/users/${user.id}/emails`, { body }), [201], 'secondary-emails');
    user.secondaryEmails = [...(user.secondaryEmails ?? []), email.toLowerCase()];
  }
}

export { SETUP_NEEDS };
