import { expect, test } from 'vitest';
import { Symbols } from './symbols.js';

const user = (id: number) => ({ id, username: `u${id}`, name: `U ${id}`, email: `u${id}@example.com` });
const group = (id: number) => ({ kind: 'group', id, fullPath: `root/g${id}`, name: `g${id}` });
const listed = (symbols: Symbols) => symbols.list().map((e) => `${e.symbol}=${e.id}`);

test('objects asked for at once are numbered in the order asked, whatever order they came in', () => {
  const symbols = new Symbols();
  symbols.named('user:owner', user(1));
  const first = symbols.slot();
  const second = symbols.slot();
  const aGroup = symbols.slot();
  // The second user came first (its lease was quicker), the group in between.
  second(user(7));
  aGroup(group(3));
  first(user(9));
  expect(listed(symbols)).toEqual(['user:owner=1', 'user#1=9', 'user#2=7', 'group#1=3']);
});

test('an object with a symbol already keeps it; a slot never filled takes no number', () => {
  const symbols = new Symbols();
  symbols.named('user:owner', user(1));
  symbols.slot(); // never filled
  const owner = symbols.slot();
  const other = symbols.slot();
  owner(user(1));
  other(user(2));
  other(user(3));
  expect(listed(symbols)).toEqual(['user:owner=1', 'user#1=2']);
});
