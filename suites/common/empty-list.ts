// Emptying one list of a source so that a test of the same file may count in it again
// (World.reusable): the invitations of a group or project, the mirrors of a project.
import type { Client } from '../harness/core/client.js';

/**
 * Deletes every item of the list at `listPath` (as the administrator; gone already: 404) and reads
 * the list back empty. True when it is; false when it held more than `atMost` items (a new source
 * costs less) or a step answered otherwise.
 */
export async function emptyList<T>(admin: Client, listPath: string, itemPath: (item: T) => string, atMost: number): Promise<boolean> {
  const items = async () => {
    const res = await admin.get(listPath, { query: { per_page: 100 } });
    return res.status === 200 && Array.isArray(res.body) ? (res.body as T[]) : undefined;
  };
  const before = await items();
  if (before === undefined || before.length > atMost) return false;
  const answers = await Promise.all(before.map((item) => admin.delete(itemPath(item))));
  return answers.every((res) => [200, 204, 404].includes(res.status)) && (await items())?.length === 0;
}
