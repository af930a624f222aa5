// The run's project bot (a run fixture): the bot user of an access token of the run's project without
// commits (repositories.ts; its role actors are members by the group above it). GitLab's members and invitations specs add "a project bot of
// an unrelated project" elsewhere (refused) and try to remove or edit a project's bot (refused);
// neither changes the bot, so one serves the whole run. Its tests declare project-access-tokens.
import { fixture } from '../../runner/run/fixture.js';
import { emptyRepository } from './repositories.js';
import type { ProjectInfo } from '../../runner/core/vocabulary.js';
import { projectAccessToken, type ProjectBot } from './setup-endpoints.js';

export interface BotProject {
  project: ProjectInfo;
  /** The bot user of the project's access token, a Maintainer of the project (GitLab's default level). */
  bot: ProjectBot;
}

export const projectBot = fixture({
  name: 'project-bot',
  scope: 'run',
  requires: { setup: ['project-access-tokens'] },
  fixtures: { emptyRepository },
  async build(ctx): Promise<BotProject> {
    const project = ctx.emptyRepository;
    return { project, bot: await projectAccessToken(ctx, project) };
  },
});
