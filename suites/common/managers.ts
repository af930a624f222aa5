// Who manages a source's members and invitations: an Owner of a group; an Owner or a Maintainer of a
// project (GitLab's admin_group_member and admin_project_member abilities), for the members and
// invitations areas alike.
import type { SourceKind } from '../../runner/core/vocabulary.js';

export const MANAGERS = { group: ['owner'], project: ['owner', 'maintainer'] } as const;

/** The lowest role that manages the members and invitations of a `kind` of source: Owner of a group, Maintainer of a project. */
export const manager = (kind: SourceKind): 'owner' | 'maintainer' => MANAGERS[kind][MANAGERS[kind].length - 1];
