// Git objects with real object ids: a blob's id is the SHA-1 of "blob <size>\0<bytes>", trees and
// commits are hashed from their canonical encodings, exactly as `git hash-object` does.
// Trees are immutable and shared: a commit that changes one file makes new trees only on the path
// to that file (each re-hashed from its own entries) and reuses every other subtree as it is.
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
  /** The id of the root tree. */
  tree: string;
  parentIds: string[];
  author: Signature;
  committer: Signature;
  message: string;
  /** The root tree itself (shared with other commits wherever nothing changed). */
  root: Tree;
}

/** A file as a flat file list names it: mode and blob id. */
export interface TreeEntry {
  mode: FileMode;
  blobId: string;
}

interface ItemBase {
  name: string;
  /**
   * git orders the entries of a tree by the bytes of their names, a subtree's name as if it ended
   * in "/". This is that byte string as latin1 (one code unit per byte), so that plain string
   * comparison gives git's order.
   */
  order: string;
  /**
   * The entry's encoding inside its tree ("<mode> <name>\0" and the 20 bytes of the id) as latin1
   * (one code unit per byte), made once: a tree's body is the join of its entries' encodings.
   */
  encoded?: string;
}

export interface BlobItem extends ItemBase {
  kind: 'blob';
  mode: FileMode;
  id: string;
}

export interface TreeItem extends ItemBase {
  kind: 'tree';
  mode: '40000';
  id: string;
  tree: Tree;
}

export type Item = BlobItem | TreeItem;

function hashObject(type: 'blob' | 'tree' | 'commit', body: Buffer): string {
  const header = Buffer.from(`${type} ${body.length}\0`, 'utf8');
  return createHash('sha1').update(header).update(body).digest('hex');
}

export function blobId(content: Buffer): string {
  return hashObject('blob', content);
}

function orderKey(name: string, isTree: boolean): string {
  return Buffer.from(isTree ? `${name}/` : name, 'utf8').toString('latin1');
}

export function blobItem(name: string, mode: FileMode, id: string): BlobItem {
  return { kind: 'blob', name, order: orderKey(name, false), mode, id };
}

function treeItem(name: string, tree: Tree): TreeItem {
  return { kind: 'tree', name, order: orderKey(name, true), mode: '40000', id: tree.id, tree };
}

function encodedItem(item: Item): string {
  if (item.encoded === undefined) item.encoded = `${item.mode} ${Buffer.from(item.name, 'utf8').toString('latin1')}\0${Buffer.from(item.id, 'hex').toString('latin1')}`;
  return item.encoded;
}

/** An immutable git tree: its entries in git's order, and its id. */
export class Tree {
  static readonly EMPTY = new Tree([]);

  readonly id: string;

  /** `items` must be in git's order (by `order`) and is kept as given, never changed. */
  private constructor(readonly items: readonly Item[]) {
    const body = items.map(encodedItem).join('');
    // Header and body hashed apart: one copy of a large directory's body fewer.
    this.id = createHash('sha1').update(`tree ${body.length}\0`, 'latin1').update(body, 'latin1').digest('hex');
  }

  /** A tree from its entries in any order (a saved state's, state/state.ts): files by blob id, directories by their tree. */
  static of(entries: Iterable<{ name: string; mode: FileMode; id: string } | { name: string; tree: Tree }>): Tree {
    const items = [...entries].map((e): Item => ('tree' in e ? treeItem(e.name, e.tree) : blobItem(e.name, e.mode, e.id)));
    items.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    return new Tree(items);
  }

  /** The entry called `name` (binary search in git's order: trees keep no other index, to stay small). */
  get(name: string): Item | undefined {
    const i = this.indexOf(name);
    return i === -1 ? undefined : this.items[i];
  }

  private indexOf(name: string): number {
    const ascii = /^[\x00-\x7f]*$/.test(name);
    for (const isTree of [false, true]) {
      const order = ascii ? (isTree ? `${name}/` : name) : orderKey(name, isTree);
      const i = insertionPoint(this.items, order);
      if (i < this.items.length && this.items[i].order === order) return i;
    }
    return -1;
  }

  /** A tree equal to this one with the entry called `name` replaced by `item`, or removed when `item` is undefined. */
  with(name: string, item: Item | undefined): Tree {
    const items = this.items.slice();
    const current = this.indexOf(name);
    if (current !== -1) items.splice(current, 1);
    if (item) items.splice(insertionPoint(items, item.order), 0, item);
    return new Tree(items);
  }

  /** Builds a tree from scratch from a flat file list (path to mode and blob id). */
  static fromFiles(files: Iterable<[string, TreeEntry]>): Tree {
    interface Dir { files: Map<string, TreeEntry>; dirs: Map<string, Dir> }
    const root: Dir = { files: new Map(), dirs: new Map() };
    for (const [path, entry] of files) {
      const parts = path.split('/');
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        let next = dir.dirs.get(part);
        if (!next) dir.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
        dir = next;
      }
      dir.files.set(parts[parts.length - 1], entry);
    }
    const build = (dir: Dir): Tree => {
      const items: Item[] = [];
      for (const [name, entry] of dir.files) items.push(blobItem(name, entry.mode, entry.blobId));
      for (const [name, sub] of dir.dirs) items.push(treeItem(name, build(sub)));
      items.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
      return new Tree(items);
    };
    return build(root);
  }
}

/** The index at which an entry ordered by `order` goes in sorted `items` (binary search). */
function insertionPoint(items: readonly Item[], order: string): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (items[mid].order < order) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Hashes the nested trees of a flat path list and returns the root tree id (a tree built from scratch). */
export function treeId(files: ReadonlyMap<string, TreeEntry>): string {
  return Tree.fromFiles(files).id;
}

/** The entry at `path` (slash-separated) below `root`, walking only the trees on the way. */
export function itemAt(root: Tree, path: string): Item | undefined {
  let tree = root;
  let start = 0;
  for (;;) {
    const slash = path.indexOf('/', start);
    const item = tree.get(slash === -1 ? path.slice(start) : path.slice(start, slash));
    if (slash === -1 || !item) return item;
    if (item.kind !== 'tree') return undefined;
    tree = item.tree;
    start = slash + 1;
  }
}

/** The blob at `path`, or undefined when there is none (nothing, or a directory). */
export function blobAt(root: Tree, path: string): BlobItem | undefined {
  const item = itemAt(root, path);
  return item?.kind === 'blob' ? item : undefined;
}

/**
 * A new root with the file at `path` set to `blob` (or removed when `blob` is undefined). Only the
 * trees on the path are rebuilt; directories left empty by a removal disappear, as in git.
 */
export function withFile(root: Tree, path: string, blob: { mode: FileMode; id: string } | undefined): Tree {
  const parts = path.split('/');
  const write = (tree: Tree, depth: number): Tree => {
    const name = parts[depth];
    if (depth === parts.length - 1) return tree.with(name, blob && blobItem(name, blob.mode, blob.id));
    const current = tree.get(name);
    const sub = write(current?.kind === 'tree' ? current.tree : Tree.EMPTY, depth + 1);
    return tree.with(name, sub.items.length === 0 ? undefined : treeItem(name, sub));
  };
  return write(root, 0);
}

/**
 * Whether the file at `path` is the same (blob id and mode, or absent in both) in two roots. Equal
 * subtree ids on the way mean nothing below them changed, so the walk stops as soon as the trees agree.
 */
export function sameAt(a: Tree, b: Tree, path: string): boolean {
  let x = a;
  let y = b;
  let start = 0;
  for (;;) {
    if (x === y || x.id === y.id) return true;
    const slash = path.indexOf('/', start);
    if (slash === -1) return sameBlob(x.get(path.slice(start)), y.get(path.slice(start)));
    const name = path.slice(start, slash);
    const i = x.get(name);
    const j = y.get(name);
    if (i?.kind !== 'tree' || j?.kind !== 'tree') {
      const rest = path.slice(slash + 1);
      return sameBlob(i?.kind === 'tree' ? itemAt(i.tree, rest) : undefined, j?.kind === 'tree' ? itemAt(j.tree, rest) : undefined);
    }
    x = i.tree;
    y = j.tree;
    start = slash + 1;
  }
}

function sameBlob(i: Item | undefined, j: Item | undefined): boolean {
  const p = i?.kind === 'blob' ? i : undefined;
  const q = j?.kind === 'blob' ? j : undefined;
  return p === q || (p !== undefined && q !== undefined && p.id === q.id && p.mode === q.mode);
}

function formatSignature(sig: Signature): string {
  return `${sig.name} <${sig.email}> ${sig.time} +0000`;
}

export function commitId(tree: string, parentIds: string[], author: Signature, committer: Signature, message: string): string {
  const lines = [`tree ${tree}`, ...parentIds.map((p) => `parent ${p}`), `author ${formatSignature(author)}`, `committer ${formatSignature(committer)}`];
  return hashObject('commit', Buffer.from(`${lines.join('\n')}\n\n${message}`, 'utf8'));
}
