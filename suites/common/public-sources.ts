// The public sources of the members and invitations areas: GitLab's specs of both set up a public
// group and project with an access requester. One pair for the whole run (a run world): the tests
// that use them read, are refused writes, or invite and add users of their own (World.userFor hands
// out users of their own there), so none changes what another checks.
import type { ActorInfo, RunContext } from '../harness/run/context.js';
import { runWorld } from '../harness/run/run-world.js';
import type { GroupInfo, ProjectInfo } from '../harness/run/world.js';

export interface PublicSources {
  group: GroupInfo;
  /** In a public group of its own: a pending request to a project's group would keep the user from asking for the project. */
  project: ProjectInfo;
  /** A user whose access requests to both are pending. */
  requester: ActorInfo;
}

/** A public group and a public project, each with the shared role actors as direct members, and their access requester. */
export function publicSources(run: RunContext): Promise<PublicSources> {
  return runWorld(run, 'public-sources', async (world) => {
    const [group, project] = await Promise.all([
      world.group({ visibility: 'public', hint: 'public', roles: true }),
      world.group({ visibility: 'public', hint: 'public' }).then((parent) => world.project({ group: parent, visibility: 'public', hint: 'public', empty: true, roles: true })),
    ]);
    // A user of its own: the requests are the run's, not one file's.
    const requester = await world.user('requester');
    await Promise.all([world.requestAccess(group, requester), world.requestAccess(project, requester)]);
    return { group, project, requester };
  });
}
