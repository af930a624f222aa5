// The vary mode of the reference server (`vary: SEED`, `--vary SEED`): a server that takes every
// freedom GitLab leaves a compatible implementation, so that a suite which passes against it does
// not rest on choices GitLab never promised. It is one layer around the unchanged routes:
// - ids (ids.ts, the store's id source): groups and projects from two sequences that start together
//   and so collide, every other sequence from a seed-chosen start with seed-chosen gaps;
// - answers (body.ts, one onSend hook after every other): lists in another order where GitLab's code
//   leaves it open (lists.ts cites, list by list, what settles each order), unknown fields on every
//   object, timestamps at another precision, object keys in another order, strings escaped otherwise;
// - HTTP (below): headers in another order, extra headers, the links of a Link header in another order.
// Every choice comes from the seed (random.ts): the same seed gives the same answers, another seed
// other ones. Without the option nothing of this is installed, and the server answers as before.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JSON_CONTENT_TYPE } from '../http/gitlab-http.js';
import { varyJson } from './body.js';
import { hash } from './random.js';

export { variedIds } from './ids.js';

export interface VaryOptions {
  /** Take GitLab's freedoms (ids, list order, extra fields, timestamp precision, …) as this seed chooses. */
  vary?: number;
}

/**
 * Headers a GitLab answer may carry besides the API's own, from the Rack stack and the proxies in
 * front of it (a request id, the runtime, caching defaults); RFC 9110 §5.1: recipients "SHOULD
 * ignore unrecognized header and trailer fields". Set only where the route set none of the name.
 */
const EXTRA_HEADERS: [string, (draw: number) => string][] = [
  ['X-Request-Id', (draw) => `01VARY${draw.toString(36).toUpperCase().padStart(8, '0')}`],
  ['X-Runtime', (draw) => ((draw % 100_000) / 1_000_000).toFixed(6)],
  ['Cache-Control', () => 'max-age=0, private, must-revalidate'],
  ['Vary', () => 'Origin'],
  ['X-Vary-Extra', (draw) => `vary-${draw.toString(16)}`],
];

/**
 * RFC 8288 §3: a Link header is a list of links, each known by its `rel`; GitLab writes them as
 * prev, next, first, last (lib/gitlab/pagination/offset_header_builder.rb), another order says the same.
 */
function reorderLinks(link: string, seed: number): string {
  const links = link.split(/,\s*(?=<)/);
  return links.sort((a, b) => hash(seed, 'link', a.replace(/^<[^>]*>/, '')) - hash(seed, 'link', b.replace(/^<[^>]*>/, ''))).join(', ');
}

/** RFC 9110 §5.3: "The order in which field lines with differing field names are received in a section is not significant." */
function varyHeaders(request: FastifyRequest, reply: FastifyReply, seed: number, route: string): void {
  for (const [name, value] of EXTRA_HEADERS) {
    if (hash(seed, 'header', name) % 3 !== 0 && !reply.hasHeader(name)) reply.header(name, value(hash(seed, 'header value', name, request.method, request.url)));
  }
  const link = reply.getHeader('link');
  if (typeof link === 'string') reply.header('link', reorderLinks(link, seed));
  const headers = Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined);
  for (const [name] of headers) reply.removeHeader(name);
  headers.sort(([a], [b]) => hash(seed, 'header order', route, a) - hash(seed, 'header order', route, b));
  for (const [name, value] of headers) reply.header(name, value);
}

export function installVary(app: FastifyInstance, seed: number): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const route = (request.routeOptions.url ?? '(unknown route)').replace(/^\/api\/v4/, '');
    varyHeaders(request, reply, seed, route);
    const json = reply.getHeader('content-type') === JSON_CONTENT_TYPE;
    return json && typeof payload === 'string' && payload !== '' ? varyJson(request, reply, payload, seed, route) : payload;
  });
}

/** A seed as the command line and the option take it: a whole number from 0 to 2^32 - 1. */
export function validSeed(seed: unknown): seed is number {
  return typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32;
}
