// GitLab's Commit entity (lib/api/entities/commit.rb), shared by the branch and the commit routes.
import type { FastifyRequest } from 'fastify';
import type { Commit } from '../git/repository.js';
import { webBase } from '../http/context.js';
import type { Project } from '../state/model.js';
import type { Store } from '../state/store.js';

export function commitEntity(request: FastifyRequest, store: Store, project: Project, commit: Commit) {
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    created_at: iso(commit.committer.time),
    parent_ids: commit.parentIds,
    title: commit.message.split('\n')[0],
    message: commit.message,
    author_name: commit.author.name,
    author_email: commit.author.email,
    authored_date: iso(commit.author.time),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
    committed_date: iso(commit.committer.time),
    trailers: {},
    extended_trailers: {},
    web_url: `${webBase(request)}/${store.projectFullPath(project)}/-/commit/${commit.id}`,
  };
}
