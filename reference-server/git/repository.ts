// An in-memory git repository: content-addressed blobs, commits with parents, branches and tags.
// History is linear per branch (every write is a single-file commit), which keeps blame exact.
import { createHash } from 'node:crypto';
import { diffArrays } from 'diff';
import { blobId, commitId, treeId, type Commit, type FileMode, type Signature, type TreeEntry } from './objects.js';
import { lfsPointer, isLfsTracked } from './lfs.js';

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
      const matches = [...this.commits.keys()].filter((id) => id.startsWith(ref));
      if (matches.length === 1) return this.commits.get(matches[0]);
    }
    return undefined;
  }

  branchHead(name: string): Commit | undefined {
    const id = this.branches.get(name);
    return id === undefined ? undefined : this.commits.get(id);
  }

  readFile(commit: Commit, path: string): FileAtRef | undefined {
    const entry = commit.files.get(path);
    if (!entry) return undefined;
    const content = this.blobs.get(entry.blobId);
    if (!content) return undefined;
    return { commit, path, mode: entry.mode, blobId: entry.blobId, content };
  }

  isDirectory(commit: Commit, path: string): boolean {
    const prefix = `${path}/`;
    for (const key of commit.files.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }

  /** Commits never change, so answers about them are kept (GitLab caches these too). */
  private readonly lastCommitCache = new Map<string, Commit>();
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
    const key = `${commit.id}:${path}`;
    let found = this.lastCommitCache.get(key);
    if (!found) {
      found = this.walkToLastChange(commit, path);
      this.lastCommitCache.set(key, found);
    }
    return found;
  }

  private walkToLastChange(commit: Commit, path: string): Commit {
    let current = commit;
    const blobAt = (c: Commit) => c.files.get(path)?.blobId;
    const modeAt = (c: Commit) => c.files.get(path)?.mode;
    for (;;) {
      const parent = current.parentIds[0] === undefined ? undefined : this.commits.get(current.parentIds[0]);
      if (!parent || blobAt(parent) !== blobAt(current) || modeAt(parent) !== modeAt(current)) return current;
      current = parent;
    }
  }

  /** Blame of a file: consecutive lines last changed by the same commit form one range. */
  blame(commit: Commit, path: string): BlameRange[] {
    const history: Commit[] = [];
    for (let c: Commit | undefined = commit; c && c.files.has(path); ) {
      history.push(c);
      c = c.parentIds[0] === undefined ? undefined : this.commits.get(c.parentIds[0]);
    }
    history.reverse();
    // Walk from the oldest version forwards: each line keeps the commit that introduced it.
    let owners: Commit[] = [];
    let lines: string[] = [];
    for (const c of history) {
      const next = splitLines(this.blobs.get(c.files.get(path)!.blobId)!);
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
    const files = new Map<string, TreeEntry>(parent?.files ?? []);
    const existing = files.get(action.path);
    if (options.lastCommitId !== undefined && parent && existing) {
      if (this.lastCommitFor(parent, action.path).id !== options.lastCommitId) {
        throw new RepositoryError('You are attempting to update a file that has changed since you started editing it.');
      }
    }
    if (action.kind === 'create') {
      if (existing || (parent && this.isDirectory(parent, action.path))) throw new RepositoryError('A file with this name already exists');
      if (parent && this.pathBlockedByFile(files, action.path)) throw new RepositoryError('A file with this name already exists');
    } else if (!existing) {
      throw new RepositoryError("A file with this name doesn't exist");
    }
    if (action.kind === 'delete') {
      files.delete(action.path);
    } else {
      const stored = this.storeContent(files, action.path, action.content);
      const mode: FileMode = action.executable === undefined ? existing?.mode ?? '100644' : action.executable ? '100755' : '100644';
      if (existing && existing.blobId === stored && existing.mode === mode) {
        throw new RepositoryError('You are attempting to make an empty commit: the new content equals the current content');
      }
      files.set(action.path, { mode, blobId: stored });
    }
    const tree = treeId(files);
    const parentIds = parent ? [parent.id] : [];
    const id = commitId(tree, parentIds, options.author, options.committer, options.message);
    const commit: Commit = { id, tree, parentIds, author: options.author, committer: options.committer, message: options.message, files };
    this.commits.set(id, commit);
    this.branches.set(branch, id);
    return commit;
  }

  createBranch(name: string, ref: string): Commit {
    if (this.branches.has(name)) throw new RepositoryError('Branch already exists');
    const target = this.resolve(ref);
    if (!target) throw new RepositoryError(`Invalid reference name: ${ref}`);
    this.branches.set(name, target.id);
    return target;
  }

  /** Stores the blob, turning content of LFS-tracked paths into a pointer as GitLab's LFS transformer does. */
  private storeContent(files: ReadonlyMap<string, TreeEntry>, path: string, content: Buffer): string {
    let stored = content;
    const attributes = files.get('.gitattributes');
    if (attributes && path !== '.gitattributes' && isLfsTracked(this.blobs.get(attributes.blobId)!.toString('utf8'), path)) {
      const oid = createHash('sha256').update(content).digest('hex');
      this.lfsObjects.set(oid, content);
      stored = lfsPointer(oid, content.length);
    }
    const id = blobId(stored);
    this.blobs.set(id, stored);
    return id;
  }

  /** True when a parent directory of `path` is a file (git cannot hold both). */
  private pathBlockedByFile(files: ReadonlyMap<string, TreeEntry>, path: string): boolean {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) if (files.has(parts.slice(0, i).join('/'))) return true;
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
