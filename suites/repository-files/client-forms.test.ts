// What real clients send to the repository-files endpoints (suites/common/client-forms.ts): sudo on a
// write (the commit's author is the named user) and on a read.
import { expectEqual, expectError, expectOk } from '../../runner/core/checks.js';
import { endpoint } from './kit.js';
import { asSudoQuery, sudoHeader, withSudoToken } from '../common/client-forms.js';
import { createFile, expectWriteSucceeded, fileUrl, writeBody } from './helpers.js';

endpoint('create').test(
  {
    case: 'sudo',
    title: 'with sudo the administrator commits as the named user: refused as a Reporter, authored by the Developer',
    clauses: ['files.http.sudo', 'files.create.commit'],
  },
  async ({ files, ...kit }) => {
    const { run } = kit;
    const { privateProject, path, branch } = files;
    const file = path('sudo');
    const developer = run.actors.developer;
    await withSudoToken(kit, async (admin) => {
      const asReporter = await admin.post(asSudoQuery(fileUrl(privateProject, file), run.actors.reporter.username), { body: writeBody('by the reporter\n', { branch }) });
      expectError(asReporter, 403);
      expectWriteSucceeded(await admin.post(fileUrl(privateProject, file), { body: writeBody('by the developer\n', { branch }), headers: sudoHeader(developer.id) }));
    });
    const blame = await kit.as('developer').get(`${fileUrl(privateProject, file)}/blame`, { query: { ref: branch } });
    expectOk(blame, 200, 'blame-range', { list: true });
    const author = (blame.body as { commit: { author_email: string; author_name: string } }[])[0].commit;
    expectEqual([author.author_name, author.author_email], [developer.name, developer.email], 'the commit\'s author: the user sudo named, not the administrator', blame);
  },
);

endpoint('get').test(
  {
    case: 'sudo',
    title: 'with sudo the administrator reads as the named user: a Reporter reads the file, an outsider gets 404',
    clauses: ['files.http.sudo'],
  },
  async ({ files, ...kit }) => {
    const { run } = kit;
    const { privateProject, path, branch } = files;
    const file = path('sudo-read');
    await createFile(kit.as('maintainer'), privateProject, file, 'read me\n', { branch });
    await withSudoToken(kit, async (admin) => {
      expectOk(await admin.get(fileUrl(privateProject, file), { query: { ref: branch }, headers: sudoHeader(run.actors.reporter.username) }), 200, 'file');
      const asOutsider = await admin.get(asSudoQuery(`${fileUrl(privateProject, file)}?ref=${encodeURIComponent(branch)}`, run.actors.outsider.id));
      expectEqual(asOutsider.status, 404, 'an outsider does not see the private project: sudo=<outsider id> acts as the outsider', asOutsider);
    });
  },
);
