// Clauses of the repository-files area: the spec's "Repository files" section, the File, Blame
// range and File write result resources, the files rows of Authentication and Errors, and, where the
// spec says "not shown", what GitLab's code settles (lib/api/files.rb and the paths each clause names).
import type { Clause } from '../harness/core/clauses.js';
import { interopClauses } from '../common/interop.js';

const SPEC = 'spec: Endpoints/Repository files';
const FILE = 'spec: Resources/File';
const FILES_RB = 'GitLab: lib/api/files.rb';

export const repositoryFilesClauses: Clause[] = [
  // ---- the File resource -----------------------------------------------------------------
  { id: 'files.file.shape', level: 'must', text: 'GET file returns a File with file_name, file_path, size, encoding, content, content_sha256, ref, blob_id, commit_id, last_commit_id and execute_filemode of the documented types.', source: FILE },
  { id: 'files.file.name-and-path', level: 'must', text: 'file_name is the base name of the file and file_path its full path in the repository.', source: FILE },
  { id: 'files.file.content-base64', level: 'must', text: 'encoding is "base64" and content is the Base64-encoded file content; size is the file size in bytes.', source: FILE },
  { id: 'files.file.content-sha256', level: 'must', text: 'content_sha256 is the SHA-256 of the file content, 64 hex characters.', source: FILE },
  { id: 'files.file.ref', level: 'must', text: 'ref is the branch, tag or commit name that was requested.', source: FILE },
  { id: 'files.file.blob-id', level: 'must', text: 'blob_id is the git blob SHA of the content.', source: `${FILE}; ${FILES_RB} (blob_data: blob_id is @blob.id)` },
  { id: 'files.file.commit-id', level: 'must', text: 'commit_id is the commit that ref resolves to, not the last commit that touched the file.', source: `${FILE}; ${FILES_RB} (blob_data: commit_id is @commit.id)` },
  { id: 'files.file.last-commit-id', level: 'must', text: 'last_commit_id is the last commit at or before ref that touched the file.', source: FILE },
  { id: 'files.file.execute-filemode', level: 'must', text: 'execute_filemode tells whether the file has the execute flag.', source: FILE },
  { id: 'files.file.headers', level: 'must', text: 'The HEAD forms (file, blame, raw) carry the headers <Prefix>Blob-Id, Commit-Id, Content-Sha256, Encoding, File-Name, File-Path, Last-Commit-Id, Ref, Size, Execute-Filemode, each equal to the field of the same name. GitLab sends them on GET file, GET blame and GET raw too (GitLab parity).', source: `${FILE} (headers: "carried … by the HEAD operations"); ${FILES_RB} (set_http_headers(blob_data) on every read form); lib/api/helpers/headers_helpers.rb` },

  // ---- reading ---------------------------------------------------------------------------
  { id: 'files.path.encoded', level: 'must', text: ':file_path is the URL-encoded full path of the file, slashes and dots encoded.', source: SPEC },
  { id: 'files.id.path-or-number', level: 'must', text: ':id is the numeric project id or the URL-encoded full path of the project.', source: 'spec: Conventions' },
  { id: 'files.get.ref-required', level: 'must', text: 'ref is required on GET/HEAD file and blame; without it, or blank, the request is refused with 400.', source: `${SPEC}; ${FILES_RB} (requires :ref, allow_blank: false); spec/requests/api/files_spec.rb (when mandatory params are not given: 400)` },
  { id: 'files.get.ref-kinds', level: 'must', text: 'ref may be a branch, a tag-like name or a commit id.', source: SPEC },
  { id: 'files.get.public-without-auth', level: 'must', text: 'GET of a file needs no authentication when the repository is publicly accessible.', source: 'spec: Authentication 3' },
  { id: 'files.get.private-hidden', level: 'must', text: 'A private project is not found (404) for a signed-in non-member; an anonymous caller is refused with 401 or 404 (GitLab: 404 "404 Project Not Found", GitLab parity).', source: 'spec: Authentication 3 (no authentication only for a public repository); GitLab: lib/api/helpers.rb (find_project!: not_found!(\'Project\')); spec/requests/api/files_spec.rb (when unauthenticated and project is private: 404 response, 404 Project Not Found)' },
  { id: 'files.get.not-found', level: 'must', text: 'An unknown project, ref or file gives 404 (texts "404 Project Not Found", "404 Commit Not Found", "404 File Not Found": GitLab parity).', source: `${FILES_RB} (assign_file_vars!: not_found!('Commit'), not_found!('File')); lib/api/helpers.rb (find_project!); spec/requests/api/files_spec.rb (404 response)` },
  { id: 'files.head.metadata-only', level: 'must', text: 'HEAD file returns the status and the metadata headers only, no body.', source: `${SPEC} (HEAD)` },
  { id: 'files.read.role', level: 'must', text: 'On a private project, reading files needs Reporter or above; a Guest is refused with 403.', source: `${FILES_RB} (authorize_read_code!); spec/requests/api/files_spec.rb (and user is a guest: 403 response)` },

  // ---- blame -----------------------------------------------------------------------------
  { id: 'files.blame.shape', level: 'must', text: 'GET blame returns an array of Blame range: commit {id, message, parent_ids, authored_date, author_name, author_email, committed_date, committer_name, committer_email} and lines.', source: 'spec: Resources/Blame range' },
  { id: 'files.blame.covers-file', level: 'must', text: 'Without a range, the lines of all ranges, in order, are exactly the lines of the file.', source: SPEC },
  { id: 'files.blame.last-change', level: 'must', text: 'Each range names the commit that last changed its lines.', source: 'spec: Resources/Blame range' },
  { id: 'files.blame.range', level: 'must', text: 'With range[start] and range[end], lines covers only those lines.', source: SPEC },
  { id: 'files.blame.range-validation', level: 'must', text: 'A range bound below 1, a bound given without the other, or start after end is refused with 400 (which refusal wins over a missing file: GitLab parity).', source: `${SPEC} (range[start], range[end]); ${FILES_RB} (range: requires :start, :end, values v > 0; fetch_blame_range); spec/requests/api/files_spec.rb (with a range parameter)` },
  { id: 'files.blame.head', level: 'must', text: 'HEAD blame returns the status and the same metadata headers as HEAD file; no body.', source: `${SPEC} (HEAD blame)` },
  { id: 'files.blame.timestamps', level: 'must', text: 'authored_date and committed_date are timestamps with milliseconds.', source: 'spec: Resources/Blame range' },

  // ---- raw -------------------------------------------------------------------------------
  { id: 'files.raw.content', level: 'must', text: 'GET raw returns the file\'s bytes as they are stored.', source: SPEC },
  { id: 'files.raw.default-ref', level: 'must', text: 'ref is optional on raw; the default is the HEAD of the project.', source: SPEC },
  { id: 'files.raw.lfs', level: 'must', text: 'With lfs=true the large-file-storage content is returned instead of the pointer; lfs is ignored for files not tracked by LFS; the default is false.', source: `${SPEC}; spec: Versioning 2 (15.7)` },
  { id: 'files.raw.headers', level: 'should', text: 'GET raw answers inline (Content-Disposition with the file name), as text/plain for a text file. A Ref metadata header, when sent, is the ref given; without a ref it is absent, empty or the default branch (GitLab: the ref as given, so empty or absent: GitLab parity).', source: 'GitLab: lib/api/helpers.rb (send_git_blob); lib/api/files.rb (raw: set_http_headers(blob_data), blob_data ref: params[:ref]); lib/api/helpers/headers_helpers.rb (to_s); spec/requests/api/files_spec.rb (sets inline content disposition by default)' },
  { id: 'files.raw.lfs-missing-object', level: 'must', text: 'With lfs=true on a blob that is an LFS pointer whose object the project does not hold, the answer is 404 (GitLab: "404 Not Found", GitLab parity), or the pointer as stored from a target that does not take the path as LFS-tracked; never a server error.', source: `${SPEC} (lfs: "ignored if the file is not tracked by it"); ${FILES_RB} (raw: not_found! unless lfs_object&.project_allowed_access?)` },
  { id: 'files.raw.no-cache', level: 'should', text: 'GET raw is sent with no-cache headers (Cache-Control includes no-cache); a filename* parameter of Content-Disposition, when present, has the RFC 5987 form charset\'\'name.', source: 'GitLab: lib/api/helpers.rb (no_cache_headers; send_git_blob: ActionDispatch::Http::ContentDisposition.format); spec/requests/api/files_spec.rb (sets no-cache headers); RFC 6266' },
  { id: 'files.raw.leading-slash', level: 'must', text: 'An encoded leading "/" in file_path (an absolute path) is refused with 400 on the file and blame forms. On /raw it is refused the same way, or, where the validator allows an encoded initial separator, read as the path without it; never a server error nor another file.', source: 'GitLab: lib/api/validations/validators/file_path.rb (check_allowed_absolute_path!; allow_initial_path_separator in the newest version); spec/requests/api/files_spec.rb (when path is absolute: 400, also on /raw)' },
  { id: 'files.raw.head', level: 'must', text: 'HEAD raw is supported and returns metadata only.', source: SPEC },

  // ---- writes ----------------------------------------------------------------------------
  { id: 'files.create.commit', level: 'must', text: 'POST creates one file by making a commit on branch and returns the File write result {file_path, branch} (201).', source: `${SPEC}; ${FILES_RB} (status(201))` },
  { id: 'files.create.required', level: 'must', text: 'branch, commit_message and content are required on create and update (branch and commit_message also on delete); a missing one, or a blank branch or commit_message, is refused with 400.', source: `${SPEC}; ${FILES_RB} (simple_file_params, extended_file_params: requires, allow_blank: false)` },
  { id: 'files.create.author', level: 'must', text: 'author_email and author_name set the commit author.', source: SPEC },
  { id: 'files.create.encoding', level: 'must', text: 'encoding=base64 means content is Base64 and is stored decoded; the default is text; other values are refused with 400.', source: `${SPEC}; ${FILES_RB} (encoding values: base64, text)` },
  { id: 'files.create.execute-filemode', level: 'must', text: 'execute_filemode enables or disables the execute flag of the file.', source: SPEC },
  { id: 'files.create.start-branch', level: 'must', text: 'start_branch is the base branch from which a new branch is created.', source: SPEC },
  { id: 'files.create.exists', level: 'must', text: 'Creating a file that already exists fails with 400 and leaves the file as it was.', source: `spec: Errors (commit fails: 400); ${FILES_RB} (render_api_error!(result[:message], 400)); Gitaly internal/gitaly/service/operations/commit_files.go ("A file with this name already exists")` },
  { id: 'files.update.commit', level: 'must', text: 'PUT updates one file by making a commit and returns the File write result (200).', source: `${SPEC}; ${FILES_RB} (status(200))` },
  { id: 'files.update.last-commit-id', level: 'must', text: 'last_commit_id on update, when it is not the last commit of the file, makes the update fail with 400 and nothing is lost.', source: `${SPEC}; GitLab: app/services/files/update_service.rb (FileChangedError); ${FILES_RB} (render_api_error!(e.message, 400))` },
  { id: 'files.update.missing', level: 'must', text: 'Updating a file that does not exist fails with 400.', source: `spec: Errors (commit fails: 400); ${FILES_RB}; Gitaly internal/gitaly/service/operations/commit_files.go ("A file with this name doesn't exist")` },
  { id: 'files.update.empty-commit', level: 'must', text: 'An update whose content equals the current content is refused with 400 (the spec: the commit is empty) or, as GitLab does, accepted with 200 and an empty commit; either way the file\'s content, blob and last commit stay as they were.', source: 'spec: Errors; GitLab: app/services/files/update_service.rb (validate!: no content check); Gitaly internal/gitaly/service/operations/commit_files.go (no empty-tree check)' },
  { id: 'files.delete.commit', level: 'must', text: 'DELETE removes one file by making a commit; the file is gone on that branch afterwards. The answer is 200 or 204 (GitLab: 204, empty body: GitLab parity).', source: `${SPEC} ("Response: not shown"); ${FILES_RB} (delete: no body, so 204); spec/requests/api/files_spec.rb (deletes existing file in project repo: no_content)` },
  { id: 'files.delete.missing', level: 'must', text: 'Deleting a file that does not exist fails with 400.', source: `spec: Errors (commit fails: 400); ${FILES_RB} (render_api_error!(result[:message], 400)); Gitaly internal/gitaly/service/operations/commit_files.go ("A file with this name doesn't exist")` },
  { id: 'files.write.traversal', level: 'must', text: 'A file_path with a /../ segment (directory traversal) or an absolute path is refused with 400 and nothing is written.', source: 'spec: Errors (directory traversal); GitLab: lib/api/validations/validators/file_path.rb (check_path_traversal!, check_allowed_absolute_path!); spec/requests/api/files_spec.rb (returns 400 when file path is invalid / absolute)' },
  { id: 'files.write.race', level: 'must', text: 'A commit fails with 400 when the branch was updated by a push during the edit.', source: 'spec: Errors', untestable: 'a push racing the edit cannot be produced on demand from outside; the last_commit_id conflict is the testable form (files.update.last-commit-id)' },
  { id: 'files.write.role', level: 'must', text: 'Writing files needs Developer or above (403 below), and pushing to a protected branch needs the right to push there (400).', source: `${FILES_RB} (authorize! :push_code); app/services/commits/create_service.rb (validate_permissions!: "You are not allowed to push into this branch")` },
  { id: 'files.write.anonymous', level: 'must', text: 'A write without a token is refused (401, or 403/404 depending on visibility), never a 2xx.', source: `${FILES_RB} (authorize! :push_code); lib/api/helpers.rb (authorize!: forbidden!; find_project!: 404)` },

  // ---- authentication and cross-cutting --------------------------------------------------
  { id: 'files.auth.private-token', level: 'must', text: 'Requests are authenticated with a personal access token in the PRIVATE-TOKEN header; an unknown token is refused with 401.', source: 'spec: Authentication 1; GitLab: lib/api/api_guard.rb; lib/gitlab/auth/auth_finders.rb' },
  { id: 'files.auth.scopes', level: 'must', text: 'Token scopes for files: api reads and writes, read_api and read_repository only read (writes refused with 403).', source: `spec: Authentication 2; ${FILES_RB} (allow_access_with_scope :read_repository for GET and HEAD); lib/api/api_guard.rb (insufficient_scope: 403)` },
  { id: 'files.errors.shape', level: 'must', text: 'Errors are JSON objects with "message" (helpers) or "error" (parameter validation).', source: 'GitLab: lib/api/helpers.rb (render_api_error!); lib/api/api.rb (rescue_from Grape::Exceptions::Base: error!)' },
  { id: 'files.rate-limits', level: 'may', text: 'Rate limits can be configured for the repository files API.', source: 'spec: Limits 1', untestable: 'the limit values are not shown and are an instance setting; a conformance run must not exhaust them' },
  { id: 'files.api-prefix', level: 'must', text: 'All paths are under /api/v4; an unknown route there gives 404 {"error":"404 Not Found"}.', source: 'spec: Versioning 1; GitLab: lib/api/api.rb (route :any, \'*path\': 404 Not Found)' },
  // ---- what clients rely on at the HTTP level (suites/common/interop.ts) ----------------
  ...interopClauses('files', { paginated: false }),
];
