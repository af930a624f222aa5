// Reading one resource back: the step that ends most tests of every area.
import { expectOk } from '../../runner/core/checks.js';
import type { Client } from '../../runner/core/client.js';

/** GETs `path`, insists on 200 with a body of the schema, and returns the body. */
export async function readOk<T>(client: Client, path: string, schema: string): Promise<T> {
  const res = await client.get(path);
  expectOk(res, 200, schema);
  return res.body as T;
}
