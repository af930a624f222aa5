// The project's repository feature (repository_access_level, set with PUT /projects/:id) and the
// files API: a disabled repository refuses every read form and the writes (403); a public project
// whose repository is private to members lets members read from Guest up, writes from Developer up,
// and refuses non-members. GitLab: lib/api/files.rb (authorize_read_code!, authorize! :push_code),
// app/policies/project_policy.rb, app/models/project_feature.rb; spec/requests/api/files_spec.rb
// ("when repository is disabled", "when project is public with private repository").
import { endpoint } from './kit.js';
import { fixture } from '../../runner/run/fixture.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue, expectFields } from '../../runner/core/checks.js';
import { apiPath, type Exchange } from '../../runner/core/client.js';
import { expectGitLabStatus, expectWriteSucceeded, fileUrl, readFile, setRepositoryAccess, writeBody } from './helpers.js';
import { repositories } from '../common/repositories.js';

// Projects of this file's own (the tests change their repository feature), in the run's group with its members.
// The writes-off project is one test's: it turns the repository back on.
const featureProjects = fixture({
  name: 'files-feature',
  scope: 'file',
  fixtures: { repositories },
  requires: { setup: ['project-update'] },
  async build(ctx) {
    const { group } = ctx.repositories;
    const [disabled, writesOff, membersOnly] = await Promise.all(['repo-off', 'writes-off', 'repo-private'].map((hint) => ctx.make.project({ group, visibility: 'public', hint })));
    await Promise.all([setRepositoryAccess(ctx, disabled, 'disabled'), setRepositoryAccess(ctx, writesOff, 'disabled'), setRepositoryAccess(ctx, membersOnly, 'private')]);
    return { disabled, writesOff, membersOnly };
  },
});

const FORBIDDEN_GITLAB = 'lib/api/files.rb (authorize_read_code! / authorize! :push_code); lib/api/helpers.rb (authorize!: forbidden!); spec/requests/api/files_spec.rb (403 response)';

/** A 403 with GitLab's error body (HEAD: the status only). */
function expectForbidden(res: Exchange): void {
  expectError(res, 403, { message: '403 Forbidden', gitlab: FORBIDDEN_GITLAB });
}

/** The refusal of a non-member on a public project whose repository is private to members. */
function expectNonMemberRefused(res: Exchange, anonymous: boolean): void {
  // The project is visible, its code is not. The spec only frees a publicly accessible repository
  // from authentication (Authentication 3), so an anonymous caller may get 401; a signed-in one gets
  // what GitLab's code settles: 403 (authorize_read_code!, in 15.0 authorize! :download_code).
  expectStatus(res, anonymous ? [401, 403, 404] : 403, 'the repository is private to members: a non-member is refused');
  if (res.method !== 'HEAD') expectError(res, res.status);
  if (anonymous) expectGitLabStatus(res, FORBIDDEN_GITLAB, 403);
}

// ---- repository disabled ------------------------------------------------------------------

const DISABLED_READERS = [['developer', 'api'], ['developer', 'read_repository'], ['anonymous', 'api']] as const;

endpoint('get', { fixtures: { featureProjects } }).test(
  {
    case: 'repository-disabled',
    title: 'with the repository feature disabled, GET file is 403 for a member, a read_repository token and an anonymous caller; the project says so',
    clauses: ['files.repository.disabled', 'files.errors.shape'],
    // The project's settings are read back with GET /projects/:id.
    requires: { setup: ['group-project-read'] },
  },
  async ({ as, make, admin, featureProjects }) => {
    const { disabled } = featureProjects;
    for (const [who, scope] of DISABLED_READERS) expectForbidden(await as(who, scope).get(fileUrl(disabled, 'README.md'), { query: { ref: 'main' } }));
    expectForbidden(await as('maintainer').get(fileUrl(disabled, 'no/such/file.txt'), { query: { ref: 'main' } }));
    const project = await make.setup(`read ${disabled.fullPath} back`, admin.get(apiPath`/projects/${disabled.id}`), [200], 'group-project-read');
    const level = project.repository_access_level;
    expectTrue(level === undefined || level === 'disabled', 'the project to show repository_access_level "disabled"', `got ${JSON.stringify(level)}`);
  },
);

endpoint('head', { fixtures: { featureProjects } }).test(
  {
    case: 'repository-disabled',
    title: 'with the repository feature disabled, HEAD file is 403, also for a path that does not exist',
    clauses: ['files.repository.disabled', 'files.head.metadata-only'],
  },
  async ({ as, featureProjects }) => {
    const { disabled } = featureProjects;
    for (const [who, scope] of DISABLED_READERS) {
      const res = await as(who, scope).head(fileUrl(disabled, 'README.md'), { query: { ref: 'main' } });
      expectStatus(res, 403);
      expectTrue(res.bytes.length === 0, 'no body on HEAD', `got ${res.bytes.length} bytes`, res);
      expectStatus(await as(who, scope).head(fileUrl(disabled, 'app/models/application.rb'), { query: { ref: 'main' } }), 403);
    }
  },
);

endpoint('blame', { fixtures: { featureProjects } }).test(
  {
    case: 'repository-disabled',
    title: 'with the repository feature disabled, GET blame is 403',
    clauses: ['files.repository.disabled', 'files.errors.shape'],
  },
  async ({ as, featureProjects }) => {
    const { disabled } = featureProjects;
    for (const [who, scope] of DISABLED_READERS) expectForbidden(await as(who, scope).get(`${fileUrl(disabled, 'README.md')}/blame`, { query: { ref: 'main' } }));
  },
);

endpoint('raw', { fixtures: { featureProjects } }).test(
  {
    case: 'repository-disabled',
    title: 'with the repository feature disabled, GET raw is 403, with and without ref',
    clauses: ['files.repository.disabled', 'files.errors.shape'],
  },
  async ({ as, featureProjects }) => {
    const { disabled } = featureProjects;
    for (const [who, scope] of DISABLED_READERS) {
      expectForbidden(await as(who, scope).get(`${fileUrl(disabled, 'README.md')}/raw`, { query: { ref: 'main' } }));
      expectForbidden(await as(who, scope).get(`${fileUrl(disabled, 'README.md')}/raw`));
    }
  },
);

endpoint('create', { fixtures: { featureProjects } }).test(
  {
    case: 'repository-disabled',
    title: 'with the repository feature disabled, create is 403 even for a Maintainer; enabled again, nothing was written',
    clauses: ['files.repository.disabled'],
  },
  async ({ featureProjects, ...kit }) => {
    const { as } = kit;
    const { writesOff } = featureProjects;
    for (const role of ['maintainer', 'developer'] as const) {
      expectForbidden(await as(role).post(fileUrl(writesOff, `feature/${role}.txt`), { body: writeBody(`by ${role}\n`, { branch: `cnf-${role}`, startBranch: 'main' }) }));
    }
    await setRepositoryAccess(kit, writesOff, 'enabled');
    expectError(await as('developer').get(fileUrl(writesOff, 'feature/maintainer.txt'), { query: { ref: 'main' } }), 404);
    expectError(await as('developer').get(fileUrl(writesOff, 'feature/developer.txt'), { query: { ref: 'cnf-developer' } }), 404);
    expectOk(await as('developer').get(fileUrl(writesOff, 'README.md'), { query: { ref: 'main' } }), 200, 'file');
  },
);

// ---- a public project whose repository is private to members --------------------------------

endpoint('get', { fixtures: { featureProjects } }).test(
  {
    case: 'repository-private-members-read',
    title: 'public project, repository private to members: Guest, Reporter and Developer read the file; a non-member is refused',
    clauses: ['files.repository.private', 'files.file.shape', 'files.file.execute-filemode'],
  },
  async ({ as, featureProjects }) => {
    const { membersOnly } = featureProjects;
    const readme = await readFile(as('maintainer'), membersOnly, 'README.md', 'main');
    for (const role of ['guest', 'reporter', 'developer'] as const) {
      const res = await as(role).get(fileUrl(membersOnly, 'README.md'), { query: { ref: 'main' } });
      expectOk(res, 200, 'file');
      const body = res.body as Record<string, unknown>;
      expectEqual([body.file_path, body.file_name, body.last_commit_id, body.content_sha256, body.execute_filemode, body.content], [readme.file_path, readme.file_name, readme.last_commit_id, readme.content_sha256, false, readme.content], `the README as the ${role} reads it`, res);
    }
    expectNonMemberRefused(await as('outsider').get(fileUrl(membersOnly, 'README.md'), { query: { ref: 'main' } }), false);
    expectNonMemberRefused(await as('anonymous').get(fileUrl(membersOnly, 'README.md'), { query: { ref: 'main' } }), true);
  },
);

endpoint('raw', { fixtures: { featureProjects } }).test(
  {
    case: 'repository-private',
    title: 'public project, repository private to members: a Guest reads the raw bytes; an outsider and an anonymous caller are refused',
    clauses: ['files.repository.private', 'files.raw.content'],
  },
  async ({ as, featureProjects }) => {
    const { membersOnly } = featureProjects;
    const readme = Buffer.from((await readFile(as('maintainer'), membersOnly, 'README.md', 'main')).content as string, 'base64');
    const res = await as('guest').get(`${fileUrl(membersOnly, 'README.md')}/raw`, { query: { ref: 'main' } });
    expectStatus(res, 200);
    expectEqual(res.bytes.toString('hex'), readme.toString('hex'), 'the README bytes');
    expectNonMemberRefused(await as('outsider').get(`${fileUrl(membersOnly, 'README.md')}/raw`, { query: { ref: 'main' } }), false);
    expectNonMemberRefused(await as('anonymous').get(`${fileUrl(membersOnly, 'README.md')}/raw`), true);
    expectNonMemberRefused(await as('outsider').head(fileUrl(membersOnly, 'README.md'), { query: { ref: 'main' } }), false);
  },
);

endpoint('create', { fixtures: { featureProjects } }).test(
  {
    case: 'repository-private-roles',
    title: 'public project, repository private to members: Guest and Reporter may not create (403), a Developer may, with a JSON and with a form body',
    clauses: ['files.repository.private', 'files.write.role', 'files.create.commit'],
  },
  async ({ as, featureProjects }) => {
    const { membersOnly } = featureProjects;
    for (const form of [false, true]) {
      const kind = form ? 'form' : 'json';
      for (const role of ['guest', 'reporter'] as const) {
        const res = await as(role).post(fileUrl(membersOnly, `roles/${role}-${kind}.txt`), { body: writeBody('x\n', { branch: `cnf-${role}-${kind}`, startBranch: 'main' }), form });
        expectForbidden(res);
        expectError(await as('developer').get(fileUrl(membersOnly, `roles/${role}-${kind}.txt`), { query: { ref: 'main' } }), 404);
      }
      const file = `roles/developer-${kind}.txt`;
      const created = await as('developer').post(fileUrl(membersOnly, file), { body: writeBody(`by the developer (${kind})\n`, { branch: `cnf-developer-${kind}`, startBranch: 'main' }), form });
      expectWriteSucceeded(created);
      expectFields(created.body, { file_path: file, branch: `cnf-developer-${kind}` }, 'the write result', created);
      const back = await readFile(as('guest'), membersOnly, file, `cnf-developer-${kind}`);
      expectEqual(Buffer.from(back.content as string, 'base64').toString('utf8'), `by the developer (${kind})\n`, 'the new file, read back by a Guest');
      expectEqual(back.execute_filemode, false, 'a non-executable new file');
    }
  },
);

