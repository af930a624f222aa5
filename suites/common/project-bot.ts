// The run's project bot (a run fixture): a private project without commits below the run's root, and
// the bot user of an access token of it. GitLab's members and invitations specs add "a project bot of
// an unrelated project" elsewhere (refused) and try to remove or edit a project's bot (refused);
// neither changes the bot, so one serves the whole run. Its tests declare project-access-tokens.
import { fixture } from '../harness/run/fixture.js';
import type { ProjectInfo } from '../harness/core/vocabulary.js';
import { projectAccessToken, type ProjectBot } from './setup-endpoints.js';

export interface BotProject {
  project: ProjectInfo;
  /** The bot user of the project's access token, a Maintainer of the project (GitLab's default level). */
  bot: ProjectBot;
}

export const projectBot = fixture<BotProject>({
  name: 'project-bot',
  scope: 'run',
  needs: ['project-access-tokens'],
  async build({ make }) {
    const project = await make.project({ hint: 'bots', empty: true, roles: true });
    return { project, bot: await projectAccessToken(project) };
  },
});
