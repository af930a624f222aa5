// Safe to point at a real GitLab (issue #36): a clean-up removes only what a run made on that target,
// and no secret reaches a report. Each check runs the real command in a child process against
// reference servers started here; two servers that both start empty give the same ids to different
// objects, as two GitLab instances do.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ReferenceServer } from '../reference-server/server.js';
import { Ledger, type ObjectEntry } from '../runner/run/ledger.js';
import { ADMIN_TOKEN, cleanUpChildren, cli, leftovers, server, target, tempDir } from './cli-child.js';

afterAll(cleanUpChildren);

/** The ledgers in a run's directory. */
function ledgersIn(dir: string): string[] {
  const at = join(dir, '.conformance');
  return existsSync(at) ? readdirSync(at).filter((f) => f.startsWith('ledger-')).map((f) => join(at, f)) : [];
}

const objectsIn = (ledger: string) => Ledger.outstanding(ledger).filter((e): e is ObjectEntry => e.kind !== 'setting' && e.kind !== 'token');

/** A run against `s` killed (SIGKILL: no clean-up) once its ledger lists a few users, groups and projects. */
async function killedRun(s: ReferenceServer): Promise<{ dir: string; ledger: string }> {
  const dir = tempDir();
  const enough = () => {
    const [ledger] = ledgersIn(dir);
    const kinds = ledger ? new Set(objectsIn(ledger).map((e) => e.kind)) : new Set();
    return ledger && objectsIn(ledger).length >= 10 && kinds.has('user') && kinds.has('group') ? ledger : undefined;
  };
  await cli(['--area', 'invitations'], target(s), {
    dir,
    onStart: (child) => {
      const watch = setInterval(() => {
        if (!enough()) return;
        child.kill('SIGKILL');
        clearInterval(watch);
      }, 5);
      child.on('close', () => clearInterval(watch));
    },
  });
  const ledger = enough();
  if (!ledger) throw new Error('the run ended before its ledger listed enough objects');
  await settled(s);
  return { dir, ledger };
}

/**
 * Waits until the server's objects have not changed for half a second: requests the killed run had
 * sent are still served after its death (a POST /users answered to no one), and would otherwise
 * count as changes made by whatever runs next.
 */
async function settled(s: ReferenceServer): Promise<void> {
  let last = inventory(s).join('\n');
  for (let quiet = 0; quiet < 10; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = inventory(s).join('\n');
    quiet = now === last && s.inFlight.current === 0 ? quiet + 1 : 0;
    last = now;
  }
}

/** Every object the server holds, as "kind id name", to compare before and after. */
function inventory(s: ReferenceServer): string[] {
  return [
    ...[...s.store.users.values()].map((u) => `user ${u.id} ${u.username}`),
    ...[...s.store.groups.values()].map((g) => `group ${g.id} ${g.path}`),
    ...[...s.store.projects.values()].map((p) => `project ${p.id} ${p.path}`),
  ].sort();
}

/**
 * Which of a ledger's objects `s` still holds. (A killed run may have left objects its ledger does
 * not list: made, the answer not yet read when it was killed. Only `sweep --prefix` finds those.)
 */
function stillThere(s: ReferenceServer, entries: ObjectEntry[]): string[] {
  const stores = { user: s.store.users, group: s.store.groups, project: s.store.projects };
  return entries.filter((e) => stores[e.kind].has(e.id)).map((e) => `${e.kind} ${e.id} ${e.name}`);
}

/** Objects of other people on `s` with the ids a ledger lists (the ids a second instance gives its own). */
function occupy(s: ReferenceServer, entries: ObjectEntry[]): void {
  const highest = (kind: string) => Math.max(0, ...entries.filter((e) => e.kind === kind).map((e) => e.id));
  while (Math.max(0, ...s.store.users.keys()) < highest('user')) s.store.createUser({ username: `plain${s.store.users.size}`, name: 'Plain', email: `plain${s.store.users.size}@example.com` });
  while (Math.max(0, ...s.store.groups.keys()) < highest('group')) s.store.createGroup({ name: `keep${s.store.groups.size}`, path: `keep${s.store.groups.size}`, parentId: null, visibility: 'private' });
}

describe('sweep and the run\'s clean-up touch only what the run made, on its own target', { timeout: 300_000 }, () => {
  test.concurrent('a ledger of server A swept against server B (same ids) removes nothing and says why; against A it undoes everything', async () => {
    const [a, b] = [await server(), await server()];
    const { dir, ledger } = await killedRun(a);
    expect(readFileSync(ledger, 'utf8').split('\n')[0]).toMatch(new RegExp(`^\\{"kind":"target".*"target":"${a.url}".*"username":"root"`));
    occupy(b, objectsIn(ledger));
    const before = inventory(b);
    const named = await cli(['sweep', '--ledger', ledger], target(b), { dir });
    expect(named.code, named.stderr).toBe(2);
    expect(named.stderr).toContain(`sweep: ledger ${ledger} left alone, nothing removed: it was written against ${a.url}, not ${b.url}`);
    // Without --ledger only B's ledgers are considered: A's is not.
    const all = await cli(['sweep'], target(b), { dir });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/sweep: removed 0 object\(s\); 1 ledger\(s\) of other targets not considered/);
    expect(inventory(b)).toEqual(before);
    const listed = objectsIn(ledger);
    expect(stillThere(a, listed).length).toBe(listed.length);
    const own = await cli(['sweep'], target(a), { dir });
    expect(own.code, own.stderr).toBe(0);
    expect(stillThere(a, listed)).toEqual([]);
    expect(ledgersIn(dir)).toEqual([]);
  });

  test.concurrent('another instance at the same URL (a server made anew on the port) is refused: its administrator is not the one recorded', async () => {
    const a = await server();
    const { dir, ledger } = await killedRun(a);
    const port = Number(new URL(a.url).port);
    await a.close();
    await new Promise((r) => setTimeout(r, 5)); // another created_at for the new root
    const again = await server({ port });
    occupy(again, objectsIn(ledger));
    const before = inventory(again);
    const swept = await cli(['sweep', '--ledger', ledger], target(again), { dir });
    expect(swept.code, swept.stderr).toBe(2);
    expect(swept.stderr).toMatch(/left alone, nothing removed: it was written on another instance at http:\/\/127\.0\.0\.1:\d+: its administrator, user id 1, was `root` created \S+; here user id 1 is `root` created \S+/);
    expect(inventory(again)).toEqual(before);
  });

  test.concurrent('an entry whose id now names another object is left and reported; the rest is removed; --dry-run changes nothing', async () => {
    const s = await server();
    const { dir, ledger } = await killedRun(s);
    const listed = objectsIn(ledger);
    const users = listed.filter((e) => e.kind === 'user');
    const renamed = s.store.users.get(users[0].id)!;
    renamed.username = 'plain';
    const text = readFileSync(ledger, 'utf8');
    const before = inventory(s);
    const dry = await cli(['sweep', '--dry-run'], target(s), { dir });
    expect(dry.code, dry.stderr).toBe(1);
    expect(dry.stdout).toMatch(/sweep --dry-run: would remove user cnf_\w+ \(id \d+\)/);
    expect(dry.stdout).toMatch(/sweep --dry-run: would remove group cnf-[\w-]+ \(id \d+\)/);
    expect(dry.stdout).toContain(`would leave user id ${renamed.id} is now \`plain\`, not \`${users[0].name}\`: left`);
    expect(inventory(s)).toEqual(before);
    expect(readFileSync(ledger, 'utf8')).toBe(text);

    const swept = await cli(['sweep'], target(s), { dir });
    expect(swept.code, swept.stderr).toBe(1);
    expect(swept.stdout).toContain(`could not undo user id ${renamed.id} is now \`plain\`, not \`${users[0].name}\`: left`);
    expect(s.store.users.get(renamed.id)?.username).toBe('plain');
    expect(stillThere(s, listed)).toEqual([`user ${renamed.id} ${users[0].name}`]);
    // The entry stays in the ledger: the ledger is kept.
    expect(objectsIn(ledger).map((e) => e.id)).toEqual([renamed.id]);
  });

  test.concurrent('a clean run leaves no ledger behind', async () => {
    const s = await server();
    const run = await cli(['--endpoint', 'HEAD /projects/:id/repository/files/:file_path/raw'], target(s));
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(run.dir, '.conformance'))).toBe(true);
    expect(ledgersIn(run.dir)).toEqual([]);
    expect(leftovers(s)).toEqual([]);
  });

  test.concurrent('an admin token with read_api only is refused in the pre-check (exit 2), naming the scope, before anything is made', async () => {
    const s = await server();
    const readOnly = s.store.createToken(1, 'read-only', ['read_api'], null).token;
    const before = inventory(s);
    const run = await cli(['--endpoint', 'HEAD /projects/:id/repository/files/:file_path/raw'], { CONFORMANCE_TARGET_URL: s.url, CONFORMANCE_ADMIN_TOKEN: readOnly });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/the admin token lacks the scope api \(it has read_api\)/);
    expect(run.stderr).not.toContain(readOnly);
    expect(inventory(s)).toEqual(before);
  });
});

/**
 * A target in front of `s` that answers as `s` does, but for what `alter` changes: given a request
 * and `s`'s answer (JSON read), it gives another status and body, or undefined for `s`'s own.
 */
async function proxy(s: ReferenceServer, alter: (method: string, url: URL, status: number, body: unknown) => { status: number; body: unknown } | undefined): Promise<string> {
  const front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const upstream = httpRequest(`${s.url}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(s.url).host } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(parts).toString();
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: passed on as it is
          }
          const changed = alter(req.method!, new URL(req.url!, s.url), answer.statusCode!, body);
          const headers: IncomingHttpHeaders = { ...answer.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          res.writeHead(changed?.status ?? answer.statusCode!, headers);
          res.end(changed ? JSON.stringify(changed.body) : text);
        });
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  fronts.push(front);
  return `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
}
const fronts: ReturnType<typeof createServer>[] = [];
afterAll(() => fronts.forEach((f) => f.close()));

describe('sweep --prefix reads each object before its DELETE, and says in one line what it cannot use', { timeout: 120_000 }, () => {
  const runId = '2612071900ab12';
  /** A server with a user, a group and a project named with the run prefix, and a user `plain` of someone else. */
  async function withLeftovers(): Promise<{ s: ReferenceServer; plain: number }> {
    const s = await server();
    s.store.createUser({ username: `cnf_${runId}_u1`, name: 'Run user', email: 'u1@example.com' });
    s.store.createGroup({ name: `cnf-${runId}-g1`, path: `cnf-${runId}-g1`, parentId: null, visibility: 'private' });
    const plain = s.store.createUser({ username: 'plain', name: 'Plain', email: 'plain@example.com' }).id;
    return { s, plain };
  }

  test.concurrent('an object the search lists under a run name it does not have is left and reported; the rest is removed', async () => {
    const { s, plain } = await withLeftovers();
    // The target's user search lists the user `plain` as if it were one of the run's.
    const url = await proxy(s, (method, at, status, body) =>
      method === 'GET' && at.pathname === '/api/v4/users' && Array.isArray(body) ? { status, body: [...body, { id: plain, username: `cnf_${runId}_u2` }] } : undefined,
    );
    const swept = await cli(['sweep', '--prefix', `cnf-${runId}`], { ...target(s), CONFORMANCE_TARGET_URL: url });
    expect(swept.code, swept.stderr).toBe(1);
    expect(swept.stdout).toContain(`sweep: removed 2 object(s); could not undo user id ${plain} is now \`plain\`, not \`cnf_${runId}_u2\`: left`);
    expect(s.store.users.get(plain)?.username).toBe('plain');
    expect(leftovers(s)).toEqual([]);
  });

  test.concurrent('a target answering 405 to GET /projects: one line, exit 2, nothing removed', async () => {
    const { s } = await withLeftovers();
    const before = inventory(s);
    const url = await proxy(s, (method, at) => (method === 'GET' && at.pathname === '/api/v4/projects' ? { status: 405, body: { error: '405 Not Allowed' } } : undefined));
    const swept = await cli(['sweep', '--prefix', `cnf-${runId}`], { ...target(s), CONFORMANCE_TARGET_URL: url });
    expect(swept.code, swept.stderr).toBe(2);
    expect(swept.stderr).toBe('sweep: GET /projects answered HTTP 405; nothing removed\n');
    expect(inventory(s)).toEqual(before);
  });

  test.concurrent('the tokens a run made for a user the target gave the id of someone else\'s are revoked at its clean-up', async () => {
    const s = await server();
    const plain = s.store.createUser({ username: 'plain', name: 'Plain', email: 'plain@example.com' });
    const own = s.store.createToken(plain.id, 'plain-own', ['api'], null);
    // The first user the run creates comes back as `plain` (its id): the run's tokens are then made for plain.
    const createUser = s.store.createUser.bind(s.store);
    let given = false;
    s.store.createUser = (fields) => {
      if (given || !fields.username.startsWith('cnf_')) return createUser(fields);
      given = true;
      return plain;
    };
    const run = await cli(['--endpoint', 'HEAD /projects/:id/repository/files/:file_path/raw'], target(s));
    expect(given).toBe(true);
    const made = [...s.store.tokens.values()].filter((t) => t.userId === plain.id && t !== own);
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter((t) => !t.revoked).map((t) => t.name)).toEqual([]);
    expect(own.revoked).toBe(false);
    expect(s.store.users.get(plain.id)?.username).toBe('plain');
    expect(run.stderr).toMatch(new RegExp(`could not undo user id ${plain.id} is now \`plain\`, not \`cnf_\\w+\`: left`));
  });
});

/** The credentials the mirrors tests put in the URLs they send (user other than git, password), read off their sources. */
function mirrorSecrets(): string[] {
  const dir = join(import.meta.dirname, '..', 'suites', 'remote-mirrors');
  const secrets = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    for (const [, user, password] of readFileSync(join(dir, file), 'utf8').matchAll(/[a-z]+:\/\/([\w.-]+)(?::([\w.-]+))?@example\.(?:com|org)/g)) {
      for (const part of [user, password]) if (part !== undefined && part !== 'git') secrets.add(part);
    }
  }
  return [...secrets];
}

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path: relative(dir, path), text: readFileSync(path, 'utf8') }));
}

test('no secret in any file a run wrote nor in its output, against faults that echo the mirror credentials, with the invite tokens GitLab shows', { timeout: 400_000 }, async () => {
  // The mirror URL with its user and password unmasked; invitation lists with a wrong field, so that
  // their answers, invite_token included, are the evidence of failures.
  const s = await server({ faults: ['mirrors.url-unmasked', 'invitations.expires-at-created'] });
  const inviteTokens: string[] = [];
  const addMember = s.store.addMember.bind(s.store);
  s.store.addMember = (source, fields) => {
    if (typeof fields.inviteToken === 'string') inviteTokens.push(fields.inviteToken);
    return addMember(source, fields);
  };
  const run = await cli(['record', '--out', 'transcript.jsonl', '--report-dir', 'out', '--area', 'remote-mirrors,invitations'], target(s), { timeoutMs: 380_000 });
  expect(run.code, run.stderr.slice(-2000)).toBe(1);
  const written = filesUnder(run.dir);
  expect(written.map((f) => f.path).sort()).toEqual(expect.arrayContaining(['transcript.jsonl', 'out/results.json', 'out/junit.xml', 'out/report.html', 'out/summary.md']));
  // The faults fired and their tests failed: the secrets were there to leak.
  expect(s.faults.fired.get('mirrors.url-unmasked') ?? 0).toBeGreaterThan(0);
  const results = JSON.parse(readFileSync(join(run.dir, 'out', 'results.json'), 'utf8')) as { tests: { id: string; verdict: string }[] };
  expect(results.tests.filter((t) => t.verdict === 'fail').map((t) => t.id)).toEqual(expect.arrayContaining(['mirrors.create.masks-credentials']));
  expect(results.tests.some((t) => t.id.startsWith('invitations.list') && t.verdict === 'fail')).toBe(true);
  const secrets = [ADMIN_TOKEN, ...mirrorSecrets(), ...inviteTokens];
  expect(mirrorSecrets()).toEqual(expect.arrayContaining(['Pa55-word-one', 'alice-user', 'tok3n-value-two']));
  expect(inviteTokens.length).toBeGreaterThan(0);
  const texts = [{ path: '(stdout)', text: run.stdout }, { path: '(stderr)', text: run.stderr }, ...written];
  const leaks = texts.flatMap(({ path, text }) => secrets.filter((secret) => text.includes(secret)).map((secret) => `${secret.slice(0, 4)}… in ${path}`));
  expect(leaks).toEqual([]);
  // The masks stand where the secrets were; the cURL placeholder is no secret and stays.
  expect(written.find((f) => f.path === 'out/report.html')?.text).toContain('PRIVATE-TOKEN: $TOKEN');
  expect(written.find((f) => f.path === 'out/junit.xml')?.text).toMatch(/\[REDACTED\]/);
});
