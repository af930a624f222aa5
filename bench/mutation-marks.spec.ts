// Every mutation mark still finds its line, once, in the reference server's code; putting the marks
// back and taking them out again gives the source unchanged.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { anchor, extractMarks, loadMarks, withMarks } from './mutation-marks.js';

const ROOT = resolve(import.meta.dirname, '..');
const marks = loadMarks();

test('every mark anchors on exactly one line of its file, and no Stryker comment is left in the route code', () => {
  const problems = marks.map((m) => anchor(readFileSync(join(ROOT, m.file), 'utf8').split('\n'), m)).filter((a) => typeof a === 'string');
  expect(problems).toEqual([]);
  for (const file of new Set(marks.map((m) => m.file))) expect(readFileSync(join(ROOT, file), 'utf8')).not.toMatch(/\/\/ Stryker (disable|restore)/);
});

test('marks put back and taken out again leave the source as it was', () => {
  for (const file of new Set(marks.map((m) => m.file))) {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const marked = withMarks(file, source, marks);
    expect(marked.split('\n').length).toBe(source.split('\n').length + marks.filter((m) => m.file === file).length);
    const back = extractMarks(file, marked);
    expect(back.source).toBe(source);
    expect(back.marks).toEqual(marks.filter((m) => m.file === file));
  }
});
