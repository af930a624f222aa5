// The remote-mirrors area (spec: Endpoints / Remote mirrors): push mirrors of a project.
import { defineArea } from '../harness/core/area.js';
import { remoteMirrorsClauses } from './clauses.js';

export const remoteMirrors = defineArea({
  name: 'remote-mirrors',
  prefix: 'mirrors',
  endpoints: {
    list: 'GET /projects/:id/remote_mirrors',
    get: 'GET /projects/:id/remote_mirrors/:mirror_id',
    create: 'POST /projects/:id/remote_mirrors',
    update: 'PUT /projects/:id/remote_mirrors/:mirror_id',
    sync: 'POST /projects/:id/remote_mirrors/:mirror_id/sync',
    delete: 'DELETE /projects/:id/remote_mirrors/:mirror_id',
  },
  clauses: remoteMirrorsClauses,
});
