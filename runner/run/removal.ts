// Removing what a run made: one object at a time (GitLab 17/18's delayed deletion included), the
// whole of a ledger (instance settings the run changed put back too), or everything named with a
// run's prefix. The run's clean-up and the CLI's sweep use them.
import { existsSync, rmSync } from 'node:fs';
import { apiPath, type Client, type Exchange } from '../core/client.js';
import { normalizeTarget, otherInstance } from './instance-identity.js';
import { Ledger, type LedgerKind, type ObjectEntry, type TokenEntry } from './ledger.js';
import { releaseLease } from './target-lease.js';

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

/** A ledger's run prefix as a kind of object carries it: usernames with "_" for "-" (names.ts). */
function prefixOf(kind: LedgerKind, runId: string): string {
  return kind === 'user' ? `cnf_${runId}` : `cnf-${runId}`;
}

/**
 * Reads the object a ledger line names by id, before anything deletes it: `ours` when it is still
 * the one the line recorded (username, or full path with GitLab's pending-deletion renames taken
 * off: app/services/groups/mark_for_deletion_service.rb, app/services/projects/mark_for_deletion_service.rb
 * rename a marked group's or project's path to `<path>-deletion_scheduled-<id>`, before 18.3 a project's
 * to `<path>-deleted-<id>`: withoutDeletionRenames; the full paths of what is inside take them too) and that name carries the run's prefix; `gone` when the target
 * answers 404; else why it is left alone.
 */
/**
 * A full path without the renames of marking for deletion, on each of its parts: `-deletion_scheduled-<id>`
 * from GitLab 18.3 (app/services/{groups,projects}/mark_for_deletion_service.rb `suffixed_identifier`),
 * `-deleted-<id>` of a project before (ee/app/services/projects/mark_for_deletion_service.rb in 17.x,
 * app/services/projects/mark_for_deletion_service.rb in 18.0 to 18.2).
 */
export function withoutDeletionRenames(fullPath: string): string {
  return fullPath.split('/').map((part) => part.replace(/-(?:deletion_scheduled|deleted)-\d+$/, '')).join('/');
}

export async function checkObject(admin: Client, item: Pick<ObjectEntry, 'kind' | 'id' | 'name' | 'runId'>): Promise<{ state: 'ours' | 'gone' } | { state: 'left'; why: string }> {
  const prefix = prefixOf(item.kind, item.runId);
  if (!item.name.split('/').pop()!.startsWith(prefix)) return { state: 'left', why: `${item.kind} id ${item.id} is recorded as \`${item.name}\`, which does not carry the run prefix ${prefix}: left` };
  const path = item.kind === 'user' ? apiPath`/users/${item.id}` : item.kind === 'group' ? apiPath`/groups/${item.id}` : apiPath`/projects/${item.id}`;
  const res = await admin.get(path).catch(() => undefined);
  if (res?.status === 404) return { state: 'gone' };
  if (res?.status !== 200) return { state: 'left', why: `${item.kind} id ${item.id} (\`${item.name}\`) could not be read (${res ? `HTTP ${res.status}` : 'no answer'}): left` };
  const body = (res.body ?? {}) as { username?: unknown; full_path?: unknown; path_with_namespace?: unknown };
  const shown = item.kind === 'user' ? body.username : item.kind === 'group' ? body.full_path : body.path_with_namespace;
  const now = typeof shown === 'string' ? withoutDeletionRenames(shown) : undefined;
  if (now === item.name) return { state: 'ours' };
  return { state: 'left', why: `${item.kind} id ${item.id} is now \`${typeof shown === 'string' ? shown : 'unnamed'}\`, not \`${item.name}\`: left` };
}

/** A group or project of the run that GitLab keeps pending deletion (a top-level group, or one whose removal the target refused once marked). */
export interface Pending {
  kind: 'group' | 'project';
  name: string;
  /** The day GitLab removes it (YYYY-MM-DD), when the target says when it was marked and its deletion delay. */
  until?: string;
}

export interface SweepResult {
  removed: number;
  /** Of the removed, what is only marked for deletion: GitLab removes it when its delay has passed. */
  pending: Pending[];
  restored: number;
  /** What could not be undone, or was left alone, one phrase each. */
  left: string[];
  /** Why the whole ledger was left alone (another target or instance), when it was. */
  refused?: string;
  /** With `dryRun`: what would be undone. */
  wouldUndo: string[];
}

/**
 * Undoes whatever a ledger still lists (after a crash, or at the end of every run), on `target` only:
 * a ledger written against another target or instance (its first line: instance-identity.ts), or
 * without that line, is refused whole. The instance settings the run changed are put back first, then
 * the leases it holds on the target are released (target-lease.ts); a
 * group goes with everything inside it (GitLab removes a group's subgroups and projects with it), so
 * only the outermost groups and projects are deleted, at once; what was inside one that could not be
 * deleted is tried one by one, deepest first; users go last. Every object is read before its DELETE
 * (checkObject): one whose id now names another object is left. A ledger with nothing left to undo
 * is removed. `dryRun`: reads only, and says what it would undo.
 */
export async function sweepLedger(admin: Client, ledgerPath: string, options: { target: string; dryRun?: boolean }): Promise<SweepResult> {
  const result: SweepResult = { removed: 0, pending: [], restored: 0, left: [], wouldUndo: [] };
  const header = Ledger.header(ledgerPath);
  if (header === undefined) {
    if (existsSync(ledgerPath)) result.refused = `it names no target (written by an earlier version of the suite); \`sweep --prefix cnf-<run id>\` removes what a run made by name`;
    return result;
  }
  if (normalizeTarget(options.target) !== header.target) {
    result.refused = `it was written against ${header.target}, not ${normalizeTarget(options.target)}`;
    return result;
  }
  const outstanding = Ledger.outstanding(ledgerPath);
  if (outstanding.length === 0) {
    if (!options.dryRun) removeLedger(ledgerPath);
    return result;
  }
  const other = await otherInstance(admin, options.target, header);
  if (other !== undefined) {
    result.refused = other;
    return result;
  }
  const writer = new Ledger(ledgerPath, header.runId);
  const left = result.left;
  for (const setting of outstanding.filter((i) => i.kind === 'setting')) {
    if (options.dryRun) {
      result.wouldUndo.push(`put back setting ${setting.name} (PUT ${setting.restore.path})`);
      continue;
    }
    const res = await admin.put(setting.restore.path, { body: setting.restore.body }).catch(() => undefined);
    // Put back when the answer (the settings, as GitLab's PUT shows them) has the old values.
    const shown = (res?.body ?? {}) as Record<string, unknown>;
    if (res?.status === 200 && Object.entries(setting.restore.body).every(([key, value]) => shown[key] === value)) {
      writer.markRestored(setting.name, setting.restore);
      result.restored++;
    } else left.push(`setting ${setting.name} (PUT ${setting.restore.path}: ${res?.status ?? 'no answer'})`);
  }
  // A lease goes once the settings it guards are back (a setting left changed keeps it until its end).
  for (const lease of outstanding.filter((i) => i.kind === 'lease')) {
    if (options.dryRun) result.wouldUndo.push(`release lease ${lease.name} (user id ${lease.id})`);
    else if (left.length === 0 && (await releaseLease(admin, { path: lease.name, id: lease.id, holder: lease.runId }).catch(() => false))) {
      writer.markReleased(lease);
      result.removed++;
    } else left.push(`lease ${lease.name} (user id ${lease.id}, until ${lease.until})`);
  }
  const items = outstanding.filter((i): i is ObjectEntry => i.kind !== 'setting' && i.kind !== 'token' && i.kind !== 'lease');
  const groups = items.filter((i) => i.kind === 'group');
  const inside = (item: ObjectEntry, group: ObjectEntry) => item !== group && item.kind !== 'user' && item.name.startsWith(`${group.name}/`);
  const outermost = items.filter((i) => i.kind !== 'user' && !groups.some((g) => inside(i, g)));
  const deletionDelay = once(() => deletionDelayDays(admin));
  /** Objects whose id now names another object: never tried again. */
  const alien = new Set<ObjectEntry>();
  /** Removes one object after checking it; false when it is still there (left alone, or its removal failed: said in `left` when `report`). */
  const remove = async (item: ObjectEntry, report = true): Promise<boolean> => {
    if (alien.has(item)) return false;
    const found = await checkObject(admin, item);
    if (found.state === 'left') {
      alien.add(item);
      left.push(found.why);
      return false;
    }
    if (options.dryRun) {
      if (found.state === 'ours') result.wouldUndo.push(`remove ${item.kind} ${item.name} (id ${item.id})`);
      return true;
    }
    if (found.state === 'gone' || (await removeObject(admin, item))) {
      writer.markRemoved(item.kind, item.id, item.name);
      result.removed++;
      if (found.state === 'ours' && item.kind !== 'user') {
        const pending = await pendingDeletion(admin, item, deletionDelay);
        if (pending) result.pending.push(pending);
      }
      return true;
    }
    if (report) left.push(`${item.kind} ${item.name}`);
    return false;
  };
  const failed = (await Promise.all(outermost.map(async (item) => ((await remove(item, false)) ? undefined : item)))).filter((i): i is ObjectEntry => i !== undefined);
  if (!options.dryRun) {
    for (const item of items.filter((i) => i.kind !== 'user' && !outermost.includes(i))) {
      if (!failed.some((top) => inside(item, top))) writer.markRemoved(item.kind, item.id, item.name);
    }
  }
  for (const top of failed) {
    const within = items.filter((i) => inside(i, top)).sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || b.name.split('/').length - a.name.split('/').length);
    for (const item of [...within, top]) await remove(item);
  }
  await Promise.all(items.filter((i) => i.kind === 'user').map((user) => remove(user)));
  // The users still there: left alone, or (dry run) that would be.
  const usersLeft = options.dryRun ? [...alien].filter((i) => i.kind === 'user') : Ledger.outstanding(ledgerPath).filter((i): i is ObjectEntry => i.kind === 'user');
  await revokeTokens(admin, writer, outstanding.filter((i): i is TokenEntry => i.kind === 'token'), new Set(usersLeft.map((u) => u.id)), result, options.dryRun === true);
  if (!options.dryRun && Ledger.outstanding(ledgerPath).length === 0) removeLedger(ledgerPath);
  return result;
}

/**
 * The run's tokens whose user is still there (left alone: not the run's, or its removal failed) are
 * revoked as the administrator (DELETE /personal_access_tokens/:id, lib/api/personal_access_tokens.rb:
 * an administrator revokes anyone's token); those of a removed user went with it (GitLab deletes a
 * user's tokens with the user), and an id the target does not know (404) is gone.
 */
async function revokeTokens(admin: Client, writer: Ledger, tokens: TokenEntry[], usersLeft: Set<number>, result: SweepResult, dryRun: boolean): Promise<void> {
  await Promise.all(
    tokens.map(async (token) => {
      if (!usersLeft.has(token.userId)) {
        if (!dryRun) writer.markRevoked(token);
        return;
      }
      if (dryRun) {
        result.wouldUndo.push(`revoke token ${token.name} (id ${token.id}) of user id ${token.userId}`);
        return;
      }
      const res = await admin.delete(apiPath`/personal_access_tokens/${token.id}`).catch(() => undefined);
      if (res?.status === 204 || res?.status === 404) writer.markRevoked(token);
      else result.left.push(`token ${token.name} (id ${token.id}) of user id ${token.userId} (DELETE /personal_access_tokens/${token.id}: ${res?.status ?? 'no answer'})`);
    }),
  );
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * The instance's deletion delay in days: `deletion_adjourned_period` of GET /application/settings
 * (lib/api/entities/application_setting.rb; app/models/application_setting_implementation.rb, default 7),
 * undefined when the settings cannot be read.
 */
async function deletionDelayDays(admin: Client): Promise<number | undefined> {
  const res = await admin.get('/application/settings').catch(() => undefined);
  const days = (res?.body as { deletion_adjourned_period?: unknown } | undefined)?.deletion_adjourned_period;
  return res?.status === 200 && typeof days === 'number' ? days : undefined;
}

/**
 * A group or project removed by the clean-up that the target still shows, marked for deletion: GitLab
 * removes it on `marked_for_deletion_on` (or `marked_for_deletion_at`: lib/api/entities/group.rb,
 * lib/api/entities/project.rb; ee/lib/ee/api/entities/ in 17.x) plus the deletion delay
 * (app/workers/adjourned_projects_deletion_cron_worker.rb, adjourned_group_deletion_worker.rb).
 */
async function pendingDeletion(admin: Client, item: ObjectEntry, delay: () => Promise<number | undefined>): Promise<Pending | undefined> {
  const res = await admin.get(item.kind === 'group' ? apiPath`/groups/${item.id}` : apiPath`/projects/${item.id}`).catch(() => undefined);
  if (res?.status !== 200) return undefined;
  const body = (res.body ?? {}) as { marked_for_deletion_on?: unknown; marked_for_deletion_at?: unknown };
  const marked = [body.marked_for_deletion_on, body.marked_for_deletion_at].find((d): d is string => typeof d === 'string' && !Number.isNaN(Date.parse(d)));
  const days = marked === undefined ? undefined : await delay();
  const until = marked !== undefined && days !== undefined ? new Date(Date.parse(marked.slice(0, 10)) + days * 86_400_000).toISOString().slice(0, 10) : undefined;
  return { kind: item.kind as Pending['kind'], name: item.name, ...(until ? { until } : {}) };
}

/** "12 projects pending deletion until 2026-12-14: GitLab removes them", one phrase per kind and day. */
export function describePending(pending: readonly Pending[]): string[] {
  const counts = new Map<string, number>();
  for (const p of pending) {
    const key = `${p.kind}\u0000${p.until ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => {
    const [kind, until] = key.split('\u0000');
    return `${n} ${kind}${n === 1 ? '' : 's'} pending deletion${until ? ` until ${until}` : ''}: GitLab removes ${n === 1 ? 'it' : 'them'}`;
  });
}

/** A ledger with nothing left to undo goes, and the tokens file a --keep run wrote beside it (its users are gone). */
function removeLedger(ledgerPath: string): void {
  rmSync(ledgerPath, { force: true });
  rmSync(ledgerPath.replace(/ledger-(.+)\.jsonl$/, 'kept-$1.tokens.json'), { force: true });
}

/**
 * Removes every user, group and project whose name starts with a run prefix (usernames carry it
 * with "_" for "-"), found through GitLab's search: for runs whose ledger is lost. Each is read by id
 * before its DELETE, as a ledger's are (checkObject): one the search listed under a name it does not
 * have, or whose name lacks the prefix, is left and reported. A listing it cannot use (not 200 with a
 * list of objects with ids) stops it before anything is removed: `unusable` says which.
 */
export async function sweepPrefix(admin: Client, prefix: string): Promise<{ removed: number; left: string[]; unusable?: string }> {
  const variants = [prefix, prefix.replace(/-/g, '_')];
  const matches = (name: unknown) => typeof name === 'string' && variants.some((v) => name.split('/').pop()!.startsWith(v));
  const found: Pick<ObjectEntry, 'kind' | 'id' | 'name' | 'runId'>[] = [];
  const runId = prefix.slice('cnf-'.length);
  const collect = async (kind: LedgerKind, path: string, nameOf: (o: Record<string, unknown>) => unknown): Promise<string | undefined> => {
    for (let page = 1; page <= 100; page++) {
      const res = await admin.get(path, { query: { search: runId, per_page: 100, page } }).catch((error: unknown) => (error as Error).message);
      if (typeof res === 'string') return `GET ${path} got no answer (${res})`;
      if (res.status !== 200 || !Array.isArray(res.body)) return `GET ${path} answered HTTP ${res.status}${res.status === 200 ? ' without a list' : ''}`;
      for (const o of res.body as unknown[]) {
        const object = (o ?? {}) as Record<string, unknown>;
        if (!matches(nameOf(object))) continue;
        if (!Number.isSafeInteger(object.id)) return `GET ${path} listed ${kind} \`${String(nameOf(object))}\` without a numeric id`;
        found.push({ kind, id: object.id as number, name: String(nameOf(object)), runId });
      }
      if (!res.headers['x-next-page']) break;
    }
    return undefined;
  };
  const unusable =
    (await collect('project', '/projects', (o) => o.path_with_namespace)) ??
    (await collect('group', '/groups', (o) => o.full_path)) ??
    (await collect('user', '/users', (o) => o.username));
  if (unusable !== undefined) return { removed: 0, left: [], unusable };
  const order = found.sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || b.name.split('/').length - a.name.split('/').length);
  const left: string[] = [];
  let removed = 0;
  for (const item of order) {
    const state = await checkObject(admin, item);
    if (state.state === 'left') left.push(state.why);
    else if (state.state === 'gone' || (await removeObject(admin, item))) removed++;
    else left.push(`${item.kind} ${item.name}`);
  }
  return { removed, left };
}
