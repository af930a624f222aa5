// GitLab's vocabulary, once for every area: access levels and roles, the two kinds of source (group
// and project) and their API paths, token scopes, and dates as the API writes them.
import { apiPath } from './client.js';

/** Access levels (spec: Access levels). */
export const ACCESS = { NO_ACCESS: 0, MINIMAL: 5, GUEST: 10, REPORTER: 20, DEVELOPER: 30, MAINTAINER: 40, OWNER: 50, ADMIN: 60 } as const;

/** The member roles of the shared actors, highest first. */
export const ROLES = ['owner', 'maintainer', 'developer', 'reporter', 'guest'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_LEVEL: Record<Role, number> = { owner: ACCESS.OWNER, maintainer: ACCESS.MAINTAINER, developer: ACCESS.DEVELOPER, reporter: ACCESS.REPORTER, guest: ACCESS.GUEST };
/** Shared actors: one user per role, plus one who is never a member of anything. */
export type ActorName = Role | 'outsider';

export const TOKEN_SCOPES = ['api', 'read_api', 'read_repository'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Groups and projects: most member and invitation endpoints exist for both (spec: Members, Invitations). */
export const SOURCE_KINDS = ['group', 'project'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export type Visibility = 'private' | 'internal' | 'public';

/** A group the run made or uses. */
export interface GroupInfo {
  kind: 'group';
  id: number;
  name: string;
  fullPath: string;
}

/** A project the run made or uses. */
export interface ProjectInfo {
  kind: 'project';
  id: number;
  fullPath: string;
  defaultBranch: string;
}

export type SourceInfo = GroupInfo | ProjectInfo;

/** A group or project by numeric id or by full path (spec: Conventions; a path is URL-encoded as one segment). */
export interface SourceRef {
  kind: SourceKind;
  id: number | string;
}

/** `/groups/:id` or `/projects/:id`. */
export function sourcePath(source: SourceRef): string {
  return source.kind === 'group' ? apiPath`/groups/${source.id}` : apiPath`/projects/${source.id}`;
}

/** GitLab's 404 text for a group or project the caller cannot see (`not_found!('Group')`, lib/api/helpers.rb). */
export function sourceNotFound(kind: SourceKind): string {
  return kind === 'group' ? '404 Group Not Found' : '404 Project Not Found';
}

/** Today's date (UTC), YYYY-MM-DD. */
export function today(): string {
  return dateIn(0);
}

/** The date `days` from today (UTC), YYYY-MM-DD; negative for the past. */
export function dateIn(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The date part of a date or timestamp (GitLab writes some expiries as dates, the spec as timestamps). */
export function datePart(value: string | null | undefined): string | null | undefined {
  return typeof value === 'string' ? value.slice(0, 10) : value;
}
