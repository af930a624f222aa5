// POST /projects/:id/remote_mirrors
import { endpoint } from './kit.js';
import { expectEqual, expectError, expectOk, expectStatus, expectTrue, expectValidationError, parity } from '../../runner/core/checks.js';
import type { Client, Exchange } from '../../runner/core/client.js';
import type { ProjectInfo } from '../../runner/core/vocabulary.js';
import { createMirror, expectAnonymousOnPrivate, expectAnonymousOnPublic, expectInsufficientScope, expectNoSecret, expectProjectNotFound, expectRefusedBelowMaintainer, expectSameMirror, GITLAB_TEXT, listMirrorPages, listMirrors, mirrorPath, mirrorsPath, readMirror, target, type Mirror, ownProject, knownFields } from './helpers.js';

const suite = endpoint('create');

/** Where GitLab refuses a mirror URL: the model's validation errors, rendered as `{"message":{"url":["..."]}}`. */
const URL_REFUSED_GITLAB =
  'app/models/remote_mirror.rb (validates :url, presence, public_url); app/validators/addressable_url_validator.rb ("is blocked: %{exception_message}"); gems/gitlab-http/lib/gitlab/http_v2/url_blocker.rb; app/services/remote_mirrors/create_service.rb (message: remote_mirror.errors)';

/**
 * A refused URL: 400 with the model's validation body, `{"message":{"url":["..."]}}` (the shape is
 * GitLab's create service, settled for every refusal of the model); the exact reason, when given, is
 * GitLab parity.
 */
function expectUrlRefused(res: Exchange, reason?: string): void {
  expectValidationError(res, 'url');
  if (reason !== undefined) {
    parity(res, URL_REFUSED_GITLAB, () => expectEqual((res.body as { message: { url: string[] } }).message.url, [reason], 'GitLab\'s reason for the refused url', res));
  }
}

/** No mirror of the project shows `url` (a URL without masked credentials), read back as a Maintainer. */
async function expectNotCreated(client: Client, project: ProjectInfo, url: string): Promise<void> {
  const matching = (await listMirrors(client, project)).filter((m) => m.url === url);
  expectEqual(matching.length, 0, `no mirror to exist for the refused URL ${url}`);
}

suite.test(
  {
    case: 'created-and-listed',
    title: 'a created mirror is returned (201), readable by id and listed',
    clauses: ['mirrors.create.returns', 'mirrors.entity.shape'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    const res = await as('maintainer').post(mirrorsPath(project), { body: { url: target('created') } });
    expectOk(res, 201, 'remote-mirror');
    const created = res.body as Mirror;
    expectEqual(created.url, target('created'), 'url of a target without credentials to be shown as given');

    expectSameMirror(await readMirror(as('maintainer'), project, created.id), created, 'the mirror read by id');
    const listed = (await listMirrors(as('maintainer'), project)).filter((m) => m.id === created.id);
    expectEqual(listed.map(knownFields), [knownFields(created)], 'the list to hold the created mirror, as created');
  },
);

suite.test(
  {
    case: 'defaults',
    title: 'a mirror created with only a url is disabled, status none, null timestamps, no branch rules, password auth',
    clauses: ['mirrors.create.defaults', 'mirrors.auth-method.values'],
  },
  async ({ as, log, repositories }) => {
    const { privateProject } = repositories;
    const created = await createMirror(as('maintainer'), privateProject, { url: target('defaults') });
    // The create answer and the list carry auth_method (spec: Resources/Remote mirror); without one
    // given it is password (app/models/concerns/mirror_authentication.rb: auth_method.presence || 'password').
    expectEqual(created.auth_method, 'password', 'auth_method of the created mirror when not given');
    expectEqual((await listMirrors(as('maintainer'), privateProject)).find((m) => m.id === created.id)?.auth_method, 'password', 'auth_method of the listed mirror when not given');
    for (const mirror of [created, await readMirror(as('maintainer'), privateProject, created.id)]) {
      expectEqual(mirror.enabled, false, 'enabled to be false when not given (spec: Limits 5)');
      expectEqual(mirror.update_status, 'none', 'update_status of a new mirror');
      expectEqual(
        [mirror.last_update_at, mirror.last_update_started_at, mirror.last_successful_update_at, mirror.last_error],
        [null, null, null, null],
        'last_update_at, last_update_started_at, last_successful_update_at and last_error to be null',
      );
      expectEqual(mirror.only_protected_branches, false, 'only_protected_branches to be false');
      // The spec types keep_divergent_refs as a boolean; GitLab stores null when it was not given
      // (db/structure.sql: remote_mirrors.keep_divergent_refs boolean without a default) and the
      // entity exposes the column as it is (lib/api/entities/remote_mirror.rb).
      expectTrue(mirror.keep_divergent_refs === false || mirror.keep_divergent_refs === null, 'keep_divergent_refs to be false (or null: not set)', `got ${JSON.stringify(mirror.keep_divergent_refs)}`);
      // The spec says auth_method may be absent from the single read; GitLab sends "password" there too (lib/api/entities/remote_mirror.rb).
      if (mirror.auth_method !== undefined) expectEqual(mirror.auth_method, 'password', 'auth_method when not given');
      parity({ log }, 'lib/api/entities/remote_mirror.rb (expose :auth_method); app/models/concerns/mirror_authentication.rb (auth_method: presence || password)', () => expectEqual(mirror.auth_method, 'password', 'auth_method on every read'));
    }
  },
);

suite.test(
  {
    case: 'options',
    title: 'enabled, keep_divergent_refs, only_protected_branches and auth_method given on create are stored',
    clauses: ['mirrors.create.options', 'mirrors.auth-method.values'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const body = { url: 'ssh://git@example.com/conformance/options.git', enabled: true, keep_divergent_refs: true, only_protected_branches: true, auth_method: 'ssh_public_key' };
    const created = await createMirror(as('maintainer'), privateProject, body);
    for (const mirror of [created, await readMirror(as('maintainer'), privateProject, created.id)]) {
      expectEqual(mirror.enabled, true, 'enabled as given');
      expectEqual(mirror.keep_divergent_refs, true, 'keep_divergent_refs as given');
      expectEqual(mirror.only_protected_branches, true, 'only_protected_branches as given');
      if (mirror.auth_method !== undefined) expectEqual(mirror.auth_method, 'ssh_public_key', 'auth_method as given');
    }
    expectEqual(created.auth_method, 'ssh_public_key', 'the create response to carry auth_method as given');
  },
);

suite.test(
  {
    case: 'masks-credentials',
    title: 'user and password in the url are shown as ***** in the create, read and list responses',
    clauses: ['mirrors.url.masked'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    const cases = [
      { url: 'https://alice-user:Pa55-word-one@example.com/conformance/mask-1.git', shown: 'https://*****:*****@example.com/conformance/mask-1.git', secrets: ['alice-user', 'Pa55-word-one'] },
      { url: 'https://tok3n-value-two@example.org/conformance/mask-2.git', shown: 'https://*****@example.org/conformance/mask-2.git', secrets: ['tok3n-value-two'] },
      { url: 'ssh://deployer-user:Pa55-word-three@example.com/conformance/mask-3.git', shown: 'ssh://*****:*****@example.com/conformance/mask-3.git', secrets: ['deployer-user', 'Pa55-word-three'] },
      { url: 'http://bob-user:Pa55-word-four@example.org/conformance/mask-4.git', shown: 'http://*****:*****@example.org/conformance/mask-4.git', secrets: ['bob-user', 'Pa55-word-four'] },
    ];
    for (const { url, shown, secrets } of cases) {
      const res = await as('maintainer').post(mirrorsPath(project), { body: { url } });
      expectOk(res, 201, 'remote-mirror');
      const created = res.body as Mirror;
      expectEqual(created.url, shown, `the created mirror's url for ${shown}`);
      const read = await as('maintainer').get(mirrorPath(project, created.id));
      expectOk(read, 200, 'remote-mirror');
      expectEqual((read.body as Mirror).url, shown, 'the url read back by id');
      const pages = await listMirrorPages(as('maintainer'), project);
      expectEqual(pages.flatMap((page) => page.body as Mirror[]).find((m) => m.id === created.id)?.url, shown, 'the url in the list');
      for (const secret of secrets) for (const exchange of [res, read, ...pages]) expectNoSecret(exchange, secret);
    }
  },
);

suite.test(
  {
    case: 'git-user-kept',
    title: 'a url without credentials is unchanged and a password of the user git is masked; the user git is kept (GitLab) or masked (the spec\'s wording)',
    clauses: ['mirrors.url.git-user-kept'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    // Divergence: the spec says "username and password parts are always replaced by *****"; GitLab
    // keeps the user git (RemoteMirror#safe_url(allowed_usernames: %w[git])). Both are accepted at the
    // spec level (`shown`), GitLab's form (`gitlab`) is checked at the parity level.
    const cases = [
      { url: 'ssh://git@example.com/conformance/git-user.git', shown: ['ssh://git@example.com/conformance/git-user.git', 'ssh://*****@example.com/conformance/git-user.git'], gitlab: 'ssh://git@example.com/conformance/git-user.git' },
      { url: 'ssh://git:Pa55-git-word@example.org/conformance/git-pass.git', shown: ['ssh://git:*****@example.org/conformance/git-pass.git', 'ssh://*****:*****@example.org/conformance/git-pass.git'], gitlab: 'ssh://git:*****@example.org/conformance/git-pass.git' },
      { url: 'git://example.org/conformance/plain.git', shown: ['git://example.org/conformance/plain.git'], gitlab: 'git://example.org/conformance/plain.git' },
    ];
    for (const { url, shown, gitlab } of cases) {
      const res = await as('maintainer').post(mirrorsPath(privateProject), { body: { url } });
      expectOk(res, 201, 'remote-mirror');
      const created = res.body as Mirror;
      const read = await as('maintainer').get(mirrorPath(privateProject, created.id));
      expectOk(read, 200, 'remote-mirror');
      for (const [exchange, mirror, where] of [[res, created, 'created'], [read, read.body as Mirror, 'read back']] as const) {
        expectTrue(shown.includes(mirror.url), `the url of ${url} (${where}) to be one of ${shown.join(', ')}`, `got ${mirror.url}`, exchange);
        expectNoSecret(exchange, 'Pa55-git-word');
        parity(exchange, 'app/models/remote_mirror.rb (safe_url(allowed_usernames: %w[git])); app/models/concerns/safe_url.rb', () => expectEqual(mirror.url, gitlab, `GitLab's url of ${url} (${where})`, exchange));
      }
    }
  },
);

suite.test(
  {
    case: 'schemes',
    title: 'http, https, ssh and git targets are accepted; ftp and file are refused with the url validation body',
    clauses: ['mirrors.create.schemes', 'mirrors.create.returns'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    for (const scheme of ['http', 'https', 'ssh', 'git']) {
      const url = `${scheme}://example.com/conformance/scheme-${scheme}.git`;
      const created = await createMirror(as('maintainer'), project, { url });
      expectEqual(created.url, url, `the ${scheme} url as given`);
    }
    // GitLab's reason lists Project::VALID_MIRROR_PROTOCOLS (spec/requests/api/remote_mirrors_spec.rb "returns error if url is invalid").
    for (const url of ['ftp://example.com/conformance/scheme-ftp.git', 'file:///srv/conformance/scheme-file.git']) {
      expectUrlRefused(await as('maintainer').post(mirrorsPath(project), { body: { url } }), 'is blocked: Only allowed schemes are http, https, ssh, git');
      await expectNotCreated(as('maintainer'), project, url);
    }
  },
);

suite.test(
  {
    case: 'local-refused',
    title: 'targets on localhost, loopback and private network addresses are refused with the url validation body',
    clauses: ['mirrors.create.local-refused'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    const local = [
      'http://localhost/conformance/local.git',
      'https://127.0.0.1/conformance/local.git',
      'ssh://git@127.0.0.2/conformance/local.git',
      'http://[::1]/conformance/local.git',
      'https://10.1.2.3/conformance/local.git',
      'git://172.16.5.4/conformance/local.git',
      'https://192.168.0.10/conformance/local.git',
    ];
    for (const url of local) {
      expectUrlRefused(await as('maintainer').post(mirrorsPath(project), { body: { url } }));
      await expectNotCreated(as('maintainer'), project, url);
    }
  },
);

suite.test(
  {
    case: 'malformed-refused',
    title: 'a blank or malformed url, or a user that does not start with a letter or digit, is refused with 400',
    clauses: ['mirrors.create.malformed-refused'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    // A mirror wrongly made of such a url may show it in another form: the list is counted, in a project
    // only this file writes to (other files write to the shared ones).
    const project = ownProject;
    const before = (await listMirrors(as('maintainer'), project)).length;
    // GitLab's reasons, where its code settles them: presence, Addressable's refusal of a space in the
    // host (UrlBlocker#parse_url), and enforce_user (UrlBlocker#validate_user). "not a url" and "https://"
    // are refused on an instance with the default settings (no scheme; an empty host resolves to a local
    // address) with reasons that depend on the resolver: not pinned.
    const cases: [string, string | undefined][] = [
      ['', "can't be blank"],
      ['not a url', undefined],
      ['https://', undefined],
      ['https://exa mple.com/x.git', 'is blocked: URI is invalid'],
      ['ssh://-oProxyCommand=true@example.com/conformance/x.git', 'is blocked: Username needs to start with an alphanumeric character'],
    ];
    for (const [url, reason] of cases) {
      expectUrlRefused(await as('maintainer').post(mirrorsPath(project), { body: { url } }), reason);
    }
    expectEqual((await listMirrors(as('maintainer'), project)).length, before, 'the number of mirrors to be unchanged');
  },
);

suite.test(
  {
    case: 'url-required',
    title: 'a create without url is refused with 400 {"error":"url is missing"}',
    clauses: ['mirrors.create.url-required'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    // Without a url there is none to look for: the list is counted, in a project only this file writes to.
    const project = ownProject;
    const before = (await listMirrors(as('maintainer'), project)).length;
    expectError(await as('maintainer').post(mirrorsPath(project), { body: { enabled: true } }), 400, { error: 'url is missing', gitlab: GITLAB_TEXT.params });
    expectEqual((await listMirrors(as('maintainer'), project)).length, before, 'the number of mirrors to be unchanged');
  },
);

suite.test(
  {
    case: 'auth-method-invalid',
    title: 'an auth_method other than ssh_public_key or password is refused with 400 and nothing is created',
    clauses: ['mirrors.auth-method.values'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    const url = target('bad-auth');
    const res = await as('maintainer').post(mirrorsPath(project), { body: { url, auth_method: 'oauth' } });
    // The status is settled; the body is GitLab's Grape refusal on create ({"error":…}), where its
    // update answers with the model's {"message":{"auth_method":[…]}}: the shape is GitLab parity.
    expectError(res, 400, { error: 'auth_method does not have a valid value', gitlab: 'lib/api/remote_mirrors.rb (POST: auth_method values: %w[ssh_public_key password]); spec/requests/api/remote_mirrors_spec.rb (when auth method is invalid)' });
    await expectNotCreated(as('maintainer'), project, url);
  },
);

suite.test(
  {
    case: 'wrong-types',
    title: 'a non-boolean enabled, keep_divergent_refs or only_protected_branches, or a non-string url, is refused with "<param> is invalid"',
    clauses: ['mirrors.params.types'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    for (const param of ['enabled', 'keep_divergent_refs', 'only_protected_branches']) {
      const res = await as('maintainer').post(mirrorsPath(project), { body: { url: target(`types-${param}`), [param]: 'maybe' } });
      expectError(res, 400, { error: `${param} is invalid`, gitlab: GITLAB_TEXT.params });
      await expectNotCreated(as('maintainer'), project, target(`types-${param}`));
    }
    expectError(await as('maintainer').post(mirrorsPath(project), { body: { url: { host: 'example.com' } } }), 400, { error: 'url is invalid', gitlab: GITLAB_TEXT.params });
  },
);

suite.test(
  {
    case: 'branch-regex',
    title: 'mirror_branch_regex is accepted on create; only_protected_branches stays false',
    clauses: ['mirrors.regex.accepted'],
    requires: { capabilities: ['premium'] },
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const res = await as('maintainer').post(mirrorsPath(privateProject), { body: { url: target('regex'), mirror_branch_regex: '^release/' } });
    expectOk(res, 201, 'remote-mirror');
    const read = await as('maintainer').get(mirrorPath(privateProject, (res.body as Mirror).id));
    expectOk(read, 200, 'remote-mirror');
    for (const exchange of [res, read]) {
      const mirror = exchange.body as Mirror;
      expectEqual(mirror.only_protected_branches, false, 'only_protected_branches with a regex');
      // The spec leaves mirror_branch_regex out of the response; GitLab EE's entity shows it.
      parity(exchange, 'ee/lib/ee/api/entities/remote_mirror.rb (expose :mirror_branch_regex)', () => expectEqual(mirror.mirror_branch_regex, '^release/', 'mirror_branch_regex as given', exchange));
    }
  },
);

suite.test(
  {
    case: 'branch-regex-exclusive',
    title: 'mirror_branch_regex with only_protected_branches enabled is refused with 400 "... are mutually exclusive"',
    clauses: ['mirrors.regex.exclusive'],
    requires: { capabilities: ['premium'] },
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    const url = target('regex-exclusive');
    const res = await as('maintainer').post(mirrorsPath(project), { body: { url, only_protected_branches: true, mirror_branch_regex: '^release/' } });
    expectError(res, 400, { error: 'only_protected_branches, mirror_branch_regex are mutually exclusive', gitlab: GITLAB_TEXT.exclusive });
    await expectNotCreated(as('maintainer'), project, url);
  },
);

suite.test(
  {
    case: 'branch-regex-invalid',
    title: 'an invalid mirror_branch_regex is refused with 400 (GitLab EE) or ignored, never a server error',
    clauses: ['mirrors.regex.invalid'],
    requires: { capabilities: ['premium'] },
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    const url = target('regex-invalid');
    const res = await as('maintainer').post(mirrorsPath(project), { body: { url, mirror_branch_regex: 'release/[' } });
    // GitLab EE validates the regex in the model (400 {"message":{"mirror_branch_regex":["not valid RE2
    // syntax: …"]}}); GitLab CE does not declare the parameter, and older EE dropped it with the regex
    // feature flag off: the mirror is created without it (201).
    expectStatus(res, [400, 201], 'GitLab EE refuses an invalid regex; where the parameter is not taken it is ignored');
    parity(res, 'ee/app/models/ee/remote_mirror.rb (validates :mirror_branch_regex, untrusted_regexp: true); app/validators/untrusted_regexp_validator.rb ("not valid RE2 syntax: …")', () => {
      expectValidationError(res, 'mirror_branch_regex');
      expectTrue(/^not valid RE2 syntax: /.test((res.body as { message: { mirror_branch_regex: string[] } }).message.mirror_branch_regex[0]), 'GitLab\'s reason for the invalid regex', '', res);
    });
    if (res.status === 400) {
      expectError(res, 400);
      await expectNotCreated(as('maintainer'), project, url);
      return;
    }
    expectOk(res, 201, 'remote-mirror');
    const created = res.body as Mirror;
    const read = await readMirror(as('maintainer'), project, created.id);
    expectTrue(read.mirror_branch_regex === undefined || read.mirror_branch_regex === null, 'an ignored regex not to be stored', `got ${JSON.stringify(read.mirror_branch_regex)}`);
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'Maintainer and Owner create mirrors; Developer, Reporter and Guest get 401; an outsider gets 404 on a private project',
    clauses: ['mirrors.auth.maintainer', 'mirrors.auth.below-maintainer', 'mirrors.auth.invisible-project'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    for (const role of ['maintainer', 'owner'] as const) await createMirror(as(role), project, { url: target(`role-${role}`) });
    await expectRefusedBelowMaintainer(as, (client) => client.post(mirrorsPath(project), { body: { url: target('role-below') } }));
    expectProjectNotFound(await as('outsider').post(mirrorsPath(project), { body: { url: target('role-outsider') } }));
    expectProjectNotFound(await as('maintainer').post(mirrorsPath(2147483000), { body: { url: target('role-unknown') } }));
    const urls = (await listMirrors(as('maintainer'), project)).map((m) => m.url);
    expectTrue(urls.includes(target('role-maintainer')) && urls.includes(target('role-owner')), 'the mirrors of the Maintainer and the Owner to be listed', urls.join(', '));
    await expectNotCreated(as('maintainer'), project, target('role-below'));
    await expectNotCreated(as('maintainer'), project, target('role-outsider'));
  },
);

suite.test(
  {
    case: 'anonymous',
    title: 'a create without a token is refused: 401 on a public project, 401 or 404 on a private one',
    clauses: ['mirrors.auth.anonymous'],
    fixtures: { ownProject },
  },
  async ({ as, repositories, ownProject }) => {
    const { publicProject } = repositories;
    const project = ownProject;
    expectAnonymousOnPublic(await as('anonymous').post(mirrorsPath(publicProject), { body: { url: target('anonymous') } }));
    expectAnonymousOnPrivate(await as('anonymous').post(mirrorsPath(project), { body: { url: target('anonymous') } }));
    await expectNotCreated(as('maintainer'), publicProject, target('anonymous'));
    await expectNotCreated(as('maintainer'), project, target('anonymous'));
  },
);

suite.test(
  {
    case: 'token-scopes',
    title: 'a read_api token cannot create a mirror (403 insufficient_scope); an api token can',
    clauses: ['mirrors.auth.scopes'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    for (const scope of ['read_api', 'read_repository'] as const) {
      const res = await as('maintainer', scope).post(mirrorsPath(project), { body: { url: target(`scope-${scope}`) } });
      expectInsufficientScope(res);
      await expectNotCreated(as('maintainer'), project, target(`scope-${scope}`));
    }
    await createMirror(as('maintainer', 'api'), project, { url: target('scope-api') });
  },
);

suite.test(
  {
    case: 'unparsable-refused',
    title: 'a url without an authority, or with a tab, newline or backslash in its host, is refused with the url validation body',
    clauses: ['mirrors.create.malformed-refused'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    // A mirror wrongly made of such a url may show it in another form: the list is compared, in a project
    // only this file writes to (other files write to the shared ones).
    const project = ownProject;
    const before = await listMirrors(as('maintainer'), project);
    const urls = [
      // No "//": the host is not where a lenient parser would look for it.
      'https:example.com/conformance/no-authority.git',
      'https:example.com/conformance/no-authority.git?via=https://example.org/conformance/inner.git',
      // GitLab's parser refuses these; a WHATWG parser would drop the tab and newline and read \ as /.
      'https://exam\tple.com/conformance/tab.git',
      'https://exam\nple.com/conformance/newline.git',
      'https://example.com\\conformance\\backslash.git',
    ];
    // A tab, a newline or a backslash in the host: Addressable refuses it and UrlBlocker#parse_url
    // says "URI is invalid" (settled). Without "//" the host is empty: refused on an instance with
    // the default settings for resolving to a local address, a reason not pinned here.
    for (const url of urls) {
      expectUrlRefused(await as('maintainer').post(mirrorsPath(project), { body: { url } }), url.startsWith('https:example') ? undefined : 'is blocked: URI is invalid');
    }
    expectEqual((await listMirrors(as('maintainer'), project)).map((m) => m.id), before.map((m) => m.id), 'the mirrors of the project to be unchanged');
  },
);

suite.test(
  {
    case: 'local-ranges-refused',
    title: 'link-local, unique-local IPv6, IPv4-mapped IPv6 and unspecified targets are refused with the url validation body; a *.localhost name may be refused or accepted',
    clauses: ['mirrors.create.local-refused'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    // A mirror wrongly made of such a url may show it in another form (IPv6 literals): the list is compared,
    // in a project only this file writes to (other files write to the shared ones).
    const project = ownProject;
    const before = await listMirrors(as('maintainer'), project);
    const local = [
      // Loopback and "this host": the unspecified addresses.
      'https://0.0.0.0/conformance/unspecified.git',
      'https://[::]/conformance/unspecified.git',
      // Private networks, with octets of more than one digit, and their upper edge.
      'https://10.20.30.40/conformance/private.git',
      'https://172.31.255.254/conformance/private.git',
      'https://[fd00::1]/conformance/unique-local.git',
      'https://[FC00::1]/conformance/unique-local.git',
      // Link-local (cloud metadata) addresses.
      'http://169.254.169.254/conformance/link-local.git',
      'https://[fe80::1]/conformance/link-local.git',
      'https://[FEBF::1]/conformance/link-local.git',
      // IPv4 loopback, private and link-local addresses written as IPv4-mapped IPv6 addresses.
      'https://[::ffff:127.0.0.1]/conformance/mapped.git',
      'https://[::ffff:192.168.1.1]/conformance/mapped.git',
      'https://[::ffff:a9fe:a9fe]/conformance/mapped.git',
    ];
    for (const url of local) expectUrlRefused(await as('maintainer').post(mirrorsPath(project), { body: { url } }));
    // A name under .localhost: GitLab checks resolved addresses only (UrlBlocker#validate_resolved_uri),
    // so it refuses the name where the resolver maps it to a loopback address (systemd-resolved,
    // nss-myhostname) and accepts it where the name does not resolve, or where the instance allows
    // local requests. Both answers are accepted; a refusal has the url validation body.
    const named = await as('maintainer').post(mirrorsPath(project), { body: { url: 'https://mirror.localhost/conformance/sub-localhost.git' } });
    expectStatus(named, [400, 201], 'GitLab refuses a *.localhost name only where it resolves to a local address');
    const accepted: number[] = [];
    if (named.status === 400) expectUrlRefused(named);
    else {
      expectOk(named, 201, 'remote-mirror');
      accepted.push((named.body as Mirror).id);
    }
    expectEqual(
      (await listMirrors(as('maintainer'), project)).map((m) => m.id).filter((id) => !accepted.includes(id)),
      before.map((m) => m.id),
      'the mirrors of the project to be unchanged by the refused targets',
    );
  },
);

suite.test(
  {
    case: 'public-addresses-accepted',
    title: 'public IPv4 and IPv6 targets next to the loopback, private and link-local ranges are accepted (201) and listed',
    clauses: ['mirrors.create.public-accepted', 'mirrors.create.returns'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    const before = (await listMirrors(as('maintainer'), project)).map((m) => m.id);
    const hosts = [
      ...['8.8.8.8', '8.20.0.1', '8.168.0.1', '172.15.0.1', '172.32.0.1', '192.169.0.1', '169.253.0.1'],
      // Public IPv6 addresses, one written as an IPv4-mapped address of a public IPv4 address.
      ...['[2606:4700:4700::fd11]', '[2606:4700:4700::fe80]', '[::ffff:8.8.4.4]'],
    ];
    const created: Mirror[] = [];
    for (const host of hosts) {
      const url = `https://${host}/conformance/public.git`;
      const mirror = await createMirror(as('maintainer'), project, { url });
      // IPv6 literals may be written back in another (equivalent) form; IPv4 ones are shown as given.
      if (!host.startsWith('[')) expectEqual(mirror.url, url, `the url of ${url}`);
      created.push(mirror);
    }
    expectEqual((await listMirrors(as('maintainer'), project)).map((m) => m.id), [...before, ...created.map((m) => m.id)], 'every public target to be listed, after the mirrors the project had');
  },
);

suite.test(
  {
    case: 'boolean-strings',
    title: 'enabled, only_protected_branches and keep_divergent_refs as form fields or query parameters "true"/"false" are read as booleans ("1"/"0" too: GitLab parity)',
    clauses: ['mirrors.params.boolean-strings', 'mirrors.create.options'],
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const send = (how: 'form' | 'query', values: [string, string, string], name: string) => {
      const [enabled, onlyProtected, keepDivergent] = values;
      const params = { url: target(`booleans-${name}`), enabled, only_protected_branches: onlyProtected, keep_divergent_refs: keepDivergent };
      return how === 'form' ? as('maintainer').post(mirrorsPath(privateProject), { body: params, form: true }) : as('maintainer').post(mirrorsPath(privateProject), { query: params });
    };
    const expectValues = async (res: Exchange, expected: boolean[], what: string) => {
      expectOk(res, 201, 'remote-mirror');
      const created = res.body as Mirror;
      const read = await readMirror(as('maintainer'), privateProject, created.id);
      for (const [mirror, where] of [[created, 'created'], [read, 'read back']] as const) {
        expectEqual([mirror.enabled, mirror.only_protected_branches, mirror.keep_divergent_refs], expected, `enabled, only_protected_branches and keep_divergent_refs ${what} (${where})`, res);
      }
    };
    await expectValues(await send('form', ['true', 'false', 'true'], 'form-true'), [true, false, true], 'from form fields "true", "false", "true"');
    await expectValues(await send('form', ['false', 'true', 'false'], 'form-false'), [false, true, false], 'from form fields "false", "true", "false"');
    await expectValues(await send('query', ['true', 'true', 'true'], 'query-true'), [true, true, true], 'from query parameters "true"');
    await expectValues(await send('query', ['false', 'false', 'false'], 'query-false'), [false, false, false], 'from query parameters "false"');
    // "1" and "0": GitLab's Boolean coercion; the spec says nothing of them.
    for (const [how, values, expected] of [['form', ['1', '0', '1'], [true, false, true]], ['query', ['0', '1', '0'], [false, true, false]]] as const) {
      const res = await send(how, [...values], `${how}-digits`);
      parity(res, GITLAB_TEXT.booleans, () => {
        expectOk(res, 201, 'remote-mirror');
        const { enabled, only_protected_branches, keep_divergent_refs } = res.body as Mirror;
        expectEqual([enabled, only_protected_branches, keep_divergent_refs], [...expected], `the values of ${how} "${values.join('", "')}"`, res);
      });
    }
  },
);

suite.test(
  {
    case: 'protected-null',
    title: 'only_protected_branches null (JSON) or empty (form) is never a server error; GitLab refuses it: 400 {"message":{"only_protected_branches":["can\'t be blank"]}}, nothing created',
    clauses: ['mirrors.params.protected-null'],
    fixtures: { ownProject },
  },
  async ({ as, ownProject }) => {
    const project = ownProject;
    const before = (await listMirrors(as('maintainer'), project)).map((m) => m.id);
    const accepted: number[] = [];
    for (const [form, value] of [[false, null], [true, '']] as const) {
      const res = await as('maintainer').post(mirrorsPath(project), { body: { url: target(`protected-null-${form ? 'form' : 'json'}`), enabled: true, only_protected_branches: value }, form });
      // Taken as "not given" (201, a boolean shown) or refused (400): the spec does not say which.
      expectStatus(res, [400, 201], 'GitLab refuses a null only_protected_branches; the spec leaves it open');
      parity(res, GITLAB_TEXT.protectedNull, () => {
        expectValidationError(res, 'only_protected_branches');
        expectEqual((res.body as { message: Record<string, string[]> }).message.only_protected_branches, ["can't be blank"], 'GitLab\'s reason', res);
      });
      if (res.status === 400) expectError(res, 400);
      else {
        expectOk(res, 201, 'remote-mirror');
        accepted.push((res.body as Mirror).id);
      }
    }
    expectEqual((await listMirrors(as('maintainer'), project)).map((m) => m.id), [...before, ...accepted], 'no mirror to exist for a refused request');
  },
);
