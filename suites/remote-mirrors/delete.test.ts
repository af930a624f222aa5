// DELETE /projects/:id/remote_mirrors/:mirror_id
import { endpoint } from './kit.js';
import { expectEqual } from '../../runner/core/checks.js';
import type { Client } from '../../runner/core/client.js';
import type { ProjectInfo } from '../../runner/core/vocabulary.js';
import { createMirror, expectMirrorDeleted, expectMirrorNotFound, expectRefusedToNonMaintainers, expectWriteRefusedWithoutApiToken, listMirrors, mirrorPath, readMirror, target, freshProject } from './helpers.js';

const suite = endpoint('delete');

/** The delete request, as the refusal tests send it. */
const deleteMirror = (client: Client, project: ProjectInfo, mirrorId: number | string) => client.delete(mirrorPath(project, mirrorId));

suite.test(
  {
    case: 'removes',
    title: 'a deleted mirror is no longer readable nor listed; the project\'s other mirrors stay',
    clauses: ['mirrors.delete.removes'],
    fixtures: { freshProject },
  },
  async ({ as, freshProject }) => {
    const project = freshProject;
    const doomed = await createMirror(as('maintainer'), project, { url: target('doomed'), enabled: true });
    const kept = await createMirror(as('maintainer'), project, { url: target('kept') });
    expectMirrorDeleted(await as('maintainer').delete(mirrorPath(project, doomed.id)));

    expectMirrorNotFound(await as('maintainer').get(mirrorPath(project, doomed.id)));
    expectEqual((await listMirrors(as('maintainer'), project)).map((m) => m.id), [kept.id], 'only the other mirror to be listed');
  },
);

suite.test(
  {
    case: 'not-found',
    title: 'deleting an unknown, non-numeric, already deleted or another project\'s mirror gives 404 "404 Not found"',
    clauses: ['mirrors.id.not-found'],
  },
  async ({ as, repositories }) => {
    const { privateProject, publicProject } = repositories;
    const gone = await createMirror(as('maintainer'), privateProject, { url: target('delete-twice') });
    expectMirrorDeleted(await as('maintainer').delete(mirrorPath(privateProject, gone.id)));
    const elsewhere = await createMirror(as('maintainer'), publicProject, { url: target('delete-elsewhere') });
    for (const id of [gone.id, 2147483000, 'abc', elsewhere.id]) expectMirrorNotFound(await as('maintainer').delete(mirrorPath(privateProject, id)));
    await readMirror(as('maintainer'), publicProject, elsewhere.id);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'Maintainer and Owner delete mirrors; Developer, Reporter and Guest get 401 and delete nothing; an outsider gets 404',
    clauses: ['mirrors.auth.maintainer', 'mirrors.auth.below-maintainer', 'mirrors.auth.invisible-project'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const byMaintainer = await createMirror(as('maintainer'), privateProject, { url: target('delete-by-maintainer') });
    const byOwner = await createMirror(as('maintainer'), privateProject, { url: target('delete-by-owner') });
    await expectRefusedToNonMaintainers(as, (client) => deleteMirror(client, privateProject, byMaintainer.id));
    await readMirror(as('maintainer'), privateProject, byMaintainer.id);

    for (const [role, mirror] of [['maintainer', byMaintainer], ['owner', byOwner]] as const) {
      expectMirrorDeleted(await as(role).delete(mirrorPath(privateProject, mirror.id)));
      expectMirrorNotFound(await as('maintainer').get(mirrorPath(privateProject, mirror.id)));
    }
  },
);

suite.test(
  {
    case: 'anonymous-and-scopes',
    title: 'a delete without a token gets 401 (public project), with a read_api token 403; the mirror stays',
    clauses: ['mirrors.auth.anonymous', 'mirrors.auth.scopes'],
  },
  async ({ as, repositories }) => {
    const { publicProject, privateProject } = repositories;
    const { open, hidden } = await expectWriteRefusedWithoutApiToken(as, repositories, { url: target('delete-anonymous') }, deleteMirror);
    await readMirror(as('maintainer'), publicProject, open.id);
    await readMirror(as('maintainer'), privateProject, hidden.id);
  },
);
