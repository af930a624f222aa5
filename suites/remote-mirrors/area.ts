// The remote-mirrors area (spec: Endpoints / Remote mirrors): push mirrors of a project, and the
// public key of an SSH mirror (GitLab 17.9), an extension beyond the spec's forms.
import { defineArea } from '../../runner/core/area.js';
import { remoteMirrorsClauses } from './clauses.js';

export const remoteMirrors = defineArea({
  name: 'remote-mirrors',
  prefix: 'mirrors',
  // Beyond the spec's forms: GitLab's own (lib/api/remote_mirrors.rb), tested at the parity level.
  extensions: {
    'public-key': 'GET /projects/:id/remote_mirrors/:mirror_id/public_key',
  },
  clauses: remoteMirrorsClauses,
  collectionIdKinds: { remote_mirrors: 'mirror' },
});
