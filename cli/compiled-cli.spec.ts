// The command's compiled copy (bin/compiled-cli.js), on a small tree of its own: compiled once, with
// each module's import.meta pointing at its source; a changed or removed source followed at the next
// start; a copy another process is making (a fresh lock) left alone, for tsx; a dead process's lock
// taken over.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
// @ts-expect-error: the bin's plain JavaScript has no type declarations.
import { compiledCommand } from '../bin/compiled-cli.js';

const root = mkdtempSync(join(tmpdir(), 'cnf-compiled-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const out = join(root, 'node_modules', '.cache', 'gitlab-api-conformance', 'cli');

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

type Compiled = { cli: string; vitestConfig: string } | undefined;
const compile = (): Promise<Compiled> => compiledCommand(root) as Promise<Compiled>;

test('the tree is compiled once, its modules see their sources\' places, and changes are followed', async () => {
  write('cli/cli.ts', "import { answer } from '../lib/answer.js';\nimport data from './data.json' with { type: 'json' };\nexport const main = (): string => `${answer} ${data.word} ${import.meta.dirname} ${new URL('.', import.meta.url).pathname}`;\n");
  write('lib/answer.ts', 'export const answer: number = 42;\n');
  write('cli/data.json', '{ "word": "json" }\n');
  write('cli/cli.spec.ts', "throw new Error('a spec is not compiled');\n");
  write('vitest.config.ts', 'export default {};\n');

  const first = await compile();
  expect(first).toBeDefined();
  expect(first!.vitestConfig).toBe(join(out, 'vitest.config.js'));
  const { main } = (await import(first!.cli)) as { main: () => string };
  expect(main()).toBe(`42 json ${join(root, 'cli')} ${join(root, 'cli')}/`);
  expect(existsSync(join(out, 'cli', 'cli.spec.js'))).toBe(false);
  expect(JSON.parse(readFileSync(join(out, 'package.json'), 'utf8'))).toEqual({ type: 'module' });

  // Nothing changed: nothing is compiled again.
  const compiledAt = statSync(join(out, 'lib', 'answer.js')).mtimeMs;
  await new Promise((done) => setTimeout(done, 20));
  expect(await compile()).toEqual(first);
  expect(statSync(join(out, 'lib', 'answer.js')).mtimeMs).toBe(compiledAt);

  // Another compiler (bin/compiled-cli.js changed since) compiles every file again.
  const manifest = join(out, 'manifest.json');
  writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), '<compiler>': 'another' }));
  expect(await compile()).toEqual(first);
  expect(statSync(join(out, 'lib', 'answer.js')).mtimeMs).toBeGreaterThan(compiledAt);

  // A changed source is compiled again; a removed one goes from the copy.
  write('lib/answer.ts', 'export const answer: number = 43;\n');
  write('lib/gone.ts', 'export {};\n');
  await compile();
  expect(readFileSync(join(out, 'lib', 'answer.js'), 'utf8')).toMatch(/answer = 43/);
  expect(existsSync(join(out, 'lib', 'gone.js'))).toBe(true);
  rmSync(join(root, 'lib', 'gone.ts'));
  await compile();
  expect(existsSync(join(out, 'lib', 'gone.js'))).toBe(false);
});

test('a copy another process is making is left to it (the command runs through tsx); a dead process\'s lock is taken over', async () => {
  write('lib/answer.ts', 'export const answer: number = 44;\n');
  const lock = join(out, '.lock');
  mkdirSync(lock, { recursive: true });
  expect(await compile()).toBeUndefined();
  expect(readFileSync(join(out, 'lib', 'answer.js'), 'utf8')).not.toMatch(/answer = 44/);
  // Two minutes old: its process died while compiling.
  const old = new Date(Date.now() - 120_000);
  utimesSync(lock, old, old);
  expect(await compile()).toBeDefined();
  expect(readFileSync(join(out, 'lib', 'answer.js'), 'utf8')).toMatch(/answer = 44/);
  expect(existsSync(lock)).toBe(false);
});
