// The settings as the README's table and `.env.example` show them, made from the one catalogue
// (config.ts SETTINGS): `npm run docs:settings` writes both, and a unit test fails when either is
// out of step with the catalogue.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from './config.js';

export const TABLE_START = '<!-- settings:start -->';
export const TABLE_END = '<!-- settings:end -->';

/** The Markdown table of every setting. */
export function settingsTable(): string {
  return ['| variable | default | meaning |', '|---|---|---|', ...SETTINGS.map((s) => `| \`${s.env}\` | ${s.default} | ${s.meaning} |`)].join('\n');
}

/** A default as a value to copy: an explanation in parentheses is no value. */
const valueOf = (defaultText: string) => (/^\(|^empty|;| with /.test(defaultText) ? '' : defaultText);

/** `.env.example`: every setting with its meaning and default, commented out unless it has a plain default. */
export function envExample(): string {
  const lines = [
    '# gitlab-api-conformance settings, every one with its default (made from runner/run/config.ts:',
    '# `npm run docs:settings`). Copy to .env (git-ignored) and set what you need; the environment and the',
    '# command\'s flags win over .env. Leave CONFORMANCE_TARGET_URL empty to run against the bundled server.',
  ];
  for (const s of SETTINGS) lines.push('', `# ${s.meaning}`, `# Default: ${s.default}`, `${s.env}=${valueOf(s.default)}`);
  return `${lines.join('\n')}\n`;
}

/** The README with its settings table replaced. */
export function withTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${TABLE_START} … ${TABLE_END} markers`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${readme.slice(end)}`;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const root = join(import.meta.dirname, '..', '..');
  writeFileSync(join(root, 'README.md'), withTable(readFileSync(join(root, 'README.md'), 'utf8')));
  writeFileSync(join(root, '.env.example'), envExample());
  console.log('README.md settings table and .env.example written from the settings catalogue');
}
