// PUT /projects/:id/remote_mirrors/:mirror_id
import { endpoint } from './kit.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue, expectValidationError, parity } from '../../runner/core/checks.js';
import type { Client, Exchange } from '../../runner/core/client.js';
import type { ProjectInfo } from '../../runner/core/vocabulary.js';
import { createMirror, expectRefusedToNonMaintainers, expectUnknownMirrorsNotFound, expectWriteRefusedWithoutApiToken, GITLAB_TEXT, listMirrors, mirrorPath, readMirror, target, type Mirror, ownProject } from './helpers.js';

const suite = endpoint('update');

/** The update request, as the refusal tests send it: turning the mirror on. */
const enable = (client: Client, project: ProjectInfo, mirrorId: number | string) => client.put(mirrorPath(project, mirrorId), { body: { enabled: true } });

suite.test(
  {
    case: 'toggle-enabled',
    title: 'PUT enabled=true turns a mirror on and enabled=false off again; each change reads back',
    clauses: ['mirrors.update.toggle', 'mirrors.entity.shape'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('toggle') });
    for (const enabled of [true, false]) {
      const res = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { enabled } });
      expectOk(res, 200, 'remote-mirror');
      expectEqual((res.body as Mirror).enabled, enabled, 'enabled in the update response');
      expectEqual((await readMirror(as('maintainer'), privateProject, created.id)).enabled, enabled, 'enabled read back');
    }
  },
);

suite.test(
  {
    case: 'branch-selection',
    title: 'PUT changes only_protected_branches and keep_divergent_refs and leaves the other fields alone',
    clauses: ['mirrors.update.branches'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('branches'), enabled: true });

    const protectedOnly = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { only_protected_branches: true } });
    expectOk(protectedOnly, 200, 'remote-mirror');
    expectEqual((protectedOnly.body as Mirror).only_protected_branches, true, 'only_protected_branches after the update');

    const keep = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { keep_divergent_refs: true } });
    expectOk(keep, 200, 'remote-mirror');
    const read = await readMirror(as('maintainer'), privateProject, created.id);
    expectEqual(
      [read.only_protected_branches, read.keep_divergent_refs, read.enabled, read.url],
      [true, true, true, created.url],
      'only_protected_branches and keep_divergent_refs changed, enabled and url as they were',
    );

    const back = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { only_protected_branches: false } });
    expectOk(back, 200, 'remote-mirror');
    const after = await readMirror(as('maintainer'), privateProject, created.id);
    expectEqual([after.only_protected_branches, after.keep_divergent_refs], [false, true], 'only_protected_branches off again, keep_divergent_refs left as it was');
  },
);

suite.test(
  {
    case: 'url-fixed',
    title: 'a url sent to PUT does not change the mirror\'s target',
    clauses: ['mirrors.update.url-fixed'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('fixed') });
    const res = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { url: target('moved', 'example.org'), enabled: true } });
    expectOk(res, 200, 'remote-mirror');
    expectEqual((res.body as Mirror).url, created.url, 'the url in the update response');
    const read = await readMirror(as('maintainer'), privateProject, created.id);
    expectEqual([read.url, read.enabled], [created.url, true], 'the url unchanged and enabled changed, read back');
  },
);

suite.test(
  {
    case: 'auth-method',
    title: 'PUT auth_method=ssh_public_key is stored; an unknown auth_method is refused with 400 and changes nothing',
    clauses: ['mirrors.auth-method.values'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: 'ssh://git@example.com/conformance/auth-method.git' });
    const ssh = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { auth_method: 'ssh_public_key' } });
    expectOk(ssh, 200, 'remote-mirror');
    expectEqual((ssh.body as Mirror).auth_method, 'ssh_public_key', 'auth_method after the update');

    // GitLab declares no values for auth_method on update: its model refuses it (the body: auth-method-invalid-body).
    expectError(await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { auth_method: 'oauth' } }), 400);
    const read = await readMirror(as('maintainer'), privateProject, created.id);
    if (read.auth_method !== undefined) expectEqual(read.auth_method, 'ssh_public_key', 'auth_method unchanged by the refused update');
  },
);

suite.test(
  {
    case: 'wrong-types',
    title: 'a non-boolean enabled or only_protected_branches is refused with "<param> is invalid" and changes nothing',
    clauses: ['mirrors.params.types'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('types') });
    for (const param of ['enabled', 'only_protected_branches', 'keep_divergent_refs']) {
      expectError(await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { [param]: 'maybe' } }), 400, { error: `${param} is invalid`, gitlab: GITLAB_TEXT.params });
    }
    const read = await readMirror(as('maintainer'), privateProject, created.id);
    expectEqual([read.enabled, read.only_protected_branches, read.keep_divergent_refs], [created.enabled, created.only_protected_branches, created.keep_divergent_refs], 'the mirror unchanged');
  },
);

suite.test(
  {
    case: 'branch-regex',
    title: 'PUT mirror_branch_regex is accepted; only_protected_branches stays false',
    clauses: ['mirrors.regex.accepted'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('update-regex') });
    const res = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { mirror_branch_regex: '^feature-' } });
    expectOk(res, 200, 'remote-mirror');
    const read = await as('maintainer').get(mirrorPath(privateProject, created.id));
    expectOk(read, 200, 'remote-mirror');
    for (const exchange of [res, read]) {
      const mirror = exchange.body as Mirror;
      expectEqual(mirror.only_protected_branches, false, 'only_protected_branches with a regex');
      // The spec leaves mirror_branch_regex out of the response; GitLab EE's entity shows it.
      parity(exchange, 'ee/lib/ee/api/entities/remote_mirror.rb (expose :mirror_branch_regex)', () => expectEqual(mirror.mirror_branch_regex, '^feature-', 'mirror_branch_regex as given', exchange));
    }
  },
);

suite.test(
  {
    case: 'branch-regex-exclusive',
    title: 'PUT with mirror_branch_regex and only_protected_branches enabled is refused with 400 "... are mutually exclusive"',
    clauses: ['mirrors.regex.exclusive', 'mirrors.regex.invalid'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('update-exclusive') });
    const res = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { only_protected_branches: true, mirror_branch_regex: '^feature-' } });
    expectError(res, 400, { error: 'only_protected_branches, mirror_branch_regex are mutually exclusive', gitlab: GITLAB_TEXT.exclusive });
    // An invalid regex: GitLab EE's model refuses it (400); where the parameter is not taken it is ignored (200).
    const invalid = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { mirror_branch_regex: 'feature-(' } });
    expectStatus(invalid, [400, 200], 'GitLab EE refuses an invalid regex; where the parameter is not taken it is ignored');
    if (invalid.status === 400) expectError(invalid, 400);
    else expectOk(invalid, 200, 'remote-mirror');
    parity(invalid, 'ee/app/models/ee/remote_mirror.rb (validates :mirror_branch_regex, untrusted_regexp: true); app/validators/untrusted_regexp_validator.rb', () => expectValidationError(invalid, 'mirror_branch_regex'));
    const read = await readMirror(as('maintainer'), privateProject, created.id);
    expectEqual(read.only_protected_branches, false, 'only_protected_branches unchanged by the refused updates');
    if (read.mirror_branch_regex !== undefined) expectEqual(read.mirror_branch_regex, created.mirror_branch_regex ?? null, 'mirror_branch_regex unchanged (an invalid one is never stored)');
  },
);

suite.test(
  {
    case: 'not-found',
    title: 'an unknown or non-numeric mirror id, or another project\'s mirror, gives 404 "404 Not found"',
    clauses: ['mirrors.id.not-found'],
  },
  async ({ as, repositories }) => {
    const elsewhere = await expectUnknownMirrorsNotFound(as, repositories, { url: target('update-elsewhere') }, enable);
    expectEqual((await readMirror(as('maintainer'), repositories.publicProject, elsewhere.id)).enabled, false, 'the other project\'s mirror unchanged');
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'Maintainer and Owner update a mirror; Developer, Reporter and Guest get 401 and change nothing; an outsider gets 404',
    clauses: ['mirrors.auth.maintainer', 'mirrors.auth.below-maintainer', 'mirrors.auth.invisible-project'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('update-roles') });
    await expectRefusedToNonMaintainers(as, (client) => enable(client, privateProject, created.id));
    expectEqual((await readMirror(as('maintainer'), privateProject, created.id)).enabled, false, 'enabled unchanged by the refused updates');

    for (const [role, keep] of [['maintainer', true], ['owner', false]] as const) {
      expectOk(await as(role).put(mirrorPath(privateProject, created.id), { body: { keep_divergent_refs: keep } }), 200, 'remote-mirror');
      expectEqual((await readMirror(as('maintainer'), privateProject, created.id)).keep_divergent_refs, keep, `keep_divergent_refs set by the ${role}`);
    }
  },
);

suite.test(
  {
    case: 'anonymous-and-scopes',
    title: 'an update without a token gets 401 (public project), with a read_api token 403; neither changes anything',
    clauses: ['mirrors.auth.anonymous', 'mirrors.auth.scopes'],
  },
  async ({ as, repositories }) => {
    const { publicProject, privateProject } = repositories;
    const { open, hidden } = await expectWriteRefusedWithoutApiToken(as, repositories, { url: target('update-anonymous') }, enable);
    expectEqual((await readMirror(as('maintainer'), publicProject, open.id)).enabled, false, 'the public project\'s mirror unchanged');
    expectEqual((await readMirror(as('maintainer'), privateProject, hidden.id)).enabled, false, 'the private project\'s mirror unchanged');
  },
);

/** A non-empty array of non-empty texts: the reasons of one field in a validation body. */
const isReasons = (value: unknown) => Array.isArray(value) && value.length > 0 && value.every((text) => typeof text === 'string' && text.trim() !== '');

/** 400 saying why: a Grape `{"error":"..."}`, a `{"message":"..."}`, or a model's `{"message":{"field":["..."]}}`. */
function expectRefusedWithReason(res: Exchange): void {
  expectError(res, 400);
  const { error, message } = (res.body ?? {}) as { error?: unknown; message?: unknown };
  const said =
    (typeof error === 'string' && error.trim() !== '') ||
    (typeof message === 'string' && message.trim() !== '') ||
    (typeof message === 'object' && message !== null && Object.keys(message).length > 0 && Object.values(message).every(isReasons));
  expectTrue(said, 'the 400 body to say why, with a non-empty text', `got ${JSON.stringify(res.body)}`, res);
}

suite.test(
  {
    case: 'keeps-auth-method',
    title: 'a PUT that does not name auth_method leaves it as it was, in the response and in the list',
    clauses: ['mirrors.update.branches', 'mirrors.auth-method.values'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    const created = await createMirror(as('maintainer'), project, { url: 'ssh://git@example.com/conformance/keeps-auth.git', auth_method: 'ssh_public_key' });
    const res = await as('maintainer').put(mirrorPath(project, created.id), { body: { enabled: true } });
    expectOk(res, 200, 'remote-mirror');
    const updated = res.body as Mirror;
    expectEqual([updated.enabled, updated.auth_method], [true, 'ssh_public_key'], 'enabled changed and auth_method kept in the update response');
    const listed = (await listMirrors(as('maintainer'), project)).find((m) => m.id === created.id);
    expectEqual([listed?.enabled, listed?.auth_method], [true, 'ssh_public_key'], 'enabled changed and auth_method kept in the list');
    const read = await readMirror(as('maintainer'), project, created.id);
    if (read.auth_method !== undefined) expectEqual(read.auth_method, 'ssh_public_key', 'auth_method read back');
  },
);

suite.test(
  {
    case: 'auth-method-invalid-body',
    title: 'an unknown auth_method on PUT is refused with 400 and changes nothing (GitLab: the model\'s {"message":{"auth_method":["is not included in the list"]}})',
    clauses: ['mirrors.auth-method.values'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('auth-invalid-body') });
    const res = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { auth_method: 'oauth', enabled: true } });
    // The status is settled; the body differs from create's Grape refusal ({"error":…}): GitLab's PUT
    // declares no values for auth_method, so the model's inclusion validation answers. Shape and text
    // are GitLab parity.
    expectError(res, 400);
    parity(res, 'lib/api/remote_mirrors.rb (PUT: auth_method without values); app/models/concerns/mirror_authentication.rb (inclusion); spec/requests/api/remote_mirrors_spec.rb (PUT when auth method is invalid)', () => {
      expectValidationError(res, 'auth_method');
      expectEqual((res.body as { message: { auth_method: string[] } }).message.auth_method, ['is not included in the list'], 'GitLab\'s reason', res);
    });
    const read = await readMirror(as('maintainer'), privateProject, created.id);
    expectEqual(read.enabled, false, 'enabled unchanged by the refused update');
    if (read.auth_method !== undefined) expectEqual(read.auth_method, 'password', 'auth_method unchanged by the refused update');
  },
);

suite.test(
  {
    case: 'branch-regex-replaces-protected',
    title: 'PUT mirror_branch_regex on a protected-branches mirror never leaves both on: the regex replaces protected-only mirroring, or is refused or ignored and nothing changes',
    clauses: ['mirrors.regex.accepted', 'mirrors.regex.invalid'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('regex-replaces'), only_protected_branches: true });
    expectEqual(created.only_protected_branches, true, 'only_protected_branches as created');

    // An invalid regex: GitLab EE's model refuses it (400); where the parameter is not taken it is ignored (200).
    const invalid = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { mirror_branch_regex: 'release/[' } });
    expectStatus(invalid, [400, 200], 'GitLab EE refuses an invalid regex; where the parameter is not taken it is ignored');
    if (invalid.status === 400) expectRefusedWithReason(invalid);
    else expectOk(invalid, 200, 'remote-mirror');
    parity(invalid, 'ee/app/models/ee/remote_mirror.rb (validates :mirror_branch_regex, untrusted_regexp: true); app/validators/untrusted_regexp_validator.rb', () => expectError(invalid, 400));
    expectEqual((await readMirror(as('maintainer'), privateProject, created.id)).only_protected_branches, true, 'only_protected_branches unchanged by the invalid regex');

    // A valid regex on a protected-branches mirror. The spec (Limits 4) only forbids both at once.
    // GitLab releases differ: the older EE helper turned only_protected_branches off when a regex
    // came, or dropped the regex with its feature flag off (ee/lib/ee/api/helpers/
    // remote_mirrors_helpers.rb, verify_mirror_branches_setting); the EE model refuses a regex while
    // only_protected_branches is on (ee/app/models/ee/remote_mirror.rb, absence). All are accepted.
    const res = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { mirror_branch_regex: '^release/' } });
    expectStatus(res, [200, 400], 'the regex replaces protected-only mirroring (200), is ignored (200), or is refused (400)');
    if (res.status === 400) {
      expectRefusedWithReason(res);
      expectEqual((await readMirror(as('maintainer'), privateProject, created.id)).only_protected_branches, true, 'only_protected_branches unchanged by the refused regex');
      return;
    }
    expectOk(res, 200, 'remote-mirror');
    for (const mirror of [res.body as Mirror, await readMirror(as('maintainer'), privateProject, created.id)]) {
      const regex = mirror.mirror_branch_regex;
      const regexSet = typeof regex === 'string' && regex !== '';
      expectTrue(!(mirror.only_protected_branches && regexSet), 'never both only_protected_branches and a regex', JSON.stringify(mirror));
      if (regexSet) expectEqual(regex, '^release/', 'mirror_branch_regex as given');
    }
  },
);

suite.test(
  {
    case: 'boolean-strings',
    title: 'PUT enabled, only_protected_branches and keep_divergent_refs as form fields or query parameters "true"/"false" are read as booleans ("1"/"0" too: GitLab parity)',
    clauses: ['mirrors.params.boolean-strings', 'mirrors.update.toggle', 'mirrors.update.branches'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('update-booleans') });
    const put = (how: 'form' | 'query', [enabled, onlyProtected, keepDivergent]: string[]) => {
      const params = { enabled, only_protected_branches: onlyProtected, keep_divergent_refs: keepDivergent };
      return as('maintainer').put(mirrorPath(privateProject, created.id), how === 'form' ? { body: params, form: true } : { query: params });
    };
    const values = (mirror: Mirror) => [mirror.enabled, mirror.only_protected_branches, mirror.keep_divergent_refs];
    for (const [how, sent, expected] of [['form', ['true', 'true', 'true'], [true, true, true]], ['query', ['false', 'false', 'false'], [false, false, false]], ['query', ['true', 'false', 'true'], [true, false, true]], ['form', ['false', 'true', 'false'], [false, true, false]]] as const) {
      const res = await put(how, [...sent]);
      expectOk(res, 200, 'remote-mirror');
      expectEqual(values(res.body as Mirror), [...expected], `the values after ${how} "${sent.join('", "')}"`, res);
      expectEqual(values(await readMirror(as('maintainer'), privateProject, created.id)), [...expected], `the values read back after ${how} "${sent.join('", "')}"`);
    }
    // "1" and "0" (GitLab's own request spec sends enabled '0'): GitLab's Boolean coercion, not the spec's.
    for (const [how, sent, expected] of [['form', ['0', 'true', 'true'], [false, true, true]], ['query', ['1', '0', '0'], [true, false, false]]] as const) {
      const res = await put(how, [...sent]);
      parity(res, GITLAB_TEXT.booleans, () => {
        expectOk(res, 200, 'remote-mirror');
        expectEqual(values(res.body as Mirror), [...expected], `the values after ${how} "${sent.join('", "')}"`, res);
      });
    }
  },
);

suite.test(
  {
    case: 'protected-null',
    title: 'PUT only_protected_branches null is never a server error; GitLab refuses it: 400 {"message":{"only_protected_branches":["can\'t be blank"]}} and changes nothing',
    clauses: ['mirrors.params.protected-null'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('update-protected-null'), only_protected_branches: true });
    const res = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { enabled: true, only_protected_branches: null } });
    expectStatus(res, [400, 200], 'GitLab refuses a null only_protected_branches; the spec leaves it open');
    parity(res, GITLAB_TEXT.protectedNull, () => {
      expectValidationError(res, 'only_protected_branches');
      expectEqual((res.body as { message: Record<string, string[]> }).message.only_protected_branches, ["can't be blank"], 'GitLab\'s reason', res);
    });
    const read = await readMirror(as('maintainer'), privateProject, created.id);
    if (res.status === 200) {
      expectOk(res, 200, 'remote-mirror');
      expectEqual(read.enabled, true, 'enabled changed by the accepted update');
      return;
    }
    expectError(res, 400);
    expectEqual([read.enabled, read.only_protected_branches], [false, true], 'enabled and only_protected_branches unchanged by the refused update');
  },
);
