// The repository-files area (spec: Endpoints / Repository files): nine forms on one project file.
import { defineArea } from '../../runner/core/area.js';
import { repositoryFilesClauses } from './clauses.js';

const FILE = '/projects/:id/repository/files/:file_path';

export const repositoryFiles = defineArea({
  name: 'repository-files',
  prefix: 'files',
  endpoints: {
    get: `GET ${FILE}`,
    head: `HEAD ${FILE}`,
    blame: `GET ${FILE}/blame`,
    'blame-head': `HEAD ${FILE}/blame`,
    raw: `GET ${FILE}/raw`,
    'raw-head': `HEAD ${FILE}/raw`,
    create: `POST ${FILE}`,
    update: `PUT ${FILE}`,
    delete: `DELETE ${FILE}`,
  },
  clauses: repositoryFilesClauses,
});
