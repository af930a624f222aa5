// Clauses of the members area: the spec's "Members" endpoints, the Member, Billable member,
// Membership and Pending member resources, the members rows of States, Authentication, Limits and
// Versioning, and, where the spec says nothing ("not shown"), what GitLab's code settles, with the
// path that settles it (`GitLab: …`). Texts say which part is GitLab parity (exact messages, the
// order of checks, GitLab-only fields and details): the tests check those at the parity level only.
import type { Clause } from '../harness/core/clauses.js';
import { interopClauses } from '../common/interop.js';

const SPEC = 'spec: Endpoints/Members';
const MEMBER = 'spec: Resources/Member';

/**
 * Where GitLab does what the members tests check beyond the spec: the citations of clauses, of
 * expectError texts (`gitlab:`) and of parity checks. Paths are relative to GitLab's repository
 * (gitlabhq/gitlabhq; ee/ files in GitLab EE).
 */
export const GITLAB = {
  /** The CE endpoints: parameters, lookups, permission checks, answers. */
  api: 'lib/api/members.rb',
  /** find_source, retrieve_members, add_single_member, check_existing_membership. */
  helpers: 'lib/api/helpers/members_helpers.rb',
  /** The EE group endpoints: override, approve, approve_all, pending, billable, state. */
  eeApi: 'ee/lib/ee/api/members.rb',
  /** skip_users, the state filter, member_role_id on PUT, find_member of the override routes. */
  eeHelpers: 'ee/lib/ee/api/helpers/members_helpers.rb',
  /** The CE Member entity: UserBasic + access_level, created_at, created_by, expires_at. */
  entity: 'lib/api/entities/member.rb',
  /** The EE Member entity: email, group_saml_identity, is_using_seat, override, membership_state. */
  eeEntity: 'ee/lib/ee/api/entities/member.rb',
  billableEntity: 'ee/lib/api/entities/billable_member.rb',
  pendingEntity: 'ee/lib/api/entities/pending_member.rb',
  /** Grape's parameter errors: 400 {"error": "<param> <reason>"}. */
  grape: 'lib/api/api.rb (rescue_from Grape::Exceptions::Base: {"error": …}); Grape lib/grape/locale/en.yml',
  /** find_by! of a membership: ActiveRecord::RecordNotFound → 404 "404 Not found". */
  recordNotFound: 'lib/api/members.rb (source_members(source).find_by!); lib/api/api.rb (rescue_from ActiveRecord::RecordNotFound: 404 "404 Not found")',
  /** authorize! and AccessDeniedError: 403 "403 Forbidden". */
  forbidden: 'lib/api/helpers.rb (authorize!, forbidden!); lib/api/api.rb (rescue_from Gitlab::Access::AccessDeniedError: 403 "403 Forbidden")',
  /** find_group! / find_project!: 404 "404 Group Not Found" / "404 Project Not Found". */
  sourceNotFound: 'lib/api/helpers/members_helpers.rb (find_source); lib/api/helpers.rb (find_group!, find_project!: not_found!)',
  /** before { authenticate! }: 401 "401 Unauthorized" (the EE routes are prepended to the same class). */
  unauthorized: 'lib/api/members.rb (before { authenticate! }); lib/api/helpers.rb (unauthorized!)',
  /** A read_api token on a write: 403 {"error":"insufficient_scope"}. */
  scope: 'lib/api/api.rb (allow_access_with_scope :read_api for GET and HEAD only); lib/api/api_guard.rb (InsufficientScopeError: 403 insufficient_scope)',
  /** The model's validations, rendered as {"message":{"<field>":[…]}}. */
  validation: 'app/models/member.rb (validations); lib/api/helpers.rb (render_validation_error!)',
  /** Member#higher_access_level_than_group: "should be greater than or equal to <Role> inherited membership from group <name>". */
  inheritedLevel: 'app/models/member.rb (higher_access_level_than_group); spec/requests/api/members_spec.rb (does not create the member if group level is higher)',
  /** The EE group endpoints' refusal: bad_request! → 400 "400 Bad request". */
  eeBadRequest: 'ee/lib/ee/api/members.rb (bad_request! unless group.root? / unless can?(…)); lib/api/helpers.rb (bad_request!)',
  /** DELETE …/members/:user_id: destroy_conditionally! → 204, no body. */
  destroyed: 'lib/api/members.rb (destroy_conditionally!); lib/api/helpers.rb (destroy_conditionally!: status 204, body false)',
  /** approve, approve_all, billable removal: no_content! → 204. */
  noContent: 'ee/lib/ee/api/members.rb (no_content!)',
  /** Offset pagination headers. */
  pagination: 'lib/api/helpers/pagination.rb; lib/gitlab/pagination/offset_pagination.rb; lib/gitlab/pagination/offset_header_builder.rb',
  /** per_page=0: Grape except_values. */
  perPageZero: 'lib/api/pagination_params.rb (per_page except_values: [0]); Grape lib/grape/locale/en.yml (except_values: "has a value not allowed")',
  /** Who manages members: Owner of a group, Maintainer or Owner of a project. */
  managers: 'app/policies/group_policy.rb (admin_group_member: owner); app/policies/project_policy.rb (admin_project_member: maintainer); app/policies/group_member_policy.rb; app/policies/project_member_policy.rb',
  /** Only Owners give, change or take the Owner role of a project (manage_owners). */
  projectOwners: 'app/services/members/create_service.rb, app/services/members/update_service.rb, app/services/members/destroy_service.rb (cannot_assign/revoke_owner_responsibilities…: AccessDeniedError)',
  /** The last owner of a group: prevent update_group_member and destroy_group_member, for administrators too. */
  lastOwner: 'app/policies/group_member_policy.rb (rule { last_owner }: prevent :update_group_member, :destroy_group_member); app/services/members/destroy_service.rb (AccessDeniedError unless authorized?)',
  /** created_by: left out when nil or when the member's source is hidden from the viewer. */
  createdBy: 'lib/api/entities/member.rb (expose :created_by, expose_nil: false, if: is_source_accessible_to_current_user); app/services/members/invited_private_group_accessibility_assigner.rb',
  /** Billable users: members of the hierarchy and of invited groups, active ones only. */
  billedUsers: 'ee/app/finders/billed_users_finder.rb; ee/app/models/ee/group.rb (billed users from Member.without_invites_and_requests); app/models/member.rb (without_invites_and_requests: active_state)',
  /**
   * The billable removal service: root namespace and admin_group_member, else an error → 400 "400 Bad
   * request - <reason>". Current GitLab schedules the removal (Members::ScheduleDeletionService: "Must be
   * a root namespace", "User not authorized"); older releases removed at once (BillableMembers::DestroyService:
   * "Invalid group provided, must be top-level", "User unauthorized to remove member").
   */
  scheduleDeletion: 'ee/lib/ee/api/members.rb (delete ":id/billable_members/:user_id": bad_request!(result[:message])); ee/app/services/members/schedule_deletion_service.rb (Members::ScheduleDeletionService); older: ee/app/services/billable_members/destroy_service.rb',
  /** Awaiting memberships give no access. */
  awaitingAccess: 'app/models/member.rb (active_state in authorizable and without_invites_and_requests); app/models/members/members_with_parents.rb',
  /** The override routes: authorize! :override_group_member on the group before the member lookup. */
  override: 'ee/lib/ee/api/helpers/members_helpers.rb (find_member: authorize! :override_group_member, source); ee/app/policies/ee/group_policy.rb (override_group_member only for ldap_synced groups); ee/app/policies/ee/group_member_policy.rb (rule { ~ldap }.prevent :override_group_member; rule { ldap & ~override }.prevent :update_group_member)',
  /** Promotion management: administrators and non-billable role changes are not queued. */
  promotion: 'ee/app/services/gitlab_subscriptions/member_management/queue_non_billable_to_billable_service.rb (promotion_management_required?: false for administrators; billable_role_change?; NonBillableUsersFinder)',
  /** Access requests: Member rows with requested_at, left out of the members (source.members is non-request); the set-up endpoints. */
  accessRequests: 'lib/api/access_requests.rb; app/services/members/request_access_service.rb (source.members.create(requested_at: …)); app/models/member.rb (scopes request, non_request; has_many :members non-request, :requesters)',
  /** Adding a requester as a member: the creator finds the request among members_and_requesters and clears requested_at. */
  requesterAdded: 'app/services/members/creator_service.rb (find_or_initialize_member_by_user: source.members_and_requesters; member.requested_at = nil); spec/requests/api/members_spec.rb (transforms the requester into a proper member)',
  /** Public sources: every signed-in user reads their members; writes need admin_*_member (403). */
  publicSource: 'app/policies/group_policy.rb (public_group: read_group, so read_group_member); app/policies/project_policy.rb (public_project: public_user_access, read_project_member); lib/api/members.rb (authorize_read_source_member!, authorize_admin_source_member!, authorize_update_source_member!)',
  /** read_group_member on a private group needs access to it: a subgroup member sees the group (has_projects) but gets 403. */
  readGroupMember: 'app/policies/group_policy.rb (rule { ~can_read_group_member }.prevent :read_group_member; can_read_group_member?: !(private? && access_level == NO_ACCESS)); lib/api/members.rb (authorize_read_source_member!); spec/requests/api/members_spec.rb (subgroup member cannot get parent group members list)',
} as const;

export const membersClauses: Clause[] = [
  // ---- the Member resource ------------------------------------------------------------------
  { id: 'members.entity.shape', level: 'must', text: 'A Member carries id (the user id), username, name, state, avatar_url, web_url, access_level, created_at and expires_at (a date or null) of the documented types.', source: MEMBER },
  { id: 'members.entity.created-by', level: 'must', text: 'created_by is the user summary (id, username, name, state, avatar_url, web_url) of the user who added the member. GitLab parity: GitLab leaves it out for members of an invited private group when the viewer neither manages the members nor belongs to that group (the spec lists the field without condition, so a target may show it there).', source: `${MEMBER}; GitLab: ${GITLAB.createdBy}; app/services/members/creator_service.rb (created_by ||= current_user)` },
  { id: 'members.entity.email-hidden', level: 'must', text: 'email is not shown to a viewer who is not an administrator, for members who are not enterprise users managed by the viewer.', source: `${MEMBER} (visibility rules); GitLab: ${GITLAB.eeEntity} (email)` },
  { id: 'members.entity.email-admin', level: 'must', text: 'An email shown to an administrator is the member\'s own address. GitLab parity: GitLab shows every member\'s email to administrators (the spec\'s rule names group owners only).', source: `${MEMBER} (visibility rules); GitLab: ${GITLAB.eeEntity} (email if current_user.can_admin_all_resources?)` },
  { id: 'members.entity.email-enterprise', level: 'must', text: 'Owners of a group see the email of the group\'s enterprise users when the request is sent to the group or to its subgroups or projects; not the email of other members, and non-owners see none.', source: `${MEMBER} (visibility rules); GitLab: ${GITLAB.eeEntity} (email if managed_by_user?(current_user, group: root_ancestor))` },
  { id: 'members.entity.saml-identity', level: 'must', text: 'group_saml_identity {extern_uid, provider, saml_provider_id} is shown only to owners of a group with SSO enabled, and only on group memberships (not on project memberships). GitLab parity: administrators see it too.', source: `${MEMBER} (visibility rules); GitLab: ${GITLAB.eeEntity} (group_saml_identity if Ability.allowed?(current_user, :read_group_saml_identity, member.source): a project source has no such ability)` },
  { id: 'members.entity.membership-state', level: 'must', text: 'GitLab parity: a Member carries membership_state, "active" or "awaiting" (a GitLab field the spec\'s Member table does not list; the state itself is observed at the spec level through the state filter of …/members/all and the pending members).', source: `spec: States and transitions; GitLab: ${GITLAB.eeEntity} (expose :human_state_name, as: :membership_state)` },
  { id: 'members.entity.seat-info', level: 'must', text: 'show_seat_info=true adds seat information to each member, which the answer without it does not carry. GitLab parity: the field is is_using_seat (boolean), absent without show_seat_info.', source: `${SPEC} (show_seat_info: "include seat information"); GitLab: ${GITLAB.eeEntity} (expose :is_using_seat, if: options[:show_seat_info])` },
  { id: 'members.entity.override-ldap', level: 'must', text: 'The override operations answer with the member\'s override flag. GitLab parity: GitLab shows override on every answer about an LDAP-synced group member (also GET), and never on other members.', source: `${MEMBER} (override: "present in responses of the override operations"); GitLab: ${GITLAB.eeEntity} (expose :override, if: source_type == 'Namespace' && member.ldap?)` },

  // ---- authentication, permissions, cross-cutting ----------------------------------------
  { id: 'members.auth.anonymous', level: 'must', text: 'Every members endpoint refuses a request without a token with 401, also on public groups and projects. GitLab parity: {"message":"401 Unauthorized"}.', source: `spec: Authentication 1; GitLab: ${GITLAB.unauthorized}` },
  { id: 'members.auth.read-api-scope', level: 'must', text: 'A read_api token may read members but not add, change or remove them (403). GitLab parity: {"error":"insufficient_scope", …}.', source: `spec: Authentication 6 ("not shown"); GitLab: ${GITLAB.scope}` },
  { id: 'members.read.visibility', level: 'must', text: 'Anyone who can see the group or project may read its members; a source the caller cannot see, or that does not exist, gives 404. GitLab parity: "404 Group Not Found" / "404 Project Not Found".', source: `GitLab: ${GITLAB.api} (authorize_read_source_member!); ${GITLAB.sourceNotFound}` },
  { id: 'members.manage.role', level: 'must', text: 'Adding, editing and removing members needs Owner on groups and Maintainer or above on projects; other members get 403. GitLab parity: {"message":"403 Forbidden"}.', source: `spec: Authentication 7 ("not shown"); GitLab: ${GITLAB.managers}; ${GITLAB.forbidden}` },
  { id: 'members.id.path-or-number', level: 'must', text: ':id is the numeric id or the URL-encoded full path of the group or project.', source: 'spec: Conventions' },
  { id: 'members.pagination', level: 'must', text: 'Paginated member lists accept page and per_page, send X-Page, X-Per-Page, X-Total, X-Total-Pages, X-Next-Page, X-Prev-Page and Link, give [] for a page past the end, and refuse per_page=0 with 400. GitLab parity: {"error":"per_page has a value not allowed"}.', source: `spec: Conventions; spec: Limits 2; GitLab: ${GITLAB.pagination}; ${GITLAB.perPageZero}` },
  { id: 'members.errors.shape', level: 'must', text: 'Errors are JSON objects with "message" (helpers, model validation) or "error" (parameter validation).', source: `spec: Errors ("not shown"); GitLab: lib/api/api.rb (rescue_from); lib/api/helpers.rb (render_api_error!, render_validation_error!)` },

  // ---- listing ------------------------------------------------------------------------------
  { id: 'members.list.direct-only', level: 'must', text: 'GET …/members lists direct members only: not members inherited from ancestor groups, not members of invited groups.', source: SPEC },
  { id: 'members.list.no-invitations', level: 'must', text: 'Pending invitations (people invited by email) are not listed as members, neither by …/members nor by …/members/all.', source: `GitLab: ${GITLAB.helpers} (retrieve_members: connected_to_user; find_all_members: non_invite)` },
  { id: 'members.list.query', level: 'must', text: 'query keeps the members whose name or username contains the search string, ignoring case.', source: `${SPEC}; GitLab: ${GITLAB.helpers} (retrieve_members: User.search); app/models/user.rb (search)` },
  { id: 'members.list.user-ids', level: 'must', text: 'user_ids keeps only the members with these user ids.', source: SPEC },
  { id: 'members.list.skip-users', level: 'must', text: 'skip_users leaves out the members with these user ids.', source: `${SPEC}; GitLab: ${GITLAB.eeHelpers} (retrieve_members: where.not(user_id: skip_users); CE declares the parameter without applying it)` },
  { id: 'members.all.inherited', level: 'must', text: '…/members/all includes direct members, members inherited from ancestor groups and members of groups the source is shared with.', source: `${SPEC} (members/all)` },
  { id: 'members.all.highest-level', level: 'must', text: 'When a user is a member of the source and of ancestor groups, /members/all returns one row for the user, with the highest access level.', source: `${SPEC} (members/all rule 1)` },
  { id: 'members.all.invited-level', level: 'must', text: 'A member of an invited group is listed with the lower of their own level and the level the group was invited with.', source: 'GitLab: app/finders/group_members_finder.rb (shared_members: "the shared members cannot have access greater than the group_group_links"); app/finders/members_finder.rb' },
  { id: 'members.all.invited-visible', level: 'must', text: 'Members of an invited group are returned when the invited group is public or the requester is a member of it; members of an invited private group are not returned to a requester who is a member of neither it nor the shared source.', source: `${SPEC} (members/all rule 2)` },
  { id: 'members.all.invited-private-to-source-members', level: 'must', text: 'A member of the shared group or project receives all its members, including members of an invited private group (GitLab 17.4 and later).', source: `${SPEC} (members/all rule 2); spec: Versioning 5` },
  { id: 'members.all.state-filter', level: 'must', text: 'state (awaiting or active; Premium and Ultimate) keeps the members in that state; another value is refused with 400. GitLab parity: Grape\'s {"error":"state does not have a valid value"}.', source: `${SPEC} (members/all); GitLab: ${GITLAB.eeHelpers} (optional_state_filter_ee: values awaiting, active; with_state)` },

  // ---- reading one --------------------------------------------------------------------------
  { id: 'members.get.direct', level: 'must', text: 'GET …/members/:user_id returns one direct member; a user who is not a direct member (only inherited, or not a member) gives 404. GitLab parity: {"message":"404 Not found"}.', source: `${SPEC}; GitLab: ${GITLAB.recordNotFound}` },
  { id: 'members.get.user-id-integer', level: 'must', text: 'A user_id that is not an integer is refused with 400. GitLab parity: {"error":"user_id is invalid"}.', source: `${SPEC} (user_id integer); GitLab: ${GITLAB.api} (requires :user_id, type: Integer); ${GITLAB.grape}` },
  { id: 'members.get-all.member', level: 'must', text: 'GET …/members/all/:user_id returns a direct, inherited or invited member with the highest access level, under the same visibility rules as the list; others give 404 (GitLab parity: "404 Not found").', source: `${SPEC}; spec: Versioning 4; GitLab: ${GITLAB.api} (find_all_members(source).order(access_level: :desc).find_by!)` },

  // ---- adding --------------------------------------------------------------------------------
  { id: 'members.add.single', level: 'must', text: 'POST …/members with user_id and access_level adds the user and returns the Member (201) with that level; the member is listed afterwards.', source: `${SPEC}; GitLab: ${GITLAB.api} (post ":id/members": Grape's POST status 201)` },
  { id: 'members.add.by-username', level: 'must', text: 'username may name the user instead of user_id.', source: SPEC },
  { id: 'members.add.expires-at', level: 'must', text: 'expires_at (YYYY-MM-DD) sets the membership\'s expiry; a date in the past is refused with a 400 validation error on expires_at. GitLab parity: "cannot be a date in the past".', source: `${SPEC}; GitLab: ${GITLAB.validation}; spec/requests/api/members_spec.rb (expires_at in the past)` },
  { id: 'members.add.several', level: 'must', text: 'Several users, comma-separated in user_id or username, are added in one request answered 201 with status "success"; unknown ids among them are dropped, the others are added. GitLab parity: the body is exactly {"status":"success"}.', source: `${SPEC} (user_id/username: several separated by commas); GitLab: ${GITLAB.api} (Members::CreateService hash); app/services/members/create_service.rb; app/services/members/creator_service.rb (parse_users_list: User.id_in drops unknown ids)` },
  { id: 'members.add.several-errors', level: 'must', text: 'When adding several users fails for them, the answer is still 201 with status "error" and a message naming each failing user, and nobody is added. GitLab parity: the message is Rails\' to_sentence of "<username>: <reason>" ("a and b", "a, b, and c").', source: `GitLab: ${GITLAB.api} (Members::CreateService hash); app/services/members/create_service.rb (add_error_for_member, formatted_errors: to_sentence)` },
  { id: 'members.add.params', level: 'must', text: 'access_level is required, and exactly one of user_id and username; access_level must be an integer and expires_at a date; otherwise 400 and nobody is added. GitLab parity: Grape\'s {"error": …} texts naming the parameter.', source: `${SPEC}; GitLab: ${GITLAB.api} (requires :access_level, type: Integer; mutually_exclusive / at_least_one_of :user_id, :username; expires_at type: DateTime); ${GITLAB.grape}` },
  { id: 'members.add.invalid-level', level: 'must', text: 'An access_level that is not a valid level is refused with a 400 validation error on access_level ({"message":{"access_level":[…]}}) and nobody is added.', source: `${SPEC} (access_level: "valid access level"); GitLab: ${GITLAB.validation} (access_level inclusion); ${GITLAB.helpers} (add_single_member: render_validation_error!)` },
  { id: 'members.add.unknown-user', level: 'must', text: 'An unknown user id or username gives 404. GitLab parity: {"message":"404 User Not Found"}.', source: `GitLab: ${GITLAB.helpers} (check_existing_membership: not_found!('User'))` },
  { id: 'members.add.conflict', level: 'must', text: 'Adding a user who is already a direct member is refused (409 for a member manager) and the membership is unchanged; a caller who may not add members gets 409 or 403. GitLab parity: 409 {"message":"Member already exists"}, checked before the permission (so also for that caller).', source: `GitLab: ${GITLAB.helpers} (add_single_member: check_existing_membership before Members::CreateService; conflict!('Member already exists'))` },
  { id: 'members.add.inherited-level', level: 'must', text: 'Adding a user below the highest level they hold in an ancestor group of the source is refused with a 400 validation error on access_level and nobody is added; the same level is accepted. GitLab parity: the text "should be greater than or equal to <Role> inherited membership from group <name>".', source: `GitLab: ${GITLAB.inheritedLevel}` },
  { id: 'members.add.project-owner', level: 'must', text: 'Only owners may give the Owner role in a project; a Maintainer who tries gets 403 and nobody is added.', source: `GitLab: ${GITLAB.projectOwners}; ${GITLAB.forbidden}` },

  // ---- editing -------------------------------------------------------------------------------
  { id: 'members.edit.level', level: 'must', text: 'PUT …/members/:user_id changes access_level (and expires_at) and returns the Member with the new values (200).', source: `${SPEC}; GitLab: ${GITLAB.api} (put ":id/members/:user_id": present_put_membership_response)` },
  { id: 'members.edit.not-member', level: 'must', text: 'Editing a user who is not a direct member gives 404 to a member manager; a caller who may not edit members gets 404 or 403. GitLab parity: 404 {"message":"404 Not found"}, the lookup before the permission check.', source: `GitLab: ${GITLAB.api} (put: find_by! before authorize_update_source_member!); lib/api/api.rb (rescue_from ActiveRecord::RecordNotFound)` },
  { id: 'members.edit.params', level: 'must', text: 'access_level is required on edit (400); an invalid level is refused with a 400 validation error on access_level. GitLab parity: Grape\'s {"error":"access_level is missing"}.', source: `${SPEC}; GitLab: ${GITLAB.api} (requires :access_level); ${GITLAB.validation}` },
  { id: 'members.edit.inherited-level', level: 'must', text: 'Lowering a member below the highest level they hold in an ancestor group is refused with a 400 validation error on access_level, and the level stays. GitLab parity: the text naming the inherited membership.', source: `GitLab: ${GITLAB.inheritedLevel}` },
  { id: 'members.edit.last-owner', level: 'must', text: 'The last owner of a group may not be edited, not even by an administrator: 403, and the membership is unchanged. GitLab parity: {"message":"403 Forbidden"}.', source: `GitLab: ${GITLAB.lastOwner}; ${GITLAB.api} (authorize_update_source_member!)` },
  { id: 'members.edit.project-owner', level: 'must', text: 'A project Maintainer may neither make a member Owner nor change an Owner (403).', source: `GitLab: ${GITLAB.projectOwners}` },

  // ---- removing ------------------------------------------------------------------------------
  { id: 'members.remove.direct', level: 'must', text: 'DELETE …/members/:user_id removes a direct member with a success answer (the spec shows none: 200 or 204); the member is no longer listed. GitLab parity: 204 with no body.', source: `${SPEC} ("Response: not shown"); GitLab: ${GITLAB.destroyed}` },
  { id: 'members.remove.subresources', level: 'must', text: 'Removing a group member also removes the user\'s direct memberships in its subgroups and projects, unless skip_subresources=true, which keeps them.', source: SPEC },
  { id: 'members.remove.unassign-issuables', level: 'should', text: 'unassign_issuables=true unassigns the user from issues and merge requests of the group or project.', source: SPEC, untestable: 'issues and merge requests are not part of the API under test nor of the setup contract; the suite only checks that the parameter is accepted (members.remove.direct)' },
  { id: 'members.remove.not-direct', level: 'must', text: 'A user who is not a direct member (for example only a member of a project inside the group) cannot be removed through that source: 404, and the memberships stay. GitLab parity: {"message":"404 Not found"}.', source: `${SPEC}; GitLab: ${GITLAB.recordNotFound}` },
  { id: 'members.remove.self', level: 'must', text: 'A member may remove themselves without the right to manage members.', source: 'GitLab: app/policies/group_member_policy.rb, app/policies/project_member_policy.rb (rule { target_is_self }: enable destroy_*_member)' },
  { id: 'members.remove.project-owner', level: 'must', text: 'A project Maintainer may not remove an Owner of the project (403).', source: `GitLab: ${GITLAB.projectOwners}` },
  { id: 'members.remove.last-owner', level: 'must', text: 'The last owner of a group is not removed, not even by an administrator: 403. GitLab parity: {"message":"403 Forbidden"}.', source: `GitLab: ${GITLAB.lastOwner}` },
  { id: 'members.remove.project-sole-owner', level: 'should', text: 'The last-owner rule is the group\'s: the only Owner member of a project in a group can be removed.', source: 'GitLab: app/policies/project_member_policy.rb (no last-owner condition); app/policies/group_member_policy.rb (last_owner)' },

  // ---- billable members ----------------------------------------------------------------------
  { id: 'members.billable.list', level: 'must', text: 'GET /groups/:id/billable_members lists the billable members of a top-level group, including members of subgroups and projects and of invited groups, each once, with membership_type and removable (true for direct members of the hierarchy, false for invited-group members).', source: `${SPEC}; spec: Resources/Billable member; GitLab: ${GITLAB.billedUsers}; ${GITLAB.billableEntity} (membership_type, removable)` },
  { id: 'members.billable.search', level: 'must', text: 'search keeps the billable members whose name or username contains the string.', source: SPEC },
  { id: 'members.billable.sort', level: 'must', text: 'sort accepts each documented value (name_asc and name_desc order by name); another value is refused with 400 (GitLab parity: Grape\'s {"error":"sort does not have a valid value"}).', source: `${SPEC}; GitLab: ${GITLAB.eeApi} (optional :sort, values: member_sort_options)` },
  { id: 'members.billable.awaiting', level: 'must', text: 'An awaiting member holds no seat and is not listed among the billable members.', source: `spec: States and transitions; GitLab: ${GITLAB.billedUsers}` },
  { id: 'members.billable.default-order', level: 'must', text: 'Without sort, billable members come in ascending id order.', source: `GitLab: ${GITLAB.eeApi} (sorting = params[:sort] || 'id_asc')` },
  { id: 'members.billable.sort-activity', level: 'must', text: 'sort=last_activity_on_desc orders the dated members by last_activity_on, newest first; last_activity_on_asc oldest first. GitLab parity: members without activity come last going down and first going up.', source: `${SPEC} (billable_members sort values); GitLab: app/models/user.rb (order_recent_last_activity, order_oldest_last_activity)` },
  { id: 'members.billable.activity', level: 'must', text: 'last_activity_on is a date (or null before any activity) and last_login_at a timestamp (or null).', source: `spec: Resources/Billable member; GitLab: ${GITLAB.billableEntity} (last_activity_on; current_sign_in_at as last_login_at)` },
  { id: 'members.billable.email', level: 'must', text: 'A billable member\'s email is shown to the owner managing that enterprise user, and not (absent or null) for members without a public email. GitLab sends "email": null there (public_email).', source: `spec: Resources/Billable member (email: "present only for some members"); GitLab: ${GITLAB.billableEntity} (expose :public_email, as: :email; expose :email if admin or managed_by_user?)` },
  { id: 'members.ee.top-level-only', level: 'must', text: 'Billable members, billable memberships, pending members, membership state and approvals work on top-level groups only: a subgroup gives 400. GitLab parity: {"message":"400 Bad request"} (billable removal: "400 Bad request - Must be a root namespace"; older releases "… - Invalid group provided, must be top-level").', source: `spec: Limits 3; spec: States and transitions (root group); GitLab: ${GITLAB.eeBadRequest}; ${GITLAB.scheduleDeletion}` },
  { id: 'members.ee.admin-only', level: 'must', text: 'Those endpoints need the right to administer the group\'s members (Owner): other members are refused with 400 or 403 (the spec gives no status). GitLab parity: 400 {"message":"400 Bad request"}.', source: `spec: Authentication 4; GitLab: ${GITLAB.eeBadRequest}` },
  { id: 'members.billable-memberships.direct', level: 'must', text: 'GET …/billable_members/:user_id/memberships lists the user\'s direct memberships in groups and projects of the hierarchy (not inherited ones, not ones outside it), each with source_id, source_full_name, source_members_url, created_at, expires_at and access_level {string_value, integer_value}.', source: `${SPEC}; spec: Resources/Membership` },
  { id: 'members.billable-memberships.user', level: 'must', text: 'An unknown user and a user who is not a billable member give 404. GitLab parity: "404 Not found" (User.find) and "404 User Not Found".', source: `GitLab: ${GITLAB.eeApi} (User.find; not_found!('User') unless billable_member?)` },
  { id: 'members.billable-indirect.list', level: 'must', text: 'GET …/billable_members/:user_id/indirect lists the user\'s memberships in groups invited to the top-level group, and not the direct ones.', source: SPEC },
  { id: 'members.billable-remove', level: 'must', text: 'DELETE /groups/:id/billable_members/:user_id removes the user from the group, its subgroups and projects, also when the user is not a direct member of the group, with a success answer (the spec shows none: 200 or 204); the removal may complete asynchronously. GitLab parity: 204.', source: `${SPEC} ("Response: not shown"); GitLab: ${GITLAB.noContent}; ${GITLAB.scheduleDeletion}` },
  { id: 'members.billable-remove.errors', level: 'must', text: 'Removing a billable member fails without effect for a subgroup (400), for a caller who is not an owner (400 or 403), and for a user who is not a member (4xx, or a success that removes nothing). GitLab parity: "400 Bad request - <reason>".', source: `GitLab: ${GITLAB.scheduleDeletion}` },

  // ---- state, pending, approval --------------------------------------------------------------
  { id: 'members.state.set', level: 'must', text: 'PUT /groups/:id/members/:user_id/state with state awaiting or active answers {"success":true} and gives the user\'s memberships in the group, its subgroups and projects that state; a user with no membership in the hierarchy is refused (GitLab: 422 with the service\'s message).', source: `${SPEC}; spec: States and transitions; GitLab: ${GITLAB.eeApi} (unprocessable_entity!(result[:message]))` },
  { id: 'members.state.access', level: 'should', text: 'An awaiting member has no access to the group; setting the state to active grants it.', source: `spec: States and transitions; GitLab: ${GITLAB.awaitingAccess}` },
  { id: 'members.state.params', level: 'must', text: 'state is required and must be awaiting or active (400); an unknown user gives 404. GitLab parity: Grape\'s {"error": …} and {"message":"404 User Not Found"}.', source: `${SPEC}; GitLab: ${GITLAB.eeApi} (requires :state, values: awaiting active; not_found!('User'))` },
  { id: 'members.pending.list', level: 'must', text: 'GET /groups/:id/pending_members lists the awaiting members of the whole hierarchy and the people invited without an account (invited: true, email the invited address, no name, username or web_url), with approved and avatar_url; active members are not listed. GitLab parity: account holders carry their primary email too, and web_url is their profile URL.', source: `${SPEC}; spec: Resources/Pending member; GitLab: ${GITLAB.pendingEntity} (email: invite_email || user.email; approved: member.active?)` },
  { id: 'members.approve.one', level: 'must', text: 'PUT /groups/:id/members/:member_id/approve approves a pending member for the group, its subgroups and projects, with a success answer (the spec shows none: 200 or 204); the member leaves the pending list and becomes active. GitLab parity: 204.', source: `${SPEC} ("Response: not shown"); spec: States and transitions; GitLab: ${GITLAB.noContent}` },
  { id: 'members.approve.errors', level: 'must', text: 'Approving an unknown member id gives 404. GitLab parity: {"message":"404 Not Found"}.', source: `GitLab: ${GITLAB.eeApi} (not_found! unless member)` },
  { id: 'members.approve-all', level: 'must', text: 'POST /groups/:id/members/approve_all approves every pending member of the hierarchy, with a success answer (the spec shows none: 200 or 204). GitLab parity: 204.', source: `${SPEC} ("Response: not shown"); GitLab: ${GITLAB.noContent}` },

  // ---- LDAP override -------------------------------------------------------------------------
  { id: 'members.override.set', level: 'must', text: 'POST /groups/:id/members/:user_id/override on an LDAP-synced member returns the Member with override true; its access level may then be changed (before, GitLab refuses the change with 403).', source: `${SPEC}; spec: States and transitions; GitLab: ${GITLAB.override}` },
  { id: 'members.override.clear', level: 'must', text: 'DELETE /groups/:id/members/:user_id/override returns the Member with override false.', source: SPEC },
  { id: 'members.override.refused', level: 'must', text: 'Overriding a member who is not LDAP-synced, or as a caller who is not an owner, gives 403; a user who is no member of the group is refused with 403 or 404. GitLab parity: on a group without LDAP sync, 403 {"message":"403 Forbidden"} for any user id, the permission checked before the member lookup.', source: `GitLab: ${GITLAB.override}` },

  // ---- promotion management ------------------------------------------------------------------
  { id: 'members.promotion.add-single', level: 'must', text: 'With enable_member_promotion_management on, adding one user into a billable role who holds none yet is queued: {"message":{"<username>":"Request queued for administrator approval."}}, and the user is not added.', source: `${SPEC}; spec: Versioning 6` },
  { id: 'members.promotion.add-several', level: 'must', text: 'Adding several such users answers {"queued_users":{"<username>": "Request queued for administrator approval.", …},"status":"success"}.', source: SPEC },
  { id: 'members.promotion.edit', level: 'must', text: 'Promoting such a member by PUT is queued with the same {"message":{"<username>": …}} answer, and the level stays as it was.', source: SPEC },
  { id: 'members.promotion.not-queued', level: 'should', text: 'Requests for non-billable roles (Guest), administrators\' requests, requests for users who already hold a seat (Reporter or above anywhere), and any request while the setting is off are not queued.', source: `${SPEC} ("promotes an existing user into a billable role"); GitLab: ${GITLAB.promotion}` },
  { id: 'members.billable.last-owner', level: 'must', text: 'GitLab parity: a billable member\'s is_last_owner (a GitLab field the spec\'s Billable member table does not list) is true for the only owner of the top-level group and false for other members and when the group has several owners.', source: `GitLab: ${GITLAB.billableEntity} (expose :last_owner?, as: :is_last_owner)` },
  { id: 'members.billable.type-order', level: 'must', text: 'A user with several kinds of membership in the hierarchy is listed once, with the first kind that applies in the order group_member, project_member, group_invite, project_invite.', source: `GitLab: ${GITLAB.billableEntity} (membership_type)` },
  { id: 'members.entity.seat-active', level: 'must', text: 'GitLab parity: with show_seat_info=true, an active member in a billable role (Developer or above) of a licensed instance has is_using_seat true.', source: `GitLab: ${GITLAB.eeEntity} (is_using_seat); ee/app/models/ee/member.rb (is_using_seat)` },
  { id: 'members.add.member-role-id', level: 'must', text: 'member_role_id (Ultimate) is an integer parameter of add: a request with a non-integer value either is refused with 400 and adds nobody, or adds the user (GitLab\'s POST route does not declare the parameter, so GitLab does not refuse it for its type).', source: `${SPEC} (POST member_role_id integer); spec: Versioning 3; GitLab: ${GITLAB.api} (post ":id/members" declares no member_role_id)` },
  { id: 'members.edit.member-role-id', level: 'must', text: 'member_role_id (Ultimate) is an integer parameter of edit: a non-integer value is refused with 400 and the member is unchanged. GitLab parity: Grape\'s {"error":"member_role_id is invalid"}.', source: `${SPEC} (PUT member_role_id integer); GitLab: ${GITLAB.eeHelpers} (optional_put_params_ee: member_role_id, type: Integer); ${GITLAB.grape}` },
  { id: 'members.remove.params', level: 'must', text: 'skip_subresources and unassign_issuables are booleans: another value is refused with 400 and nobody is removed. GitLab parity: Grape\'s {"error": "<param> is invalid"}.', source: `${SPEC} (DELETE parameters); GitLab: ${GITLAB.api} (optional :skip_subresources, :unassign_issuables, type: Boolean); ${GITLAB.grape}` },
  // ---- public sources and access requesters --------------------------------------------------
  { id: 'members.public.read', level: 'must', text: 'A signed-in user who is no member of a public group or project, also one whose access request to it is pending, reads its members: the lists (…/members, …/members/all) and single members (…/members/:user_id, …/members/all/:user_id, with the Member fields) answer 200.', source: `GitLab: ${GITLAB.publicSource}; spec/requests/api/members_spec.rb (as a stranger, as a access_requester: returns 200)` },
  { id: 'members.public.writes-refused', level: 'must', text: 'On a public group or project a signed-in non-member (a stranger, or a user whose access request is pending) may not add, edit or remove members: 403, not 404 (the source is visible to them), and nothing changes. GitLab parity: {"message":"403 Forbidden"}.', source: `spec: Authentication 7 ("not shown"); GitLab: ${GITLAB.publicSource}; ${GITLAB.forbidden}; spec/requests/api/members_spec.rb (as a stranger, as a access_requester: a 403 response)` },
  { id: 'members.requester.not-member', level: 'must', text: 'An access request (POST …/access_requests) makes no membership: the requester is not listed among the members, and DELETE …/members/:user_id of the requester gives a member manager 404 while the request stays pending (GET …/access_requests lists it). GitLab parity: {"message":"404 Not found"}.', source: `GitLab: ${GITLAB.accessRequests}; ${GITLAB.recordNotFound}; spec/requests/api/members_spec.rb (and member is a requester: returns 404)` },
  { id: 'members.requester.becomes-member', level: 'must', text: 'Adding a user whose access request is pending (POST …/members) makes them a direct member at the level given: 201 with the Member; the request is no longer pending (GET …/access_requests does not list it).', source: `GitLab: ${GITLAB.requesterAdded}` },
  { id: 'members.read.private-parent', level: 'must', text: 'A member of a subgroup only (with a project in it), who may see the private parent group, may not read the parent\'s members (…/members/all, …/members/all/:user_id): refused with 403, or with 404 by a target that hides the parent group from them. GitLab parity: 403 {"message":"403 Forbidden"}.', source: `GitLab: ${GITLAB.readGroupMember}` },
  // ---- what clients rely on at the HTTP level (suites/common/interop.ts) ----------------
  ...interopClauses('members', { paginated: true }),
];
