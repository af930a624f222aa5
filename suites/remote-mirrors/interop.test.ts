// What clients rely on at the HTTP level, on the remote-mirrors endpoints (suites/common/interop.ts):
// the JSON media type, bodiless requests that declare JSON (sync, delete), form-encoded writes, a
// token in the query.
import { expectEqual, expectError, expectOk, expectStatus } from '../../runner/core/checks.js';
import { endpoint } from './kit.js';
import { expectJsonAnswers, expectPrivateTokenQuery, sendEmptyJson } from '../common/interop.js';
import { createMirror, mirrorPath, mirrorsPath, readMirror, syncPath, target, type Mirror } from './helpers.js';

endpoint('list').test(
  {
    case: 'json-media-type',
    title: 'the mirror list and a 404 for an unknown mirror are answered as application/json (exactly, at the parity level)',
    clauses: ['mirrors.http.json-media-type'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    expectJsonAnswers(await as('maintainer').get(mirrorsPath(privateProject)), await as('maintainer').get(mirrorPath(privateProject, 2147483000)), 'remote-mirror', { list: true });
  },
);

endpoint('sync').test(
  {
    case: 'empty-json-body',
    title: 'a sync that declares Content-Type application/json and sends no body is accepted: 204',
    clauses: ['mirrors.http.empty-json-body', 'mirrors.sync.no-content'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const mirror = await createMirror(as('maintainer'), privateProject, { url: target('interop-sync'), enabled: true });
    const res = await sendEmptyJson(as('maintainer'), 'POST', syncPath(privateProject, mirror.id));
    expectStatus(res, 204);
    expectEqual(res.body, undefined, 'an empty body', res);
  },
);

endpoint('delete').test(
  {
    case: 'empty-json-body',
    title: 'a DELETE that declares Content-Type application/json and sends no body removes the mirror',
    clauses: ['mirrors.http.empty-json-body', 'mirrors.delete.removes'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const mirror = await createMirror(as('maintainer'), privateProject, { url: target('interop-delete') });
    const res = await sendEmptyJson(as('maintainer'), 'DELETE', mirrorPath(privateProject, mirror.id));
    // The spec shows no response for DELETE; GitLab answers 204 (lib/api/remote_mirrors.rb).
    expectStatus(res, [200, 204], 'the spec shows no response for DELETE mirror');
    expectError(await as('maintainer').get(mirrorPath(privateProject, mirror.id)), 404);
  },
);

endpoint('create').test(
  {
    case: 'form-body',
    title: 'a mirror created with form fields (application/x-www-form-urlencoded) is enabled and reads back as sent',
    clauses: ['mirrors.http.form-body', 'mirrors.create.options'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const res = await as('maintainer').post(mirrorsPath(privateProject), { body: { url: target('interop-form'), enabled: true, keep_divergent_refs: true }, form: true });
    expectOk(res, 201, 'remote-mirror');
    const created = res.body as Mirror;
    const back = await readMirror(as('maintainer'), privateProject, created.id);
    expectEqual([back.enabled, back.keep_divergent_refs], [true, true], 'enabled and keep_divergent_refs read back as true (form values "true")');
  },
);

endpoint('list').test(
  {
    case: 'private-token-query',
    title: 'a token in the private_token query parameter lists the mirrors; a wrong one is refused with 401',
    clauses: ['mirrors.http.private-token-query'],
    // Beyond the spec (GitLab's own behaviour, which clients use): the whole test is a parity check.
    level: 'parity',
  },
  async ({ as, run, repositories }) => {
    await expectPrivateTokenQuery(as('anonymous'), mirrorsPath(repositories.privateProject), run.actors.maintainer.tokens.api, 'remote-mirror', { list: true });
  },
);
