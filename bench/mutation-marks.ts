// The mutation marks, kept out of the route code: each says which mutants of one line of the
// reference server Stryker should not count, and why (an equivalent mutant, or a GitLab behaviour
// the suite accepts both ways). bench/mutation-marks.json holds them, anchored on the text of the
// line they are about; `npm run mutation` puts them back as Stryker comments into a copy of the
// project before Stryker reads it (bench/mutation-run.ts). A mark whose line is gone or is no longer
// unique fails the unit test (bench/mutation-marks.spec.ts), so marks never go stale unseen.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Mark {
  file: string;
  /** The trimmed text of the line the mark is about (the line after the comment). */
  line: string;
  /** Which of the lines with that text, when there are several (0 = the first). */
  occurrence?: number;
  /** The Stryker comment without its "// ", e.g. "Stryker disable next-line ObjectLiteral: <reason>". */
  comment: string;
}

export const MARKS_PATH = join(import.meta.dirname, 'mutation-marks.json');

export function loadMarks(path = MARKS_PATH): Mark[] {
  return JSON.parse(readFileSync(path, 'utf8')) as Mark[];
}

/** The index of the line a mark anchors on, or a reason why it cannot be placed. */
export function anchor(lines: string[], mark: Mark): number | string {
  const at = lines.flatMap((l, i) => (l.trim() === mark.line ? [i] : []));
  const index = at[mark.occurrence ?? 0];
  if (index === undefined) return `${mark.file}: no line "${mark.line}"${mark.occurrence ? ` (occurrence ${mark.occurrence})` : ''}`;
  if (mark.occurrence === undefined && at.length > 1) return `${mark.file}: "${mark.line}" stands ${at.length} times; name the occurrence`;
  return index;
}

/** The source with the marks of this file put back in front of their lines, with the lines' indentation. */
export function withMarks(file: string, source: string, marks: Mark[]): string {
  const lines = source.split('\n');
  const placed = marks.filter((m) => m.file === file).map((m, order) => {
    const index = anchor(lines, m);
    if (typeof index === 'string') throw new Error(`mutation mark cannot be placed: ${index}`);
    return { index, order, text: `${/^\s*/.exec(lines[index])![0]}// ${m.comment}` };
  });
  // From the bottom up, so earlier indexes stay right; marks of one line keep their order.
  for (const { index, text } of placed.sort((a, b) => b.index - a.index || b.order - a.order)) lines.splice(index, 0, text);
  return lines.join('\n');
}

/** Takes the Stryker comments out of a source: the marks, and the source without them. */
export function extractMarks(file: string, source: string): { marks: Mark[]; source: string } {
  const lines = source.split('\n');
  const marks: Mark[] = [];
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = /^\s*\/\/ (Stryker (?:disable|restore)\b.*)$/.exec(lines[i]);
    if (!match) {
      kept.push(lines[i]);
      continue;
    }
    const next = lines.slice(i + 1).find((l) => !/^\s*\/\/ Stryker /.test(l))!.trim();
    const before = lines.slice(0, i).filter((l) => l.trim() === next).length;
    const total = lines.filter((l) => l.trim() === next).length;
    marks.push({ file, line: next, ...(total > 1 ? { occurrence: before } : {}), comment: match[1] });
  }
  return { marks, source: kept.join('\n') };
}
