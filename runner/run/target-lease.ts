// A lease that lives on the target itself: one holder at a time of something every run of the
// instance shares (an instance setting, a group of the fixture manifest), also for runs on other
// machines, which can meet only there. The lease is a user with a conventional username
// (`cnf-lease-<what>`), made with the set-up endpoints of the target contract (POST /users,
// GET /users?username=, DELETE /users/:id). Its name says the holder's run and when the lease ends.
// Taking it is creating the user: GitLab refuses a second user with a taken username (409 "Username
// has already been taken": lib/api/users.rb, the uniqueness of User#username), so of two runs that try
// at once one gets it. A user, not a group: GitLab 17 (Premium, Ultimate) and 18 keep a deleted
// top-level group pending deletion for days, its path still taken, where a deleted user goes within
// moments (app/services/users/destroy_service.rb, as a background job). A lease past its end belongs
// to a run that was killed (or outran it): it may be taken over, by deleting that user by its id (ids
// are never reused, so a taker that lost the race deletes nothing of the winner's) and creating the
// user again, which again only one run gets. The holder releases it by deleting the user; the run's
// ledger lists it until then, for `sweep`.
import { randomBytes } from 'node:crypto';
import { apiPath, type Client, type Exchange } from '../core/client.js';
import { HarnessError } from '../core/errors.js';

/**
 * How long a lease holds from its taking. The suite changes no user's name (no set-up endpoint of
 * the contract updates a user), so a lease is not renewed: it must outlast the whole of what it guards
 * (a run's setting phases and its clean-up: seconds on the bundled server, a few minutes on a GitLab).
 * It is also how long a killed run keeps the others waiting, unless `sweep` releases it earlier.
 */
export const LEASE_TTL_MS = 20 * 60_000;
/** Between two tries while another run holds the lease. */
const POLL_MS = 1_000;

export interface TargetLease {
  /** The user's username: `cnf-lease-<what>`. */
  path: string;
  /** The user's id: what the holder deletes, and only that. */
  id: number;
  /** The holding run's id. */
  holder: string;
  /** When the lease ends (ISO 8601). */
  until: string;
}

/** The path of the lease on `what` (an instance setting's name): `cnf-lease-enable-member-promotion-management`. */
export const leasePath = (what: string): string => `cnf-lease-${what.replace(/_/g, '-')}`;

// Letters, digits, spaces and dashes only: a user's name GitLab takes on every version; the end in ms since 1970.
const LEASE_NAME = /^gitlab-api-conformance lease held by run (\S+) until (\d+)$/;
/** The lease user's name: who holds it, and until when (`until`, ISO 8601). */
export const leaseDescription = (holder: string, until: string): string => `gitlab-api-conformance lease held by run ${holder} until ${Date.parse(until)}`;

/**
 * The lease at `path` as the target shows it now; undefined when there is none. A user of that
 * username whose name is no lease's is `{ foreign: id }`: it is not the suite's, and never deleted.
 */
export async function readLease(admin: Client, path: string): Promise<TargetLease | { foreign: number } | undefined> {
  const res = await admin.get('/users', { query: { username: path } });
  if (res.status !== 200 || !Array.isArray(res.body)) throw new HarnessError(`reading the lease ${path}: GET /users?username= answered HTTP ${res.status}`);
  const user = (res.body as { id: number; username?: unknown; name?: unknown }[]).find((u) => typeof u.username === 'string' && u.username.toLowerCase() === path);
  if (user === undefined) return undefined;
  const parts = LEASE_NAME.exec(typeof user.name === 'string' ? user.name : '');
  if (parts === null) return { foreign: user.id };
  return { path, id: user.id, holder: parts[1], until: new Date(Number(parts[2])).toISOString() };
}

const taken = (res: Exchange) => [400, 409].includes(res.status) && /has already been taken/.test(JSON.stringify(res.body ?? ''));

export type LeaseAnswer = { lease: TargetLease } | { refused: string };

/** Another run holds a lease past this run's wait: the test is `unsupported` (the target is not at fault), never a failure. */
export class LeaseRefused extends Error {
  override name = 'LeaseRefused';
}

/**
 * Takes the lease on `what` for run `holder`, waiting up to `waitMs` while another run holds it; a
 * lease past its end is taken over. `refused` says who holds it (for the tests' `unsupported`), the
 * thing leased named by `label` (default: the instance setting `what`). `ttlMs`: the lease's length.
 */
export async function acquireLease(
  admin: Client,
  what: string,
  holder: string,
  options: { waitMs: number; ttlMs?: number; label?: string; now?: () => number },
): Promise<LeaseAnswer> {
  const now = options.now ?? Date.now;
  const label = options.label ?? `instance setting ${what}`;
  const path = leasePath(what);
  const deadline = now() + options.waitMs;
  /** Expired leases this run deleted once already: not tried again (their deletion did not free the path). */
  const takenOver = new Set<number>();
  for (;;) {
    const until = new Date(now() + (options.ttlMs ?? LEASE_TTL_MS)).toISOString();
    const made = await admin.post('/users', {
      body: { username: path, name: leaseDescription(holder, until), email: `${path}@example.com`, password: `Cnf!${randomBytes(12).toString('base64url')}9a`, skip_confirmation: true },
    });
    if (made.status === 201) return { lease: { path, id: (made.body as { id: number }).id, holder, until } };
    // Refused: taken, most likely (GitLab: 409 "Username has already been taken"; a target may word it otherwise), which reading tells.
    const found = made.status >= 400 && made.status < 500 ? await readLease(admin, path) : undefined;
    if (found === undefined) {
      if (taken(made)) continue; // released meanwhile: try again at once
      throw new HarnessError(`taking the lease ${path}: POST /users answered HTTP ${made.status}`);
    }
    if ('foreign' in found) return { refused: `${label} cannot be leased: the username ${path} is taken by user id ${found.foreign}, which is no lease of this suite` };
    // Ours already: an earlier try whose answer was lost made it.
    if (found.holder === holder) return { lease: found };
    if (Date.parse(found.until) <= now() && !takenOver.has(found.id)) {
      // Its holder is past its end (killed): take it over. By id: a lease made meanwhile by another taker has another.
      takenOver.add(found.id);
      await admin.delete(apiPath`/users/${found.id}`, { query: { hard_delete: true } });
      continue;
    }
    if (now() >= deadline) return { refused: `${label} is held by run ${found.holder} until ${found.until}` };
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - now()))));
  }
}

/**
 * Releases `lease`: deletes its user when it is still this lease (same id, same holder); a lease
 * taken over meanwhile (its end passed) is another run's now and is left. True when this run no
 * longer holds it.
 */
export async function releaseLease(admin: Client, lease: Pick<TargetLease, 'path' | 'id' | 'holder'>): Promise<boolean> {
  const found = await readLease(admin, lease.path);
  if (found === undefined || 'foreign' in found || found.id !== lease.id || found.holder !== lease.holder) return true;
  const res = await admin.delete(apiPath`/users/${lease.id}`, { query: { hard_delete: true } });
  return [202, 204, 404].includes(res.status);
}
