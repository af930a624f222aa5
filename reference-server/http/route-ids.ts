// Routes by id. Every route the server registers under /api/v4 is declared once, in its resource's or
// area's table (`routeTable`: an id, a method and a path), and registered from it with `on`, which
// hangs the declaration on the route. Faults and spec-only variations select routes by those ids
// (`When`, `matches`): a route renamed in its table moves them along, and one removed is a type error.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteGenericInterface, RouteHandlerMethod, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression } from 'fastify';

/** A route as its table declares it. `/:kind/` stands for both `/groups/` and `/projects/`: `on` registers one kind at a time. */
export interface RouteDecl {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
}

export type SourceKind = 'group' | 'project';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The declaration the route was registered from (`on`). */
    route?: RouteDecl;
    /** The source kind a `/:kind/` route was registered for. */
    kind?: SourceKind;
  }
}

/** A table of routes: ids to declarations, kept as written so that an id is a type. */
export const routeTable = <const T extends Record<string, RouteDecl>>(table: T): T => table;

type Handler<T extends RouteGenericInterface> = RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, T>;
type OnSend = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => void;

export interface OnOptions {
  /** The source kind, for a `/:kind/` route. */
  kind?: SourceKind;
  onSend?: OnSend;
  /** false: a GET without the HEAD Fastify adds (the route's HEAD is its own). */
  exposeHeadRoute?: boolean;
}

/** Registers a declared route: its method, its path (with the kind in place of `/:kind/`) and its declaration. */
export function on<T extends RouteGenericInterface = RouteGenericInterface>(app: FastifyInstance, route: RouteDecl, handler: Handler<T>): void;
export function on<T extends RouteGenericInterface = RouteGenericInterface>(app: FastifyInstance, route: RouteDecl, options: OnOptions, handler: Handler<T>): void;
export function on<T extends RouteGenericInterface>(app: FastifyInstance, route: RouteDecl, ...rest: [Handler<T>] | [OnOptions, Handler<T>]): void {
  const [options, handler] = rest.length === 1 ? [{} as OnOptions, rest[0]] : rest;
  const { kind, ...fastifyOptions } = options;
  const url = pathOf(route, kind);
  app.route<T>({ method: route.method, url, handler, config: { route, ...(kind ? { kind } : {}) }, ...fastifyOptions });
}

/** The path a route is registered at. */
export function pathOf(route: RouteDecl, kind?: SourceKind): string {
  if (!route.path.startsWith('/:kind/')) return route.path;
  if (!kind) throw new Error(`${route.method} ${route.path}: a route of both source kinds is registered one kind at a time`);
  return route.path.replace('/:kind/', `/${kind}s/`);
}

/** The requests a fault or a variation touches. */
export interface When {
  /** The routes, by their declarations. */
  route: RouteDecl | readonly RouteDecl[];
  /** Only this source kind of a `/:kind/` route. */
  kind?: SourceKind;
  /** The request methods: the route's own unless given (a GET route's HEAD is its HEAD request). */
  method?: string | readonly string[];
}

const list = <T>(x: T | readonly T[]): readonly T[] => (Array.isArray(x) ? x : [x as T]);

/** Whether a request reached one of the routes, with one of the methods, of the kind asked for. */
export function matches(request: FastifyRequest, when: When): boolean {
  const { route, kind } = request.routeOptions.config ?? {};
  if (!route || !list(when.route).includes(route)) return false;
  if (when.kind !== undefined && kind !== when.kind) return false;
  return list(when.method ?? route.method).includes(request.method);
}

/** The source kind of the route a request reached, if it is a `/:kind/` route. */
export const kindOf = (request: FastifyRequest): SourceKind | undefined => request.routeOptions.config?.kind;
