// POST /projects/:id/remote_mirrors/:mirror_id/sync
import { endpoint } from './kit.js';
import { expectEqual, expectError, expectHeader, expectStatus, expectTrue } from '../../runner/core/checks.js';
import type { Client, Exchange } from '../../runner/core/client.js';
import type { ProjectInfo } from '../../runner/core/vocabulary.js';
import { createMirror, expectRefusedToNonMaintainers, expectUnknownMirrorsNotFound, expectWriteRefusedWithoutApiToken, GITLAB_TEXT, readMirror, SYNC_ENDED, syncPath, target, waitForSyncEnd, type Mirror } from './helpers.js';
import { emptyRepository } from '../common/repositories.js';

const suite = endpoint('sync');

/** The sync request, as the refusal tests send it. */
const requestSync = (client: Client, project: ProjectInfo, mirrorId: number | string) => client.post(syncPath(project, mirrorId));

const DISABLED_MESSAGE = 'Cannot proceed with the push mirroring. Please verify your mirror configuration.';

/** 204 with nothing in the body. */
function expectNoContent(res: Exchange): void {
  expectStatus(res, 204);
  expectEqual(res.bytes.length, 0, 'an empty body');
}

/** A mirror nobody has pushed: status none and no timestamps. */
function expectUntouched(mirror: Mirror, why: string): void {
  expectEqual(
    [mirror.update_status, mirror.last_update_started_at, mirror.last_update_at, mirror.last_successful_update_at],
    ['none', null, null, null],
    `update_status none and null timestamps (${why})`,
  );
}

suite.test(
  {
    case: 'runs-to-end',
    title: 'a sync answers 204 and the mirror ends finished (or failed) with its update timestamps set',
    clauses: ['mirrors.sync.no-content', 'mirrors.sync.status', 'mirrors.entity.shape'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('sync'), enabled: true });
    const sync = await as('maintainer').post(syncPath(privateProject, created.id));
    expectNoContent(sync);
    // The target's own clock: its Date header (whole seconds) of the sync answer.
    const requestedAt = Date.parse(expectHeader(sync, 'Date'));

    // GitLab pushes in a background job (RemoteMirror#sync: RepositoryUpdateRemoteMirrorWorker); the
    // target on example.com may not answer, so the push may fail.
    const done = await waitForSyncEnd(as('maintainer'), privateProject, created.id);
    const started = done.last_update_started_at === null ? NaN : Date.parse(done.last_update_started_at);
    const ended = done.last_update_at === null ? NaN : Date.parse(done.last_update_at);
    expectTrue(started >= requestedAt - 1000, 'last_update_started_at to be set, at the sync request or after it', JSON.stringify(done));
    if (done.update_status === 'finished') {
      const succeeded = done.last_successful_update_at === null ? NaN : Date.parse(done.last_successful_update_at);
      expectTrue(ended >= started && succeeded >= started, 'last_update_at and last_successful_update_at of a finished push to be set, after it started', JSON.stringify(done));
      expectEqual(done.last_error, null, 'last_error of a finished push');
    } else {
      // failed, or to_retry: the attempt failed and GitLab retries later (app/models/remote_mirror.rb:
      // update_fail, update_retry, update_error_message).
      expectTrue(typeof done.last_error === 'string' && done.last_error !== '', 'a failed push to say why in last_error', JSON.stringify(done));
      if (done.update_status === 'failed') expectTrue(ended >= started, 'last_update_at of a failed push to be set, after it started', JSON.stringify(done));
    }
  },
);

suite.test(
  {
    case: 'disabled-refused',
    title: 'a sync of a disabled mirror is refused with 400 and its status stays none',
    clauses: ['mirrors.sync.disabled'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('sync-disabled') });
    expectError(await as('maintainer').post(syncPath(privateProject, created.id)), 400, { message: DISABLED_MESSAGE, gitlab: GITLAB_TEXT.syncDisabled });
    expectUntouched(await readMirror(as('maintainer'), privateProject, created.id), 'after a refused sync');
  },
);

suite.test(
  {
    case: 'empty-repository',
    title: 'on a project with an empty repository, sync obeys enabled as the mirror shows it',
    clauses: ['mirrors.enabled.computed'],
    fixtures: { emptyRepository },
  },
  async ({ as, emptyRepository }) => {
    const project = emptyRepository;
    const created = await createMirror(as('maintainer'), project, { url: target('sync-empty'), enabled: true });
    // GitLab computes enabled false without a repository (RemoteMirror#enabled: repository_exists?);
    // whether an empty one counts as existing is not settled here, so both answers are accepted if
    // sync agrees with them.
    const shown = (await readMirror(as('maintainer'), project, created.id)).enabled;
    expectEqual(shown, created.enabled, 'enabled read back to equal enabled on create');
    const res = await as('maintainer').post(syncPath(project, created.id));
    if (shown) {
      expectNoContent(res);
      expectTrue((await waitForSyncEnd(as('maintainer'), project, created.id)).last_update_started_at !== null, 'the push of an enabled mirror to have started');
    } else {
      expectError(res, 400, { message: DISABLED_MESSAGE, gitlab: GITLAB_TEXT.syncDisabled });
    }
  },
);

suite.test(
  {
    case: 'not-found',
    title: 'an unknown or non-numeric mirror id, or another project\'s mirror, gives 404 "404 Not found"',
    clauses: ['mirrors.id.not-found'],
  },
  async ({ as, repositories }) => {
    const elsewhere = await expectUnknownMirrorsNotFound(as, repositories, { url: target('sync-elsewhere'), enabled: true }, requestSync);
    expectUntouched(await readMirror(as('maintainer'), repositories.publicProject, elsewhere.id), 'the other project\'s mirror');
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'Maintainer and Owner sync; Developer, Reporter and Guest get 401 and start nothing; an outsider gets 404',
    clauses: ['mirrors.auth.maintainer', 'mirrors.auth.below-maintainer', 'mirrors.auth.invisible-project'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('sync-roles'), enabled: true });
    await expectRefusedToNonMaintainers(as, (client) => requestSync(client, privateProject, created.id));
    expectUntouched(await readMirror(as('maintainer'), privateProject, created.id), 'after the refused syncs');

    for (const role of ['maintainer', 'owner'] as const) {
      expectNoContent(await as(role).post(syncPath(privateProject, created.id)));
      await waitForSyncEnd(as('maintainer'), privateProject, created.id);
    }
  },
);

suite.test(
  {
    case: 'anonymous-and-scopes',
    title: 'a sync without a token gets 401 (public project), with a read_api token 403; neither starts a push',
    clauses: ['mirrors.auth.anonymous', 'mirrors.auth.scopes'],
  },
  async ({ as, repositories }) => {
    const { publicProject, privateProject } = repositories;
    const { open, hidden } = await expectWriteRefusedWithoutApiToken(as, repositories, { url: target('sync-anonymous'), enabled: true }, requestSync);
    expectUntouched(await readMirror(as('maintainer'), publicProject, open.id), 'after the anonymous sync');
    expectUntouched(await readMirror(as('maintainer'), privateProject, hidden.id), 'after the refused syncs');
  },
);

suite.test(
  {
    case: 'while-started',
    title: 'a second sync while the push is under way answers 204 and does not start another push',
    clauses: ['mirrors.sync.started-once', 'mirrors.sync.no-content'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('sync-twice'), enabled: true });
    expectNoContent(await as('maintainer').post(syncPath(privateProject, created.id)));
    // GitLab's job may take a moment to start: wait for it, a few seconds at most. A push that has
    // already ended by then leaves nothing to check (the reference server's push stays started long enough).
    let first = await readMirror(as('maintainer'), privateProject, created.id);
    for (let waited = 0; first.update_status !== 'started' && !SYNC_ENDED.includes(first.update_status) && waited < 5_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      first = await readMirror(as('maintainer'), privateProject, created.id);
    }
    if (first.update_status === 'started') {
      expectNoContent(await as('maintainer').post(syncPath(privateProject, created.id)));
      const second = await readMirror(as('maintainer'), privateProject, created.id);
      // A new push may only have started if the first one ended in between (its end is recorded).
      const firstEnded = second.last_update_at !== first.last_update_at || second.last_error !== first.last_error;
      expectTrue(
        second.last_update_started_at === first.last_update_started_at || firstEnded,
        'last_update_started_at to be unchanged by a sync while the push was under way',
        `before the second sync ${JSON.stringify(first)}, after it ${JSON.stringify(second)}`,
      );
    }
    await waitForSyncEnd(as('maintainer'), privateProject, created.id);
  },
);
