// The order of every list the reference server answers, as GitLab's code settles it, and where it
// leaves the order open. GitLab's offset pagination orders any relation that has no order of its own
// by id (lib/gitlab/pagination/offset_pagination.rb `add_default_order`: `relation.order(:id)` when
// `order_values` is empty), so most lists are ordered even where their finder is not; what stays
// open are the ties of an order by a column that is not unique, and relations presented without
// pagination and without an order. Lists not named here are in a defined order, kept as it is:
// - members (lib/api/members.rb `get ":id/members"`; lib/api/helpers/members_helpers.rb `retrieve_members`:
//   `source_members(source).connected_to_user`, no order): members.id, by `add_default_order`;
// - members/all (`find_all_members`: MembersFinder#distinct_union_of_members for projects,
//   GroupMembersFinder `distinct_on_user_with_max_access_level` for groups, both `from` a subquery with
//   no order outside it, app/finders/members_finder.rb, app/finders/group_members_finder.rb): members.id;
// - billable members without sort, or sort id_asc (ee/lib/ee/api/members.rb: `sorting = params[:sort] || 'id_asc'`,
//   BilledUsersFinder → User.sort_by_attribute → Sortable.order_by → `order_id_asc`): users.id;
// - billable members sorted by last_activity_on_desc/asc (app/models/user.rb order_recent_last_activity,
//   order_oldest_last_activity: `last_activity_on` then `id`): fully ordered;
// - billable members sorted by access_level_*, last_joined, oldest_joined, without search: User.sort_by_attribute
//   knows none of them, Sortable.order_by answers `all` (app/models/concerns/sortable.rb), so users.id by `add_default_order`;
// - a billable member's memberships and indirect memberships (ee/lib/ee/api/members.rb:
//   `user.members.in_hierarchy(group)`, `GroupMember.from_union(…)`): members.id;
// - pending members (ee/app/models/ee/member.rb `distinct_awaiting_or_invited_for_group`:
//   `.order(:user_id, :invite_email)`, unique per row by its DISTINCT ON): fully ordered;
// - invitations (lib/api/invitations.rb: `paginate(retrieve_member_invitations(…))`): members.id;
// - access requests (lib/api/access_requests.rb; app/finders/access_requests_finder.rb: `source.requesters`): members.id;
// - remote mirrors (lib/api/remote_mirrors.rb: `paginate(user_project.remote_mirrors)`): remote_mirrors.id;
// - blame ranges (lib/api/files.rb, Gitlab::Blame): the file's line order;
// - users, groups, projects (lib/api/users.rb order_by default id, lib/api/groups.rb default name with an
//   id tie-breaker, lib/api/projects.rb default created_at with an id tie-breaker): fully ordered;
// - a token's scopes, a commit's parent_ids: stored arrays, in their stored order.
// The layer keeps the server's order of these, also where it is not GitLab's: users (GitLab: id
// descending), groups (by name) and pending members (by user id, then address) come in the order
// they were made; only member searches are put in GitLab's order here (searchOrder).
import type { FastifyReply, FastifyRequest } from 'fastify';

type Row = Record<string, unknown>;

/**
 * How GitLab orders a list: by `key` (rows of equal key come in an order GitLab leaves open).
 * `serverAgrees`: the reference server already answers in this order (ties by id), so only the runs
 * of equal keys may be shuffled; otherwise the rows are put in this order, which the layer can only
 * do when the page holds the whole list.
 */
export interface OpenOrder {
  key(row: Row): string;
  serverAgrees: boolean;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * `User.search` (app/models/user.rb): `reorder(CASE WHEN users.name = :query THEN 0 WHEN users.username
 * = :query THEN 1 WHEN users.email = :query THEN 2 ELSE 3 END, :name)`, the query downcased; a row
 * that matched neither by name nor by username matched by an address.
 */
function searchOrder(query: string): OpenOrder {
  const q = query.replace(/^@/, '').toLowerCase();
  const rank = (row: Row) => {
    if (text(row.name) === q) return 0;
    if (text(row.username) === q) return 1;
    if (text(row.email) === q) return 2;
    const byName = text(row.name).toLowerCase().includes(q) || text(row.username).toLowerCase().includes(q);
    return byName ? 3 : 2;
  };
  return { key: (row) => `${rank(row)}\u0000${text(row.name)}`, serverAgrees: false };
}

/** The billable members' sort values whose order GitLab leaves open among ties. */
function billableOrder(sort: string | undefined, search: string | undefined): OpenOrder | undefined {
  switch (sort) {
    // Sortable `order_name_asc`/`order_name_desc`: `lower(name)` alone (app/models/concerns/sortable.rb).
    case 'name_asc':
    case 'name_desc':
      return { key: (row) => text(row.name).toLowerCase(), serverAgrees: true };
    // app/models/user.rb `order_recent_sign_in`/`order_oldest_sign_in`: `current_sign_in_at` alone,
    // nulls last: every user who never signed in ties with every other.
    case 'recent_sign_in':
    case 'oldest_sign_in':
      return { key: (row) => text(row.last_login_at), serverAgrees: true };
    // Sort values User.sort_by_attribute does not know leave User.search's order in place.
    case 'access_level_asc':
    case 'access_level_desc':
    case 'last_joined':
    case 'oldest_joined':
      return search ? searchOrder(search) : undefined;
    default:
      return undefined;
  }
}

const query = (request: FastifyRequest, name: string) => {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** Where the order of a top-level list answer is open, and how; undefined: GitLab orders it fully. */
export function openOrderOf(request: FastifyRequest, route: string): OpenOrder | undefined {
  if (request.method !== 'GET') return undefined;
  if (route === '/groups/:id/billable_members') return billableOrder(query(request, 'sort'), query(request, 'search'));
  // retrieve_members merges `User.search(params[:query])`, whose reorder replaces the id order.
  if (/^\/(groups|projects)\/:id\/members(\/all)?$/.test(route)) {
    const q = query(request, 'query');
    return q === undefined ? undefined : searchOrder(q);
  }
  return undefined;
}

/**
 * Nested lists GitLab presents from an association without an order (so in the order the database
 * returns): `shared_with_groups` of a project (lib/api/entities/project.rb: `project.project_group_links`,
 * a plain has_many in app/models/project.rb) and of a group (lib/api/entities/group_detail.rb:
 * `shared_with_group_links_visible_to_user`).
 */
export const OPEN_NESTED_LISTS: ReadonlySet<string> = new Set(['shared_with_groups']);

/** Whether the page holds the whole list (page 1 of 1), so that it may be put in another order. */
export function wholeList(reply: FastifyReply): boolean {
  return String(reply.getHeader('x-page') ?? '1') === '1' && String(reply.getHeader('x-next-page') ?? '') === '';
}
