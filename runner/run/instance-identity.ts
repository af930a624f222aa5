// Which GitLab a ledger belongs to, so that a clean-up removes only what a run made on that target:
// the target's URL (normalized) and the instance as an administrator sees it, told by the run's
// administrator as GET /user shows it: its id, username and created_at (lib/api/entities/user_basic.rb,
// user_public.rb), which another instance at the same URL (a container made anew) does not share.
// Any administrator's token reads them back (GET /users/:id, lib/api/users.rb), not only the run's own.
import { apiPath, type Client } from '../core/client.js';

/** The instance as the run's administrator saw it (GET /user). */
export interface InstanceIdentity {
  adminId: number;
  username: string;
  createdAt: string;
}

/** A target URL as the ledger keeps it: lower-case scheme and host, no default port, no trailing "/" nor "/api/v4". */
export function normalizeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
    // URL drops a default port itself, and lower-cases scheme and host.
    return `${parsed.protocol}//${parsed.host}${path}`;
  } catch {
    return url.replace(/\/+$/, '');
  }
}

/** The identity from the answer of GET /user; undefined when it lacks a field. */
export function identityOf(user: { id?: unknown; username?: unknown; created_at?: unknown }): InstanceIdentity | undefined {
  if (typeof user.id !== 'number' || typeof user.username !== 'string' || typeof user.created_at !== 'string') return undefined;
  return { adminId: user.id, username: user.username, createdAt: user.created_at };
}

/**
 * Why a ledger written on `recorded` must not be undone on the target `admin` reaches at `targetUrl`,
 * or undefined when it is that target and instance.
 */
export async function otherInstance(admin: Client, targetUrl: string, recorded: { target: string; instance: InstanceIdentity }): Promise<string | undefined> {
  const target = normalizeTarget(targetUrl);
  if (recorded.target !== target) return `it was written against ${recorded.target}, not ${target}`;
  const { adminId, username, createdAt } = recorded.instance;
  const res = await admin.get(apiPath`/users/${adminId}`).catch((error: unknown) => error as Error);
  // A target that does not answer cannot be told apart from another: nothing is removed.
  if (res instanceof Error) return `the target does not answer, so it cannot be checked (${res.message})`;
  const now = res.status === 200 ? identityOf(res.body as Record<string, unknown>) : undefined;
  // Times are compared as instants: GitLab may render one in another zone.
  if (now?.username === username && Date.parse(now.createdAt) === Date.parse(createdAt)) return undefined;
  const seen = now ? `is \`${now.username}\` created ${now.createdAt}` : `answers HTTP ${res.status}`;
  return `it was written on another instance at ${target}: its administrator, user id ${adminId}, was \`${username}\` created ${createdAt}; here user id ${adminId} ${seen}`;
}
