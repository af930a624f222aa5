// The members endpoints' paths, by source (a group or a project) and user.
import { apiPath } from '../../runner/core/client.js';

/** A group or project by numeric id, or by full path (then URL-encoded as one segment). */
export interface SourceRef {
  kind: 'group' | 'project';
  id: number | string;
}

const sourceBase = (source: SourceRef) => (source.kind === 'group' ? apiPath`/groups/${source.id}` : apiPath`/projects/${source.id}`);

export const membersPath = (source: SourceRef) => `${sourceBase(source)}/members`;
export const memberPath = (source: SourceRef, userId: number | string) => `${membersPath(source)}${apiPath`/${userId}`}`;
export const allMembersPath = (source: SourceRef) => `${membersPath(source)}/all`;
export const allMemberPath = (source: SourceRef, userId: number | string) => `${allMembersPath(source)}${apiPath`/${userId}`}`;

const groupPath = (group: SourceRef) => apiPath`/groups/${group.id}`;
export const billablePath = (group: SourceRef) => `${groupPath(group)}/billable_members`;
export const billableMemberPath = (group: SourceRef, userId: number | string) => `${billablePath(group)}${apiPath`/${userId}`}`;
export const billableMembershipsPath = (group: SourceRef, userId: number | string) => `${billableMemberPath(group, userId)}/memberships`;
export const billableIndirectPath = (group: SourceRef, userId: number | string) => `${billableMemberPath(group, userId)}/indirect`;
export const statePath = (group: SourceRef, userId: number | string) => `${memberPath(group, userId)}/state`;
export const approvePath = (group: SourceRef, memberId: number | string) => `${memberPath(group, memberId)}/approve`;
export const approveAllPath = (group: SourceRef) => `${membersPath(group)}/approve_all`;
export const pendingPath = (group: SourceRef) => `${groupPath(group)}/pending_members`;
export const overridePath = (group: SourceRef, userId: number | string) => `${memberPath(group, userId)}/override`;
/** The access requests of a group or project (a set-up endpoint: lib/api/access_requests.rb). */
export const accessRequestsPath = (source: SourceRef) => `${sourceBase(source)}/access_requests`;
