// Set-up calls beyond the target contract's table (README: "Set-up endpoints beyond the target
// contract's table"), one function per GitLab endpoint, each made with the admin token. A target that
// answers otherwise than GitLab fails the set-up (verdict `error`), not the test.
import { describeExchange } from '../harness/core/checks.js';
import { apiPath } from '../harness/core/client.js';
import { HarnessError } from '../harness/core/errors.js';
import { registerSecret } from '../harness/core/redact.js';
import { dateIn } from '../harness/core/vocabulary.js';
import type { ProjectInfo, World } from '../harness/run/world.js';

/** The bot user a project access token made: its user id and username. */
export interface ProjectBot {
  id: number;
  username: string;
}

/**
 * `POST /projects/:id/access_tokens` (lib/api/resource_access_tokens.rb; app/services/resource_access_tokens/create_service.rb):
 * a token of the project, whose bot user (user_type project_bot) GitLab makes a member of the
 * project at the default level (Maintainer). The bot goes with the project. The token is not kept;
 * the bot's username is read back from the project's members.
 */
export async function projectAccessToken(world: World, project: ProjectInfo): Promise<ProjectBot> {
  const res = await world.admin.post(apiPath`/projects/${project.id}/access_tokens`, {
    body: { name: world.factories.slug('bot'), scopes: ['read_api'], expires_at: dateIn(7) },
  });
  const body = (res.body ?? {}) as { user_id?: unknown; token?: unknown };
  if (typeof body.token === 'string') registerSecret(body.token);
  if (res.status !== 201 || typeof body.user_id !== 'number') {
    throw new HarnessError(`setup failed: could not create an access token of project ${project.fullPath} (wanted HTTP 201 with user_id)${describeExchange(res)}`);
  }
  const member = await world.admin.get(apiPath`/projects/${project.id}/members/${body.user_id}`);
  const username = (member.body as { username?: unknown } | undefined)?.username;
  if (member.status !== 200 || typeof username !== 'string') {
    throw new HarnessError(`setup failed: the bot user ${body.user_id} of project ${project.fullPath} is not its member (wanted HTTP 200)${describeExchange(member)}`);
  }
  return { id: body.user_id, username };
}

/**
 * `PUT /projects/:id` with `path` (lib/api/projects.rb): renames the project; GitLab keeps the old
 * full path as a redirect route (app/models/concerns/routable.rb). Answers the new full path.
 */
export async function renameProject(world: World, project: ProjectInfo, path: string): Promise<string> {
  const res = await world.admin.put(apiPath`/projects/${project.id}`, { body: { path } });
  const fullPath = (res.body as { path_with_namespace?: unknown } | undefined)?.path_with_namespace;
  if (res.status !== 200 || typeof fullPath !== 'string' || !fullPath.endsWith(`/${path}`)) {
    throw new HarnessError(`setup failed: could not rename project ${project.fullPath} to ${path} (wanted HTTP 200 with the new path)${describeExchange(res)}`);
  }
  return fullPath;
}
