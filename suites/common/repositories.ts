// The run's projects with a repository, shared by the repository files and remote mirrors areas (a
// run world): a public group with the shared role actors as members, and a public and a private
// project in it. Files tests write on branches of their own (and to the default branch only where that
// is their point); mirrors tests work on mirrors of their own, found by id. Neither reads what the
// other writes, and files may add projects of their own to the group.
import type { RunContext } from '../harness/run/context.js';
import { runWorld } from '../harness/run/run-world.js';
import type { GroupInfo, ProjectInfo } from '../harness/run/world.js';

export interface RepositorySources {
  /** Public, with the shared actors in their roles. */
  group: GroupInfo;
  publicProject: ProjectInfo;
  privateProject: ProjectInfo;
}

export function repositorySources(run: RunContext): Promise<RepositorySources> {
  return runWorld(run, 'repositories', async (world) => {
    const group = await world.group({ visibility: 'public', hint: 'repositories', roles: true });
    const [publicProject, privateProject] = await Promise.all([
      world.project({ group, visibility: 'public', hint: 'public' }),
      world.project({ group, visibility: 'private', hint: 'private' }),
    ]);
    return { group, publicProject, privateProject };
  });
}

/**
 * A public project without commits in the run's repositories group (a run world): files tests read
 * from it, mirrors tests add mirrors of their own to it; nobody commits.
 */
export function emptyRepository(run: RunContext): Promise<ProjectInfo> {
  return runWorld(run, 'empty-repository', async (world) => {
    const { group } = await repositorySources(run);
    return world.project({ group, visibility: 'public', hint: 'empty', empty: true });
  });
}
