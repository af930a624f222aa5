// What every route module receives: the store, the server's options, and small shared helpers
// (the caller, source lookup with GitLab's 404s, web URLs).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Group, Project, Source, User } from '../state/model.js';
import type { Store } from '../state/store.js';
import type { Deletion } from '../state/model.js';
import { authenticate, type Actor } from './auth.js';
import { ApiError, notFound } from './errors.js';

export interface ServerOptions {
  /** Version reported by GET /version. */
  version: string;
  /** Prefix of the file metadata headers, GitLab's is "X-Gitlab-". */
  headerPrefix: string;
  /** Groups and projects are first marked for deletion, as in GitLab 17 and 18 (routes/deletion.ts). */
  delayedDeletion?: boolean;
  /** How deletion goes (profile.ts; routes/deletion.ts): set by buildApp from `delayedDeletion` and `gitlab`. */
  deletion?: Deletion;
}

export interface Context {
  store: Store;
  options: ServerOptions;
}

export type RouteModule = (app: FastifyInstance, ctx: Context) => void;

const actors = new WeakMap<FastifyRequest, Actor>();

/** The authenticated caller of a request (cached per request). */
export function actorOf(ctx: Context, request: FastifyRequest): Actor {
  let actor = actors.get(request);
  if (!actor) {
    actor = authenticate(ctx.store, request);
    actors.set(request, actor);
  }
  return actor;
}

export function webBase(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * `find_project!`: unknown, or invisible to the caller → 404 "Project Not Found". A full path the
 * project was renamed from (lib/api/helpers.rb find_project: find_by_full_path(id, follow_redirects:
 * true)) finds it too, and then, once the caller may read it, `project_moved?`: a GET is redirected
 * (redirect!: 301 with the same URL, the project's numeric id in place of the old path), any other
 * method refused with 405 "Non GET methods are not allowed for moved projects".
 */
export function findProject(ctx: Context, request: FastifyRequest, id: string): Project {
  const current = ctx.store.findProject(id);
  const project = current ?? (id.includes('/') ? ctx.store.redirectedProject(id) : undefined);
  const moved = current === undefined;
  if (!project || !ctx.store.canSee(project, actorOf(ctx, request).user)) throw notFound('Project');
  if (moved) {
    if (request.method !== 'GET') throw new ApiError(405, { message: 'Non GET methods are not allowed for moved projects' });
    const location = urlWithProjectId(request, project);
    // lib/api/api.rb rescue_from MovedPermanentlyError: rack_response(message, 301, { 'Location' => url }).
    throw new ApiError(301, `This resource has been moved permanently to ${location}`, { Location: location });
  }
  return project;
}

/** Ruby's CGI.escape: everything but letters, digits and "_.-~" percent-encoded, a space as "+". */
function cgiEscape(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/**
 * `url_with_project_id` (lib/api/helpers.rb): the route's path with every parameter CGI-escaped and
 * the project's id in place of `:id`, under the request's base URL, with its query string.
 */
function urlWithProjectId(request: FastifyRequest, project: Project): string {
  const params: Record<string, string> = { ...(request.params as Record<string, string>), id: String(project.id) };
  const path = (request.routeOptions.url ?? '').replace(/:([a-z_]+)/g, (_match, name: string) => cgiEscape(params[name] ?? ''));
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  return `${webBase(request)}${path}${query}`;
}

export function findGroup(ctx: Context, request: FastifyRequest, id: string): Group {
  const group = ctx.store.findGroup(id);
  if (!group || !ctx.store.canSee(group, actorOf(ctx, request).user)) throw notFound('Group');
  return group;
}

/** The group or project a `/:kind/:id/...` route names (`find_source!`). */
export function findSource(ctx: Context, request: FastifyRequest, kind: Source['kind'], id: string): Source {
  return kind === 'group' ? findGroup(ctx, request, id) : findProject(ctx, request, id);
}

/**
 * A user's avatar_url: the uploaded avatar at the server's own upload path, as GitLab gives it
 * (app/models/concerns/avatarable.rb avatar_url: the instance URL and avatar.local_url,
 * /uploads/-/system/user/avatar/:id/:filename), or else the Gravatar address of the email.
 */
export function avatarUrl(request: FastifyRequest, user: User): string {
  if (user.avatar) return `${webBase(request)}${avatarPath('user', user.id, user.avatar.filename)}`;
  const hash = createHash('md5').update(user.email.trim().toLowerCase()).digest('hex');
  return `https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`;
}

/**
 * A group's or project's avatar_url: the uploaded avatar's URL, or null when none was uploaded
 * (Avatarable#avatar_url; lib/api/entities/group.rb and basic_project_details.rb expose it; GitLab has no
 * Gravatar for them. A project with a logo.png in its repository and no upload is not modelled).
 */
export function sourceAvatarUrl(request: FastifyRequest, source: Group | Project): string | null {
  return source.avatar ? `${webBase(request)}${avatarPath(source.kind, source.id, source.avatar.filename)}` : null;
}

/** Where GitLab's uploader stores an avatar (AvatarUploader#store_dir: uploads/-/system/:model/avatar/:id). */
export function avatarPath(model: 'user' | 'group' | 'project', id: number, filename: string): string {
  return `/uploads/-/system/${model}/avatar/${id}/${encodeURIComponent(filename)}`;
}

/** GitLab's UserBasic entity. */
export function userBasic(request: FastifyRequest, user: User) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: avatarUrl(request, user),
    web_url: `${webBase(request)}/${user.username}`,
  };
}
