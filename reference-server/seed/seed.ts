// Seeds: the users (with their tokens), groups, projects (with files on branches and protected
// branches), members, invitations, mirrors, access requests and shares a reference server starts with
// and goes back to on reset. A seed is read
// from JSON or YAML, checked against seed.schema.json (ajv) and then against itself (a member of a
// group the seed does not make); every error names the entry, as `members[2] (alice in demo)`.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import schema from './seed.schema.json' with { type: 'json' };
import { newMirror, urlProblem } from '../routes/remote-mirrors.js';
import { ACCESS, type Group, type Project, type Source, type User } from '../state/model.js';
import type { Store } from '../state/store.js';

type Role = 5 | 10 | 15 | 20 | 30 | 40 | 50 | 'minimal_access' | 'guest' | 'planner' | 'reporter' | 'developer' | 'maintainer' | 'owner';
type Files = Record<string, string>;

export interface Seed {
  users?: { username: string; name?: string; email?: string; public_email?: string; admin?: boolean; tokens?: { token: string; name?: string; scopes?: string[]; expires_at?: string }[] }[];
  groups?: { path: string; name?: string; parent?: string; visibility?: Group['visibility']; description?: string }[];
  projects?: {
    path: string;
    namespace: string;
    name?: string;
    visibility?: Project['visibility'];
    description?: string;
    default_branch?: string;
    files?: Files;
    branches?: { name: string; from?: string; files?: Files }[];
    protected_branches?: string[];
  }[];
  members?: { user: string; group?: string; project?: string; access_level: Role; expires_at?: string }[];
  invitations?: { email: string; group?: string; project?: string; access_level: Role; expires_at?: string; invited_by?: string }[];
  mirrors?: { project: string; url: string; enabled?: boolean; only_protected_branches?: boolean; keep_divergent_refs?: boolean }[];
  access_requests?: { user: string; group?: string; project?: string }[];
  shares?: { with_group: string; group?: string; project?: string; access_level: Role; expires_at?: string }[];
}

/** A seed that does not hold together; the message names the entry. */
export class SeedError extends Error {
  override name = 'SeedError';
}

const LEVELS: Record<string, number> = {
  minimal_access: ACCESS.MINIMAL_ACCESS,
  guest: ACCESS.GUEST,
  planner: ACCESS.PLANNER,
  reporter: ACCESS.REPORTER,
  developer: ACCESS.DEVELOPER,
  maintainer: ACCESS.MAINTAINER,
  owner: ACCESS.OWNER,
};

let validate: ReturnType<Ajv2020['compile']> | undefined;

/** How an entry is named in an error: its kind and index, and what it is about. */
function entryName(seed: unknown, section: string, index: number): string {
  const entry = (seed as Record<string, Record<string, unknown>[] | undefined>)[section]?.[index];
  const text = (key: string) => (typeof entry?.[key] === 'string' ? (entry[key] as string) : undefined);
  const about =
    section === 'members' || section === 'invitations' || section === 'access_requests' || section === 'shares'
      ? [text('user') ?? text('email') ?? text('with_group'), text('group') ?? text('project')].filter(Boolean).join(' in ')
      : section === 'projects'
        ? [text('namespace'), text('path')].filter(Boolean).join('/')
        : section === 'mirrors'
          ? text('project')
          : text('username') ?? text('path');
  return `${section}[${index}]${about ? ` (${about})` : ''}`;
}

function describe(seed: unknown, error: ErrorObject): string {
  const [, section, index, ...rest] = error.instancePath.split('/');
  if (section === undefined) return `the seed ${error.message}${error.keyword === 'additionalProperties' ? `: "${String(error.params.additionalProperty)}"` : ''}`;
  if (index === undefined) return `${section} ${error.message}`;
  const where = entryName(seed, section, Number(index));
  const field = rest.length > 0 ? `${rest.join('.')} ` : '';
  if (error.keyword === 'oneOf') return `${where}: give exactly one of "group" and "project"`;
  if (error.keyword === 'additionalProperties') return `${where}: ${field}has an unknown field "${String(error.params.additionalProperty)}"`;
  if (error.keyword === 'enum') return `${where}: ${field}must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return `${where}: ${field}${error.message}`;
}

/** Checks a parsed seed against seed.schema.json; throws SeedError naming the first bad entry. */
export function checkSeed(seed: unknown, origin = 'seed'): Seed {
  validate ??= new Ajv2020({ strict: true, strictRequired: false, allErrors: false }).compile(schema);
  // A failed oneOf reports its branches' errors before its own, which says what is wrong.
  if (!validate(seed)) throw new SeedError(`${origin}: ${describe(seed, validate.errors!.find((e) => e.keyword === 'oneOf') ?? validate.errors![0])}`);
  return seed as Seed;
}

/** Reads a seed file, JSON or YAML (YAML is a superset of JSON, so one parser reads both). */
export function loadSeedFile(path: string): Seed {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SeedError(`${path}: ${(error as Error).message}`);
  }
  return checkSeed(parsed ?? {}, path);
}

/** Refuses an entry of a seed section, naming it. */
type SeedFailure = (section: string, index: number, message: string) => never;

/**
 * Puts the seed's objects into the store, straight (as GitLab's seed_fu fixtures do, not through the
 * API: the administrator is no member of seeded groups). `time` dates the commits, so that a seed
 * made again on reset has the same commit ids.
 */
export function applySeed(store: Store, seed: Seed, admin: User, time: number, origin = 'seed'): void {
  const fail = (section: string, index: number, message: string): never => {
    throw new SeedError(`${origin}: ${entryName(seed, section, index)}: ${message}`);
  };
  seed.users?.forEach((entry, i) => {
    const email = entry.email ?? `${entry.username}@example.com`;
    if (store.userByUsername(entry.username)) fail('users', i, `username "${entry.username}" is taken`);
    if (store.emailTaken(email)) fail('users', i, `email "${email}" is taken`);
    const user = store.createUser({ username: entry.username, name: entry.name ?? entry.username, email, publicEmail: entry.public_email, isAdmin: entry.admin });
    for (const token of entry.tokens ?? []) {
      if (store.tokens.has(token.token)) fail('users', i, 'a token is given twice');
      store.createToken(user.id, token.name ?? 'seed', token.scopes ?? ['api'], token.expires_at ?? null, token.token);
    }
  });
  const userNamed = (section: string, i: number, username: string) => store.userByUsername(username) ?? fail(section, i, `no user "${username}"`);

  seed.groups?.forEach((entry, i) => {
    const parent = entry.parent === undefined ? undefined : store.findGroup(entry.parent) ?? fail('groups', i, `no group "${entry.parent}" (a parent comes before its subgroups)`);
    if ([...store.groups.values()].some((g) => g.parentId === (parent?.id ?? null) && g.path.toLowerCase() === entry.path.toLowerCase())) fail('groups', i, 'path has already been taken');
    const visibility = entry.visibility ?? parent?.visibility ?? 'private';
    const order = ['private', 'internal', 'public'];
    if (parent && order.indexOf(visibility) > order.indexOf(parent.visibility)) fail('groups', i, `${visibility} is not allowed since the parent group has a ${parent.visibility} visibility`);
    store.createGroup({ name: entry.name ?? entry.path, path: entry.path, parentId: parent?.id ?? null, visibility, description: entry.description });
  });

  seedProjects(store, seed, admin, time, fail);

  const source = (section: string, i: number, entry: { group?: string; project?: string }): Source =>
    entry.group !== undefined
      ? store.findGroup(entry.group) ?? fail(section, i, `no group "${entry.group}"`)
      : store.findProject(entry.project!) ?? fail(section, i, `no project "${entry.project}"`);
  const level = (role: Role) => (typeof role === 'number' ? role : LEVELS[role]);

  seed.members?.forEach((entry, i) => {
    const user = userNamed('members', i, entry.user);
    const target = source('members', i, entry);
    if (store.userMember(target, user.id)) fail('members', i, 'the user is a member already');
    store.addMember(store.sourceRef(target), { userId: user.id, accessLevel: level(entry.access_level), expiresAt: entry.expires_at ?? null, createdById: admin.id });
  });

  seed.invitations?.forEach((entry, i) => {
    const target = source('invitations', i, entry);
    if (store.userByConfirmedEmail(entry.email)) fail('invitations', i, `a user holds "${entry.email}": make it a member instead`);
    if (store.directMembers(target).some((m) => m.inviteEmail?.toLowerCase() === entry.email.toLowerCase())) fail('invitations', i, 'the address is invited already');
    const inviter = entry.invited_by === undefined ? admin : userNamed('invitations', i, entry.invited_by);
    store.addMember(store.sourceRef(target), {
      inviteEmail: entry.email.toLowerCase(),
      inviteToken: randomBytes(15).toString('base64url'),
      accessLevel: level(entry.access_level),
      expiresAt: entry.expires_at ?? null,
      createdById: inviter.id,
      inviteSource: 'invitations-api',
    });
  });

  seed.mirrors?.forEach((entry, i) => {
    const project = store.findProject(entry.project) ?? fail('mirrors', i, `no project "${entry.project}"`);
    const problem = urlProblem(entry.url);
    if (problem) fail('mirrors', i, `url ${problem}`);
    const mirror = newMirror(store, entry.url, { enabled: entry.enabled, keepDivergentRefs: entry.keep_divergent_refs });
    mirror.onlyProtectedBranches = entry.only_protected_branches ?? false;
    project.remoteMirrors.push(mirror);
  });

  seed.access_requests?.forEach((entry, i) => {
    const user = userNamed('access_requests', i, entry.user);
    const target = source('access_requests', i, entry);
    if (store.accessLevel(target, user) > 0) fail('access_requests', i, 'the user has access already');
    if (store.accessRequests.find(target, user.id)) fail('access_requests', i, 'the user has asked already');
    store.accessRequests.add({ source: store.sourceRef(target), userId: user.id, accessLevel: ACCESS.DEVELOPER, requestedAt: new Date(time).toISOString() });
  });

  seed.shares?.forEach((entry, i) => {
    const invited = store.findGroup(entry.with_group) ?? fail('shares', i, `no group "${entry.with_group}"`);
    const target = source('shares', i, entry);
    if (target.kind === 'group' && target.id === invited.id) fail('shares', i, 'a group is not shared with itself');
    if (target.sharedWith.some((l) => l.groupId === invited.id)) fail('shares', i, 'shared with that group already');
    target.sharedWith.push({ groupId: invited.id, accessLevel: level(entry.access_level), expiresAt: entry.expires_at ?? null });
  });
}

/** The seed's projects, their files, branches and protected branches. */
function seedProjects(store: Store, seed: Seed, admin: User, time: number, fail: SeedFailure): void {
  seed.projects?.forEach((entry, i) => {
    const group = store.findGroup(entry.namespace);
    const owner = group ? undefined : store.userByUsername(entry.namespace);
    if (!group && !owner) fail('projects', i, `no group or user "${entry.namespace}"`);
    const namespace: Project['namespace'] = group ? { kind: 'group', id: group.id } : { kind: 'user', id: owner!.id };
    const full = `${entry.namespace}/${entry.path}`;
    if (store.findProject(full)) fail('projects', i, 'path has already been taken');
    const visibility = entry.visibility ?? 'private';
    const order = ['private', 'internal', 'public'];
    if (group && order.indexOf(visibility) > order.indexOf(group.visibility)) fail('projects', i, `${visibility} is not allowed in a ${group.visibility} group`);
    const project = store.createProject({ name: entry.name ?? entry.path, path: entry.path, namespace, visibility, creatorId: owner?.id ?? admin.id, defaultBranch: entry.default_branch ?? 'main' });
    if (entry.description !== undefined) project.description = entry.description;
    const author = owner ?? admin;
    const signature = { name: author.name, email: author.email, time: Math.floor(time / 1000) };
    const commitFiles = (branch: string, files: Files | undefined) => {
      for (const [path, content] of Object.entries(files ?? {})) {
        const head = project.repository.branchHead(branch);
        const exists = head !== undefined && project.repository.readFile(head, path) !== undefined;
        try {
          project.repository.commit({
            branch,
            action: { kind: exists ? 'update' : 'create', path, content: Buffer.from(content) },
            message: `${exists ? 'Update' : 'Add'} ${path}`,
            author: signature,
            committer: signature,
          });
        } catch (error) {
          fail('projects', i, `${branch}: ${path}: ${(error as Error).message}`);
        }
      }
    };
    commitFiles(project.repository.defaultBranch, entry.files);
    for (const branch of entry.branches ?? []) {
      const from = branch.from ?? project.repository.defaultBranch;
      if (!project.repository.branchHead(from)) fail('projects', i, `branch "${branch.name}": no branch "${from}" to start from (files on it come first)`);
      if (project.repository.branches.has(branch.name)) fail('projects', i, `branch "${branch.name}" is given twice`);
      project.repository.createBranch(branch.name, from);
      commitFiles(branch.name, branch.files);
    }
    for (const name of entry.protected_branches ?? []) {
      if (!project.repository.branches.has(name)) fail('projects', i, `protected branch "${name}": no such branch (files on it, or an entry of branches, make it)`);
      project.protectedBranches.add(name);
    }
  });
}
