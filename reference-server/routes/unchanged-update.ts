// Whether a PUT of a file would leave it as it is: the check of the spec-only variation and of a
// seeded fault, outside the route code (the default server commits such an update, as GitLab does).
import type { FastifyRequest } from 'fastify';
import { authenticate, WRITE_API_SCOPES, type Actor } from '../http/auth.js';
import { mergedParams } from '../http/params.js';
import { ACCESS } from '../state/model.js';
import type { Store } from '../state/store.js';

/**
 * Whether a PUT of a file that would otherwise go through leaves the file as it is (same bytes, same
 * mode): GitLab commits anyway, an empty commit (app/services/files/update_service.rb); the spec
 * (Errors) calls it an empty commit and refuses it with 400. The spec-only variation and a seeded
 * fault use it to refuse such an update before anything is written.
 */
export function unchangedUpdate(store: Store, request: FastifyRequest): boolean {
  let actor: Actor;
  try {
    actor = authenticate(store, request);
  } catch {
    return false;
  }
  const { id, file_path: path } = request.params as { id: string; file_path: string };
  const project = store.findProject(String(id));
  const params = mergedParams(request);
  const text = (name: string) => (typeof params[name] === 'string' && String(params[name]).trim() !== '' ? String(params[name]) : undefined);
  const branch = text('branch');
  if (!project || !actor.user || !text('commit_message') || branch === undefined) return false;
  if (actor.token && !actor.token.scopes.some((scope) => (WRITE_API_SCOPES as readonly string[]).includes(scope))) return false;
  if ((project.repositoryAccessLevel ?? 'enabled') === 'disabled' || store.accessLevel(project, actor.user) < ACCESS.DEVELOPER) return false;
  const head = project.repository.branchHead(text('start_branch') ?? branch);
  const file = head && project.repository.readFile(head, String(path));
  if (!file || (params.content !== null && typeof params.content !== 'string')) return false;
  const content = String(params.content ?? '');
  const bytes = params.encoding === 'base64' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8');
  const flag = params.execute_filemode === undefined ? undefined : ['true', '1'].includes(String(params.execute_filemode));
  return bytes.equals(file.content) && (flag === undefined || flag === (file.mode === '100755'));
}

