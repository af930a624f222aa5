// What real clients send to the remote-mirrors endpoints (suites/common/client-forms.ts): sudo on a
// write and on a read (mirrors are the Maintainers').
import { expectEqual, expectError, expectOk, parity } from '../../runner/core/checks.js';
import type { Exchange } from '../../runner/core/client.js';
import { endpoint } from './kit.js';
import { asSudoQuery, sudoHeader, withSudoToken } from '../common/client-forms.js';
import { BELOW_MAINTAINER_GITLAB, mirrorPath, mirrorsPath, target } from './helpers.js';

/** A Developer's refusal, as sudo makes the request theirs: 401 or 403, GitLab's 401 at the parity level. */
function expectRefusedBelowMaintainerAs(res: Exchange): void {
  expectError(res, [401, 403]);
  parity(res, BELOW_MAINTAINER_GITLAB, () => expectError(res, 401, { message: '401 Unauthorized' }));
}

endpoint('create').test(
  {
    case: 'sudo',
    title: 'with sudo the administrator creates a mirror as the named user: refused as a Developer, made as a Maintainer',
    clauses: ['mirrors.http.sudo', 'mirrors.create.options'],
  },
  async ({ repositories, ...kit }) => {
    const { run } = kit;
    const { privateProject } = repositories;
    const body = { url: target('sudo-create'), enabled: true };
    await withSudoToken(kit, async (admin) => {
      expectRefusedBelowMaintainerAs(await admin.post(asSudoQuery(mirrorsPath(privateProject), run.actors.developer.username), { body }));
      const created = await admin.post(mirrorsPath(privateProject), { body, headers: sudoHeader(run.actors.maintainer.id) });
      expectOk(created, 201, 'remote-mirror');
      expectEqual((created.body as { enabled: boolean }).enabled, true, 'the mirror enabled as sent', created);
      await kit.as('maintainer').delete(mirrorPath(privateProject, (created.body as { id: number }).id));
    });
  },
);

endpoint('list').test(
  {
    case: 'sudo',
    title: 'with sudo the administrator lists mirrors as the named user: a Maintainer reads them, a Developer is refused',
    clauses: ['mirrors.http.sudo'],
  },
  async ({ repositories, ...kit }) => {
    const { run } = kit;
    const { privateProject } = repositories;
    await withSudoToken(kit, async (admin) => {
      expectOk(await admin.get(mirrorsPath(privateProject), { headers: sudoHeader(run.actors.maintainer.username) }), 200, 'remote-mirror', { list: true });
      expectRefusedBelowMaintainerAs(await admin.get(asSudoQuery(mirrorsPath(privateProject), run.actors.developer.id)));
    });
  },
);
