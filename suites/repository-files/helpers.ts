// Shared pieces of the repository-files suite: the per-file world (a public group with one member
// per role and a public and a private project in it), file writes, and the expected git values
// computed here, independently of any server.
import { createHash } from 'node:crypto';
import { apiPath, type Client, type Exchange } from '../harness/core/client.js';
import { expectError, expectStatus, parity } from '../harness/core/checks.js';
import { useWorld } from '../harness/run/conformance.js';
import type { GroupInfo, ProjectInfo } from '../harness/run/world.js';

export interface FilesWorld {
  group: GroupInfo;
  publicProject: ProjectInfo;
  privateProject: ProjectInfo;
  /** A unique file path for one test: "<test>/<name>" under a directory of its own. */
  path(test: string, name?: string): string;
}

export function useFilesWorld(scope: string): () => FilesWorld {
  return useWorld(scope, async (world) => {
    const group = await world.group({ visibility: 'public', hint: 'files' });
    await world.addRoleMembers(group);
    const publicProject = await world.project({ group, visibility: 'public', hint: 'public' });
    const privateProject = await world.project({ group, visibility: 'private', hint: 'private' });
    return { group, publicProject, privateProject, path: (test, name = 'file.txt') => `${test}/${name}` };
  });
}

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
  branch?: string;
  startBranch?: string;
  message?: string;
  encoding?: 'text' | 'base64';
  executable?: boolean;
  authorName?: string;
  authorEmail?: string;
  lastCommitId?: string;
}

export function writeBody(content: string | undefined, options: WriteOptions = {}): Record<string, unknown> {
  return {
    branch: options.branch ?? 'main',
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

/** Creates a file through the API (as a maintainer unless told otherwise) and insists it worked. */
export async function createFile(client: Client, project: ProjectInfo, path: string, content: string, options: WriteOptions = {}): Promise<Exchange> {
  const res = await client.post(fileUrl(project, path), { body: writeBody(content, options) });
  expectStatus(res, 201, `creating ${path} for this test`);
  return res;
}

export async function updateFile(client: Client, project: ProjectInfo, path: string, content: string, options: WriteOptions = {}): Promise<Exchange> {
  const res = await client.put(fileUrl(project, path), { body: writeBody(content, options) });
  expectStatus(res, 200, `updating ${path} for this test`);
  return res;
}

/** Reads a file's JSON metadata at a ref (a plain read: 200 expected). */
export async function readFile(client: Client, project: ProjectInfo, path: string, ref = 'main'): Promise<Record<string, unknown>> {
  const res = await client.get(fileUrl(project, path), { query: { ref } });
  expectStatus(res, 200, `reading ${path} back at ${ref}`);
  return res.body as Record<string, unknown>;
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
