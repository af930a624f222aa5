// Git objects with real object ids: a blob's id is the SHA-1 of "blob <size>\0<bytes>", trees and
// commits are hashed from their canonical encodings, exactly as `git hash-object` does.
import { createHash } from 'node:crypto';

export type FileMode = '100644' | '100755';

export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch; git stores whole seconds. */
  time: number;
}

export interface Commit {
  id: string;
  tree: string;
  parentIds: string[];
  author: Signature;
  committer: Signature;
  message: string;
  /** The full file list of this commit: path to mode and blob id. */
  files: ReadonlyMap<string, TreeEntry>;
}

export interface TreeEntry {
  mode: FileMode;
  blobId: string;
}

function hashObject(type: 'blob' | 'tree' | 'commit', body: Buffer): string {
  const header = Buffer.from(`${type} ${body.length}\0`, 'utf8');
  return createHash('sha1').update(header).update(body).digest('hex');
}

export function blobId(content: Buffer): string {
  return hashObject('blob', content);
}

/** Hashes the nested trees of a flat path list and returns the root tree id. */
export function treeId(files: ReadonlyMap<string, TreeEntry>): string {
  interface Dir { files: Map<string, TreeEntry>; dirs: Map<string, Dir> }
  const root: Dir = { files: new Map(), dirs: new Map() };
  for (const [path, entry] of files) {
    const parts = path.split('/');
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      let next = dir.dirs.get(part);
      if (!next) {
        next = { files: new Map(), dirs: new Map() };
        dir.dirs.set(part, next);
      }
      dir = next;
    }
    dir.files.set(parts[parts.length - 1], entry);
  }
  const hashDir = (dir: Dir): string => {
    const entries: { name: string; sortKey: string; mode: string; id: string }[] = [];
    for (const [name, entry] of dir.files) entries.push({ name, sortKey: name, mode: entry.mode, id: entry.blobId });
    // git sorts directory entries as if their names ended in "/"
    for (const [name, sub] of dir.dirs) entries.push({ name, sortKey: `${name}/`, mode: '40000', id: hashDir(sub) });
    entries.sort((a, b) => Buffer.compare(Buffer.from(a.sortKey), Buffer.from(b.sortKey)));
    const body = Buffer.concat(
      entries.map((e) => Buffer.concat([Buffer.from(`${e.mode} ${e.name}\0`, 'utf8'), Buffer.from(e.id, 'hex')])),
    );
    return hashObject('tree', body);
  };
  return hashDir(root);
}

function formatSignature(sig: Signature): string {
  return `${sig.name} <${sig.email}> ${sig.time} +0000`;
}

export function commitId(tree: string, parentIds: string[], author: Signature, committer: Signature, message: string): string {
  const lines = [`tree ${tree}`, ...parentIds.map((p) => `parent ${p}`), `author ${formatSignature(author)}`, `committer ${formatSignature(committer)}`];
  return hashObject('commit', Buffer.from(`${lines.join('\n')}\n\n${message}`, 'utf8'));
}
