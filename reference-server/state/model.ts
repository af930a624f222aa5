// The reference server's in-memory world: the records GitLab keeps for users, tokens, groups,
// projects and memberships. Area routes read and change these through `Store` (store.ts).
import type { Repository } from '../git/repository.js';

export type Visibility = 'private' | 'internal' | 'public';

/**
 * A project feature's access level as the API names it (`repository_access_level`): disabled for
 * everyone, private to project members, or enabled for everyone who can see the project
 * (GitLab: app/models/project_feature.rb, lib/api/helpers/projects_helpers.rb).
 */
export type FeatureAccessLevel = 'disabled' | 'private' | 'enabled';

export const ACCESS = {
  NO_ACCESS: 0,
  MINIMAL_ACCESS: 5,
  GUEST: 10,
  PLANNER: 15,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
  ADMIN: 60,
} as const;

export const ROLE_NAMES: Record<number, string> = {
  0: 'No access',
  5: 'Minimal Access',
  10: 'Guest',
  15: 'Planner',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
};

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  publicEmail: string;
  state: 'active' | 'blocked';
  isAdmin: boolean;
  createdAt: string;
  lastActivityOn: string | null;
  lastLoginAt: string | null;
  /** Set for enterprise users: the top-level group that manages the account. */
  enterpriseGroupId?: number;
  /** SAML identities by group id (the group with SSO on). */
  samlIdentities: Map<number, { externUid: string; provider: string; samlProviderId: number }>;
  /** Whether the primary address is confirmed: POST /users confirms it only with skip_confirmation. */
  confirmed: boolean;
  /**
   * The id of the Email row GitLab keeps for a confirmed primary address (app/models/user.rb
   * `add_primary_email_to_emails!`, run when the user is saved confirmed); absent while unconfirmed.
   */
  primaryEmailId?: number;
  /** The address the user commits with (PUT /users/:id commit_email), one they verified; absent: the primary (User#commit_email_or_default). */
  commitEmail?: string;
  /** Secondary addresses (POST /users/:id/emails), confirmed only with skip_confirmation. */
  emails: EmailRow[];
  /** The avatar uploaded with POST /users (multipart `avatar`), served at its upload path (routes/uploads.ts). */
  avatar?: Avatar;
  /** GitLab's user_type for the bot user of a project access token (POST /projects/:id/access_tokens); absent for people. */
  userType?: 'project_bot';
}

/** An uploaded avatar (a multipart `avatar` part), kept as CarrierWave stores it: the sanitised file name, type and bytes. */
export interface Avatar {
  filename: string;
  type: string;
  content: Buffer;
}

/** One of GitLab's Email rows (lib/api/entities/email.rb presents id, email, confirmed_at). */
export interface EmailRow {
  id: number;
  email: string;
  confirmed: boolean;
  createdAt: string;
}

export interface PersonalAccessToken {
  id: number;
  userId: number;
  name: string;
  token: string;
  scopes: string[];
  expiresAt: string | null;
  revoked: boolean;
  createdAt: string;
}

export interface GroupLink {
  /** The group invited into the source (the group whose members gain access). */
  groupId: number;
  accessLevel: number;
  expiresAt: string | null;
}

export interface Group {
  kind: 'group';
  id: number;
  name: string;
  path: string;
  parentId: number | null;
  visibility: Visibility;
  createdAt: string;
  description: string;
  samlSsoEnabled: boolean;
  /** Groups this group is shared with (they were invited into this group). */
  sharedWith: GroupLink[];
  /** Set when the group is pending deletion (the server's delayed-deletion mode). */
  markedForDeletionOn?: string;
  /** The avatar uploaded with POST /groups (multipart `avatar`). */
  avatar?: Avatar;
}

export interface UserNamespace {
  kind: 'user';
  id: number;
  userId: number;
  path: string;
}

export interface RemoteMirror {
  id: number;
  /** Stored URL with credentials removed; credentials kept apart as GitLab does. */
  url: string;
  credentials: { user?: string; password?: string };
  enabled: boolean;
  authMethod: 'ssh_public_key' | 'password';
  keepDivergentRefs: boolean;
  onlyProtectedBranches: boolean;
  mirrorBranchRegex: string | null;
  updateStatus: 'none' | 'started' | 'finished' | 'failed' | 'to_retry';
  lastError: string | null;
  lastUpdateAt: string | null;
  lastUpdateStartedAt: string | null;
  lastSuccessfulUpdateAt: string | null;
  /** The known_hosts lines of the target (host_keys, RemoteMirrors::HostKeysConverter), or null. */
  sshKnownHosts: string | null;
  /** What the simulated push target holds: branch name to commit id. */
  pushedRefs: Map<string, string>;
}

export interface Project {
  kind: 'project';
  id: number;
  /** Set when the project is pending deletion (the server's delayed-deletion mode). */
  markedForDeletionOn?: string;
  name: string;
  path: string;
  namespace: { kind: 'group' | 'user'; id: number };
  visibility: Visibility;
  createdAt: string;
  creatorId: number;
  repository: Repository;
  protectedBranches: Set<string>;
  sharedWith: GroupLink[];
  remoteMirrors: RemoteMirror[];
  /** The repository feature (PUT /projects/:id `repository_access_level`); absent means `enabled`, GitLab's default. */
  repositoryAccessLevel?: FeatureAccessLevel;
  /** The merge-requests and CI features (`merge_requests_access_level`, `builds_access_level`): never more open than the repository (ProjectFeature#repository_children_level); absent means `enabled`. */
  mergeRequestsAccessLevel?: FeatureAccessLevel;
  buildsAccessLevel?: FeatureAccessLevel;
  /** Set by POST or PUT /projects/:id; GitLab's default is an empty text. */
  description?: string;
  /** The avatar uploaded with POST or PUT /projects (multipart `avatar`). */
  avatar?: Avatar;
}

export type Source = Group | Project;

export interface Member {
  id: number;
  source: { kind: 'group' | 'project'; id: number };
  /** Null for an invitation of a person without an account. */
  userId: number | null;
  inviteEmail: string | null;
  /** Set while the invitation is pending (GitLab keeps invites as members with a token). */
  inviteToken: string | null;
  accessLevel: number;
  expiresAt: string | null;
  createdById: number | null;
  createdAt: string;
  /** The last change of its level or expiry (GitLab's updated_at, read by If-Unmodified-Since); absent: createdAt. */
  updatedAt?: string;
  state: 'active' | 'awaiting';
  ldap: boolean;
  override: boolean;
  inviteSource: string;
  memberRoleId: number | null;
}

export interface ApplicationSettings {
  enableMemberPromotionManagement: boolean;
}

/** How DELETE /groups/:id and /projects/:id behave: at once, or marked (and renamed with the suffix, when there is one); a GitLab profile sets it (reference-server/profile.ts). */
export type Deletion = { kind: 'immediate' } | { kind: 'marked'; projectSuffix: 'deleted' | 'deletion_scheduled'; groupSuffix: 'deletion_scheduled' | null };
