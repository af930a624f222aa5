// emptyList, the reset of a kept source's list: what it deletes, and when it gives the source up.
import { describe, expect, test } from 'vitest';
import type { Client } from '../../runner/core/client.js';
import { emptyList } from './empty-list.js';

/** An administrator's client over a list of ids: GET answers one page of it (with the next page's number, as GitLab), DELETE takes an id out. */
function listOf(ids: number[], options: { perPage?: number; failDelete?: number } = {}) {
  const perPage = options.perPage ?? 100;
  const deleted: number[] = [];
  const client = {
    get: async () => ({ status: 200, body: ids.slice(0, perPage).map((id) => ({ id })), headers: { 'x-next-page': ids.length > perPage ? '2' : '' } }),
    delete: async (path: string) => {
      const id = Number(path.split('/').pop());
      deleted.push(id);
      if (id === options.failDelete) return { status: 500, headers: {} };
      ids.splice(ids.indexOf(id), 1);
      return { status: 204, headers: {} };
    },
  };
  return { admin: client as unknown as Client, deleted, ids };
}

const empty = (admin: Client, atMost = 100) => emptyList<{ id: number }>(admin, '/groups/1/invitations', (item) => `/groups/1/invitations/${item.id}`, atMost);

describe('emptyList', () => {
  test('deletes every item of a list of one page and reads it back empty', async () => {
    const list = listOf([1, 2, 3]);
    expect(await empty(list.admin)).toBe(true);
    expect(list.deleted.sort()).toEqual([1, 2, 3]);
    expect(list.ids).toEqual([]);
  });

  test('gives a list of more than one page up at once, deleting nothing (a new source costs less)', async () => {
    const list = listOf(Array.from({ length: 101 }, (_, i) => i + 1));
    expect(await empty(list.admin)).toBe(false);
    expect(list.deleted).toEqual([]);
  });

  test('gives up a list of more than `atMost` items, and one whose delete fails', async () => {
    const many = listOf([1, 2, 3]);
    expect(await empty(many.admin, 2)).toBe(false);
    expect(many.deleted).toEqual([]);
    const failing = listOf([1, 2, 3], { failDelete: 2 });
    expect(await empty(failing.admin)).toBe(false);
  });
});
