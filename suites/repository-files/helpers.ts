// Shared pieces of the repository-files suite: the run's world (a public group with one member per
// role and a public and a private project in it), each file's branch in it, file writes, and the
// expected git values computed here, independently of any server.
import { createHash } from 'node:crypto';
import { apiPath, type Client, type Exchange } from '../../runner/core/client.js';
import { expectError, expectSchema, expectSetUp, expectStatus, expectTrue, parity } from '../../runner/core/checks.js';
import { fixture, type SetupContext } from '../../runner/run/fixture.js';
import { SetupError } from '../../runner/run/maker.js';
import type { GroupInfo, ProjectInfo } from '../../runner/core/vocabulary.js';
import { repositories } from '../common/repositories.js';

export interface FilesWorld {
  /** The run's public group of both projects, with the shared actors in their roles. */
  group: GroupInfo;
  publicProject: ProjectInfo;
  privateProject: ProjectInfo;
  /**
   * This file's branch, made from main in both projects: files run at the same time on the shared
   * projects, and a test that checks commit ids and branch heads must see its own commits only.
   * Its tests run at once too, each at paths of its own; a test that reads the branch's head takes a
   * branch of its own (ownBranch). A branch a test makes starts with it.
   */
  branch: string;
  /** A unique file path for one test: "<test>/<name>" under a directory of its own. */
  path(test: string, name?: string): string;
}

/** The world of a files test file: the run's projects (suites/common/repositories.ts) and a branch of the file's own in each. */
export const projectsWithBranch = fixture({
  name: 'files-world',
  scope: 'file',
  fixtures: { repositories },
  async build({ make, repositories, names }): Promise<FilesWorld> {
    const { group, publicProject, privateProject } = repositories;
    const branch = names.slug('files');
    await Promise.all([make.branch(publicProject, branch), make.branch(privateProject, branch)]);
    return { group, publicProject, privateProject, branch, path: (test, name = 'file.txt') => `${test}/${name}` };
  },
});

/** A branch of this test's own in the run's public project, for a test that reads the branch's head. */
export const ownBranch = fixture({
  name: 'files-own-branch',
  scope: 'test',
  fixtures: { repositories },
  async build({ make, repositories, names }) {
    const branch = names.slug('own');
    await make.branch(repositories.publicProject, branch);
    return branch;
  },
});

/**
 * A branch of this test's own in the run's private project, made from the default branch and protected
 * with GitLab's default levels (lib/api/protected_branches.rb: push_access_level and merge_access_level
 * default to Maintainer): whatever the instance does to a new project's default branch, a Developer
 * may not push to it (lib/gitlab/user_access.rb can_push_to_branch?).
 */
export const protectedBranch = fixture({
  name: 'files-protected-branch',
  scope: 'test',
  fixtures: { repositories },
  requires: { setup: ['protected-branches'] },
  async build({ make, repositories, names, admin }) {
    const { privateProject } = repositories;
    const branch = names.slug('guarded');
    await make.branch(privateProject, branch);
    await make.setup(`protect branch ${branch} in ${privateProject.fullPath}`, admin.post(apiPath`/projects/${privateProject.id}/protected_branches`, { body: { name: branch } }), [201], 'protected-branches');
    return branch;
  },
});

/** The git blob id of some bytes: SHA-1 of "blob <size>\0<bytes>". */
export function gitBlobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

export function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

export const fileUrl = (project: ProjectInfo | number | string, path: string) =>
  apiPath`/projects/${typeof project === 'object' ? project.id : project}/repository/files/${path}`;

export interface WriteOptions {
  /** Required: a test writes to its file's branch, or names the default branch when that is its point. */
  branch: string;
  startBranch?: string;
  message?: string;
  encoding?: 'text' | 'base64';
  executable?: boolean;
  authorName?: string;
  authorEmail?: string;
  lastCommitId?: string;
}

export function writeBody(content: string | undefined, options: WriteOptions): Record<string, unknown> {
  return {
    branch: options.branch,
    start_branch: options.startBranch,
    commit_message: options.message ?? 'conformance: write a file',
    content,
    encoding: options.encoding,
    execute_filemode: options.executable,
    author_name: options.authorName,
    author_email: options.authorEmail,
    last_commit_id: options.lastCommitId,
  };
}

/**
 * How a write's answer counts: `set-up` (the test only needs the file: a failed write makes the test
 * `error`, and the status the create check wants is that check's business), or `checked` (the write is
 * what the test checks: it must succeed, any 2xx, or the test fails).
 */
export type WriteRole = 'set-up' | 'checked';

function expectWritten(res: Exchange, what: string, role: WriteRole): void {
  if (role === 'set-up') expectSetUp(res, what);
  else expectTrue(res.status >= 200 && res.status < 300, `the write to succeed (${what})`, `got HTTP ${res.status}`, res);
}

/**
 * A write that must succeed, in a test whose point is not its status (GitLab's 201 for a create is
 * checked by files.create.commits-and-reads-back and files.create.empty-repository): any 2xx, with
 * a File write result.
 */
export function expectWriteSucceeded(res: Exchange): void {
  expectTrue(res.status >= 200 && res.status < 300, 'the write to succeed (HTTP 2xx)', `got HTTP ${res.status}`, res);
  expectSchema(res, 'file-write-result');
}

/** Creates a file through the API (as a maintainer unless told otherwise) and insists it worked. */
export async function createFile(client: Client, project: ProjectInfo, path: string, content: string, options: WriteOptions, role: WriteRole = 'set-up'): Promise<Exchange> {
  const res = await client.post(fileUrl(project, path), { body: writeBody(content, options) });
  expectWritten(res, `creating ${path}`, role);
  return res;
}

export async function updateFile(client: Client, project: ProjectInfo, path: string, content: string, options: WriteOptions, role: WriteRole = 'set-up'): Promise<Exchange> {
  const res = await client.put(fileUrl(project, path), { body: writeBody(content, options) });
  expectWritten(res, `updating ${path}`, role);
  return res;
}

/** Reads a file's JSON metadata at a ref (a plain read: 200 expected). */
export async function readFile(client: Client, project: ProjectInfo, path: string, ref: string): Promise<Record<string, unknown>> {
  const res = await client.get(fileUrl(project, path), { query: { ref } });
  expectStatus(res, 200, `reading ${path} back at ${ref}`);
  return res.body as Record<string, unknown>;
}

/**
 * The authors of the commits that last changed the lines of a file at `ref`, as blame names them
 * (`"<author_name> <author_email>"`, once each): the files API's view of a commit's author.
 */
export async function blameAuthors(client: Client, project: ProjectInfo, path: string, ref: string): Promise<string[]> {
  const res = await client.get(`${fileUrl(project, path)}/blame`, { query: { ref } });
  expectStatus(res, 200, `reading the blame of ${path} at ${ref}`);
  const ranges = res.body as { commit: { author_name: string; author_email: string } }[];
  return [...new Set(ranges.map((r) => `${r.commit.author_name} <${r.commit.author_email}>`))];
}

/** The header names of the spec's X-Service-* set, with the configured prefix. */
export const METADATA_FIELDS = ['blob_id', 'commit_id', 'content_sha256', 'encoding', 'file_name', 'file_path', 'last_commit_id', 'ref', 'size', 'execute_filemode'] as const;

export function headerName(prefix: string, field: string): string {
  return `${prefix}${field.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('-')}`;
}

/**
 * GitLab's own answer where the spec allows others (a status the spec leaves open, an exact text):
 * a parity check, with `gitlab` naming where GitLab's code gives it.
 */
export function expectGitLabError(res: Exchange, gitlab: string, status: number, text: { message?: string | RegExp; error?: string | RegExp } = {}): void {
  parity(res, gitlab, () => expectError(res, status, { ...text, gitlab }));
}

/** GitLab's success status where the spec leaves it open (e.g. 204 where the spec allows 200 too): a parity check. */
export function expectGitLabStatus(res: Exchange, gitlab: string, status: number): void {
  parity(res, gitlab, () => expectStatus(res, status));
}

/** Where GitLab answers a private project's file to an anonymous caller: 404, the project hidden. */
export const ANONYMOUS_PRIVATE_GITLAB =
  'lib/api/helpers.rb (find_project!: not_found!, no authenticate_non_public on the files routes); spec/requests/api/files_spec.rb (when unauthenticated and project is private: 404 Project Not Found)';

/** Where GitLab writes the texts the files tests check at the parity level. */
export const GITLAB_TEXT = {
  fileNotFound: "lib/api/files.rb (assign_file_vars!: not_found!('File'))",
  commitNotFound: "lib/api/files.rb (assign_file_vars!: not_found!('Commit'))",
  projectNotFound: "lib/api/helpers.rb (find_project!: not_found!('Project'))",
  filePath: 'lib/api/validations/validators/file_path.rb ("should be a valid file path"); spec/requests/api/files_spec.rb',
  params: 'lib/api/files.rb (params); lib/api/api.rb (rescue_from Grape::Exceptions::Base); Grape lib/grape/locale/en.yml',
  route: "lib/api/api.rb (route :any, '*path': error!('404 Not Found', 404))",
} as const;

/**
 * File-write parameter errors (a missing or invalid content, encoding, execute_filemode, branch,
 * commit_message) come in two forms, by GitLab version: Grape's validation {"error":"content is
 * missing"} (lib/api/files.rb params with requires/values, lib/api/api.rb rescue_from
 * Grape::Exceptions::Base; gitlabhq spec/requests/api/files_spec.rb) and, in the newest GitLab read,
 * where write bodies arrive as Workhorse body uploads and lib/api/files.rb checks them itself with
 * bad_request!, {"message":"400 Bad request - content is required"} ("encoding must be text or
 * base64", "execute_filemode must be a boolean"; spec/requests/api/files_spec.rb@387ee084 of the
 * gitlab-org/gitlab mirror, "validates file params").
 */
export const WRITE_PARAMS_GITLAB =
  'older GitLab (e.g. gitlabhq/gitlabhq@926711e4): lib/api/files.rb (Grape params) and lib/api/api.rb (rescue_from Grape::Exceptions::Base): {"error":"<param> is missing"}; newest GitLab read (spec/requests/api/files_spec.rb@387ee084, "validates file params"): lib/api/files.rb bad_request!: {"message":"400 Bad request - <param> is required"}';

/** A 400 for a file-write parameter, in either of GitLab's two forms (parity), naming the parameter. */
export function expectWriteParamError(res: Exchange, param: string): void {
  expectError(res, 400);
  parity(res, WRITE_PARAMS_GITLAB, () => {
    const body = (res.body ?? {}) as { error?: unknown; message?: unknown };
    const grape = typeof body.error === 'string' && body.error.includes(param);
    const newest = typeof body.message === 'string' && body.message.startsWith('400 Bad request - ') && body.message.includes(param);
    expectTrue(grape || newest, `a parameter error naming ${param}: Grape's {"error":"${param} …"} (older GitLab) or {"message":"400 Bad request - ${param} …"} (newest GitLab, files_spec@387ee084)`, `got ${JSON.stringify(res.body)}`, res);
  });
}

/**
 * Sets a project's repository feature through GitLab's own API (PUT /projects/:id, lib/api/projects.rb),
 * as the admin. Merge requests and CI follow it: GitLab refuses them more open than the repository
 * (ProjectFeature#repository_children_level), as its own 'disabled repository' context sets all three.
 */
export async function setRepositoryAccess(ctx: SetupContext, project: ProjectInfo, level: 'disabled' | 'private' | 'enabled'): Promise<void> {
  ctx.mayUse('project-update');
  const res = await ctx.admin.put(apiPath`/projects/${project.id}`, {
    body: { repository_access_level: level, merge_requests_access_level: level, builds_access_level: level },
  });
  const shown = (res.body as { repository_access_level?: unknown } | undefined)?.repository_access_level;
  if (res.status !== 200 || (shown !== undefined && shown !== level)) throw new SetupError(`set repository_access_level=${level} on ${project.fullPath}`, res, [200], 'project-update');
}
