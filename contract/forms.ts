// The spec's 47 endpoint forms (spec/api-spec.md, its endpoints.txt), as data: the one list the
// suite's areas (runner/core/area.ts), the reference server's specs, the client drivers' claims and
// docs/endpoints.txt (written from it: scripts/endpoints-doc.ts) read. A GitLab endpoint beyond these
// is an area's extension, declared in the area (suites/<area>/area.ts), never here. Each form has
// the area that tests it and the key of its endpoint there: an endpoint with a group and a project
// form has one key for both. Both sides import this one module; it imports nothing.

export type FormKind = 'group' | 'project';

export interface SpecForm<A extends string = string, K extends string = string> {
  /** `<area>.<key>.<kind>`: unique, stable. */
  id: string;
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  /** The path template below /api/v4, as the spec writes it. */
  path: string;
  /** "METHOD PATH": how reports, the docs and the clients name the form. */
  form: string;
  area: A;
  /** The endpoint's key in its area: its tests' ids and file name (`list` → list.test.ts). */
  key: K;
  /** The kind of source the path names. */
  kind: FormKind;
}

function spec<const A extends string, const K extends string>(area: A, key: K, form: `${SpecForm['method']} /${FormKind}s/${string}`): SpecForm<A, K> {
  const [method, path] = form.split(' ') as [SpecForm['method'], string];
  const kind: FormKind = path.startsWith('/groups/') ? 'group' : 'project';
  return { id: `${area}.${key}.${kind}`, method, path, form, area, key, kind };
}

/** In the spec's order (its endpoints.txt). */
export const SPEC_FORMS = [
  spec('repository-files', 'get', 'GET /projects/:id/repository/files/:file_path'),
  spec('repository-files', 'head', 'HEAD /projects/:id/repository/files/:file_path'),
  spec('repository-files', 'blame', 'GET /projects/:id/repository/files/:file_path/blame'),
  spec('repository-files', 'blame-head', 'HEAD /projects/:id/repository/files/:file_path/blame'),
  spec('repository-files', 'raw', 'GET /projects/:id/repository/files/:file_path/raw'),
  spec('repository-files', 'raw-head', 'HEAD /projects/:id/repository/files/:file_path/raw'),
  spec('repository-files', 'create', 'POST /projects/:id/repository/files/:file_path'),
  spec('repository-files', 'update', 'PUT /projects/:id/repository/files/:file_path'),
  spec('repository-files', 'delete', 'DELETE /projects/:id/repository/files/:file_path'),
  spec('remote-mirrors', 'list', 'GET /projects/:id/remote_mirrors'),
  spec('remote-mirrors', 'get', 'GET /projects/:id/remote_mirrors/:mirror_id'),
  spec('remote-mirrors', 'create', 'POST /projects/:id/remote_mirrors'),
  spec('remote-mirrors', 'update', 'PUT /projects/:id/remote_mirrors/:mirror_id'),
  spec('remote-mirrors', 'sync', 'POST /projects/:id/remote_mirrors/:mirror_id/sync'),
  spec('remote-mirrors', 'delete', 'DELETE /projects/:id/remote_mirrors/:mirror_id'),
  spec('invitations', 'create', 'POST /groups/:id/invitations'),
  spec('invitations', 'create', 'POST /projects/:id/invitations'),
  spec('invitations', 'list', 'GET /groups/:id/invitations'),
  spec('invitations', 'list', 'GET /projects/:id/invitations'),
  spec('invitations', 'update', 'PUT /groups/:id/invitations/:email'),
  spec('invitations', 'update', 'PUT /projects/:id/invitations/:email'),
  spec('invitations', 'delete', 'DELETE /groups/:id/invitations/:email'),
  spec('invitations', 'delete', 'DELETE /projects/:id/invitations/:email'),
  spec('members', 'list', 'GET /groups/:id/members'),
  spec('members', 'list', 'GET /projects/:id/members'),
  spec('members', 'list-all', 'GET /groups/:id/members/all'),
  spec('members', 'list-all', 'GET /projects/:id/members/all'),
  spec('members', 'get', 'GET /groups/:id/members/:user_id'),
  spec('members', 'get', 'GET /projects/:id/members/:user_id'),
  spec('members', 'get-all', 'GET /groups/:id/members/all/:user_id'),
  spec('members', 'get-all', 'GET /projects/:id/members/all/:user_id'),
  spec('members', 'add', 'POST /groups/:id/members'),
  spec('members', 'add', 'POST /projects/:id/members'),
  spec('members', 'edit', 'PUT /groups/:id/members/:user_id'),
  spec('members', 'edit', 'PUT /projects/:id/members/:user_id'),
  spec('members', 'remove', 'DELETE /groups/:id/members/:user_id'),
  spec('members', 'remove', 'DELETE /projects/:id/members/:user_id'),
  spec('members', 'billable', 'GET /groups/:id/billable_members'),
  spec('members', 'billable-memberships', 'GET /groups/:id/billable_members/:user_id/memberships'),
  spec('members', 'billable-indirect', 'GET /groups/:id/billable_members/:user_id/indirect'),
  spec('members', 'billable-remove', 'DELETE /groups/:id/billable_members/:user_id'),
  spec('members', 'state', 'PUT /groups/:id/members/:user_id/state'),
  spec('members', 'approve', 'PUT /groups/:id/members/:member_id/approve'),
  spec('members', 'approve-all', 'POST /groups/:id/members/approve_all'),
  spec('members', 'pending', 'GET /groups/:id/pending_members'),
  spec('members', 'override-set', 'POST /groups/:id/members/:user_id/override'),
  spec('members', 'override-remove', 'DELETE /groups/:id/members/:user_id/override'),
] as const;

/** The areas the spec's forms belong to. */
export type SpecArea = (typeof SPEC_FORMS)[number]['area'];
/** The keys of an area's spec forms (none for an area of extensions only). */
export type SpecKey<A extends string> = Extract<(typeof SPEC_FORMS)[number], { area: A }>['key'];

/** The "METHOD PATH" strings of the spec's forms, in its order. */
export const SPEC_FORM_NAMES: readonly string[] = SPEC_FORMS.map((f) => f.form);

/** The forms of these areas, in the spec's order. */
export const formsOfAreas = (...areas: SpecArea[]): string[] => SPEC_FORMS.filter((f) => areas.includes(f.area)).map((f) => f.form);

/** docs/endpoints.txt: the spec's forms, one a line, each with its area (scripts/endpoints-doc.ts writes it). */
export function endpointsTxt(): string {
  const header = [
    `# The ${SPEC_FORMS.length} endpoint forms of spec/api-spec.md, one per line: METHOD PATH-TEMPLATE  AREA`,
    '# A report names a test\'s endpoint with exactly one of these strings.',
    '# Written from contract/forms.ts by `npm run docs:endpoints`: edit that, not this.',
  ];
  return [...header, ...SPEC_FORMS.map((f) => `${f.form}\t${f.area}`)].join('\n') + '\n';
}
