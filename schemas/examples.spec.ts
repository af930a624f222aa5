// Every schema accepts the GitLab documentation examples it names in `x-examples`, and rejects
// broken variants generated from each example: every required field removed, every required
// field's value replaced by one of another type. The examples live in the repository, in
// schemas/examples/ (INDEX.md there names the documentation page and section of each).
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { examplePath, schemaNames, schemaSource, validateAgainst, type ExampleRef } from './registry.js';

const EXAMPLES = join(import.meta.dirname, 'examples');

/** The `.txt` examples are GitLab's docs verbatim with a trailing comma; parse them without it. */
function readExample(ref: ExampleRef): unknown {
  const text = readFileSync(examplePath(ref), 'utf8');
  return JSON.parse(ref.file.endsWith('.txt') ? text.trim().replace(/,(\s*[\]}])/g, '$1') : text);
}

function requiredOf(schema: Record<string, unknown>): string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}

/** A value of another JSON type than `value`. */
function otherType(value: unknown): unknown {
  if (typeof value === 'number') return 'not-a-number';
  if (typeof value === 'string') return 12345;
  if (typeof value === 'boolean') return 'yes';
  if (value === null) return 12345;
  if (Array.isArray(value)) return 'not-an-array';
  return 'not-an-object';
}

describe('schemas and GitLab documentation examples', () => {
  const names = schemaNames();
  const refs = names.flatMap((n) => schemaSource(n)['x-examples'] ?? []);
  const files = readdirSync(EXAMPLES).filter((f) => f !== 'INDEX.md');

  test('the examples are in the repository (schemas/examples/), and x-examples name files there', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref.file, 'x-examples paths are relative to schemas/').toMatch(/^examples\/[^/]+$/);
      expect(files, `${ref.file} exists`).toContain(basename(ref.file));
    }
  });

  test('INDEX.md names the documentation page and section of every example file', () => {
    const index = readFileSync(join(EXAMPLES, 'INDEX.md'), 'utf8');
    const rows = new Map(index.split('\n').filter((l) => l.startsWith('| ')).map((l) => [l.split('|')[1].trim(), l]));
    for (const file of files) {
      const row = rows.get(file);
      expect(row, `${file} has a row in INDEX.md`).toBeDefined();
      expect(row, `${file}: page`).toMatch(/`doc\/api\/[a-z_]+\.md`/);
    }
  });

  test('every example file is claimed by some schema (except the ones no resource of the spec covers)', () => {
    const claimed = new Set(refs.map((e) => basename(e.file)));
    const unclaimed = files
      .filter((f) => !claimed.has(f))
      // GET …/public_key is not one of the 47 endpoint forms of the spec.
      .filter((f) => f !== 'remote_mirrors--get-remote-mirror-public-key.json');
    const areasWithSchemas = new Set(refs.map((e) => basename(e.file).split('--')[0]));
    expect(unclaimed.filter((f) => areasWithSchemas.has(f.split('--')[0]))).toEqual([]);
  });

  for (const name of names) {
    const source = schemaSource(name);
    for (const example of source['x-examples'] ?? []) {
      test(`${name} accepts ${example.file}`, () => {
        expect(validateAgainst(name, readExample(example), { list: example.list })).toEqual([]);
      });

      test(`${name} rejects ${example.file} with a required field removed or of another type`, () => {
        const value = readExample(example);
        const items = example.list ? (value as Record<string, unknown>[]) : [value as Record<string, unknown>];
        const sample = structuredClone(items[0]);
        const required = requiredOf(source);
        expect(required.length, `${name} declares required fields`).toBeGreaterThan(0);
        for (const field of required) {
          const without = structuredClone(sample);
          delete without[field];
          const wrapped = example.list ? [without] : without;
          expect(validateAgainst(name, wrapped, { list: example.list }), `without "${field}"`).not.toEqual([]);
          if (field in sample) {
            const retyped = { ...structuredClone(sample), [field]: otherType(sample[field]) };
            expect(validateAgainst(name, example.list ? [retyped] : retyped, { list: example.list }), `"${field}" of another type`).not.toEqual([]);
          }
        }
      });
    }
  }
});
