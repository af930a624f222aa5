// The command's TypeScript compiled to JavaScript once, and kept: Node 20 runs TypeScript only through
// a loader (tsx), whose hooks thread and round trip per module cost about 0.75 s of CPU at each start
// of the command (a small run 4.0 → 3.3 s of CPU, 2026-11-29), and npm test starts it about 75 times.
// Each file is compiled alone (esbuild's transform, no bundle) to the same place in a copy of the tree
// (node_modules/.cache/gitlab-api-conformance/cli), with import.meta.url, dirname and filename set to
// the source's own: what a module reads beside itself it reads in the tree. A file changed since (its
// size or time) is compiled again at the next start. Where the copy cannot be made, or another
// process is making it, the command runs its sources through tsx as before (compiledCommand: undefined).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Folders of the tree that hold nothing the command loads. */
const SKIP = new Set(['node_modules', 'dist', 'reports', 'coverage']);
/** A lock older than this was left by a process that died while compiling. */
const STALE_LOCK_MS = 60_000;

/** The tree's TypeScript (tests apart) and the JSON files beside it: path → "size:mtime". */
function sources(root) {
  const found = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/(?<!\.spec|\.test|\.d)\.ts$/.test(entry.name) || (dir !== root && entry.name.endsWith('.json'))) {
        const { size, mtimeMs } = statSync(path);
        found.set(relative(root, path), `${size}:${mtimeMs}`);
      }
    }
  };
  walk(root);
  // This file's own state is in the key: a change of how files are compiled compiles them all again.
  const self = statSync(fileURLToPath(import.meta.url));
  found.set('<compiler>', `${self.size}:${self.mtimeMs}`);
  return found;
}

function writeAtomically(path, text) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/**
 * The compiled copy of the tree at `root` brought up to date: the paths of its cli/cli.js and of its
 * vitest.config.js (which vitest must load from the copy too, to share the command's modules); or
 * undefined when the copy cannot be used now.
 */
export async function compiledCommand(root) {
  const out = join(root, 'node_modules', '.cache', 'gitlab-api-conformance', 'cli');
  const manifestPath = join(out, 'manifest.json');
  const paths = { cli: pathToFileURL(join(out, 'cli', 'cli.js')).href, vitestConfig: join(out, 'vitest.config.js') };
  try {
    const now = sources(root);
    let before = new Map();
    try {
      before = new Map(Object.entries(JSON.parse(readFileSync(manifestPath, 'utf8'))));
    } catch {
      // No copy yet.
    }
    // Another compiler (this file changed) compiles every file again.
    const compilerChanged = before.get('<compiler>') !== now.get('<compiler>');
    const changed = [...now].filter(([path, state]) => compilerChanged || before.get(path) !== state).map(([path]) => path);
    const removed = [...before.keys()].filter((path) => !now.has(path));
    if (changed.length === 0 && removed.length === 0) return paths;

    mkdirSync(out, { recursive: true });
    const lock = join(out, '.lock');
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() - statSync(lock).mtimeMs < STALE_LOCK_MS) return undefined;
      rmSync(lock, { recursive: true, force: true });
      mkdirSync(lock);
    }
    try {
      const { transformSync } = await import('esbuild');
      // A copy inside node_modules is no package of the tree's: its .js files are ES modules only by this.
      writeAtomically(join(out, 'package.json'), '{ "type": "module" }\n');
      for (const path of changed) {
        if (path === '<compiler>') continue;
        const source = join(root, path);
        const target = join(out, path);
        mkdirSync(dirname(target), { recursive: true });
        if (path.endsWith('.json')) {
          copyFileSync(source, target);
          continue;
        }
        const { code } = transformSync(readFileSync(source, 'utf8'), {
          loader: 'ts',
          format: 'esm',
          sourcefile: source,
          define: {
            'import.meta.url': JSON.stringify(pathToFileURL(source).href),
            'import.meta.dirname': JSON.stringify(dirname(source)),
            'import.meta.filename': JSON.stringify(source),
          },
        });
        writeAtomically(target.replace(/\.ts$/, '.js'), code);
      }
      for (const path of removed) rmSync(join(out, path.replace(/\.ts$/, '.js')), { force: true });
      writeAtomically(manifestPath, JSON.stringify(Object.fromEntries(now)));
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    return paths;
  } catch {
    return undefined;
  }
}
