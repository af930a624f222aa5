// Clauses of the invitations area: the spec's "Invitations" section, the Invitation resource, the
// invitation rows of Authentication and Errors, and gitlab-facts §3 and §8 where the spec says
// "not shown" or GitLab differs.
import type { Clause } from '../harness/core/clauses.js';

const SPEC = 'spec: Endpoints/Invitations';
const INVITE = `${SPEC} (POST)`;
const FACTS = 'gitlab-facts §3';

export const invitationsClauses: Clause[] = [
  // ---- inviting --------------------------------------------------------------------------
  { id: 'invitations.create.by-email', level: 'must', text: 'Inviting an address that belongs to no user creates a pending invitation at the given access_level; the answer is 201 {"status":"success"}.', source: `${INVITE}; gitlab-facts §0.5` },
  { id: 'invitations.create.several', level: 'must', text: 'email takes one address or several separated by commas, and user_id one id or several; each recipient is invited.', source: INVITE },
  { id: 'invitations.create.duplicates', level: 'should', text: 'An address given twice in one request is invited once.', source: FACTS },
  { id: 'invitations.create.existing-user-email', level: 'must', text: 'The address of an existing user makes that user a direct member instead of a pending invitation.', source: FACTS },
  { id: 'invitations.create.user-id', level: 'must', text: 'user_id adds existing users as direct members; unknown user ids are dropped without an error entry.', source: `${INVITE}; gitlab-facts §8` },
  { id: 'invitations.create.email-or-user-id', level: 'must', text: 'A request with neither email nor user_id (or only blank ones) is refused with 400 {"message":"400 Bad request - Must provide either email or user_id as a parameter"}.', source: `${INVITE}; ${FACTS}` },
  { id: 'invitations.create.access-level', level: 'must', text: 'access_level is required and must be one of 0, 5, 10, 15, 20, 30, 40, 50: a missing, non-integer or unlisted value (60, Admin) is refused with 400 {"error": ...} and nothing is invited.', source: `${INVITE}; ${FACTS}, §8` },
  { id: 'invitations.create.access-level-role', level: 'must', text: 'A level that is not a role a member can hold (0, No access) is reported per recipient as "Access level is not included in the list"; nothing is invited.', source: 'spec: Errors; gitlab-facts §8' },
  { id: 'invitations.create.expires-at', level: 'must', text: 'expires_at (YYYY-MM-DD) sets the expiry of the invitation; a malformed value is refused with 400, a past date is reported per recipient and nothing is invited.', source: INVITE },
  { id: 'invitations.create.result-error', level: 'must', text: 'Per-recipient failures still give 201, with status "error" and message, an object mapping each failing email or username (and only those) to a text.', source: `${INVITE}; gitlab-facts §0.5` },
  { id: 'invitations.create.partial', level: 'must', text: 'In a request with several recipients the good ones are invited while the failing ones are reported.', source: `${INVITE}; spec: Errors` },
  { id: 'invitations.create.taken', level: 'must', text: 'An address already invited in other letter case is reported as "Invite email has already been taken".', source: 'spec: Errors; gitlab-facts §8' },
  { id: 'invitations.create.reinvite', level: 'must', text: 'Re-inviting a pending address updates that invitation and succeeds (older GitLab releases report "Invite email has already been taken" and keep it); it is never listed twice.', source: 'gitlab-facts §8' },
  { id: 'invitations.create.already-member', level: 'must', text: 'Inviting a user who is already a direct member, by email or user_id, is reported as "User already exists in source" (newer GitLab updates the membership instead); no pending invitation is made.', source: 'spec: Errors; gitlab-facts §3' },
  { id: 'invitations.create.inherited-level', level: 'must', text: 'Inviting an existing user below the level they hold in an ancestor group is reported for that recipient as "Access level should be greater than or equal to <Role> inherited membership from group <name>", and the user is not added.', source: 'GitLab API spec (spec/requests/api/invitations_spec.rb: does not create the member if group level is higher); Member#higher_access_level_than_group' },
  { id: 'invitations.create.invalid-email', level: 'must', text: 'A malformed address is reported as "Invite email is invalid" while the others are invited (GitLab\'s parameter check may instead refuse the whole request with 400); nothing is invited for it.', source: FACTS },
  { id: 'invitations.create.email-type', level: 'must', text: 'email that is neither a string nor a list of strings (an object) is refused with 400 and nothing is invited.', source: `${INVITE}; ${FACTS} (email_or_email_list)` },
  { id: 'invitations.create.limit', level: 'must', text: 'More than 100 recipients at once give 201 {"message":"Too many users specified (limit is 100)","status":"error"} and nothing is invited.', source: FACTS },
  { id: 'invitations.create.project-owner', level: 'must', text: 'Only a project Owner may invite at the Owner level; a Maintainer doing so is refused with 403.', source: 'gitlab-facts §4 (Members::CreateService, shared by invitations)' },
  { id: 'invitations.create.invite-source', level: 'may', text: 'invite_source is an optional string naming where the invitation started; it does not change the result.', source: INVITE },
  { id: 'invitations.create.queued', level: 'must', text: 'With administrator approval of role promotions on, inviting an existing non-billable user above Guest answers 201 {"queued_users":{"<username>":"Request queued for administrator approval."},"status":"success"} and adds no member; Guest invitations and addresses without an account are not queued.', source: `${INVITE}; spec: Versioning 6` },
  { id: 'invitations.create.member-role-id', level: 'must', text: 'member_role_id (Ultimate, 16.6+) is an integer parameter: a non-integer value is refused with 400 and nothing is invited.', source: `${INVITE}; spec: Versioning 3` },
  { id: 'invitations.create.member-role-assigned', level: 'must', text: 'member_role_id assigns the new member to that custom role.', source: INVITE, untestable: 'the target contract has no setup endpoint that creates a custom role, and neither the Invitation entity nor the invite answer shows the role' },

  // ---- listing ---------------------------------------------------------------------------
  { id: 'invitations.list.shape', level: 'must', text: 'GET lists pending invitations as an array of Invitation: invite_email, created_at, access_level, expires_at, created_by_name; user_name only with a user attached. The spec lists id, GitLab\'s entity has none: both are accepted.', source: 'spec: Resources/Invitation; gitlab-facts §0.15' },
  { id: 'invitations.list.values', level: 'must', text: 'Each listed invitation carries the access_level it was given, the expiry date it was given (null without one) and created_by_name, the name of the user who sent it.', source: 'spec: Resources/Invitation' },
  { id: 'invitations.list.expires-at-date', level: 'must', text: 'expires_at of an invitation is a date YYYY-MM-DD (GitLab) or a timestamp (spec); both are accepted.', source: 'spec: Resources/Invitation; gitlab-facts §8' },
  { id: 'invitations.list.pending-only', level: 'must', text: 'Only pending invitations are listed, not members (nor users added by their address).', source: SPEC },
  { id: 'invitations.list.direct-only', level: 'must', text: 'Only invitations of this group or project are listed, not those of ancestor groups, subgroups or projects inside it.', source: SPEC },
  { id: 'invitations.list.query', level: 'must', text: 'query matches invite_email exactly (no partial match, case-sensitive); an empty query returns all.', source: `${SPEC}; ${FACTS}` },
  { id: 'invitations.list.pagination', level: 'must', text: 'The list is paginated with page and per_page and GitLab\'s headers (X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page, Link); a page past the end is an empty array.', source: 'spec: Conventions; gitlab-facts §5.4' },
  { id: 'invitations.list.pagination-params', level: 'must', text: 'per_page above 100 is clamped to 100; per_page=0 and a non-integer page are refused with 400 {"error": ...}.', source: 'gitlab-facts §0.17, §5.4' },

  // ---- updating --------------------------------------------------------------------------
  { id: 'invitations.update.fields', level: 'must', text: 'PUT changes access_level and expires_at of a pending invitation and answers 200 with expires_at and access_level; the list shows the new values.', source: `${SPEC} (PUT)` },
  { id: 'invitations.update.timestamp', level: 'must', text: 'PUT takes expires_at as an ISO 8601 timestamp YYYY-MM-DDTHH:MM:SSZ; the invitation expires on that date.', source: `${SPEC} (PUT)` },
  { id: 'invitations.update.partial', level: 'should', text: 'A PUT with only expires_at leaves access_level as it was (GitLab; the spec\'s "default 30" is accepted too).', source: `${SPEC} (PUT); ${FACTS}` },
  { id: 'invitations.update.not-found', level: 'must', text: 'PUT for an address with no pending invitation on this source (unknown, other letter case, or an accepted member) gives 404 {"message":"404 Not Found"}.', source: FACTS },
  { id: 'invitations.update.no-params', level: 'must', text: 'PUT without access_level and expires_at gives 400 {"message":"400 Bad request"} and changes nothing.', source: FACTS },
  { id: 'invitations.update.validation', level: 'must', text: 'PUT with an unlisted access_level or a malformed expires_at gives 400 {"error": ...}; a past expires_at gives 400 {"message":{"expires_at":[...]}}; the invitation is unchanged.', source: FACTS },
  { id: 'invitations.update.role-level', level: 'must', text: 'PUT with access_level 5 (Minimal access) or 0 (No access), levels an invitation cannot hold, is refused with 400 and the invitation is unchanged.', source: 'gitlab-facts §8; spec: Errors' },

  // ---- deleting --------------------------------------------------------------------------
  { id: 'invitations.delete.success', level: 'must', text: 'DELETE of a pending invitation answers 204 with no content; it is gone from the list and other invitations stay.', source: 'spec: Errors (invitation delete 204)' },
  { id: 'invitations.delete.not-found', level: 'must', text: 'DELETE for an address with no pending invitation on this source (unknown, other letter case, or an accepted member, who stays) gives 404.', source: 'spec: Errors (invitation delete 404); gitlab-facts §3' },
  { id: 'invitations.delete.once', level: 'must', text: 'An invitation is deleted once: a DELETE after it is gone gives 404; of two sent at the same time one succeeds and the other never fails with a 5xx (404, or 409 in the spec and 422 in GitLab where a valid request could not delete it).', source: 'spec: Errors; gitlab-facts §0.14' },
  { id: 'invitations.delete.conflict', level: 'must', text: 'A valid DELETE that could not delete the invitation gives 409 (spec) or 422 {"message":"422 Unprocessable Entity"} (GitLab).', source: 'spec: Errors; gitlab-facts §0.14', untestable: 'no request from outside makes the deletion itself fail; the nearest observable case, two deletes at once, is invitations.delete.once' },

  // ---- paths, permissions, errors --------------------------------------------------------
  { id: 'invitations.path.email', level: 'must', text: ':email is one path segment: the address may be sent with @ URL-encoded (%40) or as is.', source: FACTS },
  { id: 'invitations.path.id', level: 'must', text: ':id is the numeric id or the URL-encoded full path of the group or project.', source: 'spec: Conventions' },
  { id: 'invitations.auth.anonymous', level: 'must', text: 'Every invitations endpoint answers 401 {"message":"401 Unauthorized"} without a token, and changes nothing.', source: 'gitlab-facts §0.22, §8' },
  { id: 'invitations.auth.admin-members', level: 'must', text: 'Inviting, listing, updating and deleting need the right to administer members: Owner of a group, Maintainer or Owner of a project; others get 403 {"message":"403 Forbidden"} and nothing changes.', source: `spec: Authentication 4; ${FACTS}, §0.15` },
  { id: 'invitations.auth.not-found', level: 'must', text: 'An unknown group or project, or one the caller cannot see, gives 404 "404 Group Not Found" or "404 Project Not Found".', source: FACTS },
  { id: 'invitations.auth.scopes', level: 'must', text: 'Writes need a token with scope api (a read_api token gets 403); the list accepts read_api.', source: 'gitlab-facts §5.2' },
  { id: 'invitations.errors.no-5xx', level: 'must', text: 'No input makes an invitations endpoint answer with a 5xx.', source: 'gitlab-facts §5.1' },
];
