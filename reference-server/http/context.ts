// What every route module receives: the store, the server's options, and small shared helpers
// (the caller, source lookup with GitLab's 404s, web URLs).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Group, Project, Source, User } from '../state/model.js';
import type { Store } from '../state/store.js';
import { authenticate, type Actor } from './auth.js';
import { notFound } from './errors.js';

export interface ServerOptions {
  /** Version reported by GET /version. */
  version: string;
  /** Prefix of the file metadata headers, GitLab's is "X-Gitlab-". */
  headerPrefix: string;
  /** Groups and projects are first marked for deletion, as in GitLab 17 and 18 (routes/deletion.ts). */
  delayedDeletion?: boolean;
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

/** `find_project!`: unknown, or invisible to the caller → 404 "Project Not Found". */
export function findProject(ctx: Context, request: FastifyRequest, id: string): Project {
  const project = ctx.store.findProject(id);
  if (!project || !ctx.store.canSee(project, actorOf(ctx, request).user)) throw notFound('Project');
  return project;
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

export function avatarUrl(user: User): string {
  const hash = createHash('md5').update(user.email.trim().toLowerCase()).digest('hex');
  return `https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`;
}

/** GitLab's UserBasic entity. */
export function userBasic(request: FastifyRequest, user: User) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: avatarUrl(user),
    web_url: `${webBase(request)}/${user.username}`,
  };
}
