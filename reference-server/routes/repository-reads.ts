// The repository reads a client makes beside the files API: branches (list, delete; GET and POST are
// set-up routes, setup.ts), commits (list, get) and the tree, as GitLab 18 answers them (read in
// gitlabhq/gitlabhq: lib/api/branches.rb, lib/api/commits.rb, lib/api/repositories.rb, their entities
// lib/api/entities/branch.rb, commit.rb, commit_detail.rb, tree_object.rb, and
// app/finders/repositories/tree_finder.rb, app/services/branches/delete_service.rb).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { diffArrays } from 'diff';
import { splitLines, type Commit, type Repository } from '../git/repository.js';
import { itemAt, type Item, type Tree } from '../git/objects.js';
import { validRefName } from '../git/ref-name.js';
import { requireScope, requireUser, READ_API_SCOPES, WRITE_API_SCOPES } from '../http/auth.js';
import { actorOf, findProject, type Context, type RouteModule } from '../http/context.js';
import { apiError, forbidden, notFound } from '../http/errors.js';
import { pageUrl, paginate, readPage } from '../http/pagination.js';
import { mergedParams, Params } from '../http/params.js';
import { ACCESS, type Project } from '../state/model.js';
import { commitEntity } from './commit-entity.js';
import { canReadCode } from './repository-files.js';
import { branchEntity } from './setup/branches.js';
import { on, routeTable } from '../http/route-ids.js';

/** The routes of repository-reads, by id. */
export const REPOSITORY_READ_ROUTES = routeTable({
  branches: { method: 'GET', path: '/projects/:id/repository/branches' },
  deleteBranch: { method: 'DELETE', path: '/projects/:id/repository/branches/:branch' },
  commits: { method: 'GET', path: '/projects/:id/repository/commits' },
  commit: { method: 'GET', path: '/projects/:id/repository/commits/:sha' },
  tree: { method: 'GET', path: '/projects/:id/repository/tree' },
});

type ProjectRoute = { Params: { id: string } };
type BranchRoute = { Params: { id: string; branch: string } };
type CommitRoute = { Params: { id: string; sha: string } };

/** `authorize_read_code!` (and `authorize! :download_code`) after find_project!: 403 for a caller who sees the project but not its code. */
function readableProject(ctx: Context, request: FastifyRequest, id: string): Project {
  const actor = actorOf(ctx, request);
  requireScope(actor, READ_API_SCOPES);
  const project = findProject(ctx, request, id);
  if (!canReadCode(ctx.store, project, actor.user)) throw forbidden();
  return project;
}

export const repositoryReadRoutes: RouteModule = (app, ctx) => {
  branchReadRoutes(app, ctx);
  commitAndTreeRoutes(app, ctx);
};

/** The branches: listed, and one deleted. */
function branchReadRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  // GET :id/repository/branches: BranchesFinder (search: a case-insensitive part of the name, `^` anchors
  // the start, `$` the end; sorted by name), offset-paginated when no page_token is given.
  on<ProjectRoute>(app, REPOSITORY_READ_ROUTES.branches, async (request, reply) => {
    const project = readableProject(ctx, request, request.params.id);
    const params = new Params(mergedParams(request));
    const search = params.string('search');
    const names = [...project.repository.branches.keys()].filter((name) => matchesSearch(name, search)).sort(byBytes);
    return paginate(request, reply, names, params).map((name) => branchEntity(ctx, request, project, name));
  });

  // DELETE :id/repository/branches/:branch: authorize_push_project, find_branch!, then Branches::DeleteService;
  // lib/gitlab/checks/branch_check.rb refuses the default branch, and a protected one to all but
  // Maintainers (the service deletes as the web does), each a PreReceiveError: 400 with its text.
  on<BranchRoute>(app, REPOSITORY_READ_ROUTES.deleteBranch, async (request, reply) => {
    const actor = actorOf(ctx, request);
    const user = requireUser(actor);
    requireScope(actor, WRITE_API_SCOPES);
    const project = findProject(ctx, request, request.params.id);
    if (store.accessLevel(project, user) < ACCESS.DEVELOPER) throw forbidden();
    const name = request.params.branch;
    if (!validRefName(name)) throw apiError(400, 'The branch refname is invalid');
    if (!project.repository.branches.has(name)) throw notFound('Branch');
    if (name === project.repository.defaultBranch) throw apiError(400, 'The default branch of a project cannot be deleted.');
    if (project.protectedBranches.has(name) && store.accessLevel(project, user) < ACCESS.MAINTAINER) {
      throw apiError(400, 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.');
    }
    project.repository.branches.delete(name);
    reply.code(204);
  });
}

/** The commits (listed, and one) and the tree. */
function commitAndTreeRoutes(app: FastifyInstance, ctx: Context): void {
  const { store } = ctx;
  // GET :id/repository/commits: first-parent history from ref_name (the default branch when absent),
  // only commits that changed `path` when given; an unknown ref lists nothing. Paginated without a count
  // (`paginate(..., exclude_total_headers: true, without_count: true)`): a next page when this one is full.
  on<ProjectRoute>(app, REPOSITORY_READ_ROUTES.commits, async (request, reply) => {
    const project = readableProject(ctx, request, request.params.id);
    const params = new Params(mergedParams(request));
    const refName = params.string('ref_name');
    const path = params.string('path');
    params.boolean('all');
    params.boolean('with_stats');
    params.boolean('first_parent');
    params.boolean('trailers');
    params.string('order', { values: ['default', 'topo'] });
    const { page, perPage } = readPage(params);
    params.done();
    const repository = project.repository;
    const start = repository.resolve(refName || repository.defaultBranch);
    const offset = (page - 1) * perPage;
    const rows: Commit[] = [];
    let seen = 0;
    for (let commit = start; commit && rows.length < perPage; commit = firstParent(repository, commit)) {
      if (path !== undefined && path !== '' && !changedAt(repository, commit, path)) continue;
      if (seen++ >= offset) rows.push(commit);
    }
    reply.header('X-Per-Page', String(perPage));
    reply.header('X-Page', String(page));
    reply.header('X-Next-Page', rows.length === perPage ? String(page + 1) : '');
    reply.header('X-Prev-Page', page > 1 ? String(page - 1) : '');
    const link = (rel: string, target: number) => `<${pageUrl(request, target, perPage)}>; rel="${rel}"`;
    reply.header('Link', [...(page > 1 ? [link('prev', page - 1)] : []), ...(rows.length === perPage ? [link('next', page + 1)] : []), link('first', 1)].join(', '));
    return rows.map((commit) => commitEntity(request, store, project, commit));
  });

  // GET :id/repository/commits/:sha: a sha, branch or tag; CommitDetail (Commit, then stats, status, project_id, last_pipeline).
  on<CommitRoute>(app, REPOSITORY_READ_ROUTES.commit, async (request) => {
    const project = readableProject(ctx, request, request.params.id);
    const params = new Params(mergedParams(request));
    const withStats = params.boolean('stats') ?? true;
    params.done();
    const commit = project.repository.resolve(request.params.sha);
    if (!commit) throw notFound('Commit');
    return {
      ...commitEntity(request, store, project, commit),
      ...(withStats ? { stats: commitStats(project.repository, commit) } : {}),
      status: null,
      project_id: project.id,
      last_pipeline: null,
    };
  });

  // GET :id/repository/tree: Repositories::TreeFinder at `ref` (the default branch when absent): no commit
  // is 404 "Tree Not Found", a path that is no directory Gitaly's "invalid revision or path"
  // (spec/requests/api/repositories_spec.rb). Entries as Gitlab::Git::Tree#sorted_entries: trees, then blobs.
  on<ProjectRoute>(app, REPOSITORY_READ_ROUTES.tree, async (request, reply) => {
    const project = readableProject(ctx, request, request.params.id);
    const params = new Params(mergedParams(request));
    const ref = params.string('ref');
    const path = params.string('path');
    const recursive = params.boolean('recursive') ?? false;
    const repository = project.repository;
    const commit = repository.resolve(ref ?? repository.defaultBranch);
    if (!commit) throw notFound('Tree');
    const dir = (path ?? '').replace(/^\/+|\/+$/g, '');
    const item: Item | undefined = dir === '' ? undefined : itemAt(commit.root, dir);
    if (dir !== '' && item?.kind !== 'tree') throw notFound('invalid revision or path');
    const tree = item?.kind === 'tree' ? item.tree : commit.root;
    const entries = treeEntries(tree, dir, recursive);
    const sorted = [...entries.filter((e) => e.type === 'tree'), ...entries.filter((e) => e.type === 'blob')];
    return paginate(request, reply, sorted, params);
  });
}

/** GitLab's TreeObject (lib/api/entities/tree_object.rb): the mode zero-padded to six digits. */
interface TreeObject {
  id: string;
  name: string;
  type: 'tree' | 'blob';
  path: string;
  mode: string;
}

function treeEntries(tree: Tree, dir: string, recursive: boolean): TreeObject[] {
  const out: TreeObject[] = [];
  for (const item of tree.items) {
    const path = dir === '' ? item.name : `${dir}/${item.name}`;
    out.push({ id: item.id, name: item.name, type: item.kind, path, mode: item.mode.padStart(6, '0') });
    if (recursive && item.kind === 'tree') out.push(...treeEntries(item.tree, path, true));
  }
  return out;
}

/** BranchesFinder#filter_by_name: `^x` a prefix, `x$` a suffix, else a part; case-insensitive. */
function matchesSearch(name: string, search: string | undefined): boolean {
  if (!search) return true;
  const lower = name.toLowerCase();
  let term = search.toLowerCase();
  const prefix = term.startsWith('^');
  const suffix = term.endsWith('$');
  if (prefix) term = term.slice(1);
  if (suffix) term = term.slice(0, -1);
  if (prefix && suffix) return lower === term;
  if (prefix) return lower.startsWith(term);
  if (suffix) return lower.endsWith(term);
  return lower.includes(term);
}

/** git's refname order: by bytes. */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function firstParent(repository: Repository, commit: Commit): Commit | undefined {
  const id = commit.parentIds[0];
  return id === undefined ? undefined : repository.commits.get(id);
}

/** Whether the commit changed anything at `path` (a file or a directory) against its first parent. */
function changedAt(repository: Repository, commit: Commit, path: string): boolean {
  const parent = firstParent(repository, commit);
  const now = itemAt(commit.root, path.replace(/\/+$/, ''));
  const before = parent ? itemAt(parent.root, path.replace(/\/+$/, '')) : undefined;
  return now?.id !== before?.id || (now?.kind === 'blob' && before?.kind === 'blob' && now.mode !== before.mode);
}

/** CommitStats (lib/api/entities/commit_stats.rb): lines added and removed against the first parent, over every changed file. */
function commitStats(repository: Repository, commit: Commit) {
  const parent = firstParent(repository, commit);
  let additions = 0;
  let deletions = 0;
  for (const [before, after] of changedBlobs(parent?.root, commit.root)) {
    const lines = (id: string | undefined) => (id === undefined ? [] : splitLines(repository.blobs.get(id) ?? Buffer.alloc(0)));
    for (const part of diffArrays(lines(before), lines(after))) {
      if (part.added) additions += part.value.length;
      else if (part.removed) deletions += part.value.length;
    }
  }
  return { additions, deletions, total: additions + deletions };
}

/** The blob ids (before, after) of every file that differs between two roots; subtrees with equal ids are skipped. */
function changedBlobs(a: Tree | undefined, b: Tree | undefined): [string | undefined, string | undefined][] {
  if (a?.id === b?.id) return [];
  const names = new Set([...(a?.items ?? []).map((i) => i.name), ...(b?.items ?? []).map((i) => i.name)]);
  const out: [string | undefined, string | undefined][] = [];
  for (const name of names) {
    const x = a?.get(name);
    const y = b?.get(name);
    if (x?.id === y?.id) continue;
    out.push(...changedBlobs(x?.kind === 'tree' ? x.tree : undefined, y?.kind === 'tree' ? y.tree : undefined));
    const blobX = x?.kind === 'blob' ? x.id : undefined;
    const blobY = y?.kind === 'blob' ? y.id : undefined;
    if (blobX !== blobY) out.push([blobX, blobY]);
  }
  return out;
}
