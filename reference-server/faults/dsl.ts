// Small builders for faults: which requests a fault touches (by route id), and what it does to them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { matches, type When } from '../http/route-ids.js';
import type { Fault, FaultContext } from './types.js';

// Routes are selected by their declarations (http/route-ids.ts): a route renamed or removed is a type error here.
export { matches, type When } from '../http/route-ids.js';

function parse(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

type Json = Record<string, unknown>;

/** Rewrites the JSON answer (object or array) of matching requests; undefined keeps it. */
export function mapBody(when: When, fn: (body: Json & Json[], ctx: FaultContext, request: FastifyRequest, reply: FastifyReply) => unknown): Pick<Fault, 'onSend'> {
  return {
    onSend(request, reply, payload, ctx) {
      if (!matches(request, when) || reply.statusCode >= 300) return payload;
      const body = parse(payload);
      if (body === undefined || body === null || typeof body !== 'object') return payload;
      const next = fn(body as Json & Json[], ctx, request, reply);
      return next === undefined ? payload : JSON.stringify(next);
    },
  };
}

/** Rewrites every row of a JSON array answer. */
export function mapRows(when: When, fn: (row: Json, ctx: FaultContext) => Json): Pick<Fault, 'onSend'> {
  return mapBody(when, (body, ctx) => (Array.isArray(body) ? body.map((row) => fn(row, ctx)) : undefined));
}

/** Answers with another status (and body) where the route answered `from`. */
export function status(when: When, from: number, to: number, body?: unknown): Pick<Fault, 'onSend'> {
  return {
    onSend(request, reply, payload) {
      if (!matches(request, when) || reply.statusCode !== from) return payload;
      reply.code(to);
      if (body === undefined) return payload;
      reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(body);
    },
  };
}

/** The route never sees these parameters (query or body). */
export function dropParams(when: When, ...names: string[]): Pick<Fault, 'preHandler'> {
  return {
    preHandler(request) {
      if (!matches(request, when)) return;
      for (const bag of [request.query, request.body]) {
        if (bag && typeof bag === 'object') for (const name of names) delete (bag as Json)[name];
      }
    },
  };
}

/** Changes the merged parameters (query and body) before the route reads them. */
export function changeParams(when: When, fn: (params: Json, request: FastifyRequest, ctx: FaultContext) => void): Pick<Fault, 'preHandler'> {
  return {
    preHandler(request, ctx) {
      if (!matches(request, when)) return;
      if (request.body === undefined || request.body === null || typeof request.body !== 'object') request.body = {};
      fn(request.body as Json, request, ctx);
    },
  };
}

/** Answers in place of the route, which never runs. */
export function answer(when: When, code: number, body?: unknown): Pick<Fault, 'onRequest'> {
  return {
    onRequest(request, reply) {
      if (!matches(request, when)) return false;
      void reply.code(code).send(body);
      return true;
    },
  };
}

/** Answers in place of the route where `when` matches and `applies` holds for the request. */
export function answerWhen(when: When, applies: (request: FastifyRequest, ctx: FaultContext) => boolean, code: number, body?: unknown): Pick<Fault, 'onRequest'> {
  return {
    onRequest(request, reply, ctx) {
      if (!matches(request, when) || !applies(request, ctx)) return false;
      void reply.code(code).send(body);
      return true;
    },
  };
}

export function dropHeaders(when: When, ...names: string[]): Pick<Fault, 'onSend'> {
  return {
    onSend(request, reply, payload) {
      if (matches(request, when)) for (const name of names) reply.removeHeader(name);
      return payload;
    },
  };
}
