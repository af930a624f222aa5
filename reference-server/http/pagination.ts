// GitLab's offset pagination (lib/api/helpers/pagination.rb; lib/gitlab/pagination/offset_pagination.rb; config/initializers/kaminari_config.rb): page/per_page with default 20, max 100 (clamped),
// per_page=0 refused, X-* headers, and a Link header built from the request URL.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Params } from './params.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** Above this many rows GitLab skips counting: no X-Total, X-Total-Pages nor rel="last". */
export const MAX_COUNT = 10_000;

export function readPage(params: Params): { page: number; perPage: number } {
  const page = params.integer('page') ?? 1;
  const perPage = params.integer('per_page', { exceptValues: [0] }) ?? DEFAULT_PER_PAGE;
  return { page: Math.max(page, 1), perPage: Math.min(Math.max(perPage, 1), MAX_PER_PAGE) };
}

export function paginate<T>(request: FastifyRequest, reply: FastifyReply, items: readonly T[], params: Params): T[] {
  const { page, perPage } = readPage(params);
  params.done();
  const total = items.length;
  const counted = total <= MAX_COUNT;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const hasNext = page * perPage < total;
  const hasPrev = page > 1;

  reply.header('X-Per-Page', String(perPage));
  reply.header('X-Page', String(page));
  reply.header('X-Next-Page', hasNext ? String(page + 1) : '');
  reply.header('X-Prev-Page', hasPrev ? String(page - 1) : '');
  if (counted) {
    reply.header('X-Total', String(total));
    reply.header('X-Total-Pages', String(totalPages));
  }
  const link = (rel: string, target: number) => `<${pageUrl(request, target, perPage)}>; rel="${rel}"`;
  const links = [];
  if (hasPrev) links.push(link('prev', page - 1));
  if (hasNext) links.push(link('next', page + 1));
  links.push(link('first', 1));
  if (counted) links.push(link('last', totalPages));
  reply.header('Link', links.join(', '));
  return slice;
}

export function pageUrl(request: FastifyRequest, page: number, perPage: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('page', String(page));
  url.searchParams.set('per_page', String(perPage));
  return url.toString();
}
