// The public sources of the members and invitations areas: GitLab's specs of both set up a public
// group and project with an access requester. One pair for the whole run (a run fixture): the tests
// that use them read, are refused writes, or invite and add users lent to them (whom the lending
// policy takes back), so none changes what another checks.
import { fixture } from '../../runner/run/fixture.js';
import type { ActorInfo } from '../../runner/run/context.js';
import type { GroupInfo, ProjectInfo } from '../../runner/core/vocabulary.js';

export interface PublicSources {
  group: GroupInfo;
  /** In a public group of its own: a pending request to a project's group would keep the user from asking for the project. */
  project: ProjectInfo;
  /** A user whose access requests to both are pending. */
  requester: ActorInfo;
}

/** A public group and a public project, each with the shared role actors as direct members, and their access requester. */
export const publicSources = fixture<PublicSources>({
  name: 'public-sources',
  scope: 'run',
  requires: { setup: ['access-requests'] },
  async build({ make }) {
    const [group, project] = await Promise.all([
      make.group({ visibility: 'public', hint: 'public', roles: true }),
      make.group({ visibility: 'public', hint: 'public' }).then((parent) => make.project({ group: parent, visibility: 'public', hint: 'public', empty: true, roles: true })),
    ]);
    // A user of its own: the requests are the run's, not one test's.
    const requester = await make.user('requester');
    await Promise.all([make.requestAccess(group, requester), make.requestAccess(project, requester)]);
    return { group, project, requester };
  },
});
