// Who may read the members of a group or project it can see (lib/api/members.rb:
// authorize_read_source_member! after find_source, on every read of members).
import { forbidden } from '../../http/errors.js';
import { ACCESS, type Source, type User } from '../../state/model.js';
import type { Store } from '../../state/store.js';

/**
 * `read_group_member`: GroupPolicy prevents it on a private group for a user without access to the
 * group (app/policies/group_policy.rb: rule { ~can_read_group_member }, can_read_group_member? is
 * !(private? && access_level == NO_ACCESS)). Such a user may still see the group, as a member of a
 * subgroup or of a project inside it does: 403 "403 Forbidden" (spec/requests/api/members_spec.rb
 * "subgroup member cannot get parent group members list"). A project the caller can see it may read
 * the members of (findSource finds a private project only for those with access, so the test never refuses one).
 */
export function authorizeReadMembers(store: Store, source: Source, viewer: User): void {
  if (source.visibility === 'private' && store.accessLevel(source, viewer) === ACCESS.NO_ACCESS) throw forbidden();
}
