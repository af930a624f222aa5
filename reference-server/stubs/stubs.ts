// Stubs: answers an integrator gives for routes the server does not model (pipelines, issues, a
// webhook list), beside its own, as WireMock's stub mappings: a method, a path pattern with :params,
// a status, headers and a body whose strings may read {{params.name}}. The server's own routes win
// unless a stub says override: true. Stubs come from a file at the start (--stubs, JSON or YAML,
// checked against stubs.schema.json) and stay over resets; stubs added while it runs
// (server.stub(), POST /-/reference/stubs) go with the next reset. The latest added answers first.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseYaml } from 'yaml';
import { answeredBy } from '../http/journal.js';
import schema from './stubs.schema.json' with { type: 'json' };

export interface Stub {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'ANY';
  /** From the root (/api/v4/…): `:name` matches one segment, a last `*` the rest. */
  path: string;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  override?: boolean;
}

export class StubError extends Error {
  override name = 'StubError';
}

let validate: ReturnType<Ajv2020['compile']> | undefined;

/** Takes `{ stubs: [...] }`, an array of stubs or one stub; throws StubError naming the first bad one. */
export function checkStubs(value: unknown, origin = 'stubs'): Stub[] {
  const document = Array.isArray(value) ? { stubs: value } : value && typeof value === 'object' && !('stubs' in value) ? { stubs: [value] } : value;
  validate ??= new Ajv2020({ strict: true, strictRequired: false, allErrors: false, useDefaults: false }).compile(schema);
  if (!validate(document)) {
    const error = validate.errors![0];
    const detail = error.keyword === 'additionalProperties' ? `: "${String(error.params.additionalProperty)}"` : error.keyword === 'enum' ? ` (${(error.params.allowedValues as string[]).join(', ')})` : '';
    throw new StubError(`${origin}: ${error.instancePath.slice(1).replace(/\//g, '.') || 'the document'} ${error.message}${detail}`);
  }
  return (document as { stubs: Stub[] }).stubs;
}

export function loadStubsFile(path: string): Stub[] {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new StubError(`${path}: ${(error as Error).message}`);
  }
  return checkStubs(parsed ?? { stubs: [] }, path);
}

interface Compiled {
  stub: Stub;
  pattern: RegExp;
  names: string[];
  fromStart: boolean;
}

function compile(stub: Stub, fromStart: boolean): Compiled {
  const names: string[] = [];
  const source = stub.path
    .split('/')
    .map((segment, i, all) => {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        return '([^/]+)';
      }
      if (segment === '*' && i === all.length - 1) return '.*';
      return segment.replace(/[.+?^${}()|[\]\\*]/g, '\\$&');
    })
    .join('/');
  return { stub, pattern: new RegExp(`^${source}$`), names, fromStart };
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Replaces {{params.name}} in every string of `value`. */
function fill(value: unknown, params: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\{\{\s*params\.([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) => params[name] ?? whole);
  if (Array.isArray(value)) return value.map((item) => fill(item, params));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, params)]));
  return value;
}

export class StubRegistry {
  private stubs: Compiled[];

  constructor(atStart: Stub[] = []) {
    this.stubs = atStart.map((stub) => compile(stub, true));
  }

  add(stubs: Stub[]): void {
    this.stubs.push(...stubs.map((stub) => compile(stub, false)));
  }

  /** Drops the stubs added while running; those given at the start stay. */
  reset(): void {
    this.stubs = this.stubs.filter((s) => s.fromStart);
  }

  list(): (Stub & { added: 'at start' | 'while running' })[] {
    return this.stubs.map((s) => ({ ...s.stub, added: s.fromStart ? 'at start' : 'while running' }));
  }

  /** The latest stub for the request, among those that override the server's routes or those that do not. */
  match(method: string, path: string, override: boolean): { stub: Stub; params: Record<string, string> } | undefined {
    for (let i = this.stubs.length - 1; i >= 0; i--) {
      const { stub, pattern, names } = this.stubs[i];
      if ((stub.override ?? false) !== override || (stub.method !== 'ANY' && stub.method !== method)) continue;
      const found = pattern.exec(path);
      if (found) return { stub, params: Object.fromEntries(names.map((name, j) => [name, decoded(found[j + 1])])) };
    }
    return undefined;
  }
}

function answer(request: FastifyRequest, reply: FastifyReply, { stub, params }: { stub: Stub; params: Record<string, string> }): void {
  answeredBy.set(request, `stub ${stub.method} ${stub.path}`);
  reply.code(stub.status ?? 200);
  for (const [name, value] of Object.entries(stub.headers ?? {})) reply.header(name, fill(value, params) as string);
  const body = fill(stub.body, params);
  if (body === undefined) reply.send();
  else if (typeof body === 'string') reply.type(reply.getHeader('content-type')?.toString() ?? 'text/plain').send(body);
  else reply.type('application/json').send(JSON.stringify(body));
}

/**
 * Answers the overriding stubs before the server's routes; returns the not-found step: true when a
 * stub answered a route the server lacks.
 */
export function installStubs(app: FastifyInstance, registry: StubRegistry): (request: FastifyRequest, reply: FastifyReply) => boolean {
  const pathOf = (request: FastifyRequest) => request.url.split('?')[0];
  app.addHook('onRequest', (request, reply, done) => {
    const found = registry.match(request.method, pathOf(request), true);
    if (found) answer(request, reply, found);
    else done();
  });
  return (request, reply) => {
    const found = registry.match(request.method, pathOf(request), false);
    if (found) answer(request, reply, found);
    return found !== undefined;
  };
}
