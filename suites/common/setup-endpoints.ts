// Set-up calls beyond the target contract's table that only some tests make (README: "Set-up
// endpoints beyond the target contract's table"), one function per GitLab endpoint, made with the
// admin token of the test or build whose context it is handed, which must declare the need. A target
// that answers otherwise than GitLab fails the set-up: the test is `unsupported` for the need, not failed.
import { apiPath } from '../../runner/core/client.js';
import { registerSecret } from '../../runner/core/redact.js';
import { dateIn, type ProjectInfo } from '../../runner/core/vocabulary.js';
import type { SetupContext } from '../../runner/run/fixture.js';
import { Ledger } from '../../runner/run/ledger.js';
import { SetupError } from '../../runner/run/maker.js';

/** The bot user a project access token made: its user id, username and primary address. */
export interface ProjectBot {
  id: number;
  username: string;
  /** Read with the bot's own token from GET /user (the contract's; lib/api/entities/user_public.rb exposes the address to its user). */
  email: string;
}

/**
 * `POST /projects/:id/access_tokens` (lib/api/resource_access_tokens.rb; app/services/resource_access_tokens/create_service.rb):
 * a token of the project, whose bot user (user_type project_bot) GitLab makes a member of the
 * project at the default level (Maintainer). The bot goes with the project. The token is not kept;
 * the bot's username is read back from the project's members, its address with the token itself.
 */
export async function projectAccessToken({ make, admin, names }: SetupContext, project: ProjectInfo): Promise<ProjectBot> {
  const body = await make.setup(
    `create an access token of project ${project.fullPath}`,
    admin.post(apiPath`/projects/${project.id}/access_tokens`, { body: { name: names.slug('bot'), scopes: ['read_api'], expires_at: dateIn(7) } }),
    [201],
    'project-access-tokens',
  );
  if (typeof body.token === 'string') registerSecret(body.token);
  const member = await make.setup(`read the bot user ${String(body.user_id)} of project ${project.fullPath} among its members`, admin.get(apiPath`/projects/${project.id}/members/${Number(body.user_id)}`), [200], 'project-access-tokens');
  const read = await admin.withToken(String(body.token), `the bot of project ${project.fullPath}`).get('/user');
  const self = (read.body ?? {}) as Record<string, unknown>;
  if (read.status !== 200 || self.id !== Number(body.user_id) || typeof self.email !== 'string') throw new SetupError(`read the bot user ${String(body.user_id)}'s id and address with its own token (GET /user)`, read, [200]);
  return { id: Number(body.user_id), username: String(member.username), email: self.email };
}

/**
 * `PUT /projects/:id` with `path` (lib/api/projects.rb): renames the project; GitLab keeps the old
 * full path as a redirect route (app/models/concerns/routable.rb). Answers the new full path.
 */
export async function renameProject(ctx: SetupContext, project: ProjectInfo, path: string): Promise<string> {
  ctx.mayUse('project-update');
  const res = await ctx.admin.put(apiPath`/projects/${project.id}`, { body: { path } });
  const fullPath = (res.body as { path_with_namespace?: unknown } | undefined)?.path_with_namespace;
  if (res.status !== 200 || typeof fullPath !== 'string' || !fullPath.endsWith(`/${path}`)) throw new SetupError(`rename project ${project.fullPath} to ${path} (wanted its new path_with_namespace)`, res, [200], 'project-update');
  // The clean-up deletes it only under the name the ledger holds (removal.ts checkObject).
  new Ledger(ctx.run.ledgerPath, ctx.run.runId).record('project', project.id, fullPath);
  return fullPath;
}
