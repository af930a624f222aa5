// The members API's entities as GitLab presents them: Member (CE with the EE additions),
// BillableMember, BillableMembership and PendingMember (lib/api/entities/member.rb, EE entities).
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { userBasic, webBase, type Context } from '../../http/context.js';
import { ACCESS, ROLE_NAMES, type Group, type Member, type Source, type User } from '../../state/model.js';
import type { Store } from '../../state/store.js';
import { isLastOwner, rootGroupOf, sourceOf, type MemberRow, type MembershipType } from './rules.js';

/** Who is looking, at which source (the one in the request path), with which options. */
interface MemberView {
  viewer: User;
  source: Source;
  showSeatInfo?: boolean;
}

/** Administrators, and the owners of the top-level group that manages the enterprise user (`managed_by_user?`). */
function emailVisible(store: Store, user: User, viewer: User, root: Group | undefined): boolean {
  if (viewer.isAdmin) return true;
  return root !== undefined && user.enterpriseGroupId === root.id && store.groupAccess(root, viewer.id) >= ACCESS.OWNER;
}

/**
 * The EE Member entity. Its conditions look at the membership's own source (not the one asked
 * about): email by that source's top-level group (ee/lib/ee/api/entities/member.rb), group_saml_identity only for
 * group memberships, to owners of a group whose top-level group has SAML SSO on.
 */
export function memberEntity(ctx: Context, request: FastifyRequest, row: MemberRow, view: MemberView) {
  const { store } = ctx;
  const { member } = row;
  const user = store.users.get(member.userId!)!;
  const memberSource = sourceOf(store, member)!;
  const body: Record<string, unknown> = { ...userBasic(request, user), access_level: row.accessLevel, created_at: member.createdAt };
  const creator = store.userOrNone(member.createdById);
  if (creator && !row.sourceHidden) body.created_by = userBasic(request, creator);
  body.expires_at = member.expiresAt;
  if (emailVisible(store, user, view.viewer, rootGroupOf(store, memberSource))) body.email = user.email;
  if (memberSource.kind === 'group') {
    const root = store.rootOf(memberSource);
    const owner = view.viewer.isAdmin || store.groupAccess(memberSource, view.viewer.id) >= ACCESS.OWNER;
    if (root.samlSsoEnabled && owner) {
      const identity = user.samlIdentities.get(root.id);
      body.group_saml_identity = identity ? { extern_uid: identity.externUid, provider: identity.provider, saml_provider_id: identity.samlProviderId } : null;
    }
    if (member.ldap) body.override = member.override;
  }
  body.membership_state = member.state;
  if (view.showSeatInfo) body.is_using_seat = user.state === 'active' && member.state === 'active';
  return body;
}

export function billableMemberEntity(ctx: Context, request: FastifyRequest, user: User, type: MembershipType, view: MemberView) {
  const { store } = ctx;
  const root = rootGroupOf(store, view.source)!;
  const rootMember = store.directMembership(root, user.id);
  return {
    ...userBasic(request, user),
    // ee/lib/ee/api/entities/billable_member.rb: `expose :public_email, as: :email`, overridden by
    // `expose :email, if: admin || managed_by_user?`. The key is always there; users.public_email
    // has no default (RemoveNotNullConstraintAndDefaultForPublicEmail), so no public email is null.
    email: emailVisible(store, user, view.viewer, root) ? user.email : user.publicEmail || null,
    last_activity_on: user.lastActivityOn,
    membership_type: type,
    removable: type === 'group_member' || type === 'project_member',
    created_at: user.createdAt,
    is_last_owner: rootMember !== undefined && isLastOwner(store, root, rootMember),
    last_login_at: user.lastLoginAt,
  };
}

export function membershipEntity(ctx: Context, request: FastifyRequest, member: Member) {
  const { store } = ctx;
  const source = sourceOf(store, member)!;
  const url =
    source.kind === 'group'
      ? `${webBase(request)}/groups/${store.groupFullPath(source)}/-/group_members`
      : `${webBase(request)}/${store.projectFullPath(source)}/-/project_members`;
  return {
    id: member.id,
    source_id: source.id,
    source_full_name: source.kind === 'group' ? store.groupFullName(source) : store.projectFullName(source),
    source_members_url: url,
    created_at: member.createdAt,
    expires_at: member.expiresAt,
    access_level: { string_value: ROLE_NAMES[member.accessLevel], integer_value: member.accessLevel },
  };
}

function gravatar(email: string): string {
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`;
}

/** PendingMember: name, username and web_url only when the person has an account. */
export function pendingMemberEntity(ctx: Context, request: FastifyRequest, member: Member) {
  const user = ctx.store.userOrNone(member.userId);
  const email = user?.email ?? member.inviteEmail ?? '';
  const basic = user ? userBasic(request, user) : undefined;
  return {
    id: member.id,
    ...(basic ? { name: basic.name, username: basic.username } : {}),
    email,
    ...(basic ? { web_url: basic.web_url } : {}),
    invited: member.inviteToken !== null,
    avatar_url: basic?.avatar_url ?? gravatar(email),
    approved: member.state === 'active',
  };
}
