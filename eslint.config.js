// Lint: ESLint's and typescript-eslint's recommended rules for every .ts file, plus the house's
// structure: no import circle anywhere; the runner (runner/) in layers that import only downwards
// (core ← run ← report; differential, beside report, imports core only), below the areas (suites/),
// below the command line (cli/); and a reference server that stands on its own.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// The areas' folders, read from suites/ when the config loads: every folder there is an area's (or
// suites/common, which the areas share), so a new area is under the same rules as soon as its folder
// exists, with no list here to extend. (Read from the tree rather than from suites/areas.ts: the
// config is plain JavaScript and loads no TypeScript, and a folder not yet registered is an area's too.)
const AREA_DIRS = readdirSync(new URL('./suites/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `suites/${entry.name}`)
  .sort();
/** The areas' folders and the registry that lists them. */
const AREA_FOLDERS = [...AREA_DIRS, 'suites/areas.ts'];
const layer = (target, from, message) => ({ target, from, message });

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'packages/*/dist/', 'reports/', '.conformance/', '.stryker-tmp/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            layer('runner/core', ['runner/run', 'runner/report', 'runner/differential', 'cli', 'fixtures', ...AREA_FOLDERS], 'core is the bottom layer of the harness: it imports no other layer, no area and no fixture.'),
            layer('runner/run', ['runner/report', 'runner/differential', 'cli', ...AREA_FOLDERS], 'run imports only core (and the fixture manifest): reports, the CLI and the areas sit above it.'),
            layer('runner/report', ['runner/differential', 'cli', ...AREA_FOLDERS], 'report imports only run and core; the catalog of areas is handed in.'),
            layer('runner/differential', ['runner/run', 'runner/report', 'cli', 'fixtures', 'reference-server', ...AREA_FOLDERS], 'differential (a peer of report) reads transcripts and writes reports: it imports core only.'),
            layer(AREA_DIRS, ['runner/report', 'runner/differential', 'cli'], 'an area imports the harness core and run layers only.'),
            layer('fixtures', ['runner/run', 'runner/report', 'runner/differential', 'cli', ...AREA_FOLDERS], 'the fixture manifest is below the run layer.'),
            layer('contract', ['suites', 'runner', 'cli', 'fixtures', 'reference-server'], 'contract/ is neutral: it imports nothing of the suite or the server.'),
          ],
        },
      ],
    },
  },
  {
    // The runner stands below the areas and the command line: it is handed the catalog of areas.
    files: ['runner/**/*.ts'],
    ignores: ['runner/**/*.spec.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [layer('runner', ['suites', 'cli'], 'the runner imports no area and not the command line: they sit above it.')] }],
    },
  },
  {
    // The reference server stands on its own: it imports nothing of the suite (its own tests may).
    files: ['reference-server/**/*.ts'],
    ignores: ['reference-server/**/*.spec.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [layer('reference-server', ['suites', 'runner', 'cli', 'fixtures'], 'the reference server imports nothing of the suite; share through contract/.')] }],
    },
  },
  {
    // Sizes a reader can take in (issue #53): a function of at most 100 lines, a file of at most 500,
    // a test file of at most 600. A larger one is split by what it does.
    files: ['**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 100 }],
      'max-lines': ['error', { max: 500 }],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.spec.ts'],
    rules: { 'max-lines': ['error', { max: 600 }] },
  },
);
