// Shared pieces of the remote-mirrors suite: the per-file world (a public group with one member per
// role, holding a private and a public project with a repository), mirror paths, target URLs that
// are never reachable nor local, and setup steps that insist they worked.
import { apiPath, type Client, type Exchange } from '../harness/core/client.js';
import { expectEqual, expectError, expectOk, expectTrue, fail } from '../harness/core/checks.js';
import { useWorld, type Kit } from '../harness/run/conformance.js';
import type { GroupInfo, ProjectInfo } from '../harness/run/world.js';

export interface Mirror {
  id: number;
  enabled: boolean;
  url: string;
  update_status: string;
  last_update_at: string | null;
  last_update_started_at: string | null;
  last_successful_update_at: string | null;
  last_error: string | null;
  only_protected_branches: boolean;
  keep_divergent_refs: boolean;
  auth_method?: string;
  mirror_branch_regex?: string | null;
}

export interface MirrorsWorld {
  group: GroupInfo;
  privateProject: ProjectInfo;
  publicProject: ProjectInfo;
  /** A new private project in the group, for a test that needs a list of its own. */
  freshProject(options?: { empty?: boolean }): Promise<ProjectInfo>;
}

export function useMirrorsWorld(scope: string): () => MirrorsWorld {
  return useWorld(scope, async (world) => {
    const group = await world.group({ visibility: 'public', hint: 'mirrors' });
    await world.addRoleMembers(group);
    const privateProject = await world.project({ group, visibility: 'private', hint: 'private' });
    const publicProject = await world.project({ group, visibility: 'public', hint: 'public' });
    return {
      group,
      privateProject,
      publicProject,
      freshProject: (options = {}) => world.project({ group, visibility: 'private', hint: 'fresh', ...options }),
    };
  });
}

type ProjectRef = ProjectInfo | string | number;
const idOf = (project: ProjectRef) => (typeof project === 'object' ? project.id : project);

export const mirrorsPath = (project: ProjectRef) => apiPath`/projects/${idOf(project)}/remote_mirrors`;
export const mirrorPath = (project: ProjectRef, mirrorId: number | string) => apiPath`/projects/${idOf(project)}/remote_mirrors/${mirrorId}`;
export const syncPath = (project: ProjectRef, mirrorId: number | string) => apiPath`/projects/${idOf(project)}/remote_mirrors/${mirrorId}/sync`;

/** A push target on a reserved documentation host: valid for GitLab, never reachable, never local. */
export const target = (name: string, host = 'example.com') => `https://${host}/conformance/${name}.git`;

/** Creates a mirror for a test (as a Maintainer unless told otherwise) and insists it worked. */
export async function createMirror(client: Client, project: ProjectInfo, body: Record<string, unknown>): Promise<Mirror> {
  const res = await client.post(mirrorsPath(project), { body });
  expectOk(res, 201, 'remote-mirror');
  return res.body as Mirror;
}

/** Reads one mirror back (200 and the schema expected). */
export async function readMirror(client: Client, project: ProjectRef, mirrorId: number): Promise<Mirror> {
  const res = await client.get(mirrorPath(project, mirrorId));
  expectOk(res, 200, 'remote-mirror');
  return res.body as Mirror;
}

/** Two views of one mirror are equal; the single read may leave auth_method out (spec: Resources/Remote mirror). */
export function expectSameMirror(actual: Mirror, expected: Mirror, what: string): void {
  const { auth_method: actualMethod, ...actualRest } = actual;
  const { auth_method: expectedMethod, ...expectedRest } = expected;
  expectEqual(actualRest, expectedRest, what);
  if (actualMethod !== undefined) expectEqual(actualMethod, expectedMethod, `auth_method of ${what}`);
}

/** The project's whole mirror list (one page of up to 100). */
export async function listMirrors(client: Client, project: ProjectRef): Promise<Mirror[]> {
  const res = await client.get(mirrorsPath(project), { query: { per_page: 100 } });
  expectOk(res, 200, 'remote-mirror', { list: true });
  return res.body as Mirror[];
}

/**
 * States in which a push attempt is over: `failed` for a target that cannot be reached (gitlab-facts
 * §8), or `to_retry` when GitLab will try again after a back-off of minutes (gitlab-facts §0.12).
 */
export const SYNC_ENDED = ['finished', 'failed', 'to_retry'];
const SYNC_WAIT_MS = 30_000;

/** GitLab pushes in a background job: polls the mirror, with a bounded wait, until the push has ended. */
export async function waitForSyncEnd(client: Client, project: ProjectInfo, mirrorId: number): Promise<Mirror> {
  const deadline = Date.now() + SYNC_WAIT_MS;
  let delay = 50;
  for (;;) {
    const mirror = await readMirror(client, project, mirrorId);
    if (SYNC_ENDED.includes(mirror.update_status)) return mirror;
    if (Date.now() > deadline) fail('expected the sync to end', `after ${SYNC_WAIT_MS / 1000} s update_status was still "${mirror.update_status}"`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 1000);
  }
}

/** Developer, Reporter and Guest lack admin_remote_mirror: 401, not 403 (gitlab-facts §0.4). */
export async function expectRefusedBelowMaintainer(as: Kit['as'], send: (client: Client) => Promise<Exchange>): Promise<void> {
  for (const role of ['developer', 'reporter', 'guest'] as const) expectError(await send(as(role)), 401, { message: '401 Unauthorized' });
}

/** No response body may carry a credential that was sent in a URL. */
export function expectNoSecret(exchange: Exchange, secret: string): void {
  expectTrue(!JSON.stringify(exchange.body ?? '').includes(secret), 'credentials to be kept out of the response', `the body shows "${secret}"`, exchange);
}
