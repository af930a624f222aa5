// Emptying one list of a source so that a test of the same file may count in it again (a fixture's
// reset): the invitations of a group or project, the mirrors of a project.
import type { Client } from '../../runner/core/client.js';

/**
 * Deletes every item of the list at `listPath` (as the administrator; gone already: 404) and reads
 * the list back empty. True when it is; false when it held more than `atMost` items or more than one
 * page (a new source costs less), or a step answered otherwise.
 */
export async function emptyList<T>(admin: Client, listPath: string, itemPath: (item: T) => string, atMost: number): Promise<boolean> {
  const page = async () => {
    const res = await admin.get(listPath, { query: { per_page: 100 } });
    const items = res.status === 200 && Array.isArray(res.body) ? (res.body as T[]) : undefined;
    // GitLab's pagination headers (lib/gitlab/pagination/offset_header_builder.rb): a next page means more than these.
    const more = (res.headers['x-next-page'] ?? '') !== '' || /rel="next"/.test(res.headers.link ?? '');
    return { items, more };
  };
  const before = await page();
  if (before.items === undefined || before.more || before.items.length > atMost) return false;
  const answers = await Promise.all(before.items.map((item) => admin.delete(itemPath(item))));
  return answers.every((res) => [200, 204, 404].includes(res.status)) && (await page()).items?.length === 0;
}
