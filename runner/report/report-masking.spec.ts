// What the report writers make of a target's text (issue #49): results.json masked value by value
// (a secret that equals a key leaves the key), summary.md's target text in code spans and junit.xml's
// control characters written out.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { REDACTED, redactValue, registerSecret } from '../core/redact.js';
import { junitXml } from './junit.js';
import { codeSpan, summaryMarkdown } from './markdown.js';
import { writeReports } from './reporter.js';
import { buildResults, type TestRecord } from './results.js';

const dir = mkdtempSync(join(tmpdir(), 'report-masking-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ESCAPES = '\u001b]0;pwned\u0007\u001b[2K\rPASSED';

function failing(reason: string): TestRecord {
  return { id: 'files.get.x', title: 'a title', area: 'repository-files', endpoint: 'GET /x', kind: 'project', clauses: ['c'], verdict: 'fail', reason, parity: 'fail', durationMs: 1, file: 'f.test.ts', fixtures: [], needs: [] };
}

describe('the report writers', () => {
  test('a secret that equals a key of results.json masks the values that hold it, never the key', () => {
    // A key no other spec's text holds: the secret stays registered in this thread.
    registerSecret('paritySummary');
    const results = buildResults([failing('the paritySummary was wrong')], undefined, {}, 'spec');
    const safe = redactValue(results);
    expect(Object.keys(safe)).toEqual(Object.keys(results));
    expect(safe.paritySummary).toEqual(results.paritySummary);
    expect(safe.tests[0].reason).toBe(`the ${REDACTED} was wrong`);
    expect(redactValue({ headers: { 'private-token': 'abcdefgh', authorization: 'Bearer qwertyuiop' }, invite_token: 'inv1te-t0ken', n: null, curl: '$TOKEN' })).toEqual({
      headers: { 'private-token': REDACTED, authorization: `Bearer ${REDACTED}` },
      invite_token: REDACTED,
      n: null,
      curl: '$TOKEN',
    });
    writeReports(dir, results, { clauses: [], gaps: [], covered: 0, testable: 0, bothKinds: 0, passingOnEach: 0 } as never, true);
    const written = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as typeof results;
    expect(written.paritySummary).toEqual(results.paritySummary);
  });

  test('summary.md shows a target\'s text in code spans, escaped; junit.xml writes control characters out', () => {
    expect(codeSpan('a `b` c')).toBe('``a `b` c``');
    expect(codeSpan('`x')).toBe('`` `x ``');
    const results = buildResults([failing(`got ![x](http://tracker.example/p.png) ${ESCAPES}\nsecond line`)], undefined, {}, 'spec');
    results.target.version = `17.5.0${ESCAPES}`;
    const summary = summaryMarkdown(results);
    expect(summary).toContain('(GitLab `17.5.0\\x1b]0;pwned\\x07\\x1b[2K\\rPASSED`)');
    expect(summary).toContain(': `got ![x](http://tracker.example/p.png) \\x1b]0;pwned\\x07\\x1b[2K\\rPASSED`');
    const junit = junitXml(results);
    expect(junit).toContain('message="got ![x](http://tracker.example/p.png) \\x1b]0;pwned\\x07\\x1b[2K\\rPASSED"');
    for (const text of [summary, junit]) expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});
