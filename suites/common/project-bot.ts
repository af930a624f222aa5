// The run's project bot (a run world): a private project in the administrator's namespace with the
// shared role actors as its members, and the bot user of an access token of it. GitLab's members
// and invitations specs add "a project bot of an unrelated project" elsewhere (refused) and try to
// remove a project's bot (refused); neither changes the bot, so one serves the whole run.
import type { RunContext } from '../harness/run/context.js';
import { runWorld } from '../harness/run/run-world.js';
import type { ProjectInfo } from '../harness/run/world.js';
import { projectAccessToken, type ProjectBot } from './setup-endpoints.js';

export interface BotProject {
  project: ProjectInfo;
  /** The bot user of the project's access token, a Maintainer of the project (GitLab's default level). */
  bot: ProjectBot;
}

export function projectBot(run: RunContext): Promise<BotProject> {
  return runWorld(run, 'project-bot', async (world) => {
    const project = await world.project({ hint: 'bots', empty: true, roles: true });
    return { project, bot: await projectAccessToken(world, project) };
  });
}
