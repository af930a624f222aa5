// Loads every `*.schema.json` beside this file into one Ajv (draft 2020-12, strict, with formats).
// Schemas are named by file: "file", "blame-range". Compiling them all costs a process about 0.4 s,
// and every test worker needs most of them, so the compiled validators are kept as one module of
// ajv's standalone code under node_modules/.cache, named by the schemas' content and ajv's version:
// the first process to need them writes it, the others load it in milliseconds.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';

const SCHEMA_DIR = dirname(fileURLToPath(import.meta.url));
const ID_BASE = 'https://gitlab-api-conformance.dev/schemas/';
/** node_modules/.cache of the checkout, or of the project this package is installed in (as find-cache-dir chooses). */
const CACHE_DIR = join(nearestNodeModules(join(SCHEMA_DIR, '..')), '.cache', 'gitlab-api-conformance');
const require = createRequire(import.meta.url);

export interface SchemaIssue {
  /** JSON pointer into the validated value, "" for the root. */
  pointer: string;
  message: string;
  /** The offending value, when there is one at the pointer. */
  value: unknown;
}

let cached: Record<string, ValidateFunction> | undefined;

function nearestNodeModules(root: string): string {
  const marker = `${sep}node_modules${sep}`;
  const at = root.lastIndexOf(marker);
  return at === -1 ? join(root, 'node_modules') : root.slice(0, at + marker.length - 1);
}

function instance(): Ajv2020 {
  // code.source: the validators can be written out as standalone code.
  const ajv = new Ajv2020({ strict: true, allErrors: true, code: { source: true } });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  // Annotation only: which GitLab documentation examples (schemas/examples/) a schema must accept
  // (examples.spec.ts).
  ajv.addKeyword({ keyword: 'x-examples', schemaType: 'array' });
  for (const name of schemaNames()) {
    const ref = `${ID_BASE}${name}.schema.json`;
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMA_DIR, `${name}.schema.json`), 'utf8')) as object);
    ajv.addSchema({ $id: `${ID_BASE}list/${name}`, type: 'array', items: { $ref: ref } });
  }
  return ajv;
}

/** Every validator by key ("file", "list:file"): from the cached module, written first when it is missing or stale. */
function validators(): Record<string, ValidateFunction> {
  if (cached) return cached;
  const names = schemaNames();
  const hash = createHash('sha256').update(String((require('ajv/package.json') as { version: string }).version));
  for (const name of names) hash.update(`\0${name}\0`).update(readFileSync(join(SCHEMA_DIR, `${name}.schema.json`)));
  const file = join(CACHE_DIR, `validators-${hash.digest('hex').slice(0, 16)}.cjs`);
  if (existsSync(file)) return (cached = require(file) as Record<string, ValidateFunction>);
  const ajv = instance();
  const ids = Object.fromEntries(names.flatMap((name) => [[name, `${ID_BASE}${name}.schema.json`], [`list:${name}`, `${ID_BASE}list/${name}`]]));
  try {
    const code = (standaloneCode as unknown as (ajv: Ajv2020, refs: Record<string, string>) => string)(ajv, ids);
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written whole and renamed into place: a worker loading it at the same time sees all or nothing.
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  } catch {
    // A read-only installation: this process uses its own compiled validators, and none is kept.
  }
  cached = Object.fromEntries(Object.entries(ids).map(([key, id]) => [key, ajv.getSchema(id)!]));
  return cached;
}

/** Names of the schemas on disk ("file", "blame-range", ...). */
export function schemaNames(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => f.replace(/\.schema\.json$/, ''));
}

export interface ExampleRef {
  /** Path of the example relative to schemas/ ("examples/members--get-member.json"). */
  file: string;
  /** The example is an array of the resource. */
  list?: boolean;
}

/** Absolute path of an example named in `x-examples`. */
export function examplePath(ref: ExampleRef): string {
  return join(SCHEMA_DIR, ref.file);
}

/** The raw JSON of a schema file. */
export function schemaSource(name: string): Record<string, unknown> & { 'x-examples'?: ExampleRef[] } {
  return JSON.parse(readFileSync(join(SCHEMA_DIR, `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
}

/** A validator for one schema, or for an array of it with `list: true`. */
function validator(name: string, list: boolean): ValidateFunction {
  const validate = validators()[`${list ? 'list:' : ''}${name}`];
  if (!validate) throw new Error(`unknown schema "${name}" (have: ${schemaNames().join(', ')})`);
  return validate;
}

export function validateAgainst(name: string, value: unknown, options: { list?: boolean } = {}): SchemaIssue[] {
  const validate = validator(name, options.list ?? false);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => toIssue(error, value));
}

function toIssue(error: ErrorObject, root: unknown): SchemaIssue {
  const pointer = error.instancePath;
  const detail = error.keyword === 'required' ? `must have property "${(error.params as { missingProperty: string }).missingProperty}"` : error.message ?? error.keyword;
  return { pointer, message: detail, value: valueAt(root, pointer) };
}

function valueAt(root: unknown, pointer: string): unknown {
  let current: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
