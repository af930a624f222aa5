// Shared pieces of the remote-mirrors suite: the world (a public group with one member per role,
// holding a private and a public project with a repository, shared by every mirrors file of the
// run), mirror paths, target URLs that are never reachable nor local, and setup steps that insist
// they worked.
import { apiPath, type Client, type Exchange } from '../../runner/core/client.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue, fail, parity } from '../../runner/core/checks.js';
import type { Kit } from '../../runner/run/conformance.js';
import { fixture } from '../../runner/run/fixture.js';
import { emptyList } from '../common/empty-list.js';
import { repositories } from '../common/repositories.js';
import { readOk } from '../common/read.js';
import type { ProjectInfo } from '../../runner/core/vocabulary.js';

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
  /** A boolean in the spec; GitLab stores null when a mirror was created without it (the column has no default). */
  keep_divergent_refs: boolean | null;
  auth_method?: string;
  /** GitLab's fingerprints of the mirror's SSH host keys (beyond the spec: lib/api/entities/remote_mirror.rb). */
  host_keys?: { fingerprint_sha256: string }[];
  mirror_branch_regex?: string | null;
}

/**
 * A private project in the run's repositories group that only this file writes to: for a test that
 * compares the whole list before and after its own requests. Its tests run one at a time.
 */
export const ownProject = fixture({
  name: 'mirrors-own-project',
  scope: 'file',
  alone: 'its tests compare the whole mirror list before and after their own requests',
  fixtures: { repositories },
  build: ({ make, repositories }) => make.project({ group: repositories.group, visibility: 'private', hint: 'own' }),
});

/**
 * A private project in the group without mirrors, for a test that needs an empty list of its own:
 * one an earlier test held, its mirrors removed first (removeMirrors), else a new one.
 */
export const freshProject = fixture({
  name: 'mirrors-fresh-project',
  scope: 'test',
  fixtures: { repositories },
  build: ({ make, repositories }) => make.project({ group: repositories.group, visibility: 'private', hint: 'fresh' }),
  reset: (project, { admin }) => removeMirrors(admin, project),
  most: 1,
});

/** Above this many mirrors a project is not emptied for reuse: a new one costs less. */
const REMOVE_AT_MOST = 20;

/** Removes every mirror of a project. */
const removeMirrors = (admin: Client, project: ProjectInfo) => emptyList<Mirror>(admin, mirrorsPath(project), (m) => mirrorPath(project, m.id), REMOVE_AT_MOST);

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
export function readMirror(client: Client, project: ProjectRef, mirrorId: number): Promise<Mirror> {
  return readOk(client, mirrorPath(project, mirrorId), 'remote-mirror');
}

/** Two views of one mirror are equal; the single read may leave auth_method out (spec: Resources/Remote mirror). */
/** The fields of a Mirror this suite knows (the spec's and GitLab's); a target may answer others (TARGET-CONTRACT.md §4). */
const MIRROR_FIELDS: readonly (keyof Mirror)[] = ['id', 'enabled', 'url', 'update_status', 'last_update_at', 'last_update_started_at', 'last_successful_update_at', 'last_error', 'only_protected_branches', 'keep_divergent_refs', 'auth_method', 'host_keys', 'mirror_branch_regex'];

/** A mirror's known fields, those it has. */
export const knownFields = (mirror: Mirror): Partial<Mirror> => Object.fromEntries(MIRROR_FIELDS.filter((key) => key in mirror).map((key) => [key, mirror[key]]));

export function expectSameMirror(actual: Mirror, expected: Mirror, what: string): void {
  const { auth_method: actualMethod, ...actualRest } = knownFields(actual);
  const { auth_method: expectedMethod, ...expectedRest } = knownFields(expected);
  expectEqual(actualRest, expectedRest, what);
  if (actualMethod !== undefined) expectEqual(actualMethod, expectedMethod, `auth_method of ${what}`);
}

/** Every page of the project's mirror list (100 a page), until a page comes back short. */
export async function listMirrorPages(client: Client, project: ProjectRef): Promise<Exchange[]> {
  const pages: Exchange[] = [];
  for (let page = 1; ; page += 1) {
    const res = await client.get(mirrorsPath(project), { query: { per_page: 100, page } });
    expectOk(res, 200, 'remote-mirror', { list: true });
    pages.push(res);
    if ((res.body as Mirror[]).length < 100) return pages;
    if (page >= 50) fail('expected the mirror list to end', `still full after ${page} pages of 100`, res);
  }
}

/** The project's whole mirror list, walked page by page. */
export async function listMirrors(client: Client, project: ProjectRef): Promise<Mirror[]> {
  return (await listMirrorPages(client, project)).flatMap((page) => page.body as Mirror[]);
}

/**
 * States in which a push attempt is over: `finished`, `failed` for a target that cannot be reached, or
 * `to_retry` when GitLab will try again after a back-off of minutes (app/models/remote_mirror.rb:
 * state_machine :update_status, update_fail, update_retry; backoff_delay).
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

/** Where GitLab refuses a signed-in caller below Maintainer on every mirror endpoint: 401, not 403. */
export const BELOW_MAINTAINER_GITLAB =
  'lib/api/remote_mirrors.rb (before { unauthorized! unless can?(current_user, :admin_remote_mirror, user_project) }); spec/requests/api/remote_mirrors_spec.rb (requires admin_remote_mirror permission: unauthorized)';

/**
 * Developer, Reporter and Guest are refused with 401. The spec shows neither the minimum role nor the
 * status (Authentication 7: "not shown"; Errors: "status codes for failures on other endpoints: not
 * shown"), so GitLab's code settles both: its `before` filter answers 401, not 403, in every version
 * from 15.0. Parity: the text.
 */
export async function expectRefusedBelowMaintainer(as: Kit['as'], send: (client: Client) => Promise<Exchange>): Promise<void> {
  for (const role of ['developer', 'reporter', 'guest'] as const) expectError(await send(as(role)), 401, { message: '401 Unauthorized', gitlab: BELOW_MAINTAINER_GITLAB });
}

/** Where GitLab writes the other texts the mirror tests check at the parity level. */
export const GITLAB_TEXT = {
  mirrorNotFound: "lib/api/remote_mirrors.rb (find_remote_mirror: remote_mirrors.find); lib/api/api.rb (rescue_from ActiveRecord::RecordNotFound: '404 Not found')",
  projectNotFound: "lib/api/helpers.rb (find_project!: not_found!('Project'))",
  anonymous: 'lib/api/remote_mirrors.rb (before: unauthorized!)',
  scope: 'lib/api/api.rb (allow_access_with_scope :read_api for GET and HEAD); lib/api/api_guard.rb (InsufficientScopeError)',
  params: 'lib/api/remote_mirrors.rb (params); lib/api/api.rb (rescue_from Grape::Exceptions::Base); Grape lib/grape/locale/en.yml',
  exclusive: 'ee/lib/ee/api/helpers/remote_mirrors_helpers.rb (mutually_exclusive :only_protected_branches, :mirror_branch_regex)',
  syncDisabled: 'app/services/remote_mirrors/sync_service.rb (remote_mirror.disabled?); lib/api/remote_mirrors.rb (render_api_error!(result[:message], 400)); spec/requests/api/remote_mirrors_spec.rb',
  booleans: 'lib/api/remote_mirrors.rb (type: Boolean); Grape lib/grape/validations/types/primitive_coercer.rb; dry-types Params::Bool ("1"/"0", "t"/"f", "yes"/"no", "on"/"off")',
  protectedNull: 'app/models/remote_mirror.rb (validates :only_protected_branches, inclusion: { in: [true, false], message: :blank }); spec/requests/api/remote_mirrors_spec.rb (when only_protected_branches is not set)',
} as const;

/** The mirror is not one of the project's (an unknown, non-numeric or another project's id): 404 "404 Not found". */
export function expectMirrorNotFound(res: Exchange): void {
  expectError(res, 404, { message: '404 Not found', gitlab: GITLAB_TEXT.mirrorNotFound });
}

/** The project is hidden from the caller (an outsider of a private project) or unknown: 404 "404 Project Not Found". */
export function expectProjectNotFound(res: Exchange): void {
  expectError(res, 404, { message: '404 Project Not Found', gitlab: GITLAB_TEXT.projectNotFound });
}

/** A token without the scope the request needs (read_api on a write, read_repository anywhere): 403 insufficient_scope. */
export function expectInsufficientScope(res: Exchange): void {
  expectError(res, 403, { error: 'insufficient_scope', gitlab: GITLAB_TEXT.scope });
}

/** An anonymous request on a public project: 401 "401 Unauthorized". */
export function expectAnonymousOnPublic(res: Exchange): void {
  expectError(res, 401, { message: '401 Unauthorized', gitlab: GITLAB_TEXT.anonymous });
}

/**
 * An anonymous request on a private project: the spec does not say how it is refused (401 or 404);
 * GitLab hides the project first (find_project! without authenticate_non_public): 404.
 */
export function expectAnonymousOnPrivate(res: Exchange): void {
  expectError(res, [401, 404]);
  parity(res, 'lib/api/helpers.rb (find_project!: not_found!, no authenticate_non_public on these routes)', () => expectProjectNotFound(res));
}

/**
 * The not-found check of an endpoint on one mirror (mirrors.id.not-found): an unknown id, a non-numeric
 * one and the id of another project's mirror (made here in the public project, with `body`) each give
 * 404 on the private project. Returns that other mirror, for the test to check it is unchanged.
 */
export async function expectUnknownMirrorsNotFound(
  as: Kit['as'],
  { privateProject, publicProject }: { privateProject: ProjectInfo; publicProject: ProjectInfo },
  body: Record<string, unknown>,
  send: (client: Client, project: ProjectInfo, mirrorId: number | string) => Promise<Exchange>,
): Promise<Mirror> {
  const elsewhere = await createMirror(as('maintainer'), publicProject, body);
  for (const id of [2147483000, 'abc', elsewhere.id]) expectMirrorNotFound(await send(as('maintainer'), privateProject, id));
  return elsewhere;
}

/** The refusals of the role matrix on the private project: Developer, Reporter and Guest (expectRefusedBelowMaintainer), and an outsider 404. */
export async function expectRefusedToNonMaintainers(as: Kit['as'], send: (client: Client) => Promise<Exchange>): Promise<void> {
  await expectRefusedBelowMaintainer(as, send);
  expectProjectNotFound(await send(as('outsider')));
}

/**
 * A write on one mirror without an api token: anonymous 401 on the public project and 401 or 404 on
 * the private one, a read_api token 403. Makes the mirror (`body`) in each project first and returns
 * both, for the test to check they are unchanged.
 */
export async function expectWriteRefusedWithoutApiToken(
  as: Kit['as'],
  { publicProject, privateProject }: { privateProject: ProjectInfo; publicProject: ProjectInfo },
  body: Record<string, unknown>,
  send: (client: Client, project: ProjectInfo, mirrorId: number) => Promise<Exchange>,
): Promise<{ open: Mirror; hidden: Mirror }> {
  const open = await createMirror(as('maintainer'), publicProject, body);
  expectAnonymousOnPublic(await send(as('anonymous'), publicProject, open.id));
  const hidden = await createMirror(as('maintainer'), privateProject, body);
  expectAnonymousOnPrivate(await send(as('anonymous'), privateProject, hidden.id));
  expectInsufficientScope(await send(as('maintainer', 'read_api'), privateProject, hidden.id));
  return { open, hidden };
}

/**
 * The spec: DELETE "Response: not shown", so GitLab's code settles it: destroy_conditionally!, 204 with
 * an empty body since the endpoint came (14.10): lib/api/remote_mirrors.rb, lib/api/helpers.rb;
 * spec/requests/api/remote_mirrors_spec.rb (deletes a remote mirror: no_content).
 */
export function expectMirrorDeleted(res: Exchange): void {
  expectStatus(res, 204, 'the spec shows no response for DELETE; GitLab\'s code answers 204');
  expectEqual(res.bytes.length, 0, 'an empty body with 204');
}

/** No response body may carry a credential that was sent in a URL. */
export function expectNoSecret(exchange: Exchange, secret: string): void {
  expectTrue(!JSON.stringify(exchange.body ?? '').includes(secret), 'credentials to be kept out of the response', `the body shows "${secret}"`, exchange);
}
