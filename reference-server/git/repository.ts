// An in-memory git repository: content-addressed blobs, commits with parents, branches and tags.
// History is linear per branch (every write is a single-file commit), which keeps blame exact.
// Commits share their trees (objects.ts): a write rebuilds only the trees on the path it changes,
// so its cost follows the depth of the path, not the number of files in the repository.
import { createHash } from 'node:crypto';
import { diffArrays } from 'diff';
import { blobAt, blobId, commitId, itemAt, sameAt, Tree, withFile, type Commit, type FileMode, type Signature } from './objects.js';
import { lfsPointer, isLfsTracked } from './lfs.js';
import { validRefName } from './ref-name.js';

export interface FileAtRef {
  commit: Commit;
  path: string;
  mode: FileMode;
  blobId: string;
  content: Buffer;
}

export interface BlameRange {
  commit: Commit;
  lines: string[];
}

export type WriteAction =
  | { kind: 'create' | 'update'; path: string; content: Buffer; executable?: boolean }
  | { kind: 'delete'; path: string };

export class RepositoryError extends Error {}

export class Repository {
  readonly blobs = new Map<string, Buffer>();
  readonly commits = new Map<string, Commit>();
  readonly branches = new Map<string, string>();
  readonly tags = new Map<string, string>();
  /** LFS objects by their sha256 oid, linked to this project. */
  readonly lfsObjects = new Map<string, Buffer>();
  /** Commit ids by their first 7 characters, so that an abbreviated id resolves without a scan. */
  private readonly abbreviations = new Map<string, string[]>();

  constructor(public defaultBranch: string) {}

  get isEmpty(): boolean {
    return this.branches.size === 0;
  }

  /** Resolves a branch, tag, full or abbreviated commit id, or HEAD, to a commit. */
  resolve(ref: string): Commit | undefined {
    if (ref === 'HEAD') return this.branchHead(this.defaultBranch);
    const branch = this.branches.get(ref) ?? this.branches.get(ref.replace(/^refs\/heads\//, ''));
    if (branch) return this.commits.get(branch);
    const tag = this.tags.get(ref) ?? this.tags.get(ref.replace(/^refs\/tags\//, ''));
    if (tag) return this.commits.get(tag);
    if (/^[0-9a-f]{40}$/.test(ref)) return this.commits.get(ref);
    if (/^[0-9a-f]{7,39}$/.test(ref)) {
      const matches = (this.abbreviations.get(ref.slice(0, 7)) ?? []).filter((id) => id.startsWith(ref));
      if (matches.length === 1) return this.commits.get(matches[0]);
    }
    return undefined;
  }

  branchHead(name: string): Commit | undefined {
    const id = this.branches.get(name);
    return id === undefined ? undefined : this.commits.get(id);
  }

  readFile(commit: Commit, path: string): FileAtRef | undefined {
    const entry = blobAt(commit.root, path);
    if (!entry) return undefined;
    const content = this.blobs.get(entry.id);
    if (!content) return undefined;
    return { commit, path, mode: entry.mode, blobId: entry.id, content };
  }

  isDirectory(commit: Commit, path: string): boolean {
    return itemAt(commit.root, path)?.kind === 'tree';
  }

  /** Commits never change, so answers about them are kept (GitLab caches these too): by path, then commit id. */
  private readonly lastCommitCache = new Map<string, Map<string, Commit>>();
  private readonly sha256Cache = new Map<string, string>();

  /** SHA-256 of a blob's bytes, hex. */
  contentSha256(blobId: string): string {
    let digest = this.sha256Cache.get(blobId);
    if (digest === undefined) {
      digest = createHash('sha256').update(this.blobs.get(blobId)!).digest('hex');
      this.sha256Cache.set(blobId, digest);
    }
    return digest;
  }

  /** The newest commit at or before `commit` (first-parent history) that changed `path`. */
  lastCommitFor(commit: Commit, path: string): Commit {
    let known = this.lastCommitCache.get(path);
    if (!known) this.lastCommitCache.set(path, (known = new Map()));
    const cached = known.get(commit.id);
    if (cached) return cached;
    // Walk first-parent history while the file stays the same; an answer already known for a
    // commit on the way is the answer for all the commits walked (so a new head walks one step).
    const walked: Commit[] = [];
    let found: Commit | undefined;
    for (let current = commit; !found; ) {
      walked.push(current);
      const parent = this.firstParent(current);
      if (!parent || !sameAt(parent.root, current.root, path)) found = current;
      else found = known.get(parent.id) ?? ((current = parent), undefined);
    }
    for (const c of walked) known.set(c.id, found);
    return found;
  }

  private firstParent(commit: Commit): Commit | undefined {
    return commit.parentIds[0] === undefined ? undefined : this.commits.get(commit.parentIds[0]);
  }

  /** Blame of a file: consecutive lines last changed by the same commit form one range. */
  blame(commit: Commit, path: string): BlameRange[] {
    // The versions of the file, newest first: each commit that changed it, back to its creation
    // (commits that left it alone are skipped through lastCommitFor).
    const history: Commit[] = [];
    for (let c: Commit | undefined = commit; c && blobAt(c.root, path); c = this.firstParent(c)) {
      c = this.lastCommitFor(c, path);
      history.push(c);
    }
    history.reverse();
    // Walk from the oldest version forwards: each line keeps the commit that introduced it.
    let owners: Commit[] = [];
    let lines: string[] = [];
    for (const c of history) {
      const next = splitLines(this.blobs.get(blobAt(c.root, path)!.id)!);
      const nextOwners: Commit[] = [];
      let oldIndex = 0;
      for (const part of diffArrays(lines, next)) {
        if (part.removed) {
          oldIndex += part.value.length;
        } else if (part.added) {
          for (let i = 0; i < part.value.length; i++) nextOwners.push(c);
        } else {
          for (let i = 0; i < part.value.length; i++) nextOwners.push(owners[oldIndex + i]);
          oldIndex += part.value.length;
        }
      }
      owners = nextOwners;
      lines = next;
    }
    const ranges: BlameRange[] = [];
    lines.forEach((line, i) => {
      const last = ranges[ranges.length - 1];
      if (last && last.commit === owners[i]) last.lines.push(line);
      else ranges.push({ commit: owners[i], lines: [line] });
    });
    return ranges;
  }

  /**
   * Makes one commit on `branch`, starting from `startBranch` (which may equal `branch`).
   * Throws RepositoryError with GitLab's message texts when the commit cannot be made.
   */
  commit(options: {
    branch: string;
    startBranch?: string;
    action: WriteAction;
    message: string;
    author: Signature;
    committer: Signature;
    lastCommitId?: string;
  }): Commit {
    const { branch, action } = options;
    const startBranch = options.startBranch ?? branch;
    let parent: Commit | undefined;
    if (this.isEmpty) {
      parent = undefined;
    } else {
      parent = this.branchHead(startBranch);
      if (!parent) throw new RepositoryError('You can only create or edit files when you are on a branch');
      if (startBranch !== branch && this.branches.has(branch)) {
        throw new RepositoryError(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
      }
    }
    // Commits::CreateService#validate_new_branch_name! (app/services/commits/create_service.rb), last of
    // its checks, on a write to another branch than it starts from: Branches::ValidateNewService's error.
    if (startBranch !== branch && !validRefName(branch)) {
      throw new RepositoryError(`Something went wrong when we tried to create '${branch}' for you: Branch name is invalid`);
    }
    const root = parent?.root ?? Tree.EMPTY;
    const existing = blobAt(root, action.path);
    if (options.lastCommitId !== undefined && parent && existing) {
      if (this.lastCommitFor(parent, action.path).id !== options.lastCommitId) {
        throw new RepositoryError('You are attempting to update a file that has changed since you started editing it.');
      }
    }
    if (action.kind === 'create') {
      if (existing || (parent && this.isDirectory(parent, action.path))) throw new RepositoryError('A file with this name already exists');
      if (parent && this.pathBlockedByFile(root, action.path)) throw new RepositoryError('A file with this name already exists');
    } else if (!existing) {
      throw new RepositoryError("A file with this name doesn't exist");
    }
    let next: Tree;
    if (action.kind === 'delete') {
      next = withFile(root, action.path, undefined);
    } else {
      const stored = this.storeContent(root, action.path, action.content);
      const mode: FileMode = action.executable === undefined ? existing?.mode ?? '100644' : action.executable ? '100755' : '100644';
      // The same content and mode make an empty commit, as GitLab does (app/services/files/update_service.rb
      // has no content check; Gitaly's UserCommitFiles commits without comparing trees). Its tree
      // is the parent's own.
      next = existing?.id === stored && existing.mode === mode ? root : withFile(root, action.path, { mode, id: stored });
    }
    const parentIds = parent ? [parent.id] : [];
    const id = commitId(next.id, parentIds, options.author, options.committer, options.message);
    const commit: Commit = { id, tree: next.id, parentIds, author: options.author, committer: options.committer, message: options.message, root: next };
    this.addCommit(commit);
    this.branches.set(branch, id);
    return commit;
  }

  /** Keeps a commit, its parents and tree already here (a write, or a saved state loaded: state/state.ts). */
  addCommit(commit: Commit): void {
    if (!this.commits.has(commit.id)) {
      const abbreviation = commit.id.slice(0, 7);
      const same = this.abbreviations.get(abbreviation);
      if (same) same.push(commit.id);
      else this.abbreviations.set(abbreviation, [commit.id]);
    }
    this.commits.set(commit.id, commit);
  }

  createBranch(name: string, ref: string): Commit {
    if (this.branches.has(name)) throw new RepositoryError('Branch already exists');
    const target = this.resolve(ref);
    if (!target) throw new RepositoryError(`Invalid reference name: ${ref}`);
    this.branches.set(name, target.id);
    return target;
  }

  /** Stores the blob, turning content of LFS-tracked paths into a pointer as GitLab's LFS transformer does. */
  private storeContent(root: Tree, path: string, content: Buffer): string {
    let stored = content;
    const attributes = blobAt(root, '.gitattributes');
    if (attributes && path !== '.gitattributes' && isLfsTracked(this.blobs.get(attributes.id)!.toString('utf8'), path)) {
      const oid = createHash('sha256').update(content).digest('hex');
      this.lfsObjects.set(oid, content);
      stored = lfsPointer(oid, content.length);
    }
    const id = blobId(stored);
    this.blobs.set(id, stored);
    return id;
  }

  /** True when a parent directory of `path` is a file (git cannot hold both). */
  private pathBlockedByFile(root: Tree, path: string): boolean {
    let tree = root;
    const parts = path.split('/');
    for (const part of parts.slice(0, -1)) {
      const item = tree.get(part);
      if (!item) return false;
      if (item.kind === 'blob') return true;
      tree = item.tree;
    }
    return false;
  }
}

/** Splits file content into lines as git blame shows them (no trailing newline entry). */
export function splitLines(content: Buffer): string[] {
  const text = content.toString('utf8');
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export type { Commit, Signature };
