// Saved states: the whole of a reference server's store as JSON (format `version` 1, checked
// against state.schema.json), to save and load through the library, over HTTP
// (GET/PUT /-/reference/state) and at start (--state FILE). Git repositories keep their objects
// (blobs as base64, trees as entry lists, commits as their fields), so that a loaded repository has
// the same commit ids, blob ids and history; loading checks every object id against its content.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import schema from './state.schema.json' with { type: 'json' };
import { blobId, commitId, Tree, type Commit, type FileMode, type Signature } from '../git/objects.js';
import { Repository } from '../git/repository.js';
import type { AccessRequest } from './access-requests.js';
import type { ApplicationSettings, Avatar, Group, Member, PersonalAccessToken, Project, RemoteMirror, User } from './model.js';
import { Store, type IdKind } from './store.js';

export const STATE_VERSION = 1;

type Base64 = string;
type SavedAvatar = Omit<Avatar, 'content'> & { content: Base64 };

export interface SavedRepository {
  defaultBranch: string;
  /** Blob bytes by blob id. */
  blobs: Record<string, Base64>;
  /** Tree entries by tree id: a file's mode is 100644 or 100755, a directory's 40000. */
  trees: Record<string, { name: string; mode: FileMode | '40000'; id: string }[]>;
  /** Parents before children. */
  commits: { id: string; tree: string; parentIds: string[]; author: Signature; committer: Signature; message: string }[];
  branches: Record<string, string>;
  tags: Record<string, string>;
  lfsObjects: Record<string, Base64>;
}

export type SavedUser = Omit<User, 'samlIdentities' | 'avatar'> & {
  samlIdentities: { groupId: number; externUid: string; provider: string; samlProviderId: number }[];
  avatar?: SavedAvatar;
};
export type SavedGroup = Omit<Group, 'avatar'> & { avatar?: SavedAvatar };
export type SavedMirror = Omit<RemoteMirror, 'pushedRefs'> & { pushedRefs: Record<string, string> };
export type SavedProject = Omit<Project, 'repository' | 'protectedBranches' | 'remoteMirrors' | 'avatar'> & {
  repository: SavedRepository;
  protectedBranches: string[];
  remoteMirrors: SavedMirror[];
  avatar?: SavedAvatar;
};

/** A saved state, as GET /-/reference/state answers and PUT loads (state.schema.json). */
export interface ServerState {
  version: typeof STATE_VERSION;
  nextIds: Record<IdKind, number>;
  settings: ApplicationSettings;
  users: SavedUser[];
  tokens: PersonalAccessToken[];
  groups: SavedGroup[];
  projects: SavedProject[];
  members: Member[];
  accessRequests: AccessRequest[];
  projectRedirects: Record<string, number>;
}

/** A state that cannot be loaded; the message names the place by its JSON pointer. Nothing was changed. */
export class StateError extends Error {
  override name = 'StateError';
}

const saveAvatar = (avatar: Avatar | undefined) => (avatar ? { avatar: { ...avatar, content: avatar.content.toString('base64') } } : {});
const loadAvatar = (avatar: SavedAvatar | undefined) => (avatar ? { avatar: { ...avatar, content: Buffer.from(avatar.content, 'base64') } } : {});
const base64Values = (map: Map<string, Buffer>) => Object.fromEntries([...map].map(([k, v]) => [k, v.toString('base64')]));

function saveRepository(repository: Repository): SavedRepository {
  const trees: SavedRepository['trees'] = {};
  const saveTree = (tree: Tree): void => {
    if (tree.id in trees) return;
    trees[tree.id] = tree.items.map((item) => ({ name: item.name, mode: item.mode, id: item.id }));
    for (const item of tree.items) if (item.kind === 'tree') saveTree(item.tree);
  };
  const commits = [...repository.commits.values()].map((commit) => {
    saveTree(commit.root);
    return { id: commit.id, tree: commit.tree, parentIds: [...commit.parentIds], author: { ...commit.author }, committer: { ...commit.committer }, message: commit.message };
  });
  return {
    defaultBranch: repository.defaultBranch,
    blobs: base64Values(repository.blobs),
    trees,
    commits,
    branches: Object.fromEntries(repository.branches),
    tags: Object.fromEntries(repository.tags),
    lfsObjects: base64Values(repository.lfsObjects),
  };
}

/** The whole state of a store, as plain JSON. */
export function saveState(store: Store): ServerState {
  const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  return {
    version: STATE_VERSION,
    nextIds: nextIdsOf(store),
    settings: { ...store.settings },
    users: [...store.users.values()].map(({ samlIdentities, avatar, ...user }) => ({
      ...plain(user),
      samlIdentities: [...samlIdentities].map(([groupId, identity]) => ({ groupId, ...identity })),
      ...saveAvatar(avatar),
    })),
    tokens: plain([...store.tokens.values()]),
    groups: [...store.groups.values()].map(({ avatar, ...group }) => ({ ...plain(group), ...saveAvatar(avatar) })),
    projects: [...store.projects.values()].map(({ repository, protectedBranches, remoteMirrors, avatar, ...project }) => ({
      ...plain(project),
      repository: saveRepository(repository),
      protectedBranches: [...protectedBranches],
      remoteMirrors: remoteMirrors.map(({ pushedRefs, ...mirror }) => ({ ...plain(mirror), pushedRefs: Object.fromEntries(pushedRefs) })),
      ...saveAvatar(avatar),
    })),
    // MemberRecord.toJSON gives the plain record; a state keeps no undefined updatedAt.
    members: plain([...store.members.values()]),
    accessRequests: plain(accessRequestsOf(store)),
    projectRedirects: Object.fromEntries(store.projectRedirects),
  };
}

/**
 * The next id of each sequence: the store's counter, or past the highest id in use when ids come from
 * elsewhere (--vary's sequences, vary/ids.ts, leave the counters alone), so that a loaded state makes no id twice.
 */
function nextIdsOf(store: Store): Record<IdKind, number> {
  const users = [...store.users.values()];
  const used: Record<IdKind, number[]> = {
    user: users.map((u) => u.id),
    token: [...store.tokens.values()].map((t) => t.id),
    namespace: [...store.groups.keys()],
    project: [...store.projects.keys()],
    member: [...store.members.keys()],
    mirror: [...store.projects.values()].flatMap((p) => p.remoteMirrors.map((m) => m.id)),
    email: users.flatMap((u) => [...(u.primaryEmailId === undefined ? [] : [u.primaryEmailId]), ...u.emails.map((e) => e.id)]),
  };
  const counters = store.nextIds();
  for (const kind of Object.keys(used) as IdKind[]) counters[kind] = Math.max(counters[kind], ...used[kind].map((id) => id + 1));
  return counters;
}

function accessRequestsOf(store: Store): AccessRequest[] {
  const sources = [...[...store.groups.values()].map((g) => ({ kind: 'group' as const, id: g.id })), ...[...store.projects.values()].map((p) => ({ kind: 'project' as const, id: p.id }))];
  return sources.flatMap((source) => store.accessRequests.of(source));
}

let validate: ReturnType<Ajv2020['compile']> | undefined;

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '/' : error.instancePath;
  const extra = error.keyword === 'additionalProperties' ? `: "${String(error.params.additionalProperty)}"` : error.keyword === 'enum' || error.keyword === 'const' ? `: ${JSON.stringify(error.params.allowedValues ?? error.params.allowedValue)}` : '';
  return `state ${where}: ${error.message ?? 'is not valid'}${extra}`;
}

/** Checks a state against state.schema.json; StateError naming the JSON pointer of the first fault otherwise. */
export function checkState(value: unknown): ServerState {
  validate ??= new Ajv2020({ strict: true, strictRequired: false, allErrors: false }).compile(schema);
  if (!validate(value)) throw new StateError(describe(validate.errors![0]));
  return value as ServerState;
}

function loadRepository(saved: SavedRepository, at: string): Repository {
  const fail = (pointer: string, message: string): never => {
    throw new StateError(`state ${at}/${pointer}: ${message}`);
  };
  const repository = new Repository(saved.defaultBranch);
  for (const [id, content] of Object.entries(saved.blobs)) {
    const bytes = Buffer.from(content, 'base64');
    if (blobId(bytes) !== id) fail(`blobs/${id}`, 'the content does not hash to the blob id');
    repository.blobs.set(id, bytes);
  }
  for (const [oid, content] of Object.entries(saved.lfsObjects)) repository.lfsObjects.set(oid, Buffer.from(content, 'base64'));
  const built = new Map<string, Tree>();
  const tree = (id: string, pointer: string): Tree => {
    const known = built.get(id);
    if (known) return known;
    const entries = saved.trees[id] ?? fail(pointer, `names tree ${id}, which the state does not hold`);
    const made = Tree.of(
      entries.map((entry, i) => {
        if (entry.mode === '40000') return { name: entry.name, tree: tree(entry.id, `trees/${id}/${i}/id`) };
        if (!repository.blobs.has(entry.id)) fail(`trees/${id}/${i}/id`, `names blob ${entry.id}, which the state does not hold`);
        return { name: entry.name, mode: entry.mode, id: entry.id };
      }),
    );
    if (made.id !== id) fail(`trees/${id}`, 'the entries do not hash to the tree id');
    built.set(id, made);
    return made;
  };
  saved.commits.forEach((fields, i) => {
    const root = tree(fields.tree, `commits/${i}/tree`);
    fields.parentIds.forEach((parent, j) => {
      if (!repository.commits.has(parent)) fail(`commits/${i}/parentIds/${j}`, `names commit ${parent}, which no earlier commit of the state is`);
    });
    if (commitId(fields.tree, fields.parentIds, fields.author, fields.committer, fields.message) !== fields.id) fail(`commits/${i}`, 'the fields do not hash to the commit id');
    const commit: Commit = { ...fields, author: { ...fields.author }, committer: { ...fields.committer }, parentIds: [...fields.parentIds], root };
    repository.addCommit(commit);
  });
  for (const refs of ['branches', 'tags'] as const) {
    for (const [name, id] of Object.entries(saved[refs])) {
      if (!repository.commits.has(id)) fail(`${refs}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`, `names commit ${id}, which the state does not hold`);
      repository[refs].set(name, id);
    }
  }
  return repository;
}

/** A store holding a checked state, made apart from any server (so that a fault leaves the server as it was). */
export function restoreState(checked: ServerState): Store {
  // Copied, so that the caller's object and the server share nothing.
  const state = structuredClone(checked);
  const store = new Store();
  store.continueIds(state.nextIds);
  Object.assign(store.settings, state.settings);
  for (const { samlIdentities, avatar, ...user } of state.users) {
    const identities = new Map(samlIdentities.map(({ groupId, ...identity }) => [groupId, identity]));
    store.users.set(user.id, { ...user, samlIdentities: identities, ...loadAvatar(avatar) });
  }
  for (const token of state.tokens) store.tokens.set(token.token, { ...token, scopes: [...token.scopes] });
  for (const { avatar, ...group } of state.groups) store.groups.set(group.id, { ...group, sharedWith: group.sharedWith.map((l) => ({ ...l })), ...loadAvatar(avatar) });
  state.projects.forEach(({ repository, protectedBranches, remoteMirrors, avatar, ...project }, i) => {
    store.projects.set(project.id, {
      ...project,
      namespace: { ...project.namespace },
      sharedWith: project.sharedWith.map((l) => ({ ...l })),
      repository: loadRepository(repository, `/projects/${i}/repository`),
      protectedBranches: new Set(protectedBranches),
      remoteMirrors: remoteMirrors.map(({ pushedRefs, ...mirror }) => ({ ...mirror, credentials: { ...mirror.credentials }, pushedRefs: new Map(Object.entries(pushedRefs)) })),
      ...loadAvatar(avatar),
    });
  });
  for (const member of state.members) store.restoreMember({ ...member, source: { ...member.source } });
  for (const request of state.accessRequests) store.accessRequests.add({ ...request, source: { ...request.source } });
  for (const [path, id] of Object.entries(state.projectRedirects)) store.projectRedirects.set(path, id);
  return store;
}

/** Reads a state file (JSON) and checks it; StateError naming the file and the place otherwise. */
export function loadStateFile(path: string): ServerState {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new StateError(`${path}: ${(error as Error).message}`);
  }
  try {
    const state = checkState(value);
    restoreState(state);
    return state;
  } catch (error) {
    throw error instanceof StateError ? new StateError(`${path}: ${error.message}`) : error;
  }
}
