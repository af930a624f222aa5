// The root cause of a test that did not pass, as the reports group them: the endpoint whose answer
// stopped it, what the test wanted of that answer and what it got, and whether it was the test's
// own set-up (so that one broken write shows as one cause with its dependents, not as dozens of
// separate failures).
import type { Exchange } from './exchange.js';

export interface Cause {
  /** The endpoint form, e.g. `POST /projects/:id/repository/files/:file_path`. */
  endpoint: string;
  /** What the test wanted of the answer, e.g. `HTTP 201` or `a body matching member`. */
  wanted: string;
  /** What it got: the status. */
  got: number;
  /** The request built the test's own state (verdict `error`), or it was the check itself (`fail`). */
  setUp: boolean;
}

/** The segment after these names a member, a mirror or an invitation rather than a group or project. */
const AFTER: Record<string, string> = { members: ':user_id', all: ':user_id', billable_members: ':user_id', remote_mirrors: ':mirror_id', invitations: ':email', access_requests: ':user_id', personal_access_tokens: ':id' };
const KEYWORDS = new Set(['raw', 'blame', 'sync', 'approve', 'approve_all', 'override', 'state', 'memberships', 'indirect', 'all', 'members', 'share', 'branches', 'files', 'repository']);

/** The endpoint form of a request: ids, paths and addresses written as the spec's `:name` parameters. */
export function endpointOf(method: string, url: string): string {
  const segments = url.split('?')[0].replace(/^\/api\/v4/, '').split('/');
  const out: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const previous = segments[i - 1];
    if (i === 0 || segment === '') out.push(segment);
    else if (previous === 'files') out.push(':file_path');
    else if (previous !== undefined && AFTER[previous] !== undefined && !KEYWORDS.has(segment)) out.push(AFTER[previous]);
    else if (/^\d+$/.test(segment) || segment.includes('%')) out.push(':id');
    else out.push(segment);
  }
  return `${method} ${out.join('/')}`;
}

export function causeOf(exchange: Exchange, wanted: string, setUp: boolean): Cause {
  return { endpoint: endpointOf(exchange.method, exchange.url), wanted, got: exchange.status, setUp };
}
