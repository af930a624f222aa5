// GET /projects/:id/remote_mirrors
import { endpoint } from './kit.js';
import { expectEqual, expectHeader, expectOk, expectTrue, parity } from '../../runner/core/checks.js';
import { createMirror, expectAnonymousOnPrivate, expectAnonymousOnPublic, expectInsufficientScope, expectNoSecret, expectProjectNotFound, expectRefusedToNonMaintainers, listMirrors, mirrorsPath, target, type Mirror, ownProject, freshProject, knownFields } from './helpers.js';

const suite = endpoint('list');

suite.test(
  {
    case: 'project-mirrors-by-id',
    title: 'the list holds exactly the project\'s mirrors, in id order, each as it was created (credentials masked)',
    clauses: ['mirrors.list.all', 'mirrors.entity.shape', 'mirrors.url.masked'],
    fixtures: { freshProject },
  },
  async ({ as, repositories, freshProject }) => {
    const { privateProject } = repositories;
    const project = freshProject;
    const empty = await as('maintainer').get(mirrorsPath(project));
    expectOk(empty, 200, 'remote-mirror', { list: true });
    expectEqual(empty.body, [], 'a project without mirrors to list none');

    const created: Mirror[] = [];
    for (const url of [target('list-a'), 'https://lister-user:Pa55-list-word@example.org/conformance/list-b.git', 'ssh://git@example.com/conformance/list-c.git']) {
      created.push(await createMirror(as('maintainer'), project, { url }));
    }
    await createMirror(as('maintainer'), privateProject, { url: target('list-elsewhere') });

    const res = await as('maintainer').get(mirrorsPath(project));
    expectOk(res, 200, 'remote-mirror', { list: true });
    expectEqual((res.body as Mirror[]).map(knownFields), [...created].sort((a, b) => a.id - b.id).map(knownFields), 'the list to be the three created mirrors in id order, as created');
    for (const secret of ['lister-user', 'Pa55-list-word']) expectNoSecret(res, secret);
  },
);

suite.test(
  {
    case: 'paginated',
    title: 'page and per_page split the list; X-Total, X-Page, X-Per-Page and X-Next-Page describe it; past the end is []',
    clauses: ['mirrors.list.paginated'],
    // The spec does not mark the mirror list as paginated; GitLab paginates it (lib/api/remote_mirrors.rb
    // `use :pagination`, `paginate`): the whole test is a parity check.
    level: 'parity',
    fixtures: { freshProject },
  },
  async ({ as, freshProject }) => {
    const project = freshProject;
    const ids: number[] = [];
    for (const name of ['page-1', 'page-2', 'page-3']) ids.push((await createMirror(as('maintainer'), project, { url: target(name) })).id);

    const first = await as('maintainer').get(mirrorsPath(project), { query: { per_page: 2, page: 1 } });
    expectOk(first, 200, 'remote-mirror', { list: true });
    expectHeader(first, 'X-Total', '3');
    expectHeader(first, 'X-Page', '1');
    expectHeader(first, 'X-Per-Page', '2');
    expectHeader(first, 'X-Next-Page', '2');

    const second = await as('maintainer').get(mirrorsPath(project), { query: { per_page: 2, page: 2 } });
    expectOk(second, 200, 'remote-mirror', { list: true });
    expectHeader(second, 'X-Page', '2');
    // No next page: GitLab writes X-Next-Page as an empty string (next_page.to_s); a front server may drop an empty header.
    const next = second.headers['x-next-page'];
    expectTrue(next === undefined || next === '', 'X-Next-Page on the last page to be empty or absent', `got ${JSON.stringify(next)}`, second);
    parity(second, 'lib/gitlab/pagination/offset_pagination.rb (add_pagination_headers: X-Next-Page next_page.to_s)', () => expectHeader(second, 'X-Next-Page', ''));
    const paged = [...(first.body as Mirror[]), ...(second.body as Mirror[])].map((m) => m.id);
    expectEqual(paged, ids, 'pages 1 and 2 together to hold every mirror once, in id order');

    const past = await as('maintainer').get(mirrorsPath(project), { query: { per_page: 2, page: 3 } });
    expectOk(past, 200, 'remote-mirror', { list: true });
    expectEqual(past.body, [], 'a page past the end to be empty');
  },
);

suite.test(
  {
    case: 'project-by-full-path',
    title: 'the project may be named by its URL-encoded full path',
    clauses: ['mirrors.id.path-or-number'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    // Two reads of a list are equal only where no other test writes between them: the file's own project, one test at a time.
    const project = ownProject;
    const created = await createMirror(as('maintainer'), project, { url: target('by-path') });
    const byPath = await listMirrors(as('maintainer'), project.fullPath);
    expectEqual(byPath, await listMirrors(as('maintainer'), project), 'the list by full path to equal the list by id');
    expectTrue(byPath.some((m) => m.id === created.id), 'the mirror just created to be listed by full path', JSON.stringify(byPath.map((m) => m.id)));
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'Maintainer and Owner list mirrors; Developer, Reporter and Guest get 401; an outsider or an unknown project gets 404',
    clauses: ['mirrors.auth.maintainer', 'mirrors.auth.below-maintainer', 'mirrors.auth.invisible-project'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    // Two reads of a list are equal only where no other test writes between them: the file's own project, one test at a time.
    const project = ownProject;
    await createMirror(as('maintainer'), project, { url: target('roles') });
    const expected = await listMirrors(as('maintainer'), project);
    expectEqual((await listMirrors(as('owner'), project)).map((m) => m.id), expected.map((m) => m.id), 'the Owner to see the same mirrors');
    await expectRefusedToNonMaintainers(as, (client) => client.get(mirrorsPath(project)));
    expectProjectNotFound(await as('maintainer').get(mirrorsPath(2147483000)));
  },
);

suite.test(
  {
    case: 'anonymous',
    title: 'without a token the list is refused: 401 on a public project, 401 or 404 on a private one',
    clauses: ['mirrors.auth.anonymous'],
  },
  async ({ as, repositories }) => {
    const { publicProject, privateProject } = repositories;
    expectAnonymousOnPublic(await as('anonymous').get(mirrorsPath(publicProject)));
    expectAnonymousOnPrivate(await as('anonymous').get(mirrorsPath(privateProject)));
  },
);

suite.test(
  {
    case: 'token-scopes',
    title: 'a read_api token may list mirrors; a read_repository token is refused with 403',
    clauses: ['mirrors.auth.scopes'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    // Two reads of a list are equal only where no other test writes between them: the file's own project, one test at a time.
    const project = ownProject;
    await createMirror(as('maintainer'), project, { url: target('scopes') });
    const ids = (await listMirrors(as('maintainer'), project)).map((m) => m.id);
    expectEqual((await listMirrors(as('maintainer', 'read_api'), project)).map((m) => m.id), ids, 'a read_api token to list the same mirrors');
    expectInsufficientScope(await as('maintainer', 'read_repository').get(mirrorsPath(project)));
  },
);
