// The reference server's git objects are real: blob, tree and commit ids equal what the git CLI
// computes for the same content, modes, authors and times. Also checks history, blame and errors.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { blobId, treeId, type TreeEntry } from './objects.js';
import { Repository, RepositoryError } from './repository.js';

const author = { name: 'Ada Author', email: 'ada@example.com', time: 1_700_000_000 };
const committer = { name: 'Cora Committer', email: 'cora@example.com', time: 1_700_000_100 };

const dir = mkdtempSync(join(tmpdir(), 'conformance-git-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function git(args: string[], input?: string, env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd: dir, input, env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
}

describe('git object ids', () => {
  test('blob ids equal git hash-object', () => {
    for (const content of ['', 'hello\n', 'no newline', 'ümlaut ✓\n', '\u0000binary\u0001']) {
      expect(blobId(Buffer.from(content))).toBe(git(['hash-object', '--stdin'], content));
    }
  });

  test('tree and commit ids equal git write-tree and commit-tree', () => {
    git(['init', '-q']);
    const repo = new Repository('main');
    const files: [string, string, boolean][] = [
      ['README.md', '# readme\n', false],
      ['src/app/main.rb', "puts 'hi'\n", false],
      ['src/app-config.yml', 'a: 1\n', false],
      ['bin/run', '#!/bin/sh\n', true],
    ];
    let gitParent: string | undefined;
    let ours;
    for (const [path, content, executable] of files) {
      ours = repo.commit({ branch: 'main', action: { kind: 'create', path, content: Buffer.from(content), executable }, message: `add ${path}`, author, committer });
      const full = join(dir, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
      if (executable) chmodSync(full, 0o755);
      git(['add', path]);
      const tree = git(['write-tree']);
      expect(ours.tree).toBe(tree);
      const env = {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_AUTHOR_DATE: `${author.time} +0000`,
        GIT_COMMITTER_NAME: committer.name,
        GIT_COMMITTER_EMAIL: committer.email,
        GIT_COMMITTER_DATE: `${committer.time} +0000`,
      };
      const commit: string = git(['commit-tree', tree, ...(gitParent ? ['-p', gitParent] : [])], `add ${path}`, env);
      expect(ours.id).toBe(commit);
      gitParent = commit;
    }
    expect(repo.resolve('main')?.id).toBe(gitParent);
  });
});

describe('trees shared between commits', () => {
  /** The root tree id real git computes for a flat file list (objects need not exist: --missing-ok). */
  function gitTree(files: ReadonlyMap<string, TreeEntry>): string {
    const env = { GIT_INDEX_FILE: join(dir, `index-${files.size}-${Math.random()}`) };
    const lines = [...files].map(([path, entry]) => `${entry.mode} blob ${entry.blobId}\t${path}\n`).join('');
    git(['update-index', '--index-info'], lines, env);
    return git(['write-tree', '--missing-ok'], undefined, env);
  }

  test('a commit into a big tree gives the ids of the same tree built from scratch, and of git', () => {
    git(['init', '-q']);
    const repo = new Repository('main');
    const files = new Map<string, TreeEntry>();
    const write = (action: Parameters<Repository['commit']>[0]['action']) => {
      const commit = repo.commit({ branch: 'main', action, message: `${action.kind} ${action.path}`, author, committer });
      if (action.kind === 'delete') files.delete(action.path);
      else files.set(action.path, { mode: action.executable ? '100755' : files.get(action.path)?.mode ?? '100644', blobId: blobId(action.content) });
      return commit;
    };
    // 2,000 files in nested directories, with names whose git order differs from a plain sort
    // ("a-b" < "a.b" < "a/" < "a0", and non-ASCII names compared by their UTF-8 bytes).
    const names = ['a', 'a-b', 'a.b', 'a0', 'z', 'ü', 'é.txt', 'A'];
    for (let i = 0; i < 2000; i++) {
      const path = `${names[i % 8]}/${names[(i >> 3) % 8]}/${i % 3 === 0 ? `${names[i % 5]}/` : ''}f${i}.txt`;
      write({ kind: 'create', path, content: Buffer.from(`file ${i}\n`), executable: i % 7 === 0 });
    }
    expect(repo.resolve('main')!.tree).toBe(treeId(files));
    // Then single writes deep inside it: each commit's tree equals the whole tree built anew.
    const steps: Parameters<Repository['commit']>[0]['action'][] = [
      { kind: 'create', path: 'a/a-b/new/deeper/file.txt', content: Buffer.from('new\n') },
      { kind: 'update', path: 'a.b/a/f2.txt', content: Buffer.from('changed\n') },
      { kind: 'update', path: 'a.b/a/f2.txt', content: Buffer.from('changed\n'), executable: true },
      { kind: 'delete', path: 'a/a-b/new/deeper/file.txt' },
      { kind: 'create', path: 'top.txt', content: Buffer.from('top\n') },
      { kind: 'delete', path: 'a/a/a/f0.txt' },
    ];
    for (const action of steps) {
      const commit = write(action);
      expect(commit.tree).toBe(treeId(files));
    }
    // An emptied directory disappears, as in git.
    expect(repo.isDirectory(repo.resolve('main')!, 'a/a-b/new')).toBe(false);
    expect(repo.resolve('main')!.tree).toBe(gitTree(files));
  });

  test('reads and the last commit of a path see only their own path', () => {
    const repo = new Repository('main');
    const write = (path: string, content: string) =>
      repo.commit({ branch: 'main', action: { kind: repo.isEmpty || !repo.readFile(repo.resolve('main')!, path) ? 'create' : 'update', path, content: Buffer.from(content) }, message: path, author, committer });
    const first = write('src/lib/a.rb', 'a\n');
    for (let i = 0; i < 200; i++) write(`docs/page${i}.md`, `${i}\n`);
    const touched = write('src/lib/b.rb', 'b\n');
    for (let i = 0; i < 200; i++) write(`docs/page${i}.md`, `${i} again\n`);
    const head = repo.resolve('main')!;
    expect(repo.lastCommitFor(head, 'src/lib/a.rb').id).toBe(first.id);
    expect(repo.lastCommitFor(head, 'src/lib/b.rb').id).toBe(touched.id);
    expect(repo.lastCommitFor(head, 'docs/page7.md').message).toBe('docs/page7.md');
    // A new head finds the answer known for its parent.
    const next = write('docs/page0.md', 'third\n');
    expect(repo.lastCommitFor(next, 'src/lib/a.rb').id).toBe(first.id);
    expect(repo.lastCommitFor(next, 'docs/page0.md').id).toBe(next.id);
    expect(repo.blame(next, 'docs/page0.md').map((r) => [r.commit.id, r.lines])).toEqual([[next.id, ['third']]]);
    // The first commit still reads as it was.
    expect(repo.readFile(first, 'docs/page0.md')).toBeUndefined();
    expect(repo.readFile(first, 'src/lib/a.rb')?.content.toString()).toBe('a\n');
    expect(repo.readFile(head, 'src/lib')).toBeUndefined();
    expect(repo.readFile(head, 'src/lib/a.rb/x')).toBeUndefined();
  });
});

describe('repository behaviour', () => {
  const at = (time: number) => ({ ...author, time });

  function history() {
    const repo = new Repository('main');
    const c1 = repo.commit({ branch: 'main', action: { kind: 'create', path: 'f.txt', content: Buffer.from('a\nb\nc\n') }, message: 'one', author: at(1), committer: at(1) });
    const c2 = repo.commit({ branch: 'main', action: { kind: 'create', path: 'other.txt', content: Buffer.from('x\n') }, message: 'two', author: at(2), committer: at(2) });
    const c3 = repo.commit({ branch: 'main', action: { kind: 'update', path: 'f.txt', content: Buffer.from('a\nB\nc\nd\n') }, message: 'three', author: at(3), committer: at(3) });
    return { repo, c1, c2, c3 };
  }

  test('last commit of a path skips commits that did not touch it', () => {
    const { repo, c1, c2, c3 } = history();
    expect(repo.lastCommitFor(c2, 'f.txt').id).toBe(c1.id);
    expect(repo.lastCommitFor(c3, 'f.txt').id).toBe(c3.id);
    expect(repo.lastCommitFor(c3, 'other.txt').id).toBe(c2.id);
  });

  test('blame attributes each line to the commit that last changed it', () => {
    const { repo, c1, c3 } = history();
    const ranges = repo.blame(c3, 'f.txt').map((r) => [r.commit.id, r.lines]);
    expect(ranges).toEqual([
      [c1.id, ['a']],
      [c3.id, ['B']],
      [c1.id, ['c']],
      [c3.id, ['d']],
    ]);
  });

  test('refs resolve by branch, full and short commit id, and HEAD', () => {
    const { repo, c1, c3 } = history();
    expect(repo.resolve('HEAD')?.id).toBe(c3.id);
    expect(repo.resolve(c1.id)?.id).toBe(c1.id);
    expect(repo.resolve(c1.id.slice(0, 8))?.id).toBe(c1.id);
    expect(repo.resolve('nope')).toBeUndefined();
  });

  test('write errors carry GitLab\'s texts and change nothing', () => {
    const { repo, c3 } = history();
    const write = (action: Parameters<Repository['commit']>[0]['action'], extra = {}) =>
      repo.commit({ branch: 'main', action, message: 'm', author, committer, ...extra });
    expect(() => write({ kind: 'create', path: 'f.txt', content: Buffer.from('z') })).toThrow(new RepositoryError('A file with this name already exists'));
    expect(() => write({ kind: 'update', path: 'missing.txt', content: Buffer.from('z') })).toThrow("A file with this name doesn't exist");
    expect(() => write({ kind: 'delete', path: 'missing.txt' })).toThrow("A file with this name doesn't exist");
    expect(() => write({ kind: 'update', path: 'f.txt', content: Buffer.from('new') }, { lastCommitId: '0'.repeat(40) })).toThrow(/changed since you started editing/);
    expect(() => write({ kind: 'create', path: 'n.txt', content: Buffer.from('n') }, { startBranch: 'no-such-branch' })).toThrow(/on a branch/);
    expect(repo.resolve('main')?.id).toBe(c3.id);
  });

  test('an update with the content the file has makes an empty commit, as GitLab does (app/services/files/update_service.rb; Gitaly commit_files.go)', () => {
    const { repo, c3 } = history();
    const commit = repo.commit({ branch: 'main', action: { kind: 'update', path: 'f.txt', content: Buffer.from('a\nB\nc\nd\n') }, message: 'same', author, committer });
    expect(commit.parentIds).toEqual([c3.id]);
    expect(repo.resolve('main')?.id).toBe(commit.id);
    expect(commit.tree).toBe(c3.tree);
    expect(commit.id).not.toBe(c3.id);
  });

  test('a new branch from start_branch leaves the start branch alone', () => {
    const { repo, c3 } = history();
    const c4 = repo.commit({ branch: 'feature', startBranch: 'main', action: { kind: 'create', path: 'n.txt', content: Buffer.from('n') }, message: 'feature', author, committer });
    expect(c4.parentIds).toEqual([c3.id]);
    expect(repo.resolve('main')?.id).toBe(c3.id);
    expect(() => repo.commit({ branch: 'feature', startBranch: 'main', action: { kind: 'create', path: 'm.txt', content: Buffer.from('m') }, message: 'again', author, committer })).toThrow(
      "A branch called 'feature' already exists. Switch to that branch in order to make changes",
    );
  });

  test('a write onto another branch is refused in Commits::CreateService\'s order: start branch, existing branch, then the new name', () => {
    const { repo, c3 } = history();
    const write = (branch: string, startBranch: string) => () => repo.commit({ branch, startBranch, action: { kind: 'create', path: 'w.txt', content: Buffer.from('w') }, message: 'w', author, committer });
    expect(write('a..b', 'nowhere')).toThrow('You can only create or edit files when you are on a branch');
    expect(write('a..b', 'main')).toThrow("Something went wrong when we tried to create 'a..b' for you: Branch name is invalid");
    expect([...repo.branches.keys()]).toEqual(['main']);
    expect(repo.resolve('main')?.id).toBe(c3.id);
  });

  test('content of LFS-tracked paths is stored as a pointer, the object kept aside', () => {
    const repo = new Repository('main');
    repo.commit({ branch: 'main', action: { kind: 'create', path: '.gitattributes', content: Buffer.from('*.bin filter=lfs diff=lfs merge=lfs -text\n') }, message: 'm', author, committer });
    const c = repo.commit({ branch: 'main', action: { kind: 'create', path: 'data/x.bin', content: Buffer.from('payload') }, message: 'm', author, committer });
    const stored = repo.readFile(c, 'data/x.bin')!.content.toString('utf8');
    expect(stored).toMatch(/^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:[0-9a-f]{64}\nsize 7\n$/);
    expect([...repo.lfsObjects.values()].map((b) => b.toString())).toEqual(['payload']);
  });
});
