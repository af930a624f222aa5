// Reading back: one resource (the step that ends most tests of every area), or every page of a list.
import { expectOk, fail } from '../../runner/core/checks.js';
import type { Client, Query } from '../../runner/core/client.js';

/** GETs `path`, insists on 200 with a body of the schema, and returns the body. */
export async function readOk<T>(client: Client, path: string, schema: string): Promise<T> {
  const res = await client.get(path);
  expectOk(res, 200, schema);
  return res.body as T;
}

/**
 * Every item of a paginated list, page by page (100 a page), each page a 200 of `schema`: it ends
 * at an empty page, at the page whose X-Next-Page is empty, or (without the header) at a short page.
 */
export async function listAll<T>(client: Client, path: string, schema: string, query: Query = {}): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await client.get(path, { query: { ...query, per_page: 100, page } });
    expectOk(res, 200, schema, { list: true });
    const body = res.body as T[];
    items.push(...body);
    const next = res.headers['x-next-page'];
    if (body.length === 0 || (next === undefined ? body.length < 100 : next === '')) return items;
  }
  return fail(`expected the list ${path} to end`, 'it went on past 50 pages of 100');
}
