// Clauses of the members area: the spec's "Members" endpoints, the Member, Billable member,
// Membership and Pending member resources, the members rows of States, Authentication and
// Versioning, and gitlab-facts §0, §4, §5, §8 where the spec says "not shown".
import type { Clause } from '../harness/core/clauses.js';

const SPEC = 'spec: Endpoints/Members';
const MEMBER = 'spec: Resources/Member';
const FACTS = 'gitlab-facts §4';

export const membersClauses: Clause[] = [
  // ---- the Member resource ------------------------------------------------------------------
  { id: 'members.entity.shape', level: 'must', text: 'A Member carries id (the user id), username, name, state, avatar_url, web_url, access_level, created_at and expires_at (a date or null) of the documented types.', source: MEMBER },
  { id: 'members.entity.created-by', level: 'must', text: 'created_by is the user summary (id, username, name, state, avatar_url, web_url) of the user who added the member.', source: `${MEMBER}; ${FACTS}` },
  { id: 'members.entity.email-hidden', level: 'must', text: 'email is not shown to a viewer who is not an administrator, for members who are not enterprise users managed by the viewer.', source: `${MEMBER} (visibility rules)` },
  { id: 'members.entity.email-admin', level: 'must', text: 'Administrators see every member\'s email.', source: 'gitlab-facts §4 (EE Member), §8' },
  { id: 'members.entity.email-enterprise', level: 'must', text: 'Owners of a group see the email of the group\'s enterprise users when the request is sent to the group or to its subgroups or projects; not the email of other members, and non-owners see none.', source: `${MEMBER} (visibility rules)` },
  { id: 'members.entity.saml-identity', level: 'must', text: 'group_saml_identity {extern_uid, provider, saml_provider_id} is shown only to owners of a group with SSO enabled, and only on group memberships (not on project memberships).', source: `${MEMBER} (visibility rules); gitlab-facts §8` },
  { id: 'members.entity.membership-state', level: 'must', text: 'membership_state is "active" or "awaiting".', source: 'spec: States and transitions; gitlab-facts §4 (EE Member)' },
  { id: 'members.entity.seat-info', level: 'must', text: 'show_seat_info=true adds is_using_seat (boolean) to each member; without it the field is absent.', source: `${SPEC}; gitlab-facts §4 (EE Member)` },
  { id: 'members.entity.override-ldap', level: 'must', text: 'override is shown on LDAP-synced group members.', source: `${MEMBER}; gitlab-facts §4 (EE Member)` },

  // ---- authentication, permissions, cross-cutting ----------------------------------------
  { id: 'members.auth.anonymous', level: 'must', text: 'Every members endpoint refuses a request without a token with 401 {"message":"401 Unauthorized"}, also on public groups and projects.', source: 'gitlab-facts §0.22, §5.2' },
  { id: 'members.auth.read-api-scope', level: 'must', text: 'A read_api token may read members but not add, change or remove them (403).', source: 'gitlab-facts §5.2' },
  { id: 'members.read.visibility', level: 'must', text: 'Anyone who can see the group or project may read its members; a source the caller cannot see, or that does not exist, gives 404 "404 Group Not Found" / "404 Project Not Found".', source: `${FACTS} (read_*_member, find_source)` },
  { id: 'members.manage.role', level: 'must', text: 'Adding, editing and removing members needs Owner on groups and Maintainer or above on projects; other members get 403 {"message":"403 Forbidden"}.', source: `${FACTS}; spec: Authentication 7` },
  { id: 'members.id.path-or-number', level: 'must', text: ':id is the numeric id or the URL-encoded full path of the group or project.', source: 'spec: Conventions' },
  { id: 'members.pagination', level: 'must', text: 'Paginated member lists accept page and per_page, send X-Page, X-Per-Page, X-Total, X-Total-Pages, X-Next-Page, X-Prev-Page and Link, and give [] for a page past the end.', source: 'spec: Conventions, Limits 2; gitlab-facts §5.4' },
  { id: 'members.errors.shape', level: 'must', text: 'Errors are JSON objects with "message" (helpers, model validation) or "error" (parameter validation).', source: 'gitlab-facts §0.1, §5.1' },

  // ---- listing ------------------------------------------------------------------------------
  { id: 'members.list.direct-only', level: 'must', text: 'GET …/members lists direct members only: not members inherited from ancestor groups, not members of invited groups.', source: SPEC },
  { id: 'members.list.no-invitations', level: 'must', text: 'Pending invitations (people invited by email) are not listed as members, neither by …/members nor by …/members/all.', source: `${FACTS} (connected_to_user, non_invite)` },
  { id: 'members.list.query', level: 'must', text: 'query keeps the members whose name or username contains the search string.', source: SPEC },
  { id: 'members.list.user-ids', level: 'must', text: 'user_ids keeps only the members with these user ids.', source: SPEC },
  { id: 'members.list.skip-users', level: 'must', text: 'skip_users leaves out the members with these user ids.', source: SPEC },
  { id: 'members.all.inherited', level: 'must', text: '…/members/all includes direct members, members inherited from ancestor groups and members of groups the source is shared with.', source: `${SPEC} (members/all)` },
  { id: 'members.all.highest-level', level: 'must', text: 'When a user is a member of the source and of ancestor groups, /members/all returns one row for the user, with the highest access level.', source: `${SPEC} (members/all rule 1)` },
  { id: 'members.all.invited-level', level: 'must', text: 'A member of an invited group is listed with the lower of their own level and the level the group was invited with.', source: 'GitLab code (Member: LEAST(group_group_links.group_access, members.access_level))' },
  { id: 'members.all.invited-visible', level: 'must', text: 'Members of an invited group are returned when the invited group is public or the requester is a member of it; members of an invited private group are not returned to a requester who is a member of neither it nor the shared source.', source: `${SPEC} (members/all rule 2)` },
  { id: 'members.all.invited-private-to-source-members', level: 'must', text: 'A member of the shared group or project receives all its members, including members of an invited private group (GitLab 17.4 and later).', source: `${SPEC} (members/all rule 2); spec: Versioning 5` },
  { id: 'members.all.state-filter', level: 'must', text: 'state (awaiting or active; Premium and Ultimate) keeps the members in that state; another value is refused with 400.', source: `${SPEC} (members/all)` },

  // ---- reading one --------------------------------------------------------------------------
  { id: 'members.get.direct', level: 'must', text: 'GET …/members/:user_id returns one direct member; a user who is not a direct member (only inherited, or not a member) gives 404 {"message":"404 Not found"}.', source: `${SPEC}; ${FACTS}` },
  { id: 'members.get.user-id-integer', level: 'must', text: 'A user_id that is not an integer is refused with 400 {"error":"user_id is invalid"}.', source: FACTS },
  { id: 'members.get-all.member', level: 'must', text: 'GET …/members/all/:user_id returns a direct, inherited or invited member with the highest access level, under the same visibility rules as the list; others give 404.', source: `${SPEC}; spec: Versioning 4` },

  // ---- adding --------------------------------------------------------------------------------
  { id: 'members.add.single', level: 'must', text: 'POST …/members with user_id and access_level adds the user and returns the Member (201) with that level; the member is listed afterwards.', source: `${SPEC}; gitlab-facts §5.3` },
  { id: 'members.add.by-username', level: 'must', text: 'username may name the user instead of user_id.', source: SPEC },
  { id: 'members.add.expires-at', level: 'must', text: 'expires_at (YYYY-MM-DD) sets the membership\'s expiry; a date in the past is refused with 400.', source: `${SPEC}; ${FACTS}` },
  { id: 'members.add.several', level: 'must', text: 'Several users, comma-separated in user_id or username, are added in one request answered 201 {"status":"success"}.', source: `${SPEC}; gitlab-facts §0.5` },
  { id: 'members.add.several-errors', level: 'must', text: 'When adding several users fails for some, the answer is still 201, with {"status":"error","message": "<username>: <reason> …"}.', source: 'gitlab-facts §0.5, §4' },
  { id: 'members.add.params', level: 'must', text: 'access_level is required, and exactly one of user_id and username; otherwise 400 {"error": …}.', source: `${SPEC}; ${FACTS}` },
  { id: 'members.add.invalid-level', level: 'must', text: 'An access_level that is not a valid level is refused with 400 {"message":{"access_level":[…]}}.', source: FACTS },
  { id: 'members.add.unknown-user', level: 'must', text: 'An unknown user gives 404 {"message":"404 User Not Found"}.', source: FACTS },
  { id: 'members.add.conflict', level: 'must', text: 'Adding a user who is already a direct member gives 409 {"message":"Member already exists"}, checked before the permission (a caller without the right to add gets 409 too).', source: 'gitlab-facts §0.6, §4' },
  { id: 'members.add.inherited-level', level: 'must', text: 'Adding a user below the highest level they hold in an ancestor group of the source is refused with 400 {"message":{"access_level":["should be greater than or equal to <Role> inherited membership from group <name>"]}} and nobody is added; the same level is accepted.', source: 'GitLab code and API spec (Member#higher_access_level_than_group; spec/requests/api/members_spec.rb)' },
  { id: 'members.add.project-owner', level: 'must', text: 'Only owners may give the Owner role in a project; a Maintainer who tries gets 403.', source: FACTS },

  // ---- editing -------------------------------------------------------------------------------
  { id: 'members.edit.level', level: 'must', text: 'PUT …/members/:user_id changes access_level (and expires_at) and returns the Member with the new values (200).', source: SPEC },
  { id: 'members.edit.not-member', level: 'must', text: 'Editing a user who is not a direct member gives 404 {"message":"404 Not found"}, before the permission check.', source: FACTS },
  { id: 'members.edit.params', level: 'must', text: 'access_level is required on edit (400 {"error":"access_level is missing"}); an invalid level is refused with 400 {"message":{"access_level":[…]}}.', source: `${SPEC}; ${FACTS}` },
  { id: 'members.edit.inherited-level', level: 'must', text: 'Lowering a member below the highest level they hold in an ancestor group is refused with the same 400 access_level error, and the level stays.', source: 'GitLab code (Member#higher_access_level_than_group)' },
  { id: 'members.edit.last-owner', level: 'must', text: 'The last owner of a group may not be edited (GroupMemberPolicy prevents update_group_member): 403 {"message":"403 Forbidden"}, and the membership is unchanged.', source: `${FACTS} (PUT: update permission, else 403); GitLab code (GroupMemberPolicy last_owner)` },
  { id: 'members.edit.project-owner', level: 'must', text: 'A project Maintainer may neither make a member Owner nor change an Owner (403).', source: FACTS },

  // ---- removing ------------------------------------------------------------------------------
  { id: 'members.remove.direct', level: 'must', text: 'DELETE …/members/:user_id removes a direct member (204); the member is no longer listed.', source: `${SPEC}; gitlab-facts §5.1 (destroy_conditionally!)` },
  { id: 'members.remove.subresources', level: 'must', text: 'Removing a group member also removes the user\'s direct memberships in its subgroups and projects, unless skip_subresources=true, which keeps them.', source: SPEC },
  { id: 'members.remove.unassign-issuables', level: 'should', text: 'unassign_issuables=true unassigns the user from issues and merge requests of the group or project.', source: SPEC, untestable: 'issues and merge requests are not part of the API under test nor of the setup contract; the suite only checks that the parameter is accepted (members.remove.direct)' },
  { id: 'members.remove.not-direct', level: 'must', text: 'A user who is not a direct member (for example only a member of a project inside the group) cannot be removed through that source: 404 {"message":"404 Not found"}.', source: `${SPEC}; ${FACTS}` },
  { id: 'members.remove.self', level: 'must', text: 'A member may remove themselves without the right to manage members.', source: FACTS },
  { id: 'members.remove.project-owner', level: 'must', text: 'A project Maintainer may not remove an Owner of the project (403).', source: FACTS },
  { id: 'members.remove.last-owner', level: 'must', text: 'The last owner of a group is not removed (GitLab\'s answer is unconfirmed: 403, 400, or an older silent 204).', source: 'gitlab-facts §4, §7' },
  { id: 'members.remove.project-sole-owner', level: 'should', text: 'The last-owner rule is the group\'s: the only Owner member of a project in a group can be removed.', source: 'gitlab-facts §4 (Group#last_owner?); GitLab code (ProjectMemberPolicy has no last-owner condition)' },

  // ---- billable members ----------------------------------------------------------------------
  { id: 'members.billable.list', level: 'must', text: 'GET /groups/:id/billable_members lists the billable members of a top-level group, including members of subgroups and projects and of invited groups, each once, with membership_type and removable (true for direct members of the hierarchy, false for invited-group members).', source: `${SPEC}; spec: Resources/Billable member; ${FACTS}` },
  { id: 'members.billable.search', level: 'must', text: 'search keeps the billable members whose name or username contains the string.', source: SPEC },
  { id: 'members.billable.sort', level: 'must', text: 'sort accepts each documented value (name_asc and name_desc order by name); another value is refused with 400.', source: SPEC },
  { id: 'members.billable.awaiting', level: 'must', text: 'An awaiting member holds no seat and is not listed among the billable members.', source: 'spec: States and transitions; GitLab code (billed users are Member.without_invites_and_requests, which keeps the active state only)' },
  { id: 'members.billable.default-order', level: 'must', text: 'Without sort, billable members come in ascending id order.', source: `${FACTS} (billable_members: sort default id_asc)` },
  { id: 'members.billable.sort-activity', level: 'must', text: 'sort=last_activity_on_desc orders by last_activity_on, newest first, users without activity last; last_activity_on_asc is the reverse (users without activity first).', source: 'spec (billable_members sort values); GitLab code (User.order_recent_last_activity, order_oldest_last_activity)' },
  { id: 'members.billable.activity', level: 'must', text: 'last_activity_on is a date (or null before any activity) and last_login_at a timestamp (or null).', source: 'spec: Resources/Billable member' },
  { id: 'members.billable.email', level: 'must', text: 'A billable member\'s email is shown to the owner managing that enterprise user, and not for members whose email is private.', source: `spec: Resources/Billable member; ${FACTS}` },
  { id: 'members.ee.top-level-only', level: 'must', text: 'Billable members, billable memberships, pending members, membership state and approvals work on top-level groups only: a subgroup gives 400 {"message":"400 Bad request"}.', source: 'spec: Limits 3; gitlab-facts §0.20, §4' },
  { id: 'members.ee.admin-only', level: 'must', text: 'Those endpoints need the right to administer the group\'s members (Owner): other members get 400 {"message":"400 Bad request"}.', source: 'spec: Authentication 4; gitlab-facts §0.20, §4' },
  { id: 'members.billable-memberships.direct', level: 'must', text: 'GET …/billable_members/:user_id/memberships lists the user\'s direct memberships in groups and projects of the hierarchy (not inherited ones, not ones outside it), each with source_id, source_full_name, source_members_url, created_at, expires_at and access_level {string_value, integer_value}.', source: `${SPEC}; spec: Resources/Membership` },
  { id: 'members.billable-memberships.user', level: 'must', text: 'An unknown user gives 404 {"message":"404 Not found"}; a user who is not a billable member gives 404 {"message":"404 User Not Found"}.', source: FACTS },
  { id: 'members.billable-indirect.list', level: 'must', text: 'GET …/billable_members/:user_id/indirect lists the user\'s memberships in groups invited to the top-level group, and not the direct ones.', source: SPEC },
  { id: 'members.billable-remove', level: 'must', text: 'DELETE /groups/:id/billable_members/:user_id removes the user from the group, its subgroups and projects, also when the user is not a direct member of the group (204; the removal may complete asynchronously).', source: `${SPEC}; ${FACTS}` },
  { id: 'members.billable-remove.errors', level: 'must', text: 'Removing a billable member fails without effect for a subgroup (400), for a caller who is not an owner (400 or 403), and for a user who is not a member (4xx).', source: FACTS },

  // ---- state, pending, approval --------------------------------------------------------------
  { id: 'members.state.set', level: 'must', text: 'PUT /groups/:id/members/:user_id/state with state awaiting or active answers {"success":true} and gives the user\'s memberships in the group, its subgroups and projects that state.', source: `${SPEC}; spec: States and transitions` },
  { id: 'members.state.access', level: 'should', text: 'An awaiting member has no access to the group; setting the state to active grants it.', source: 'spec: States and transitions' },
  { id: 'members.state.params', level: 'must', text: 'state is required and must be awaiting or active (400 {"error": …}); an unknown user gives 404 {"message":"404 User Not Found"}.', source: `${SPEC}; ${FACTS}` },
  { id: 'members.pending.list', level: 'must', text: 'GET /groups/:id/pending_members lists the awaiting members of the whole hierarchy and the people invited without an account (invited: true, email the invited address, no username), with approved and avatar_url; active members are not listed.', source: `${SPEC}; spec: Resources/Pending member` },
  { id: 'members.approve.one', level: 'must', text: 'PUT /groups/:id/members/:member_id/approve approves a pending member for the group, its subgroups and projects (204); the member leaves the pending list and becomes active.', source: `${SPEC}; gitlab-facts §0.19` },
  { id: 'members.approve.errors', level: 'must', text: 'Approving an unknown member id gives 404 {"message":"404 Not Found"}.', source: FACTS },
  { id: 'members.approve-all', level: 'must', text: 'POST /groups/:id/members/approve_all approves every pending member of the hierarchy (204).', source: `${SPEC}; gitlab-facts §0.19` },

  // ---- LDAP override -------------------------------------------------------------------------
  { id: 'members.override.set', level: 'must', text: 'POST /groups/:id/members/:user_id/override on an LDAP-synced member returns the Member with override true; its access level may then be changed.', source: `${SPEC}; spec: States and transitions` },
  { id: 'members.override.clear', level: 'must', text: 'DELETE /groups/:id/members/:user_id/override returns the Member with override false.', source: SPEC },
  { id: 'members.override.refused', level: 'must', text: 'Overriding a member who is not LDAP-synced, or as a caller who is not an owner, gives 403; an unknown member gives 404 {"message":"404 Not found"}.', source: 'gitlab-facts §4, §7' },

  // ---- promotion management ------------------------------------------------------------------
  { id: 'members.promotion.add-single', level: 'must', text: 'With enable_member_promotion_management on, adding one user into a billable role who holds none yet is queued: {"message":{"<username>":"Request queued for administrator approval."}}, and the user is not added.', source: `${SPEC}; spec: Versioning 6` },
  { id: 'members.promotion.add-several', level: 'must', text: 'Adding several such users answers {"queued_users":{"<username>": "Request queued for administrator approval.", …},"status":"success"}.', source: SPEC },
  { id: 'members.promotion.edit', level: 'must', text: 'Promoting such a member by PUT is queued with the same {"message":{"<username>": …}} answer, and the level stays as it was.', source: SPEC },
  { id: 'members.promotion.not-queued', level: 'should', text: 'Requests for non-billable roles (Guest), administrators\' requests, requests for users who already hold a seat (Reporter or above anywhere), and any request while the setting is off are not queued.', source: 'spec: Endpoints/Members (promotes … into a billable role)' },
  { id: 'members.billable.last-owner', level: 'must', text: 'A billable member\'s is_last_owner is true for the only owner of the top-level group and false for other members and when the group has several owners.', source: 'spec: Resources/Billable member; gitlab-facts §4 (BillableMember is_last_owner)' },
  { id: 'members.billable.type-order', level: 'must', text: 'A user with several kinds of membership in the hierarchy is listed once, with the first kind that applies in the order group_member, project_member, group_invite, project_invite.', source: 'gitlab-facts §4 (BillableMember membership_type)' },
  { id: 'members.entity.seat-active', level: 'must', text: 'With show_seat_info=true, an active member in a billable role (Developer or above) of a licensed instance has is_using_seat true.', source: 'gitlab-facts §4 (EE Member is_using_seat)' },
  { id: 'members.add.member-role-id', level: 'must', text: 'member_role_id (Ultimate) is an integer parameter of add: a non-integer value is refused with 400 {"error": …} and nobody is added.', source: `${SPEC} (POST member_role_id integer); spec: Versioning 3; gitlab-facts §0.1` },
  { id: 'members.edit.member-role-id', level: 'must', text: 'member_role_id (Ultimate) is an integer parameter of edit: a non-integer value is refused with 400 {"error": …} and the member is unchanged.', source: `${SPEC} (PUT member_role_id integer); gitlab-facts §0.1` },
  { id: 'members.remove.params', level: 'must', text: 'skip_subresources and unassign_issuables are booleans: another value is refused with 400 {"error": …} and nobody is removed.', source: `${SPEC} (DELETE parameters); gitlab-facts §0.1` },
];
