// Loads every `*.schema.json` beside this file into one Ajv (draft 2020-12, strict, with formats)
// and compiles each validator once per process. Schemas are named by file: "file", "blame-range".
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const SCHEMA_DIR = dirname(fileURLToPath(import.meta.url));
const ID_BASE = 'https://gitlab-api-conformance.dev/schemas/';

export interface SchemaIssue {
  /** JSON pointer into the validated value, "" for the root. */
  pointer: string;
  message: string;
  /** The offending value, when there is one at the pointer. */
  value: unknown;
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ strict: true, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  // Annotation only: which GitLab documentation examples (schemas/examples/) a schema must accept
  // (examples.spec.ts).
  ajv.addKeyword({ keyword: 'x-examples', schemaType: 'array' });
  for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.schema.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMA_DIR, file), 'utf8')) as object);
  }
  return ajv;
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
  const key = `${list ? 'list:' : ''}${name}`;
  let validate = compiled.get(key);
  if (!validate) {
    const ref = `${ID_BASE}${name}.schema.json`;
    if (!instance().getSchema(ref)) throw new Error(`unknown schema "${name}" (have: ${schemaNames().join(', ')})`);
    validate = list ? instance().compile({ type: 'array', items: { $ref: ref } }) : instance().getSchema(ref)!;
    compiled.set(key, validate);
  }
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
