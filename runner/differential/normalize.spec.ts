// Normalization: each rule hides what two runs of one target answer differently because they are two
// runs, and keeps what a version could change (a field's kind, a type, a format, which object).
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { exchangeLine, gitBlobId, headerLine, RUN_A, RUN_B, runLines, sha, sshKey, testLine } from './hand-made.js';
import {
  contentLengthKind,
  cookieValues,
  correlationId,
  entityOf,
  etagKind,
  idKindOf,
  normalizeTest,
  originToken,
  runTables,
  runPrefixToken,
  timestampKind,
  type NormalizedExchange,
} from './normalize.js';
import type { ExchangeLine, SymbolEntry, TestLine, Transcript, TranscriptHeader, TranscriptTest } from './transcript.js';

const header = headerLine(RUN_A);

function normalize(exchanges: ExchangeLine[], symbols: SymbolEntry[] = [], h: TranscriptHeader = header): NormalizedExchange[] {
  const test: TranscriptTest = { line: testLine('t', { symbols }), lineNo: 2, exchanges };
  return normalizeTest(h, test);
}

/** The normalized lines of the hand-made world, by test. */
function world(p: typeof RUN_A): Map<string, NormalizedExchange[]> {
  const lines = runLines(p) as (TestLine | ExchangeLine | TranscriptHeader)[];
  const h = lines[0] as TranscriptHeader;
  const tests = new Map<string, TranscriptTest>();
  for (const line of lines) {
    if (line.type === 'test') tests.set(line.id, { line, lineNo: 0, exchanges: [] });
    if (line.type === 'exchange') tests.get(line.test)!.exchanges.push(line);
  }
  return new Map([...tests].map(([id, t]) => [id, normalizeTest(h, t)]));
}

describe('text rules', () => {
  test('the origin and the run prefix become tokens, in both of the prefix forms', () => {
    expect(originToken('see http://127.0.0.1:41234/a/b', 'http://127.0.0.1:41234')).toBe('see <origin>/a/b');
    expect(runPrefixToken('cnf-2611262000ab12-grp cnf_2611262000ab12_user x2611262000ab12', 'cnf-2611262000ab12', '2611262000ab12')).toBe('<prefix>-grp <prefix_>_user x<run-id>');
  });

  test('a timestamp keeps its layout (precision, separator, zone), a date becomes <date>, an HTTP date <http-date>', () => {
    expect(timestampKind('2026-11-26T20:00:01.123Z')).toBe('<time:YYYY-MM-DDThh:mm:ss.sssZ>');
    expect(timestampKind('2026-11-26T20:00:01Z')).toBe('<time:YYYY-MM-DDThh:mm:ssZ>');
    expect(timestampKind('2026-11-26T20:00:01.123+01:00')).toBe('<time:YYYY-MM-DDThh:mm:ss.sss+01:00>');
    expect(timestampKind('2026-11-26 20:00:01 UTC')).toBe('<time:YYYY-MM-DD hh:mm:ss UTC>');
    expect(timestampKind('expires 2026-12-26.')).toBe('expires <date>.');
    expect(timestampKind('Wed, 26 Nov 2026 20:00:00 GMT')).toBe('<http-date>');
    // Not dates: a version string, an impossible month, digits in a longer run.
    expect(timestampKind('v1.2026-13-01 12026-11-26')).toBe('v1.2026-13-01 12026-11-26');
    // A date that became a timestamp is still a difference.
    expect(timestampKind('2026-12-26')).not.toBe(timestampKind('2026-12-26T00:00:00Z'));
  });

  test('per-request header values', () => {
    expect(etagKind('W/"abc"')).toBe('W/<etag>');
    expect(etagKind('"abc"')).toBe('<etag>');
    expect(contentLengthKind('1234')).toBe('<length>');
    expect(contentLengthKind('0')).toBe('0');
    expect(cookieValues('_gitlab_session=abc123; path=/; HttpOnly\nother=1')).toBe('_gitlab_session=<value>; path=/; HttpOnly\nother=<value>');
    expect(correlationId('{"correlation_id":"01JABC","version":"1"}')).toBe('{"correlation_id":"<per-request>","version":"1"}');
  });
});

describe('hashes and keys are replaced only when they are right', () => {
  const content = Buffer.from('hello cnf-2611262000ab12\n');
  const blob = gitBlobId(content);
  const sha256 = createHash('sha256').update(content).digest('hex');

  test('a blob id or SHA-256 that is not the content\'s stays as sent; non-canonical Base64 is not decoded', () => {
    const [e] = normalize([
      exchangeLine('t', 0, {
        body: [
          { encoding: 'base64', content: content.toString('base64'), blob_id: blob, content_sha256: sha256 },
          { encoding: 'base64', content: content.toString('base64'), blob_id: sha('other'), content_sha256: sha256.replace(/^./, '0') },
          { encoding: 'base64', content: `${content.toString('base64').slice(0, 8)}\n${content.toString('base64').slice(8)}` },
        ],
      }),
    ]);
    expect(e.body).toEqual([
      { encoding: 'base64', content: 'base64("hello <prefix>\\n")', blob_id: '<blob-id(content#1)>', content_sha256: '<sha256(content#1)>' },
      { encoding: 'base64', content: 'base64("hello <prefix>\\n")', blob_id: sha('other'), content_sha256: sha256.replace(/^./, '0') },
      { encoding: 'base64', content: expect.stringContaining('\n') },
    ]);
  });

  test('an SSH key whose + a form decoder turned into spaces is still the same key, and says so', () => {
    const key = sshKey('x');
    const [e] = normalize([exchangeLine('t', 0, { request: { method: 'POST', path: '/api/v4/projects/1/remote_mirrors', body: { host_keys: [key.text, `${key.text} comment`] } }, body: { host_keys: [{ fingerprint_sha256: key.fingerprint }, { fingerprint_sha256: sshKey('y').fingerprint }] } })]);
    expect(e.requestBody).toEqual({ host_keys: ['ssh-ed25519 <ssh-key#1>', 'ssh-ed25519 <ssh-key#1> comment'] });
    expect(e.body).toEqual({ host_keys: [{ fingerprint_sha256: '<fingerprint-sha256(ssh-key#1)>' }, { fingerprint_sha256: sshKey('y').fingerprint }] });
    const plus = Array.from({ length: 40 }, (_, i) => sshKey(`p${i}`)).find((k) => k.text.includes('+'))!;
    const [f] = normalize([exchangeLine('t', 0, { request: { method: 'POST', path: '/api/v4/x', body: { host_keys: [plus.text.replace(/\+/g, ' '), plus.text] } } })]);
    expect(f.requestBody).toEqual({ host_keys: ['ssh-ed25519 <ssh-key#1:plus-as-space>', 'ssh-ed25519 <ssh-key#1>'] });
  });

  test('the run prefix in capitals keeps its case in its token', () => {
    expect(runPrefixToken('CNF_2611262000AB12_X Cnf-2611262000ab12-y', 'cnf-2611262000ab12', '2611262000ab12')).toBe('<PREFIX_>_X <prefix:other-case>-y');
    // The run id alone may have no letter to show a case (2611262000012345): in any case it is <run-id>.
    expect(runPrefixToken('F_2611262000AB12_X', 'cnf-2611262000ab12', '2611262000ab12')).toBe(runPrefixToken('F_2611262000012345_X', 'cnf-2611262000012345', '2611262000012345'));
  });
});

describe('ids by position', () => {
  test('an object\'s entity decides the kind of its id', () => {
    expect(entityOf({ id: 1, username: 'u' })).toBe('user');
    expect(entityOf({ id: 1, username: 'u', approved: true, invited: false })).toBe('member');
    expect(entityOf({ id: 1, invite_email: 'a@b.c' })).toBe('member');
    expect(entityOf({ id: 1, source_id: 2, source_full_name: 'x' })).toBe('member');
    expect(entityOf({ id: 1, url: 'https://x', update_status: 'none' })).toBe('mirror');
    expect(entityOf({ id: 'abc', parent_ids: [] })).toBe('commit');
    expect(entityOf({ id: 1, path_with_namespace: 'a/b' })).toBe('project');
    expect(entityOf({ id: 1, full_path: 'a' })).toBe('group');
    expect(entityOf({ status: 'error' })).toBeUndefined();
  });

  test('the kind of an id-bearing key', () => {
    expect(idKindOf('user_id', undefined, undefined)).toBe('user');
    expect(idKindOf('user_ids', undefined, undefined)).toBe('user');
    expect(idKindOf('created_by_id', undefined, undefined)).toBe('user');
    expect(idKindOf('skip_users', undefined, undefined)).toBe('user');
    expect(idKindOf('skip_users[]', undefined, undefined)).toBe('user');
    expect(idKindOf('sudo', undefined, undefined)).toBe('user');
    expect(idKindOf('group_id', undefined, undefined)).toBe('group');
    expect(idKindOf('project_id', undefined, undefined)).toBe('project');
    expect(idKindOf('source_id', { source_type: 'Project' }, undefined)).toBe('project');
    expect(idKindOf('source_id', { source_members_url: 'http://h/groups/g/-/group_members' }, undefined)).toBe('group');
    expect(idKindOf('saml_provider_id', undefined, undefined)).toBe('saml_provider');
    expect(idKindOf('id', undefined, 'group')).toBe('group');
    expect(idKindOf('access_level', undefined, undefined)).toBeUndefined();
    expect(idKindOf('per_page', undefined, undefined)).toBeUndefined();
  });

  test('a group and a project of equal ids stay apart, in paths, queries and bodies', () => {
    const symbols: SymbolEntry[] = [
      { symbol: 'group#1', kind: 'group', id: 9, values: [] },
      { symbol: 'project#1', kind: 'project', id: 9, values: [] },
      { symbol: 'user#1', kind: 'user', id: 9, values: [] },
    ];
    const [e] = normalize(
      [
        exchangeLine('t', 0, {
          request: { method: 'GET', path: '/api/v4/groups/9/billable_members/9/memberships', query: { user_ids: '9,9' } },
          headers: { link: '<http://127.0.0.1:41234/api/v4/projects/9/members?id=9&page=2>; rel="next"' },
          body: [
            { id: 9, source_id: 9, source_full_name: 'g', source_members_url: 'http://127.0.0.1:41234/groups/g/-/group_members' },
            { id: 10, source_id: 9, source_full_name: 'p', source_members_url: 'http://127.0.0.1:41234/g/p/-/project_members' },
            { id: 9, username: 'u', created_by: { id: 9, username: 'u' } },
          ],
        }),
      ],
      symbols,
    );
    expect(e.path).toBe('/api/v4/groups/<group#1>/billable_members/<user#1>/memberships');
    expect(e.query).toEqual({ user_ids: '<user#1>,<user#1>' });
    expect(e.headers.link).toBe('<<origin>/api/v4/projects/<project#1>/members?id=<project#1>&page=2>; rel="next"');
    expect(e.body).toMatchObject([
      { id: '<member~1>', source_id: '<group#1>' },
      { id: '<member~2>', source_id: '<project#1>' },
      { id: '<user#1>', created_by: { id: '<user#1>' } },
    ]);
  });

  test('ids the table does not list are numbered in the order the test meets them, the same object the same number', () => {
    const mirror = (id: number) => ({ id, url: 'https://example.com/a.git', update_status: 'none' });
    const out = normalize([
      exchangeLine('t', 0, { request: { method: 'POST', path: '/api/v4/projects/5/remote_mirrors' }, body: mirror(71) }),
      exchangeLine('t', 1, { request: { method: 'POST', path: '/api/v4/projects/5/remote_mirrors' }, body: mirror(70) }),
      exchangeLine('t', 2, { request: { method: 'GET', path: '/api/v4/projects/5/remote_mirrors/71' }, body: [mirror(71), mirror(70)] }),
    ]);
    expect(out.map((e) => e.path)).toEqual(['/api/v4/projects/<project~1>/remote_mirrors', '/api/v4/projects/<project~1>/remote_mirrors', '/api/v4/projects/<project~1>/remote_mirrors/<mirror~1>']);
    expect(out[2].body).toMatchObject([{ id: '<mirror~1>' }, { id: '<mirror~2>' }]);
  });

  test('an API path inside a message names its ids by position; other numbers in it stay', () => {
    const [e] = normalize(
      [exchangeLine('t', 0, { status: 400, body: { message: "'/api/v4/groups/9/invitations/%E0%A4%A' is not a valid url component", error: 'at most 9 recipients' } })],
      [{ symbol: 'group#1', kind: 'group', id: 9, values: [] }],
    );
    expect(e.body).toEqual({ message: "'/api/v4/groups/<group#1>/invitations/%E0%A4%A' is not a valid url component", error: 'at most 9 recipients' });
  });

  test('an id keeps its JSON type: numericIds lists the pointers of ids that were numbers', () => {
    const [e] = normalize([exchangeLine('t', 0, { body: [{ id: 3, username: 'a' }, { id: '3', username: 'b' }] })]);
    expect(e.body).toEqual([{ id: '<user~1>', username: 'a' }, { id: '<user~1>', username: 'b' }]);
    expect([...e.numericIds]).toEqual(['/0/id']);
  });
});

describe('symbol values', () => {
  const owner: SymbolEntry = { symbol: 'user:owner', kind: 'user', id: 14, values: { username: 'cnf_2611262000ab12_owner_1', name: 'Owner Fulano', email: 'cnf_2611262000ab12_owner_1@example.com' } };

  test('each field keeps its own label, so a username shown where the name was still differs', () => {
    const [e] = normalize([exchangeLine('t', 0, { body: { username: 'cnf_2611262000ab12_owner_1', name: 'cnf_2611262000ab12_owner_1', email: 'cnf_2611262000ab12_owner_1@example.com' } })], [owner]);
    expect(e.body).toEqual({ username: '<user:owner.username>', name: '<user:owner.username>', email: '<user:owner.email>' });
  });

  test('values listed without names are labelled by position', () => {
    const [e] = normalize([exchangeLine('t', 0, { body: { name: 'Owner Fulano' } })], [{ ...owner, values: ['cnf_2611262000ab12_owner_1', 'Owner Fulano'] }]);
    expect(e.body).toEqual({ name: '<user:owner.1>' });
  });

  test('a value inside a longer word is left alone; one in another case says so', () => {
    const [e] = normalize([exchangeLine('t', 0, { body: { a: 'cnf_2611262000ab12_owner_12', b: 'CNF_2611262000AB12_OWNER_1', c: 'Owner Fulanoz', d: 'owner fulano' } })], [owner]);
    expect(e.body).toEqual({ a: '<prefix_>_owner_12', b: '<user:owner.username:other-case>', c: 'Owner Fulanoz', d: 'owner fulano' });
  });

  test('the avatar hash of an e-mail, listed or carrying the run prefix, becomes its token', () => {
    const a = world(RUN_A).get('members.billable.memberships')!;
    expect(a[1].body).toEqual([
      { id: '<member~3>', email: '<prefix_>_invitations_guest_5@example.com', invited: true, avatar_url: 'https://www.gravatar.com/avatar/<md5(<prefix_>_invitations_guest_5@example.com)>?s=80&d=identicon', approved: false },
    ]);
    const members = world(RUN_A).get('members.list.group.basic')!;
    expect((members[0].body as { avatar_url: string }[])[0].avatar_url).toBe('https://www.gravatar.com/avatar/<md5(user:owner.email)>?s=80&d=identicon');
  });
});

describe('access-token bots', () => {
  test('a bot username keeps its kind and source, its random hex becomes <random-hex>; a name of another form stays', () => {
    const bot = (hex: string) => `project_7_bot_${hex.repeat(32)}`;
    const [a] = normalize([exchangeLine('t', 0, { body: { username: bot('a'), message: { [bot('a')]: 'refused' }, other: 'project_7_bot_short' } })]);
    const [b] = normalize([exchangeLine('t', 0, { body: { username: bot('b'), message: { [bot('b')]: 'refused' }, other: 'project_7_bot_short' } })]);
    expect(a.body).toEqual(b.body);
    expect(a.body).toEqual({ username: 'project_<project~1>_bot_<random-hex>', message: { 'project_<project~1>_bot_<random-hex>': 'refused' }, other: 'project_7_bot_short' });
  });
});

describe('the hand-made world', () => {
  test('two runs with other ids, names, prefix, host, times and commit ids normalize to the same exchanges', () => {
    const plain = (value: unknown) => JSON.parse(JSON.stringify(value, (_key, v: unknown) => (v instanceof Set ? [...(v as Set<string>)] : v))) as unknown;
    const a = world(RUN_A);
    const b = world(RUN_B);
    expect(RUN_B.groupIds).toBe(RUN_B.projectIds);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [id, exchanges] of a) expect(plain(b.get(id)), id).toEqual(plain(exchanges));
  });

  test('commit ids become ordinals wherever they occur; the hashes of a content the test met, and its Base64, become the content\'s', () => {
    const [head, blame, , file] = world(RUN_A).get('files.get.blame')!;
    expect(head.headers['x-gitlab-commit-id']).toBe('<commit~1>');
    expect(blame.query).toEqual({ ref: '<commit~1>' });
    expect(blame.body).toMatchObject([{ commit: { id: '<commit~2>', short_id: '<commit~2:short>', parent_ids: [] } }, { commit: { id: '<commit~1>', parent_ids: ['<commit~2>'] } }]);
    // The README names its project: its blob id is right for its content, met three exchanges later.
    expect(head.headers['x-gitlab-blob-id']).toBe('<blob-id(content#2)>');
    expect(file.body).toMatchObject({ blob_id: '<blob-id(content#2)>', content_sha256: '<sha256(content#2)>', content: 'base64("# <project#1.path>\\n")' });
  });

  test('an SSH key the test sent and its fingerprint become tokens; an invitation\'s token is a secret', () => {
    const [, created, , listed] = world(RUN_A).get('mirrors.create.basic')!;
    expect(created.requestBody).toEqual({ url: 'https://example.com/b.git', host_keys: ['ssh-ed25519 <ssh-key#1>'] });
    expect(created.body).toMatchObject({ host_keys: [{ fingerprint_sha256: '<fingerprint-sha256(ssh-key#1)>' }] });
    expect(listed.body).toMatchObject([{}, { host_keys: [{ fingerprint_sha256: '<fingerprint-sha256(ssh-key#1)>' }] }]);
    const [, invitations] = world(RUN_A).get('invitations.create.group.by-email')!;
    expect(invitations.body).toMatchObject([{ invite_token: '<secret>' }]);
  });
});

describe('what another test of the run met', () => {
  /** A transcript of two tests: `a.writer` meets a user's address, a key and a content; `b.reader` shows their hashes only. */
  function run(p: typeof RUN_A, content: string, reader: Partial<ExchangeLine> & { body?: unknown; headers?: Record<string, string> }): Transcript {
    const h = headerLine(p);
    const email = `cnf_${p.runId}_run_ab12cd_pool_3@example.com`;
    const writer: TranscriptTest = {
      line: testLine('a.writer', { symbols: [{ symbol: 'user#1', kind: 'user', id: p.userIds, values: { username: email.split('@')[0], email } }] }),
      lineNo: 2,
      exchanges: [
        exchangeLine('a.writer', 0, { request: { method: 'POST', path: '/api/v4/projects/1/remote_mirrors', body: { host_keys: [sshKey(`${p.runId} 1`).text, sshKey(`${p.runId} 2`).text] } } }),
        exchangeLine('a.writer', 1, { body: { file_path: 'README.md', encoding: 'base64', content: Buffer.from(content).toString('base64') } }),
      ],
    };
    const tests = new Map([['a.writer', writer], ['b.reader', { line: testLine('b.reader'), lineNo: 5, exchanges: [exchangeLine('b.reader', 0, reader)] }]]);
    return { file: `${p.runId}.jsonl`, header: h, tests, masked: 0 };
  }
  const readerOf = (p: typeof RUN_A, content = `# cnf-${p.runId}-run-repositories-1\n`) => {
    const email = `cnf_${p.runId}_run_ab12cd_pool_3@example.com`;
    const body = {
      avatar_url: `https://www.gravatar.com/avatar/${createHash('md5').update(email).digest('hex')}?s=80&d=identicon`,
      host_keys: [{ fingerprint_sha256: sshKey(`${p.runId} 2`).fingerprint }, { fingerprint_sha256: sshKey('a key no test sent').fingerprint }],
    };
    const headers = { 'x-gitlab-blob-id': gitBlobId(Buffer.from(content)), 'x-gitlab-content-sha256': sha('not the content'.repeat(2)) };
    return { body, headers };
  };
  const normalized = (t: Transcript) => normalizeTest(t.header, t.tests.get('b.reader')!, runTables(t))[0];

  test("an avatar's hash, a key's fingerprint and a content's blob id that another test met become tokens that name it, alike in two runs", () => {
    const a = normalized(run(RUN_A, `# cnf-${RUN_A.runId}-run-repositories-1\n`, readerOf(RUN_A)));
    const b = normalized(run(RUN_B, `# cnf-${RUN_B.runId}-run-repositories-1\n`, readerOf(RUN_B)));
    expect(a.body).toEqual({
      avatar_url: 'https://www.gravatar.com/avatar/<md5(<prefix_>_run_ab12cd_pool_3@example.com)>?s=80&d=identicon',
      host_keys: [{ fingerprint_sha256: '<fingerprint-sha256(ssh-key#2 of a.writer)>' }, { fingerprint_sha256: sshKey('a key no test sent').fingerprint }],
    });
    expect(a.headers['x-gitlab-blob-id']).toMatch(/^<blob-id\(run-content:[0-9a-f]{12}\)>$/);
    // A hash that is no content's stays as sent.
    expect(a.headers['x-gitlab-content-sha256']).toBe(sha('not the content'.repeat(2)));
    expect(b.body).toEqual(a.body);
    expect(b.headers).toEqual(a.headers);
  });

  test('another content has another label: a README a version rewrites still differs', () => {
    const a = normalized(run(RUN_A, `# cnf-${RUN_A.runId}-run-repositories-1\n`, readerOf(RUN_A)));
    const other = `# cnf-${RUN_B.runId}-run-repositories-1\n\nA new template.\n`;
    const b = normalized(run(RUN_B, other, readerOf(RUN_B, other)));
    expect(b.headers['x-gitlab-blob-id']).toMatch(/^<blob-id\(run-content:/);
    expect(b.headers['x-gitlab-blob-id']).not.toBe(a.headers['x-gitlab-blob-id']);
  });

  test('a key the test broke on purpose becomes <malformed-key#n> where it sent it and where an answer repeats it', () => {
    const valid = sshKey('x').text.split(' ')[1];
    const broken = Buffer.concat([Buffer.from(valid, 'base64'), Buffer.from([0, 0])]).toString('base64');
    const [e] = normalize([
      exchangeLine('t', 0, {
        request: { method: 'POST', path: '/api/v4/projects/1/remote_mirrors', body: { host_keys: [`ssh-ed25519 ${broken}`] } },
        status: 400,
        body: { message: `Invalid SSH host key(s): ssh-ed25519 ${broken}` },
      }),
    ]);
    expect(e.requestBody).toEqual({ host_keys: ['ssh-ed25519 <malformed-key#1>'] });
    expect(e.body).toEqual({ message: 'Invalid SSH host key(s): ssh-ed25519 <malformed-key#1>' });
    // Only what the test sent: a key-shaped text an answer alone holds stays.
    const [f] = normalize([exchangeLine('t', 0, { body: { message: `ssh-ed25519 ${broken}` } })]);
    expect(f.body).toEqual({ message: `ssh-ed25519 ${broken}` });
  });
});
