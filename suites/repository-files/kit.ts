// The repository-files area's kit: the base kit, and `files` for every test of it (the run's projects
// and the test file's branch in them: projectsWithBranch).
import { areaKit } from '../../runner/run/conformance.js';
import { repositoryFiles } from './area.js';
import { projectsWithBranch } from './helpers.js';

export const { endpoint } = areaKit(repositoryFiles, { fixtures: { files: projectsWithBranch } });
