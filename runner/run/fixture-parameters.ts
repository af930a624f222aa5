// The names a test function reads from its first parameter, as Playwright finds a test's fixtures:
// from the function's source text (`fn.toString()`), which is what runs, so the same after tsc,
// esbuild (tsx, vitest) or oxc have compiled it: they keep a destructuring parameter as written
// (every target from ES2015 on), and only drop types, comments and spacing.
//
// `async ({ kind, as, source: s, shared = x, ...kit }) => …` reads kind, as, source and shared (and
// the rest). A first parameter that is not an object pattern (`async (kit) => …`, or a compiler that
// rewrote the pattern into statements), or whose keys cannot be told from the text (`[computed]`),
// gives undefined: the caller then assumes every name is read.

/** The keys of the first parameter's object pattern, and whether it has a rest element. */
export interface ParameterNames {
  names: string[];
  rest: boolean;
}

export function parameterNames(fn: (...args: never[]) => unknown): ParameterNames | undefined {
  const tokens = tokenize(fn.toString());
  let i = 0;
  if (tokens[i]?.text === 'async' && tokens[i + 1]?.text !== '=>') i++;
  if (tokens[i]?.text === 'function') i++;
  if (tokens[i]?.text === '*') i++;
  // A single bare parameter (`kit => …`), or a method's or a named function's name before its `(`.
  if (tokens[i]?.kind === 'word' && tokens[i + 1]?.text === '=>') return undefined;
  if (tokens[i]?.kind === 'word') i++;
  if (tokens[i]?.text !== '(' || tokens[i + 1]?.text !== '{') return undefined;
  return objectPattern(tokens, i + 1);
}

/** The keys of the object pattern that opens at `tokens[start]` (a `{`). */
function objectPattern(tokens: Token[], start: number): ParameterNames | undefined {
  const names: string[] = [];
  let rest = false;
  let i = start + 1;
  for (;;) {
    const token = tokens[i];
    if (token === undefined) return undefined;
    if (token.text === '}') return { names, rest };
    if (token.text === '...') {
      rest = true;
      i = skipEntry(tokens, i + 1);
    } else if (token.kind === 'word' || token.kind === 'string') {
      names.push(token.kind === 'string' ? token.text.slice(1, -1) : token.text);
      i = skipEntry(tokens, i + 1);
    } else {
      // A computed key, or text this reader does not know.
      return undefined;
    }
    if (tokens[i]?.text === ',') i++;
  }
}

/** Past the rest of one entry (`: pattern`, `= default`): to the `,` or `}` that ends it at its depth. */
function skipEntry(tokens: Token[], i: number): number {
  let depth = 0;
  for (; i < tokens.length; i++) {
    const text = tokens[i].text;
    if (depth === 0 && (text === ',' || text === '}')) return i;
    if (text === '{' || text === '(' || text === '[') depth++;
    if (text === '}' || text === ')' || text === ']') depth--;
  }
  return i;
}

interface Token {
  kind: 'word' | 'string' | 'punct';
  text: string;
}

/**
 * Words, strings and punctuation, without comments or spacing. A template literal or a regular
 * expression is one string token (only their ends matter here); `...` and `=>` are one token each.
 */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (/\s/.test(c)) i++;
    else if (source.startsWith('//', i)) i = lineEnd(source, i);
    else if (source.startsWith('/*', i)) i = source.indexOf('*/', i + 2) < 0 ? source.length : source.indexOf('*/', i + 2) + 2;
    else if (c === '"' || c === "'") {
      const end = quoted(source, i, c);
      tokens.push({ kind: 'string', text: source.slice(i, end) });
      i = end;
    } else if (c === '`') {
      const end = template(source, i);
      tokens.push({ kind: 'punct', text: source.slice(i, end) });
      i = end;
    } else if (/[\p{L}\p{Nl}$_]/u.test(c)) {
      const word = /^[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_]+/u.exec(source.slice(i))![0];
      tokens.push({ kind: 'word', text: word });
      i += word.length;
    } else if (source.startsWith('...', i) || source.startsWith('=>', i)) {
      const text = source.startsWith('...', i) ? '...' : '=>';
      tokens.push({ kind: 'punct', text });
      i += text.length;
    } else {
      tokens.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return tokens;
}

const lineEnd = (source: string, i: number) => (source.indexOf('\n', i) < 0 ? source.length : source.indexOf('\n', i));

function quoted(source: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < source.length && source[i] !== quote) i += source[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** The end of the template literal at `start`, past its `${…}` parts (which may hold strings and templates). */
function template(source: string, start: number): number {
  let i = start + 1;
  while (i < source.length && source[i] !== '`') {
    if (source[i] === '\\') i += 2;
    else if (source.startsWith('${', i)) {
      let depth = 1;
      i += 2;
      while (i < source.length && depth > 0) {
        const c = source[i];
        if (c === '"' || c === "'") i = quoted(source, i, c);
        else if (c === '`') i = template(source, i);
        else {
          if (c === '{') depth++;
          if (c === '}') depth--;
          i++;
        }
      }
    } else i++;
  }
  return i + 1;
}
