// The comparison: every kind of difference at the right place, alignment, noise, coverage by the
// verdicts, and refusal to compare what cannot be compared.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { align, compareJson, stepsOf, type DifferenceKind } from './compare.js';
import { diffTranscripts, EndpointForms, IncomparableError, type Difference } from './diff.js';
import { changeExchange, exchangeLine, headerLine, RUN_A, RUN_B, runLines, testLine, writeTranscript, type Line } from './hand-made.js';
import type { NormalizedExchange } from './normalize.js';
import { readTranscript, type ExchangeLine, type TestLine } from './transcript.js';

const dir = mkdtempSync(join(tmpdir(), 'differential-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const transcript = (lines: Line[]) => readTranscript(writeTranscript(dir, `t${++files}.jsonl`, lines));
const diff = (baseline: Line[], candidate: Line[], noise: Line[][] = []) => diffTranscripts(transcript(baseline), transcript(candidate), noise.map(transcript));
const where = (d: Difference) => [d.test, d.index, d.kind, d.locus];

const A = runLines(RUN_A);
const B = runLines(RUN_B);

describe('equal runs', () => {
  test('two runs of one target with other ids, names, prefix, host, times and commit ids: no difference', () => {
    const result = diff(A, B);
    expect(result.differences).toEqual([]);
    expect(result.summary).toMatchObject({ tests: 5, comparedExchanges: 17, differences: 0, noise: 0 });
  });
});

describe('recordings made with tests at once', () => {
  test('diff warns when a side was recorded with record --concurrent, and not for sequential or older recordings', () => {
    // The first line is the header.
    const withHeader = (lines: Line[], sequential: boolean): Line[] => [{ ...(lines[0] as Record<string, unknown>), sequential }, ...lines.slice(1)];
    const concurrent = (lines: Line[]) => withHeader(lines, false);
    const sequential = (lines: Line[]) => withHeader(lines, true);
    expect(diff(A, concurrent(B)).warnings.filter((w) => w.includes('record --concurrent'))).toHaveLength(1);
    expect(diff(sequential(A), sequential(B)).warnings.filter((w) => w.includes('record --concurrent'))).toEqual([]);
    expect(diff(A, B).warnings.filter((w) => w.includes('record --concurrent'))).toEqual([]);
  });
});

describe('each kind of difference, at its place', () => {
  const members = 'members.list.group.basic';
  const one = (candidate: Line[]) => {
    const result = diff(A, candidate);
    return result.differences.map(where);
  };

  test('status', () => {
    expect(one(changeExchange(B, members, 1, (e) => (e.response.status = 203)))).toEqual([[members, 1, 'status', 'status']]);
  });

  test('a header added, removed, changed', () => {
    const candidate = changeExchange(B, members, 0, (e) => {
      e.response.headers['x-total-pages'] = '2';
      delete e.response.headers['x-next-page'];
      e.response.headers['x-total'] = '4';
    });
    const result = diff(A, candidate);
    expect(result.differences.map(where)).toEqual([
      [members, 0, 'header', 'header:x-next-page'],
      [members, 0, 'header', 'header:x-total'],
      [members, 0, 'header', 'header:x-total-pages'],
    ]);
    expect(result.differences[0]).toMatchObject({ header: 'x-next-page', baseline: '2' });
    expect(result.differences[0]).not.toHaveProperty('candidate');
  });

  test('body fields added and removed, by RFC 6901 pointer', () => {
    const candidate = changeExchange(B, members, 0, (e) => {
      const rows = e.response.body as Record<string, unknown>[];
      rows[1]['email/work'] = 'x@example.com';
      delete rows[0].membership_state;
    });
    const result = diff(A, candidate);
    expect(result.differences.map(where)).toEqual([
      [members, 0, 'body-field-removed', 'body:/0/membership_state'],
      [members, 0, 'body-field-added', 'body:/1/email~1work'],
    ]);
    expect(result.differences[1]).toMatchObject({ pointer: '/1/email~1work', candidate: 'x@example.com', method: 'GET', endpoint: 'GET /groups/:id/members', path: '/api/v4/groups/<group#1>/members', testEndpoint: 'GET /groups/:id/members', clauses: ['members.list.direct'] });
  });

  test('value changed, type changed (also an id that became a string), order changed', () => {
    const candidate = changeExchange(B, members, 0, (e) => {
      const rows = e.response.body as Record<string, unknown>[];
      rows[0].access_level = 40;
      rows[1].access_level = '30';
      (rows[1].created_by as Record<string, unknown>).id = String((rows[1].created_by as Record<string, unknown>).id);
    });
    expect(one(candidate)).toEqual([
      [members, 0, 'value-changed', 'body:/0/access_level'],
      [members, 0, 'type-changed', 'body:/1/access_level'],
      [members, 0, 'type-changed', 'body:/1/created_by/id'],
    ]);
    const reordered = changeExchange(B, 'mirrors.create.basic', 3, (e) => (e.response.body as unknown[]).reverse());
    expect(one(reordered)).toEqual([['mirrors.create.basic', 3, 'order-changed', 'body:']]);
  });

  test('a body that appears, goes, or changes its encoding', () => {
    expect(one(changeExchange(B, 'invitations.create.group.by-email', 2, (e) => Object.assign(e.response, { status: 200, body: {}, bodyEncoding: 'json' })))).toEqual([
      ['invitations.create.group.by-email', 2, 'status', 'status'],
      ['invitations.create.group.by-email', 2, 'body-field-added', 'body:'],
    ]);
    expect(one(changeExchange(B, 'files.get.blame', 2, (e) => (e.response.body = 'other\n')))).toEqual([['files.get.blame', 2, 'value-changed', 'body:']]);
  });

  test('a request that differs (the test sent something else) pairs in order and is compared still', () => {
    const candidate = changeExchange(B, members, 0, (e) => {
      e.request.query = { per_page: '3' };
      e.response.headers['x-total'] = '5';
    });
    expect(one(candidate)).toEqual([
      [members, 0, 'request-changed', 'request:/query/per_page'],
      [members, 0, 'header', 'header:x-total'],
    ]);
  });

  test('an exchange one side lacks, and the rest still aligned', () => {
    const extra = structuredClone(B) as ExchangeLine[];
    const at = extra.findIndex((l) => l.type === 'exchange' && l.test === 'mirrors.create.basic' && l.index === 2);
    const inserted = structuredClone(extra[at]);
    inserted.request.path = inserted.request.path.replace(/\d+$/, '999999');
    inserted.response.status = 404;
    extra.splice(at, 0, inserted);
    extra.filter((l) => l.type === 'exchange' && l.test === 'mirrors.create.basic').forEach((l, i) => (l.index = i));
    const result = diff(A, extra);
    expect(result.differences.map((d) => [d.test, d.index, d.candidateIndex, d.kind])).toEqual([['mirrors.create.basic', null, 2, 'exchange-missing']]);
    expect(result.differences[0].candidate).toBe('GET /api/v4/projects/<project#1>/remote_mirrors/<mirror~3> → 404');
  });

  test('a test one side lacks', () => {
    const fewer = (B as { id?: string; test?: string }[]).filter((l) => l.id !== 'files.get.blame' && l.test !== 'files.get.blame');
    const result = diff(A, fewer);
    expect(result.differences.map(where)).toEqual([['files.get.blame', null, 'test-missing', 'test']]);
    expect(result.differences[0]).toMatchObject({ baseline: 'pass at the spec level, pass at the parity level', covered: null });
  });
});

describe('alignment', () => {
  const e = (index: number, path: string, status = 200) => ({ index, actor: 'owner', method: 'GET', path, query: {}, status, headers: {}, bodyEncoding: 'none', numericIds: new Set() }) as NormalizedExchange;

  test('a request repeated back to back (polling) is one step whose last answer counts', () => {
    const steps = stepsOf([e(0, '/a'), e(1, '/b', 200), e(2, '/b', 200), e(3, '/b', 404), e(4, '/c')]);
    expect(steps.map((s) => [s.exchange.index, s.repeats])).toEqual([[0, 1], [3, 3], [4, 1]]);
    const pairs = align(steps, stepsOf([e(0, '/a'), e(1, '/b', 404), e(2, '/c')]));
    expect(pairs.map((p) => [p.baseline?.exchange.index, p.candidate?.exchange.index])).toEqual([[0, 0], [3, 1], [4, 2]]);
  });

  test('different requests: common ones aligned, those between paired in order, the rest alone', () => {
    const pairs = align(stepsOf([e(0, '/a'), e(1, '/x'), e(2, '/y'), e(3, '/c')]), stepsOf([e(0, '/a'), e(1, '/z'), e(2, '/c'), e(3, '/d')]));
    expect(pairs.map((p) => [p.baseline?.exchange.path, p.candidate?.exchange.path])).toEqual([['/a', '/a'], ['/x', '/z'], ['/y', undefined], ['/c', '/c'], [undefined, '/d']]);
  });

  test('JSON: the order of an object\'s keys is no difference; arrays compare in order', () => {
    const found: [DifferenceKind, string][] = [];
    compareJson({ a: 1, b: [1, 2, 3] }, { b: [1, 2], a: 1 }, (kind, pointer) => found.push([kind, pointer]));
    expect(found).toEqual([['body-field-removed', '/b/2']]);
  });
});

describe('noise', () => {
  test('what also differs between two recordings of the baseline is reported apart, never counted', () => {
    const touch = (lines: Line[], name: string, value: string) =>
      changeExchange(lines, 'members.list.group.basic', 1, (e) => {
        (e.response.body as Record<string, unknown>).last_activity_on = value;
        e.response.headers['x-served-by'] = name;
      });
    const baseline = touch(A, 'cache-1', 'a');
    const second = touch(runLines({ ...RUN_A, runId: '2611262010ef56', port: 41999 }), 'cache-2', 'b');
    const candidate = changeExchange(touch(B, 'cache-3', 'c'), 'members.list.group.basic', 1, (e) => (e.response.status = 203));
    const result = diff(baseline, candidate, [second]);
    expect(result.differences.map(where)).toEqual([['members.list.group.basic', 1, 'status', 'status']]);
    expect(result.noise.map(where)).toEqual([
      ['members.list.group.basic', 1, 'header', 'header:x-served-by'],
      ['members.list.group.basic', 1, 'value-changed', 'body:/last_activity_on'],
    ]);
    expect(result.summary).toMatchObject({ differences: 1, noise: 2, differingTests: 1 });
    expect(result.tests.find((t) => t.id === 'members.list.group.basic')).toMatchObject({ differences: 1, noise: 2 });
  });

  test('a list whose elements come, go or are other objects between two recordings of the baseline: any difference inside it is noise', () => {
    const list = 'mirrors.create.basic';
    const longer = (lines: Line[]) => changeExchange(lines, list, 3, (e) => (e.response.body as unknown[]).push({ id: 999, url: 'https://example.com/other-test.git', update_status: 'none' }));
    const otherFirst = (lines: Line[]) => changeExchange(lines, list, 3, (e) => ((e.response.body as { url: string }[])[0].url = 'https://example.com/other-test.git'));
    const candidate = changeExchange(changeExchange(B, list, 3, (e) => ((e.response.body as { enabled: boolean }[])[1].enabled = true)), list, 2, (e) => ((e.response.body as { enabled: boolean }).enabled = true));
    for (const second of [longer(runLines(RUN_B)), otherFirst(runLines(RUN_B))]) {
      const result = diff(A, candidate, [second]);
      expect(result.noise.map(where)).toEqual([[list, 3, 'value-changed', 'body:/1/enabled']]);
      expect(result.differences.map(where)).toEqual([[list, 2, 'value-changed', 'body:/enabled']]);
    }
    // A value that differs in the noise (not which objects the list holds) makes only itself noise.
    const enabledFirst = changeExchange(runLines(RUN_B), list, 3, (e) => ((e.response.body as { enabled: boolean }[])[0].enabled = true));
    expect(diff(A, candidate, [enabledFirst]).differences.map(where)).toEqual([
      [list, 2, 'value-changed', 'body:/enabled'],
      [list, 3, 'value-changed', 'body:/1/enabled'],
    ]);
  });
});

describe('coverage by the verdicts', () => {
  const withVerdicts = (lines: Line[], id: string, verdict: string, parity: string) =>
    (structuredClone(lines) as Partial<TestLine>[]).map((l) => (l.type === 'test' && l.id === id ? { ...l, verdict, parity } : l)) as Line[];
  const changed = changeExchange(B, 'mirrors.create.basic', 0, (e) => ((e.response.body as Record<string, unknown>).enabled = true));

  test('news when the test passes alike on both sides; spec or parity when a verdict says so', () => {
    expect(diff(A, changed).differences[0].covered).toBeNull();
    expect(diff(A, withVerdicts(changed, 'mirrors.create.basic', 'fail', 'fail')).differences[0].covered).toBe('spec');
    expect(diff(withVerdicts(A, 'mirrors.create.basic', 'error', 'error'), withVerdicts(changed, 'mirrors.create.basic', 'error', 'error')).differences[0].covered).toBe('spec');
    expect(diff(A, withVerdicts(changed, 'mirrors.create.basic', 'pass', 'fail')).differences[0].covered).toBe('parity');
    expect(diff(A, withVerdicts(changed, 'mirrors.create.basic', 'pass', 'fail')).summary.uncovered).toBe(0);
  });
});

describe('what cannot be compared', () => {
  test('another selection of tests: both selections and the tests on one side only (ten at most) are named', () => {
    const many = [headerLine(RUN_A, { selection: { areas: ['members'], endpoints: [], disabled: [] } }), ...Array.from({ length: 12 }, (_, i) => testLine(`members.extra.${i}`))];
    const error = (() => {
      try {
        diff(A, many);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(IncomparableError);
    expect(error!.message).toContain('the selections of tests differ');
    expect(error!.message).toContain('"areas":["members"]');
    expect(error!.message).toContain('members.extra.0, members.extra.1');
    expect(error!.message).toContain('members.extra.9, … (12 in all)');
    expect(error!.message).not.toContain('members.extra.10');
    expect(error!.message).toMatch(/only in .*t\d+\.jsonl: members\.list\.group\.basic, members\.billable\.memberships/);
  });
});

describe('endpoint forms', () => {
  test('the form with the most literal segments wins; a path that matches none is its own form', () => {
    const forms = new EndpointForms(['GET /groups/:id/members/:user_id', 'GET /groups/:id/members/all', 'GET /groups/:id/members/all/:user_id', 'PUT /groups/:id/members/:member_id/approve']);
    expect(forms.of('GET', '/api/v4/groups/<group#1>/members/all')).toBe('GET /groups/:id/members/all');
    expect(forms.of('GET', '/api/v4/groups/<group#1>/members/<user#1>')).toBe('GET /groups/:id/members/:user_id');
    expect(forms.of('GET', '/api/v4/groups/<group#1>/members/all/<user#1>?x=1')).toBe('GET /groups/:id/members/all/:user_id');
    expect(forms.of('PUT', '/api/v4/groups/<group#1>/members/<member~1>/approve')).toBe('PUT /groups/:id/members/:member_id/approve');
    expect(forms.of('GET', '/api/v4/version')).toBe('GET /api/v4/version');
  });

  test('each difference names the form of its own exchange beside the test\'s', () => {
    const candidate = changeExchange(B, 'members.list.group.basic', 1, (e) => (e.response.status = 203));
    const withForms = (lines: Line[]) =>
      [...lines, testLine('members.all.one', { endpoint: 'GET /projects/:id/members/all/:user_id' }), exchangeLine('members.all.one', 0)] as Line[];
    expect(diff(withForms(A), withForms(candidate)).differences[0]).toMatchObject({ endpoint: 'GET /projects/:id/members/all/:user_id', testEndpoint: 'GET /groups/:id/members' });
  });
});
