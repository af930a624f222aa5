// The run's projects with a repository, shared by the repository files and remote mirrors areas
// (run fixtures): a public group with the shared role actors as members, and a public and a private
// project in it. Files tests write on branches of their own (and to the default branch only where
// that is their point); mirrors tests work on mirrors of their own, found by id. Neither reads what
// the other writes, and files may add projects of their own to the group.
import { fixture } from '../../runner/run/fixture.js';

export const repositories = fixture({
  name: 'repositories',
  scope: 'run',
  async build({ make }) {
    const group = await make.group({ visibility: 'public', hint: 'repositories', roles: true });
    const [publicProject, privateProject] = await Promise.all([
      make.project({ group, visibility: 'public', hint: 'public' }),
      make.project({ group, visibility: 'private', hint: 'private' }),
    ]);
    return { group, publicProject, privateProject };
  },
});

/**
 * A public project without commits in the run's repositories group: files tests read from it,
 * mirrors tests add mirrors of their own to it; nobody commits.
 */
export const emptyRepository = fixture({
  name: 'empty-repository',
  scope: 'run',
  fixtures: { repositories },
  build: ({ make, repositories }) => make.project({ group: repositories.group, visibility: 'public', hint: 'empty', empty: true }),
});
