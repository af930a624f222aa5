// The HTTP client of the suite, built on supertest. A client is bound to a target, an actor (a token
// or none) and, for a test's clients, that test's log: every exchange it makes lands there as the
// test's evidence, and carries the log along so that checks can record GitLab-parity notes on it.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import request from 'supertest';
import { redact, registerSecretsIn } from './redact.js';
import { HarnessError } from './errors.js';
import type { Exchange, Purpose, Recorder, TestLog } from './exchange.js';
import { giveSlot, noteUnanswered, takeSlot } from './in-flight.js';

export type { Exchange } from './exchange.js';


export type Query = Record<string, string | number | boolean | undefined>;

export interface SendOptions {
  query?: Query;
  /** Sent as JSON (default) or as form fields. */
  body?: Record<string, unknown>;
  form?: boolean;
  /** A body sent as it is, as JSON (Content-Type application/json): for bodies that do not parse. */
  rawJson?: string;
  headers?: Record<string, string>;
}

// One pool of kept-alive connections per process: superagent opens a new connection for every
// request unless given an agent, which costs a TCP (and on a real GitLab a TLS) handshake each time.
const AGENTS = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

const RETRYABLE = new Set([429, 502, 503]);
const IDEMPOTENT = new Set(['GET', 'HEAD']);
const MAX_RETRIES = 2;

/** Encodes one path segment the way the spec asks (`/` and `.` encoded). */
export function segment(value: string | number): string {
  return encodeURIComponent(String(value)).replace(/\./g, '%2E');
}

/** Builds an API path from a template, encoding every interpolated value as one segment. */
export function apiPath(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce((out, part, i) => out + part + (i < values.length ? segment(values[i]) : ''), '');
}

export class Client {
  constructor(
    readonly baseUrl: string,
    readonly token: string | undefined,
    /** Who is calling, for failure messages: "developer", "anonymous", "reporter (read_api)". */
    readonly actor: string,
    private readonly timeoutMs: number,
    /** Where this client's exchanges are recorded: the log of the test it belongs to, if any. */
    private readonly log?: TestLog,
    /** Where they are recorded besides, and why they are sent. */
    private readonly recorder?: { to: Recorder; purpose: Purpose },
  ) {}

  /** The same target, log and recorder with another token. */
  withToken(token: string | undefined, actor: string): Client {
    return new Client(this.baseUrl, token, actor, this.timeoutMs, this.log, this.recorder);
  }

  /** The same client, its exchanges recorded to `to` for `purpose` (and no longer in a test's evidence). */
  recordingTo(to: Recorder, purpose: Purpose): Client {
    return new Client(this.baseUrl, this.token, this.actor, this.timeoutMs, purpose === 'checked' ? this.log : undefined, { to, purpose });
  }

  get(path: string, options: SendOptions = {}) {
    return this.send('GET', path, options);
  }
  head(path: string, options: SendOptions = {}) {
    return this.send('HEAD', path, options);
  }
  post(path: string, options: SendOptions = {}) {
    return this.send('POST', path, options);
  }
  put(path: string, options: SendOptions = {}) {
    return this.send('PUT', path, options);
  }
  delete(path: string, options: SendOptions = {}) {
    return this.send('DELETE', path, options);
  }

  async send(method: string, path: string, options: SendOptions = {}): Promise<Exchange> {
    const url = `/api/v4${path}${queryString(options.query)}`;
    const index = this.log ? this.log.sent++ : undefined;
    // What it sends (a mirror URL's password) and what comes back (an invite_token) is masked in every report.
    registerSecretsIn(options.body);
    registerSecretsIn(options.query);
    let retries = 0;
    for (;;) {
      const started = performance.now();
      let exchange: Exchange;
      await takeSlot();
      try {
        exchange = await this.once(method, url, options);
      } catch (error) {
        giveSlot();
        // A kept-alive connection the target closed just as it was reused: the request never reached
        // it, and a read is safe to send again on a new connection.
        if ((error as { code?: string }).code === 'ECONNRESET' && IDEMPOTENT.has(method) && retries < MAX_RETRIES) {
          retries++;
          continue;
        }
        noteUnanswered();
        throw new HarnessError(`${method} ${redact(url)} as ${this.actor} could not be completed: ${describeNetworkError(error, this.timeoutMs)}`);
      }
      giveSlot();
      registerSecretsIn(exchange.body);
      exchange.durationMs = Math.round(performance.now() - started);
      exchange.retries = retries;
      exchange.index = index;
      Object.defineProperty(exchange, 'token', { value: this.token, enumerable: false });
      this.recorder?.to.record(exchange, this.recorder.purpose);
      if (RETRYABLE.has(exchange.status) && IDEMPOTENT.has(method) && retries < MAX_RETRIES) {
        retries++;
        await sleep(retryDelayMs(exchange.headers['retry-after'], retries));
        continue;
      }
      if (this.log) {
        Object.defineProperty(exchange, 'log', { value: this.log, enumerable: false });
        this.log.exchanges.push(exchange);
      }
      return exchange;
    }
  }

  private async once(method: string, url: string, options: SendOptions): Promise<Exchange> {
    let req = request(this.baseUrl)[method.toLowerCase() as 'get'](url)
      .agent(this.baseUrl.startsWith('https:') ? AGENTS.https : AGENTS.http)
      .timeout({ response: this.timeoutMs, deadline: this.timeoutMs * 2 })
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .ok(() => true);
    if (this.token !== undefined) req = req.set('PRIVATE-TOKEN', this.token);
    for (const [name, value] of Object.entries(options.headers ?? {})) req = req.set(name, value);
    if (options.body !== undefined) {
      req = options.form ? req.type('form').send(formFields(options.body)) : req.type('json').send(options.body);
    } else if (options.rawJson !== undefined) {
      req = req.type('json').send(options.rawJson);
    }
    const res = await req;
    const bytes = Buffer.isBuffer(res.body) ? res.body : Buffer.alloc(0);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers as Record<string, string | string[]>)) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    return {
      actor: this.actor,
      method,
      url,
      requestBody: options.body ?? options.rawJson,
      sentAs: options.body !== undefined ? (options.form ? 'form' : 'json') : options.rawJson !== undefined ? 'json' : undefined,
      status: res.status,
      headers,
      body: decodeBody(bytes, headers['content-type']),
      bytes,
      durationMs: 0,
      retries: 0,
    };
  }
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function formFields(body: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (value !== undefined) out[key] = String(value);
  return out;
}

function decodeBody(bytes: Buffer, contentType: string | undefined): unknown {
  if (bytes.length === 0) return undefined;
  const text = bytes.toString('utf8');
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** How long to wait before retrying: Retry-After in seconds when given, else the attempt number; at most 5 s. */
export function retryDelayMs(retryAfter: string | undefined, attempt: number): number {
  const seconds = retryAfter !== undefined && /^\d+$/.test(retryAfter) ? Number(retryAfter) : attempt;
  return Math.min(seconds, 5) * 1000;
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  const e = error as { code?: string; timeout?: number; message?: string };
  if (e.timeout !== undefined || e.code === 'ECONNABORTED') return `no answer within ${timeoutMs} ms`;
  if (e.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(e.message ?? '')) return 'connection refused (is the target running?)';
  if (e.code === 'ENOTFOUND' || /ENOTFOUND/.test(e.message ?? '')) return 'host not found';
  return redact(e.message ?? String(error));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
