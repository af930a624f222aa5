// The HTTP client of the suite, on node:http: a request, its bytes back, nothing in between (no
// decompression, no parsing beyond JSON; supertest cost a fifth of a worker's CPU in a full run's profile).
// A client is bound to a target, an actor (a token or none) and, for a test's clients, that test's log:
// every exchange it makes lands there as the test's evidence, and carries the log along so that checks
// can record GitLab-parity notes on it.
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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

// One pool of kept-alive connections per process: without it every request would open a connection of
// its own, which costs a TCP (and on a real GitLab a TLS) handshake each time.
const AGENTS = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

const RETRYABLE = new Set([429, 502, 503]);
const IDEMPOTENT = new Set(['GET', 'HEAD']);
const MAX_RETRIES = 2;

/** What one answer may cost: the time to its headers (the whole body gets twice that), and the bytes read of it. */
export interface AnswerLimits {
  timeoutMs: number;
  maxBytes: number;
}

/** Bytes read of one answer by default: far more than a GitLab sends on the endpoints the suite calls (its files are a few KB). */
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** A size as the limit's messages give it: whole MB (MiB), else bytes. */
export function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}

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
    private readonly limits: AnswerLimits,
    /** Where this client's exchanges are recorded: the log of the test it belongs to, if any. */
    private readonly log?: TestLog,
    /** Where they are recorded besides, and why they are sent. */
    private readonly recorder?: { to: Recorder; purpose: Purpose },
  ) {}

  /** The same target, log and recorder with another token. */
  withToken(token: string | undefined, actor: string): Client {
    return new Client(this.baseUrl, token, actor, this.limits, this.log, this.recorder);
  }

  /** The same client, its exchanges recorded to `to` for `purpose` (and no longer in a test's evidence). */
  recordingTo(to: Recorder, purpose: Purpose): Client {
    return new Client(this.baseUrl, this.token, this.actor, this.limits, purpose === 'checked' ? this.log : undefined, { to, purpose });
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
        // An answer cut at a limit came all the same: the target is there.
        if ((error as { answered?: boolean }).answered !== true) noteUnanswered();
        throw new HarnessError(`${method} ${redact(url)} as ${this.actor} could not be completed: ${describeNetworkError(error)}`);
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
    const headers: OutgoingHttpHeaders = {};
    if (this.token !== undefined) headers['private-token'] = this.token;
    let payload: Buffer | undefined;
    if (options.body !== undefined) {
      payload = Buffer.from(options.form ? formEncoded(options.body) : JSON.stringify(options.body));
      headers['content-type'] = options.form ? 'application/x-www-form-urlencoded' : 'application/json';
    } else if (options.rawJson !== undefined) {
      payload = Buffer.from(options.rawJson);
      headers['content-type'] = 'application/json';
    }
    const marks = this.recorder?.to.headersFor?.(method, url, this.recorder.purpose);
    for (const [name, value] of Object.entries({ ...options.headers, ...marks })) headers[name.toLowerCase()] = value;
    // The target URL may carry a path (GitLab under a relative URL root): the API path goes after it.
    const res = await requestOnce(new URL(this.baseUrl + url), method, payload === undefined ? headers : { ...headers, 'content-length': payload.length }, payload, this.limits);
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = headerText(Array.isArray(value) ? value.join(', ') : String(value));
    return {
      actor: this.actor,
      method,
      url,
      requestBody: options.body ?? options.rawJson,
      sentAs: options.body !== undefined ? (options.form ? 'form' : 'json') : options.rawJson !== undefined ? 'json' : undefined,
      status: res.status,
      headers: flat,
      body: decodeBody(res.bytes, flat['content-type']),
      bytes: res.bytes,
      durationMs: 0,
      retries: 0,
    };
  }
}

/**
 * One request and its whole answer, a redirect included (a 301 is what some tests check, as supertest
 * gave it). Each limit hit is an error (code ECONNABORTED) that names it: no headers within
 * `timeoutMs`, the whole body not within twice that, or more than `maxBytes` of body; reading stops
 * there (the socket is destroyed), so a target's answer costs the run no more than the limit.
 */
function requestOnce(url: URL, method: string, headers: OutgoingHttpHeaders, payload: Buffer | undefined, limits: AnswerLimits): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const https = url.protocol === 'https:';
    const firstByte = setTimeout(() => stop(`no answer within ${limits.timeoutMs} ms (no headers came)`, false), limits.timeoutMs);
    const deadline = setTimeout(() => stop(`the answer's body was not complete within ${limits.timeoutMs * 2} ms (twice the request timeout): not read further`, true), limits.timeoutMs * 2);
    const settle = () => {
      clearTimeout(firstByte);
      clearTimeout(deadline);
    };
    // Settled first: what the destroyed socket emits afterwards (a reset, an abort) changes nothing.
    const stop = (why: string, answered: boolean) => {
      settle();
      reject(Object.assign(new Error(why), { code: 'ECONNABORTED', limit: why, answered }));
      req.destroy();
    };
    const req = (https ? httpsRequest : httpRequest)(url, { method, headers, agent: https ? AGENTS.https : AGENTS.http }, (res) => {
      clearTimeout(firstByte);
      const chunks: Buffer[] = [];
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > limits.maxBytes) return stop(`answer over ${sizeText(limits.maxBytes)}: not read further`, true);
        chunks.push(chunk);
      });
      res.on('error', (error) => {
        settle();
        reject(error);
      });
      res.on('end', () => {
        settle();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) });
      });
    });
    req.on('error', (error) => {
      settle();
      reject(error);
    });
    req.end(payload);
  });
}

/**
 * A header value as text. GitLab sends a file's name in X-Gitlab-File-Name as its UTF-8 bytes
 * (lib/api/helpers/headers_helpers.rb `set_http_headers`, written as they are by Puma), which Node
 * reads one character a byte: bytes that are UTF-8 are read as UTF-8, others left as they came.
 */
function headerText(value: string): string {
  if (/^[\x00-\x7f]*$/.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : value;
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** A form body: each field's text, percent-encoded as encodeURIComponent does (what superagent sent before). */
function formEncoded(body: Record<string, unknown>): string {
  return Object.entries(body)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
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

function describeNetworkError(error: unknown): string {
  const e = error as { code?: string; limit?: string; message?: string };
  if (e.limit !== undefined) return e.limit;
  if (e.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(e.message ?? '')) return 'connection refused (is the target running?)';
  if (e.code === 'ENOTFOUND' || /ENOTFOUND/.test(e.message ?? '')) return 'host not found';
  return redact(e.message ?? String(error));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
