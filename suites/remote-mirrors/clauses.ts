// Clauses of the remote-mirrors area: the spec's "Remote mirrors" section, the Remote mirror
// resource, its rows of States and Limits, and gitlab-facts §0.4, §0.11-13, §2, §5 and §8 where
// the spec says "not shown".
import type { Clause } from '../harness/core/clauses.js';

const SPEC = 'spec: Endpoints/Remote mirrors';
const MIRROR = 'spec: Resources/Remote mirror';

export const remoteMirrorsClauses: Clause[] = [
  // ---- the Remote mirror resource --------------------------------------------------------
  { id: 'mirrors.entity.shape', level: 'must', text: 'A Remote mirror has id, enabled, url, update_status, last_update_at, last_update_started_at, last_successful_update_at, last_error, only_protected_branches and keep_divergent_refs of the documented types; auth_method, when present, is ssh_public_key or password.', source: `${MIRROR}; gitlab-facts §2, §8` },
  { id: 'mirrors.url.masked', level: 'must', text: 'The username and password parts of url are replaced by ***** in every response, whichever form the credentials take (user and password, or a token as user).', source: `${MIRROR}; gitlab-facts §0.13` },
  { id: 'mirrors.url.git-user-kept', level: 'must', text: 'The user git is not masked: ssh://git@host/... is shown unchanged; a URL without credentials is shown unchanged.', source: 'gitlab-facts §0.13, §2' },
  { id: 'mirrors.id.path-or-number', level: 'must', text: ':id is the numeric project id or the URL-encoded full path of the project.', source: 'spec: Conventions' },
  { id: 'mirrors.id.not-found', level: 'must', text: 'An unknown or non-numeric mirror_id, or the id of another project\'s mirror, gives 404 {"message":"404 Not found"}.', source: 'gitlab-facts §0.3, §2' },

  // ---- list and read ---------------------------------------------------------------------
  { id: 'mirrors.list.all', level: 'must', text: 'GET /projects/:id/remote_mirrors returns an array of the project\'s mirrors, ordered by id, and only that project\'s.', source: `${SPEC}; gitlab-facts §2, §5.4` },
  { id: 'mirrors.list.paginated', level: 'must', text: 'The list is paginated with page and per_page and GitLab\'s X-Total, X-Page, X-Per-Page and X-Next-Page headers; a page past the end is an empty array.', source: 'spec: Conventions; gitlab-facts §2, §5.4' },
  { id: 'mirrors.get.one', level: 'must', text: 'GET /projects/:id/remote_mirrors/:mirror_id returns that one Remote mirror.', source: SPEC },

  // ---- create ----------------------------------------------------------------------------
  { id: 'mirrors.create.returns', level: 'must', text: 'POST creates a push mirror and returns it (201); it is then listed and readable.', source: `${SPEC}; gitlab-facts §2, §5.3` },
  { id: 'mirrors.create.url-required', level: 'must', text: 'url is required on create; without it the request is refused with 400 {"error":"url is missing"}.', source: `${SPEC}; gitlab-facts §5.1` },
  { id: 'mirrors.create.defaults', level: 'must', text: 'A new mirror is disabled unless enabled is given; update_status is none, every last_* timestamp and last_error are null; only_protected_branches and keep_divergent_refs are false.', source: 'spec: States (Remote mirror POST create); spec: Limits 5; gitlab-facts §2' },
  { id: 'mirrors.create.options', level: 'must', text: 'enabled, keep_divergent_refs, only_protected_branches and auth_method given on create are stored and shown.', source: SPEC },
  { id: 'mirrors.create.schemes', level: 'must', text: 'http, https, ssh and git target URLs are accepted; another scheme is refused with 400 {"message":{"url":[...]}}.', source: 'gitlab-facts §2' },
  { id: 'mirrors.create.local-refused', level: 'must', text: 'A target on localhost, a loopback address or a private network is refused with 400 {"message":{"url":[...]}}.', source: 'gitlab-facts §2' },
  { id: 'mirrors.create.public-accepted', level: 'must', text: 'A target on a public address is accepted, also a public IPv4 or IPv6 literal next to the loopback, private and link-local ranges.', source: 'gitlab-facts §2 (url must be a public URL)' },
  { id: 'mirrors.create.malformed-refused', level: 'must', text: 'A blank or malformed url, or one whose user does not start with a letter or digit, is refused with 400 {"message":{"url":[...]}}, never a server error.', source: 'gitlab-facts §0.2, §2' },
  { id: 'mirrors.auth-method.values', level: 'must', text: 'auth_method is ssh_public_key or password (password when not given); another value is refused with 400 {"error":"auth_method does not have a valid value"} on create and with 400 on update.', source: `${SPEC}; gitlab-facts §2` },
  { id: 'mirrors.params.types', level: 'must', text: 'A parameter of the wrong type is refused with 400 {"error":"<param> is invalid"}.', source: 'gitlab-facts §5.1' },

  // ---- branch selection (Premium) --------------------------------------------------------
  { id: 'mirrors.regex.accepted', level: 'must', text: 'mirror_branch_regex is accepted on create and update (Premium and Ultimate); when the response shows it, it is the given regex, and only_protected_branches is false.', source: `${SPEC}; gitlab-facts §2` },
  { id: 'mirrors.regex.exclusive', level: 'must', text: 'mirror_branch_regex together with only_protected_branches enabled is refused with 400 {"error":"only_protected_branches, mirror_branch_regex are mutually exclusive"} and nothing changes.', source: 'spec: Limits 4; gitlab-facts §2' },
  { id: 'mirrors.regex.invalid', level: 'must', text: 'An invalid mirror_branch_regex is refused with 400, never a server error.', source: 'gitlab-facts §2 (model validation)' },

  // ---- update ----------------------------------------------------------------------------
  { id: 'mirrors.update.toggle', level: 'must', text: 'PUT with enabled turns the mirror on or off; the response and a later read show the new value.', source: `${SPEC}; spec: States (Remote mirror PUT)` },
  { id: 'mirrors.update.branches', level: 'must', text: 'PUT changes only_protected_branches and keep_divergent_refs and leaves the fields it was not given as they were.', source: SPEC },
  { id: 'mirrors.update.url-fixed', level: 'must', text: 'PUT cannot change the target url (it is not a parameter of the update).', source: 'gitlab-facts §2' },

  // ---- sync ------------------------------------------------------------------------------
  { id: 'mirrors.sync.no-content', level: 'must', text: 'POST .../sync on an enabled mirror answers 204 with an empty body.', source: `${SPEC}; spec: Errors` },
  { id: 'mirrors.sync.status', level: 'must', text: 'After a sync the mirror moves through GitLab\'s states until the push ends: finished, with last_update_started_at, last_update_at and last_successful_update_at set; or, for a target that cannot be reached, failed (or to_retry) with last_error saying why.', source: 'spec: States (successful update); gitlab-facts §0.12, §8' },
  { id: 'mirrors.sync.started-once', level: 'must', text: 'A sync while the mirror\'s push is under way (started) answers 204 and schedules nothing more: the running push is not restarted.', source: 'gitlab-facts §2' },
  { id: 'mirrors.sync.disabled', level: 'must', text: 'A sync of a disabled mirror is refused with 400 {"message":"Cannot proceed with the push mirroring. Please verify your mirror configuration."} and the status does not change.', source: 'gitlab-facts §2' },
  { id: 'mirrors.enabled.computed', level: 'must', text: 'enabled as shown is what sync obeys; GitLab computes it false when the project has no repository.', source: 'gitlab-facts §0.11' },

  // ---- delete ----------------------------------------------------------------------------
  { id: 'mirrors.delete.removes', level: 'must', text: 'DELETE removes the mirror (GitLab: 204, empty body); it is no longer listed nor readable.', source: `${SPEC}; gitlab-facts §2, §5.1` },

  // ---- who may ---------------------------------------------------------------------------
  { id: 'mirrors.auth.maintainer', level: 'must', text: 'Maintainers and Owners of the project may use every mirror endpoint.', source: 'gitlab-facts §2 (admin_remote_mirror)' },
  { id: 'mirrors.auth.below-maintainer', level: 'must', text: 'A signed-in Developer, Reporter or Guest is refused with 401 {"message":"401 Unauthorized"} (not 403), and nothing changes.', source: 'gitlab-facts §0.4, §2' },
  { id: 'mirrors.auth.invisible-project', level: 'must', text: 'An unknown project, or one the caller cannot see, gives 404 {"message":"404 Project Not Found"} before any role check.', source: 'gitlab-facts §0.4, §2' },
  { id: 'mirrors.auth.anonymous', level: 'must', text: 'A request without a token is refused with 401 on a project the public can see (and 404 on one it cannot).', source: 'gitlab-facts §0.4, §5.2' },
  { id: 'mirrors.auth.scopes', level: 'must', text: 'A read_api token may use the GET forms; the writes need the api scope (403 insufficient_scope otherwise); a read_repository token is refused.', source: 'gitlab-facts §5.2' },
];
