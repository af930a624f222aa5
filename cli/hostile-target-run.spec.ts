// A target that turns on the suite (issue #49): what it sends can neither leak a secret, nor take
// over the terminal, nor the run's memory. A run of one area goes through a loopback proxy in front
// of a reference server; the proxy echoes the administrator's token in usernames (so the clean-up and
// `sweep` refuse the ledger, naming the user) and in other answers, puts escape sequences (OSC title,
// BEL, erase line, CR) in the version string and in names, has the run register a secret that equals
// a key of results.json (`verdict`), and answers four raw-file reads with 200 MB each and a fifth with
// a body that never ends (generated as they are sent, never held by the proxy).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, test } from 'vitest';
import { VERDICTS } from '../runner/report/results.js';
import { ADMIN_TOKEN, cleanUpChildren, cli, results, server, target } from './cli-child.js';

afterAll(cleanUpChildren);

/** An OSC window title ended by BEL, an erase-line, a carriage return and a line that would cover the one before. */
const ESCAPES = '\u001b]0;pwned\u0007\u001b[2K\rPASSED';
const HUGE = 200 * 1024 * 1024;
/** Raw reads answered with HUGE bytes, then one answered without end. */
const HUGE_ANSWERS = 4;
/** Control characters a terminal acts on; only newline and tab may reach it raw. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** `bytes` of "a", made as they are read (Infinity: never ends). */
function generated(bytes: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) return void this.push(null);
      const n = Math.min(chunk.length, bytes - sent);
      sent += n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The proxy: the reference server at `upstream`, as a hostile target answers. */
async function hostileProxy(upstream: string): Promise<{ url: string; bigAnswers: () => number }> {
  let big = 0;
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    if (req.method === 'GET' && /^\/api\/v4\/version(\?|$)/.test(path)) return json(res, 200, { version: `17.5.0${ESCAPES}`, revision: ADMIN_TOKEN });
    if (req.method === 'GET' && /\/repository\/files\/[^/]+\/raw(\?|$)/.test(path) && big <= HUGE_ANSWERS) {
      const body = generated(big++ < HUGE_ANSWERS ? HUGE : Infinity);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.on('close', () => body.destroy());
      return void body.pipe(res);
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const out = httpRequest(`${upstream}${path}`, { method: req.method, headers: req.headers }, (up) => {
        const answer: Buffer[] = [];
        up.on('data', (c: Buffer) => answer.push(c));
        up.on('end', () => {
          const headers: Record<string, string> = { 'x-request-id': ADMIN_TOKEN };
          for (const [name, value] of Object.entries(up.headers)) if (typeof value === 'string' && !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) headers[name] = value;
          const text = Buffer.concat(answer).toString('utf8');
          if (req.method === 'HEAD') {
            res.writeHead(up.statusCode ?? 500, headers);
            return void res.end();
          }
          // The administrator's token in every user's name, as a faulty GitLab might echo it.
          if (req.method === 'GET' && /^\/api\/v4\/users\/\d+(\?|$)/.test(path) && up.statusCode === 200) {
            return json(res, 200, { ...(JSON.parse(text) as object), username: `root ${ADMIN_TOKEN}${ESCAPES}`, name: `Root${ESCAPES}` }, headers);
          }
          // The pre-check's user carries a "token" the run then masks everywhere: a word results.json uses as a key.
          if (req.method === 'GET' && /^\/api\/v4\/user(\?|$)/.test(path) && up.statusCode === 200) return json(res, 200, { ...(JSON.parse(text) as object), token: 'verdict' }, headers);
          // Blame fails, its message carrying the token and escapes: failures whose reasons reach every report.
          if (req.method === 'GET' && /\/repository\/files\/[^/]+\/blame(\?|$)/.test(path)) return json(res, 500, { message: `500 Internal Server Error ${ADMIN_TOKEN}${ESCAPES}` }, headers);
          res.writeHead(up.statusCode ?? 500, headers);
          res.end(text);
        });
      });
      out.on('error', () => res.destroy());
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, bigAnswers: () => big };
}

/** The peak resident memory of a process and its descendants (the sum of their peaks: an upper bound), read from /proc while it runs. */
function peakMemoryOf(pid: number): { stop: () => number } {
  const kb = (p: number) => {
    try {
      return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return 0;
    }
  };
  const tree = (p: number): number[] => {
    const children: number[] = [];
    try {
      for (const task of readdirSync(`/proc/${p}/task`)) children.push(...readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    } catch {
      // gone
    }
    return [p, ...children.flatMap(tree)];
  };
  let peak = 0;
  const read = () => (peak = Math.max(peak, tree(pid).reduce((sum, p) => sum + kb(p), 0)));
  const timer = setInterval(read, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return peak * 1024;
    },
  };
}

/** Every file below `dir`, with its text. */
function filesBelow(dir: string): { path: string; text: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path) : [{ path, text: readFileSync(path, 'utf8') }];
  });
}

describe('a hostile target', () => {
  test('leaks no token, reaches the terminal only escaped, and costs the run no more than its answer limit', { timeout: 300_000 }, async () => {
    const s = await server();
    const proxy = await hostileProxy(s.url);
    const memory = existsSync('/proc/self/status');
    let watch: { stop: () => number } | undefined;
    const run = await cli(['--area', 'repository-files'], { ...target(s), CONFORMANCE_TARGET_URL: proxy.url }, { timeoutMs: 240_000, onStart: (child) => (watch = memory ? peakMemoryOf(child.pid!) : undefined) });
    const peak = watch?.stop() ?? 0;
    expect(proxy.bigAnswers(), 'the proxy sent its big answers').toBe(HUGE_ANSWERS + 1);
    // The clean-up refuses the ledger: the administrator's name is not what it was. Such a ledger (of
    // another instance at this URL) is listed and left, and fails no sweep of this target (exit 0).
    const swept = await cli(['sweep', '--target', proxy.url], { CONFORMANCE_ADMIN_TOKEN: ADMIN_TOKEN }, { dir: run.dir });
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.stderr).toMatch(/^sweep: ledger .* left alone: it was written on another instance/m);

    // Soft: each broken promise shows, not only the first.
    const printed = [run.stdout, run.stderr, swept.stdout, swept.stderr];
    const written = [...filesBelow(join(run.dir, 'reports')), ...filesBelow(join(run.dir, '.conformance'))];
    expect.soft(written.map((f) => f.path).join('\n')).toMatch(/results\.json/);
    for (const text of printed) expect.soft(text).not.toContain(ADMIN_TOKEN);
    for (const { path, text } of written) expect.soft(text, path).not.toContain(ADMIN_TOKEN);
    // The clean-up line names the user, masked and escaped.
    expect.soft(run.stderr).toMatch(/here user id \d+ is `root \[REDACTED\]\\x1b\]0;pwned\\x07\\x1b\[2K\\rPASSED`/);
    for (const text of printed) expect.soft(text).not.toMatch(RAW_CONTROL);
    expect.soft(run.stdout).toContain('(GitLab 17.5.0\\x1b]0;pwned\\x07\\x1b[2K\\rPASSED)');
    const summary = readFileSync(join(run.dir, 'reports', 'summary.md'), 'utf8');
    expect.soft(summary).toContain('(GitLab `17.5.0\\x1b]0;pwned\\x07\\x1b[2K\\rPASSED`)');
    for (const name of ['summary.md', 'junit.xml']) expect.soft(readFileSync(join(run.dir, 'reports', name), 'utf8'), name).not.toMatch(RAW_CONTROL);

    // A secret equal to a key of results.json masks values, never the keys.
    const res = results(run);
    expect.soft(res.tests.length).toBeGreaterThan(0);
    expect.soft(res.tests.every((t) => VERDICTS.includes(t.verdict))).toBe(true);
    // Each big answer is one test's error, named as the limit it hit.
    const cut = res.tests.filter((t) => t.verdict === 'error' && /answer over 16 MB: not read further/.test(t.reason ?? ''));
    expect.soft(cut.length, res.tests.filter((t) => t.verdict === 'error').map((t) => `${t.id}: ${t.reason}`).join('\n')).toBe(HUGE_ANSWERS + 1);
    expect.soft(run.code, run.stderr).toBe(1);
    if (memory) expect.soft(peak, 'the command\'s peak resident memory').toBeLessThan(600 * 1024 * 1024);
  });

  test('an administrator\'s token without the scope api is refused in one line, exit 2', async () => {
    const s = await server();
    const root = [...s.store.users.values()].find((u) => u.username === 'root')!;
    const readOnly = s.store.createToken(root.id, 'read-only', ['read_api'], null).token;
    const run = await cli(['--area', 'members'], { CONFORMANCE_TARGET_URL: s.url, CONFORMANCE_ADMIN_TOKEN: readOnly });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('conformance: the run could not be made: the admin token lacks the scope api (it has read_api); the suite creates and deletes users, groups and projects, which needs api\n');
    expect(run.stdout).toBe('');
  });
});
