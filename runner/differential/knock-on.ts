// Knock-on differences: what differs only because something earlier differed on the same group or
// project. A test that fails on the candidate stops before its clean-up (the mirror it made stays), or
// a write answers otherwise than on the baseline (the file was not written): every later exchange on
// that source, in this test or a later one sharing it, may then differ for that reason alone. Such a
// write taints its source; each later difference on a tainted source is marked knock-on, naming the
// test and exchange that tainted it, so that a reader starts from the first-hand ones.

/** What this needs of a difference (diff.ts's Difference). */
interface Placed {
  kind: string;
  method: string | null;
  path: string | null;
  index: number | null;
  candidateIndex: number | null;
  knockOn?: { test: string; index: number | null; object: string };
}

const READS = new Set(['GET', 'HEAD']);

/** The group or project an exchange's path is about, as the normalized path names it; per-test names (`<kind~n>`) stay within their test. */
function sourceOf(path: string | null, test: string): string | undefined {
  const match = path ? /\/(projects|groups)\/([^/?]+)/.exec(path) : null;
  if (!match) return undefined;
  return match[2].includes('~') ? `${test}\u0000${match[1]}/${match[2]}` : `${match[1]}/${match[2]}`;
}

/** Whether the difference says the write did not happen as on the baseline: another status, a step one side did not take, another request. */
function writeWentOtherwise(d: Placed): boolean {
  const method = d.method ?? '';
  if (READS.has(method) || method === '') return false;
  return d.kind === 'status' || d.kind === 'exchange-missing' || d.kind === 'request-changed';
}

/** Marks, in place, the differences that follow a write that went otherwise on the same source (tests in their order, exchanges in theirs). */
export function markKnockOn(tests: { id: string; exchanges: { differences: Placed[] }[] }[]): void {
  const tainted = new Map<string, NonNullable<Placed['knockOn']>>();
  for (const test of tests) {
    for (const exchange of test.exchanges) {
      if (exchange.differences.length === 0) continue;
      const source = sourceOf(exchange.differences[0].path, test.id);
      if (source === undefined) continue;
      const origin = tainted.get(source);
      if (origin) {
        for (const d of exchange.differences) d.knockOn = origin;
        continue;
      }
      const write = exchange.differences.find(writeWentOtherwise);
      if (write) tainted.set(source, { test: test.id, index: write.index ?? write.candidateIndex, object: source.split('\u0000').pop()! });
    }
  }
}
