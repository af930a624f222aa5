// The guard of what users read: the README, CONTRIBUTING.md and docs/ name only commands, flags,
// npm scripts and files that exist, and the settings table and .env.example are the settings
// catalogue's. A doc that drifts from the code fails here, as a clause with no test fails the run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { helpOf } from './cli.js';
import { SETTINGS } from '../runner/run/config.js';
import { envExample, settingsTable, TABLE_END, TABLE_START } from '../runner/run/settings-docs.js';
import { SETUP_NEED_NAMES } from '../runner/core/setup-needs.js';

const ROOT = resolve(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const DOCS = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
const COMMANDS = ['run', 'list', 'record', 'diff', 'sweep', 'merge', 'serve'];

describe('the settings as users read them', () => {
  test('the README\'s table is the catalogue\'s, every setting with its default', () => {
    const readme = read('README.md');
    const table = readme.slice(readme.indexOf(TABLE_START) + TABLE_START.length, readme.indexOf(TABLE_END)).trim();
    expect(table, 'npm run docs:settings writes it').toBe(settingsTable());
    for (const setting of SETTINGS) expect(table).toContain(`| \`${setting.env}\` | ${setting.default} |`);
  });

  test('.env.example, in the package, lists every setting with its default', () => {
    expect(read('.env.example'), 'npm run docs:settings writes it').toBe(envExample());
    const files = (JSON.parse(read('package.json')) as { files: string[] }).files;
    expect(files).toContain('.env.example');
  });

  test('docs/architecture.md lists every set-up endpoint beyond the target contract, by the name fixtures declare', () => {
    const doc = read('docs/architecture.md');
    for (const need of SETUP_NEED_NAMES) expect(doc, need).toContain(`| \`${need}\` |`);
  });
});

describe('what the docs name exists', () => {
  const helps = new Map<string, Promise<string>>(COMMANDS.map((c) => [c, helpOf(c)]));

  test('every command line of gitlab-api-conformance or gitlab-reference-server uses a command and flags it has', async () => {
    const problems: string[] = [];
    for (const doc of DOCS) {
      for (const line of read(doc).split('\n')) {
        for (const match of line.matchAll(/(?:gitlab-api-conformance|gitlab-reference-server)((?: +(?:[a-z][a-z-]*|--?[a-z][a-z-]*)(?=[ `'"\\]|$)(?: +[^ `-][^ `]*)?)*)/g)) {
          const words = match[1].trim().split(/ +/).filter(Boolean);
          const command = match[0].startsWith('gitlab-reference-server') ? 'serve' : COMMANDS.includes(words[0]) ? words[0] : 'run';
          const help = await helps.get(command)!;
          for (const flag of words.filter((w) => w.startsWith('--'))) {
            if (!help.includes(flag) && !(flag === '--help' || flag === '--version')) problems.push(`${doc}: \`${match[0].trim()}\`: ${command} has no ${flag}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('every npm script the docs name is in package.json', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const problems: string[] = [];
    for (const doc of DOCS) {
      for (const match of read(doc).matchAll(/npm run ([a-z][a-z:-]*)/g)) if (!scripts.includes(match[1])) problems.push(`${doc}: npm run ${match[1]}`);
    }
    expect(problems).toEqual([]);
  });

  test('every file and link the docs name is in the repository', () => {
    const problems: string[] = [];
    for (const doc of DOCS) {
      const text = read(doc);
      const paths = [
        // Paths in backticks with a folder and an extension, as the docs write them (from the root).
        ...[...text.matchAll(/`((?:\.\/)?(?:suites|reference-server|schemas|fixtures|contract|bench|docs|scripts|bin)\/[\w./*<>-]+)`/g)].map((m) => ({ path: m[1], from: ROOT })),
        ...[...text.matchAll(/`((?:README|CONTRIBUTING)\.md|\.env\.example|vitest\.config\.ts|package\.json)`/g)].map((m) => ({ path: m[1], from: ROOT })),
        // Markdown links, relative to the doc.
        ...[...text.matchAll(/\]\(([^)#:]+?)(?:#[^)]*)?\)/g)].map((m) => ({ path: m[1], from: dirname(join(ROOT, doc)) })),
      ];
      // A pattern (`suites/<area>/`, `*.spec.ts`) names no one file.
      for (const { path, from } of paths) if (!/[<>*]/.test(path) && !existsSync(join(from, path))) problems.push(`${doc}: ${path}`);
    }
    expect(problems).toEqual([]);
  });
});
