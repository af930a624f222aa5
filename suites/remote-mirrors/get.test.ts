// GET /projects/:id/remote_mirrors/:mirror_id
import { endpoint } from './kit.js';
import { expectEqual, expectOk } from '../../runner/core/checks.js';
import { createMirror, expectAnonymousOnPrivate, expectAnonymousOnPublic, expectInsufficientScope, expectNoSecret, expectRefusedToNonMaintainers, expectSameMirror, expectUnknownMirrorsNotFound, mirrorPath, readMirror, target, type Mirror } from './helpers.js';

const suite = endpoint('get');

suite.test(
  {
    case: 'reads-one',
    title: 'a mirror reads back by id with the values it was created with',
    clauses: ['mirrors.get.one', 'mirrors.entity.shape'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('get-one'), enabled: true, keep_divergent_refs: true, only_protected_branches: true });
    await createMirror(as('maintainer'), privateProject, { url: target('get-other') });
    const res = await as('maintainer').get(mirrorPath(privateProject, created.id));
    expectOk(res, 200, 'remote-mirror');
    expectSameMirror(res.body as Mirror, created, 'the mirror read by id');
  },
);

suite.test(
  {
    case: 'masked',
    title: 'the single read shows user and password of the url as *****',
    clauses: ['mirrors.url.masked'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: 'https://reader-user:Pa55-get-word@example.com/conformance/get-masked.git' });
    const res = await as('maintainer').get(mirrorPath(privateProject, created.id));
    expectOk(res, 200, 'remote-mirror');
    expectEqual((res.body as { url: string }).url, 'https://*****:*****@example.com/conformance/get-masked.git', 'the masked url');
    expectNoSecret(res, 'reader-user');
    expectNoSecret(res, 'Pa55-get-word');
  },
);

suite.test(
  {
    case: 'not-found',
    title: 'an unknown or non-numeric mirror id, or another project\'s mirror, gives 404 "404 Not found"',
    clauses: ['mirrors.id.not-found'],
  },
  async ({ as, repositories }) => {
    const elsewhere = await expectUnknownMirrorsNotFound(as, repositories, { url: target('get-elsewhere') }, (client, project, id) => client.get(mirrorPath(project, id)));
    await readMirror(as('maintainer'), repositories.publicProject, elsewhere.id);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'Maintainer and Owner read a mirror; Developer, Reporter and Guest get 401; an outsider gets 404',
    clauses: ['mirrors.auth.maintainer', 'mirrors.auth.below-maintainer', 'mirrors.auth.invisible-project'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('get-roles') });
    for (const role of ['maintainer', 'owner'] as const) expectEqual((await readMirror(as(role), privateProject, created.id)).id, created.id, `the mirror read as ${role}`);
    await expectRefusedToNonMaintainers(as, (client) => client.get(mirrorPath(privateProject, created.id)));
  },
);

suite.test(
  {
    case: 'anonymous',
    title: 'without a token a mirror is not readable: 401 on a public project, 401 or 404 on a private one',
    clauses: ['mirrors.auth.anonymous'],
  },
  async ({ as, repositories }) => {
    const { publicProject, privateProject } = repositories;
    const open = await createMirror(as('maintainer'), publicProject, { url: target('get-anonymous') });
    const hidden = await createMirror(as('maintainer'), privateProject, { url: target('get-anonymous') });
    expectAnonymousOnPublic(await as('anonymous').get(mirrorPath(publicProject, open.id)));
    expectAnonymousOnPrivate(await as('anonymous').get(mirrorPath(privateProject, hidden.id)));
  },
);

suite.test(
  {
    case: 'token-scopes',
    title: 'a read_api token may read a mirror; a read_repository token is refused with 403',
    clauses: ['mirrors.auth.scopes'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('get-scopes') });
    expectEqual((await readMirror(as('maintainer', 'read_api'), privateProject, created.id)).id, created.id, 'the mirror read with a read_api token');
    expectInsufficientScope(await as('maintainer', 'read_repository').get(mirrorPath(privateProject, created.id)));
  },
);
