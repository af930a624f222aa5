// The repository-files area (spec: Endpoints / Repository files): nine forms on one project file.
import { defineArea } from '../../runner/core/area.js';
import { repositoryFilesClauses } from './clauses.js';

export const repositoryFiles = defineArea({
  name: 'repository-files',
  prefix: 'files',
  clauses: repositoryFilesClauses,
});
