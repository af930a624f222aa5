// The suite's HTTP client against a plain node:http server: what goes on the wire (token, JSON, form
// and raw bodies, headers), a target URL with a path, redirects, and the errors a run reports.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client, DEFAULT_MAX_ANSWER_BYTES } from './client.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
/** Endless answers whose connection the client closed. */
let closedEarly = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (req.url!.includes('/hang')) return;
      if (req.url!.includes('/named')) {
        // Header values as bytes (a latin1 string is written one byte a character): UTF-8, and one byte that is not.
        res.writeHead(200, { 'x-gitlab-file-name': Buffer.from('日本 😀.txt').toString('latin1'), 'x-other': 'caf\xe9' }).end();
        return;
      }
      if (req.url!.includes('/exact')) return void res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(1024 * 1024, 'a'));
      // A body that grows without end, fast or by a trickle: the client must stop reading it.
      if (req.url!.includes('/endless') || req.url!.includes('/trickle')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(req.url!.includes('/trickle') ? 1 : 64 * 1024, 'a');
        const push = () => {
          if (res.destroyed) return void (closedEarly += 1);
          res.write(chunk, () => setTimeout(push, req.url!.includes('/trickle') ? 20 : 0));
        };
        return push();
      }
      if (req.url!.includes('/moved')) {
        res.writeHead(302, { location: '/gitlab/api/v4/landed' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-total': '1' }).end(JSON.stringify({ ok: true, path: req.url }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gitlab`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const last = () => seen[seen.length - 1];

describe('the HTTP client', () => {
  test('sends the token, a JSON body, and reads the answer: status, lower-case headers, parsed JSON and its bytes', async () => {
    const client = new Client(base, 'glpat-client-spec-token', 'owner', { timeoutMs: 5000, maxBytes: DEFAULT_MAX_ANSWER_BYTES });
    const answer = await client.post('/projects/1/members', { body: { user_id: 7, access_level: 30 }, query: { a: 'x y' } });
    expect(last()).toMatchObject({ method: 'POST', url: '/gitlab/api/v4/projects/1/members?a=x+y', body: '{"user_id":7,"access_level":30}' });
    expect(last().headers).toMatchObject({ 'private-token': 'glpat-client-spec-token', 'content-type': 'application/json', 'content-length': '31' });
    expect(answer).toMatchObject({ status: 200, method: 'POST', url: '/api/v4/projects/1/members?a=x+y', sentAs: 'json', headers: { 'x-total': '1' }, body: { ok: true } });
    expect(answer.bytes.toString()).toBe(JSON.stringify({ ok: true, path: last().url }));
  });

  test('a header of UTF-8 bytes (a file name, as GitLab sends it) reads as its text; other bytes as they came', async () => {
    const answer = await new Client(base, undefined, 'anonymous', { timeoutMs: 5000, maxBytes: DEFAULT_MAX_ANSWER_BYTES }).get('/named');
    expect(answer.headers).toMatchObject({ 'x-gitlab-file-name': '日本 😀.txt', 'x-other': 'caf\xe9' });
  });

  test('form fields percent-encoded, a raw JSON text as it is, a bodiless request under a declared content type', async () => {
    const anonymous = new Client(base, undefined, 'anonymous', { timeoutMs: 5000, maxBytes: DEFAULT_MAX_ANSWER_BYTES });
    await anonymous.put('/x', { body: { 'user_ids[]': '1', note: 'a b&c', skip: undefined }, form: true });
    expect(last()).toMatchObject({ body: 'user_ids%5B%5D=1&note=a%20b%26c', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(last().headers['private-token']).toBeUndefined();
    await anonymous.post('/x', { rawJson: '{"broken":' });
    expect(last()).toMatchObject({ body: '{"broken":', headers: { 'content-type': 'application/json' } });
    await anonymous.delete('/x', { headers: { 'Content-Type': 'application/json' } });
    expect(last()).toMatchObject({ method: 'DELETE', body: '', headers: { 'content-type': 'application/json' } });
  });

  test('a redirect is the answer, not followed: tests check the 301 itself', async () => {
    const answer = await new Client(base, 'glpat-client-spec-token', 'owner', { timeoutMs: 5000, maxBytes: DEFAULT_MAX_ANSWER_BYTES }).get('/moved');
    expect(answer).toMatchObject({ status: 302, headers: { location: '/gitlab/api/v4/landed' } });
    expect(last().url).toBe('/gitlab/api/v4/moved');
  });

  test('no answer in time, or no server, is a harness error naming the request and the actor', async () => {
    await expect(new Client(base, undefined, 'anonymous', { timeoutMs: 200, maxBytes: DEFAULT_MAX_ANSWER_BYTES }).get('/hang')).rejects.toThrow(/GET \/api\/v4\/hang as anonymous could not be completed: no answer within 200 ms/);
    await expect(new Client('http://127.0.0.1:1', undefined, 'anonymous', { timeoutMs: 500, maxBytes: DEFAULT_MAX_ANSWER_BYTES }).get('/x')).rejects.toThrow(/connection refused/);
  });

  test('an answer over the byte limit, or whose body is not complete in twice the timeout, is an error naming the limit hit; reading stops there', async () => {
    const small = new Client(base, undefined, 'anonymous', { timeoutMs: 5000, maxBytes: 1024 * 1024 });
    await expect(small.get('/endless')).rejects.toThrow(/GET \/api\/v4\/endless as anonymous could not be completed: answer over 1 MB: not read further$/);
    const slow = new Client(base, undefined, 'anonymous', { timeoutMs: 300, maxBytes: 1024 * 1024 });
    await expect(slow.get('/trickle')).rejects.toThrow(/could not be completed: the answer's body was not complete within 600 ms \(twice the request timeout\): not read further$/);
    // The server sees both connections closed: nothing goes on reading them.
    await expect.poll(() => closedEarly).toBe(2);
    // An answer of the limit's size is read whole.
    expect((await small.get('/exact')).bytes.length).toBe(1024 * 1024);
  });
});
