// The names a test function reads from its first parameter (fixture-parameters.ts): from the source
// text as written, and as tsc, esbuild (tsx, vitest) and oxc hand it to Node after compiling it.
import { transformSync } from 'esbuild';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { fixturesRead, type Endpoint } from './conformance.js';
import { fixture } from './fixture.js';
import { parameterNames } from './fixture-parameters.js';

/** The function `source` defines, as Node would see it after `compile`. */
function compiled(source: string, compile: (code: string) => string): (...args: never[]) => unknown {
  const code = compile(`globalThis.compiledForSpec = ${source};`);
  return new Function(`${code}; const fn = globalThis.compiledForSpec; delete globalThis.compiledForSpec; return fn;`)() as (...args: never[]) => unknown;
}

const COMPILERS: [string, (code: string) => string][] = [
  ['as written', (code) => code],
  ['tsc, ES2022', (code) => ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.None } }).outputText],
  ['tsc, ES2017', (code) => ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2017, module: ts.ModuleKind.None } }).outputText],
  ['esbuild (tsx), node20', (code) => transformSync(code, { loader: 'ts', target: 'node20' }).code],
  ['esbuild, minified', (code) => transformSync(code, { loader: 'ts', target: 'node20', minify: true }).code],
];

const CASES: [string, string, ReturnType<typeof parameterNames>][] = [
  ['plain names', 'async ({ kind, as, source }) => { await as(kind).get(source); }', { names: ['kind', 'as', 'source'], rest: false }],
  ['renamed, defaults, nested, a rest', "async ({ source: s, shared = { a: '}' }, lease: { length } = [], ...kit }) => { void [s, shared, length, kit]; }", { names: ['source', 'shared', 'lease'], rest: true }],
  ['a function expression with comments', 'async function named(/* the kit */ { as, /* a , } */ files }) { void [as, files]; }', { names: ['as', 'files'], rest: false }],
  ['a template literal in a default', 'async ({ a = `x${"}"}${`,`}`, b }) => { void [a, b]; }', { names: ['a', 'b'], rest: false }],
  ['nothing destructured', 'async ({}) => {}', { names: [], rest: false }],
  ['the whole kit', 'async (kit) => { void kit; }', undefined],
  ['a bare parameter', 'async kit => { void kit; }', undefined],
  ['a computed key', "async ({ ['a' + 'b']: x }) => { void x; }", undefined],
];

describe('the names a test reads from its first parameter', () => {
  for (const [compiler, compile] of COMPILERS) {
    test.each(CASES)(`${compiler}: %s`, (_what, source, names) => {
      const fn = compiled(source, compile);
      // A minifier renames locals and may drop a default's text, never the keys of a pattern. Below
      // ES2018 an object rest is compiled into statements: the pattern is gone, and every fixture is built.
      const downlevelled = compiler === 'tsc, ES2017' && names?.rest === true;
      expect(parameterNames(fn)).toEqual(downlevelled ? undefined : names);
    });
  }

  test('a method and a generator', () => {
    const holder = {
      async method({ a, b }: { a: number; b: number }) {
        return a + b;
      },
    };
    expect(parameterNames(holder.method)).toEqual({ names: ['a', 'b'], rest: false });
    expect(parameterNames(function* gen({ c }: { c: number }) {
      yield c;
    })).toEqual({ names: ['c'], rest: false });
  });
});

describe('the fixtures a test is handed', () => {
  const a = fixture({ name: 'a', scope: 'file', build: () => 1 });
  const b = fixture({ name: 'b', scope: 'file', build: () => 'two' });

  test('those it destructures; every declared one when its parameter is the whole kit', () => {
    expect(Object.keys(fixturesRead({ a, b }, async ({ a }: { a: number }) => void a))).toEqual(['a']);
    expect(Object.keys(fixturesRead({ a, b }, async ({ b: renamed, ...kit }: { b: string }) => void [renamed, kit]))).toEqual(['b']);
    expect(Object.keys(fixturesRead({ a, b }, async (kit: unknown) => void kit))).toEqual(['a', 'b']);
  });

  test('the type checker refuses a name that is not declared', () => {
    // Never called: tsc checks it (an unused @ts-expect-error fails the type check).
    const declaring = (suite: Endpoint<{ extra(): void }, { a: typeof a }>) => {
      suite.test({ case: 'x', title: 't', clauses: ['c'], fixtures: { b } }, async ({ a, b, extra, kind }) => void [a.toFixed(), b.toUpperCase(), extra(), kind]);
      // @ts-expect-error -- `c` is declared neither for the endpoint nor for the test
      suite.test({ case: 'y', title: 't', clauses: ['c'] }, async ({ c }) => void c);
    };
    expect(typeof declaring).toBe('function');
  });
});
