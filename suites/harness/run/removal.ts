// Removing what a run made: one object at a time (GitLab 17/18's delayed deletion included), the
// whole of a ledger (instance settings the run changed put back too), or everything named with a
// run's prefix. The run's clean-up and the CLI's sweep use them.
import { apiPath, type Client, type Exchange } from '../core/client.js';
import { HarnessError } from '../core/errors.js';
import { Ledger, type LedgerKind, type ObjectEntry } from './ledger.js';

/** Projects first, then groups, then users: what a group or user still holds goes before it. */
export function kindOrder(kind: LedgerKind): number {
  return { project: 0, group: 1, user: 2 }[kind];
}

/**
 * Deletes one object; gone already (404) counts as removed. GitLab 17 and 18 keep a deleted group or
 * project "pending deletion" for days; a second DELETE with `permanently_remove` and its full path
 * removes it at once (lib/api/groups.rb, lib/api/projects.rb; as GitLab QA does). The full path is
 * read again after the first DELETE: GitLab compares it with the path as it is then (lib/api/groups.rb
 * `immediately_delete_subgroup_error`), and marking renames it to `…-deletion_scheduled-<id>`
 * (app/services/projects/mark_for_deletion_service.rb). A target
 * without delayed deletion has it gone already (404), or refuses the second call (400: not marked).
 * GitLab 18 takes `permanently_remove` for subgroups only: a top-level group stays pending deletion
 * until the instance's deletion delay has passed. An object marked already (a test deleted it once)
 * answers the first DELETE with 400 "Group has been already marked for deletion" (or "Project …":
 * app/services/groups/mark_for_deletion_service.rb, app/services/projects/mark_for_deletion_service.rb,
 * rendered with `render_api_error!(result[:message], 400)` by `delete_group` and `delete_project` of
 * lib/api/groups.rb and lib/api/projects.rb, in EE ee/lib/ee/api/groups.rb and ee/lib/ee/api/projects.rb):
 * it goes on to `permanently_remove` as if this call had marked it.
 */
export async function removeObject(admin: Client, item: Pick<ObjectEntry, 'kind' | 'id' | 'name'>): Promise<boolean> {
  const path =
    item.kind === 'user' ? apiPath`/users/${item.id}` : item.kind === 'group' ? apiPath`/groups/${item.id}` : apiPath`/projects/${item.id}`;
  try {
    if (item.kind === 'user') return [200, 202, 204, 404].includes((await admin.delete(path, { query: { hard_delete: true } })).status);
    const first = await admin.delete(path);
    if (first.status === 404) return true;
    if (![200, 202, 204].includes(first.status) && !markedAlready(first)) return false;
    const marked = await admin.get(path);
    if (marked.status === 404) return true;
    const body = (marked.body ?? {}) as { full_path?: unknown; path_with_namespace?: unknown };
    const fullPath = typeof body.full_path === 'string' ? body.full_path : typeof body.path_with_namespace === 'string' ? body.path_with_namespace : item.name;
    const second = await admin.delete(path, { query: { permanently_remove: true, full_path: fullPath } });
    return [200, 202, 204, 400, 404].includes(second.status);
  } catch {
    return false;
  }
}

function markedAlready(res: Exchange): boolean {
  const message = (res.body as { message?: unknown } | undefined)?.message;
  return res.status === 400 && typeof message === 'string' && /^(Group|Project) has been already marked for deletion$/.test(message);
}

/**
 * Undoes whatever a ledger still lists (after a crash, or at the end of every run): the instance
 * settings the run changed are put back first; a group goes with everything inside it (GitLab
 * removes a group's subgroups and projects with it), so only the outermost groups and projects are
 * deleted, at once; what was inside one that could not be deleted is tried one by one, deepest first;
 * users go last.
 */
export async function sweepLedger(admin: Client, ledgerPath: string): Promise<{ removed: number; restored: number; left: string[] }> {
  const outstanding = Ledger.outstanding(ledgerPath);
  if (outstanding.length === 0) return { removed: 0, restored: 0, left: [] };
  const writer = new Ledger(ledgerPath, outstanding[0].runId);
  const left: string[] = [];
  let restored = 0;
  for (const setting of outstanding.filter((i) => i.kind === 'setting')) {
    const res = await admin.put(setting.restore.path, { body: setting.restore.body }).catch(() => undefined);
    // Put back when the answer (the settings, as GitLab's PUT shows them) has the old values.
    const shown = (res?.body ?? {}) as Record<string, unknown>;
    if (res?.status === 200 && Object.entries(setting.restore.body).every(([key, value]) => shown[key] === value)) {
      writer.markRestored(setting.name, setting.restore);
      restored++;
    } else left.push(`setting ${setting.name} (PUT ${setting.restore.path}: ${res?.status ?? 'no answer'})`);
  }
  const items = outstanding.filter((i): i is ObjectEntry => i.kind !== 'setting');
  const groups = items.filter((i) => i.kind === 'group');
  const inside = (item: ObjectEntry, group: ObjectEntry) => item !== group && item.kind !== 'user' && item.name.startsWith(`${group.name}/`);
  const outermost = items.filter((i) => i.kind !== 'user' && !groups.some((g) => inside(i, g)));
  let removed = 0;
  const remove = async (item: ObjectEntry) => {
    const ok = await removeObject(admin, item);
    if (ok) {
      writer.markRemoved(item.kind, item.id, item.name);
      removed++;
    }
    return ok;
  };
  const failed = (await Promise.all(outermost.map(async (item) => ((await remove(item)) ? undefined : item)))).filter((i): i is ObjectEntry => i !== undefined);
  for (const item of items.filter((i) => i.kind !== 'user' && !outermost.includes(i))) {
    if (!failed.some((top) => inside(item, top))) writer.markRemoved(item.kind, item.id, item.name);
  }
  for (const top of failed) {
    const within = items.filter((i) => inside(i, top)).sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || b.name.split('/').length - a.name.split('/').length);
    for (const item of [...within, top]) if (!(await remove(item))) left.push(`${item.kind} ${item.name}`);
  }
  const users = await Promise.all(items.filter((i) => i.kind === 'user').map(async (u) => ((await remove(u)) ? undefined : `user ${u.name}`)));
  left.push(...users.filter((u): u is string => u !== undefined));
  return { removed, restored, left };
}

/**
 * Removes every user, group and project whose name starts with a run prefix (usernames carry it
 * with "_" for "-"), found through GitLab's search: for runs whose ledger is lost.
 */
export async function sweepPrefix(admin: Client, prefix: string): Promise<{ removed: number; left: string[] }> {
  const variants = [prefix, prefix.replace(/-/g, '_')];
  const matches = (name: unknown) => typeof name === 'string' && variants.some((v) => name.split('/').pop()!.startsWith(v));
  const found: Pick<ObjectEntry, 'kind' | 'id' | 'name'>[] = [];
  const collect = async (kind: LedgerKind, path: string, nameOf: (o: Record<string, unknown>) => unknown) => {
    for (let page = 1; page <= 100; page++) {
      const res = await admin.get(path, { query: { search: prefix.replace(/^cnf[-_]/, ''), per_page: 100, page } });
      if (res.status !== 200 || !Array.isArray(res.body)) throw new HarnessError(`sweep: GET ${path} answered HTTP ${res.status}`);
      for (const o of res.body as Record<string, unknown>[]) if (matches(nameOf(o))) found.push({ kind, id: o.id as number, name: String(nameOf(o)) });
      if (!res.headers['x-next-page']) break;
    }
  };
  await collect('project', '/projects', (o) => o.path_with_namespace);
  await collect('group', '/groups', (o) => o.full_path);
  await collect('user', '/users', (o) => o.username);
  const order = found.sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || b.name.split('/').length - a.name.split('/').length);
  const left: string[] = [];
  let removed = 0;
  for (const item of order) {
    if (await removeObject(admin, item)) removed++;
    else left.push(`${item.kind} ${item.name}`);
  }
  return { removed, left };
}
