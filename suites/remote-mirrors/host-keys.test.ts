// host_keys on POST /projects/:id/remote_mirrors and PUT /projects/:id/remote_mirrors/:mirror_id.
// The spec names no host_keys: what GitLab does with them (the fingerprints it shows, its refusals)
// is checked at the parity level. The spec level of each test holds what any implementation must do
// with a parameter it may not know: the mirror is created or updated as asked, a refusal creates and
// changes nothing, and there is never a server error.
import { endpoint } from './kit.js';
import type { Kit } from '../../runner/run/conformance.js';
import { expectEqual, expectError, expectOk, expectStatus, expectValidationError, parity } from '../../runner/core/checks.js';
import type { Exchange } from '../../runner/core/client.js';
import type { TestLog } from '../../runner/core/exchange.js';
import type { ProjectInfo } from '../../runner/core/vocabulary.js';
import { createMirror, listMirrorPages, mirrorPath, mirrorsPath, readMirror, target, type Mirror, ownProject, freshProject } from './helpers.js';
import { malformedSshKeys, newDsaKey, newSecurityKey, newSshKey, sshKeyWithPlus, type SshKey } from './ssh-keys.js';

/**
 * Every test here sends host_keys. The parameter (POST and PUT, with RemoteMirrors::HostKeysConverter)
 * came with GitLab 19.0: merge request 227235 (the converter: 227619). docs.gitlab.com for 18.10 lists
 * no host_keys parameter, and the Terraform provider added it in its 19.0.0 (2026-05-21) once 227235 was
 * merged. An older GitLab drops the parameter (declared_params), and before 18.4 shows no host_keys at
 * all (doc/api/remote_mirrors.md history: the fingerprints, merge request 203435).
 */
const SINCE = { minVersion: '19.0' };

const HOST_KEYS_GITLAB =
  'lib/api/remote_mirrors.rb (build_mirror_params); app/models/remote_mirrors/host_keys_converter.rb (to_ssh_known_hosts!); lib/api/entities/remote_mirror.rb (expose :ssh_known_hosts_fingerprints, as: :host_keys); app/models/ssh_host_key.rb (fingerprint_host_keys); lib/gitlab/ssh_public_key.rb (fingerprint_sha256)';
const INVALID_GITLAB = 'lib/api/remote_mirrors.rb (build_mirror_params: rescue InvalidHostKeyError, render_api_error!(e.message, 400)); app/models/remote_mirrors/host_keys_converter.rb (validate!, MAX_HOST_KEYS = 10, normalize_key)';
const MALFORMED_GITLAB = `${INVALID_GITLAB}; lib/gitlab/ssh_public_key.rb (valid?: SSHData::PublicKey.parse_openssh, rescue SSHData::DecodeError; extract_key_parts strips the prefix); github/ssh_data (see malformedSshKeys)`;
const TYPES_GITLAB =
  'lib/api/helpers/remote_mirrors_helpers.rb (optional :host_keys, type: Array[String]); Grape lib/grape/validations/types/array_coercer.rb (reject? nil), lib/grape/validations/types/primitive_coercer.rb (reject? Array or Hash for String; Coercible::String); dry-types lib/dry/types/coercions/params.rb (to_ary)';
const KEPT_GITLAB = 'lib/api/remote_mirrors.rb (build_mirror_params: return unless result.key?(:host_keys)); app/models/remote_mirrors/host_keys_converter.rb (nil for blank host_keys); app/models/concerns/mirror_authentication.rb (credentials_field)';

const fingerprintsOf = (mirror: Mirror | undefined) => mirror?.host_keys?.map((key) => key.fingerprint_sha256);

/** GitLab shows one fingerprint per stored key, in the order given (parity). */
function expectFingerprints(on: Exchange | { log: TestLog }, mirror: Mirror | undefined, keys: SshKey[], what: string, gitlab = HOST_KEYS_GITLAB): void {
  parity(on, gitlab, () => expectEqual(fingerprintsOf(mirror), keys.map((k) => k.fingerprint), `host_keys of ${what} (SHA-256 fingerprints of the keys, in order)`, 'status' in on ? on : undefined));
}

/** The mirror as the single read and the list show it: 200 and the schema, and the fingerprints at the parity level. */
async function expectReadBack(as: Kit['as'], log: TestLog, project: ProjectInfo, id: number, keys: SshKey[], gitlab = HOST_KEYS_GITLAB): Promise<Mirror> {
  const read = await as('maintainer').get(mirrorPath(project, id));
  expectOk(read, 200, 'remote-mirror');
  expectFingerprints(read, read.body as Mirror, keys, 'the mirror read back', gitlab);
  const listed = (await listMirrorPages(as('maintainer'), project)).flatMap((page) => page.body as Mirror[]).find((m) => m.id === id);
  expectEqual(listed?.id, id, 'the mirror to be listed');
  expectFingerprints({ log }, listed, keys, 'the mirror in the list', gitlab);
  return read.body as Mirror;
}

const create = endpoint('create');
const update = endpoint('update');

create.test(
  {
    case: 'host-keys',
    title: 'host_keys given on create, bare and in known_hosts form (host, [host]:port, host,address), read back as their SHA-256 fingerprints, in order; blank entries dropped',
    clauses: ['mirrors.host-keys.stored', 'mirrors.create.returns'],
    fixtures: { ownProject },
    requires: SINCE,
  },
  async ({ as, log, ownProject }) => {
    const project = ownProject;
    const [ed25519, ecdsa, rsa, other] = [newSshKey('ed25519'), newSshKey('ecdsa'), newSshKey('rsa'), newSshKey('ed25519')];
    const moreTypes = [newDsaKey(), newSecurityKey('sk-ecdsa'), newSecurityKey('sk-ed25519'), newSecurityKey('sk-ed25519', '')];
    const cases = [
      {
        url: 'ssh://git@example.com/conformance/host-keys.git',
        hostKeys: [ed25519.text, `  ${ecdsa.text}  `, '', '   ', `mirror.example.org ${rsa.text}`, `[example.com]:2222 ${other.text}`, `example.com,192.0.2.10 ${ed25519.text}`],
        shown: [ed25519, ecdsa, rsa, other, ed25519],
      },
      // A bare key of a url with a port is listed under "[example.com]:2222" (not shown: only fingerprints are).
      { url: 'ssh://git@example.com:2222/conformance/host-keys-port.git', hostKeys: [rsa.text], shown: [rsa] },
      // host_keys of an https mirror are stored as well (GitLab uses them only for ssh:// urls).
      { url: target('host-keys-https'), hostKeys: [ecdsa.text], shown: [ecdsa] },
      // The other types of Gitlab::SSHPublicKey (lib/gitlab/ssh_public_key.rb TECHNOLOGIES); SSHData reads a
      // security key's application as any string, the empty one too (github/ssh_data lib/ssh_data/encoding.rb SKED25519_KEY_FIELDS).
      { url: 'ssh://git@example.com/conformance/host-keys-types.git', hostKeys: moreTypes.map((k) => k.text), shown: moreTypes },
    ];
    for (const { url, hostKeys, shown } of cases) {
      const res = await as('maintainer').post(mirrorsPath(project), { body: { url, auth_method: 'ssh_public_key', host_keys: hostKeys } });
      expectOk(res, 201, 'remote-mirror');
      const created = res.body as Mirror;
      expectFingerprints(res, created, shown, `the mirror created for ${url}`);
      await expectReadBack(as, log, project, created.id, shown);
    }
  },
);

create.test(
  {
    case: 'host-keys-plus-restored',
    title: 'a host key whose Base64 "+" came as spaces (a form decoder\'s doing) is restored: the fingerprint is the key\'s, from a JSON and a form body',
    clauses: ['mirrors.host-keys.stored'],
    requires: SINCE,
    // GitLab's repair of what its form decoding does to a key: beyond the spec as a whole.
    level: 'parity',
    fixtures: { ownProject },
  },
  async ({ as, log, ownProject }) => {
    const project = ownProject;
    const key = sshKeyWithPlus();
    const spaced = key.text.replace(/\+/g, ' ');
    for (const [form, body] of [[false, { host_keys: [spaced] }], [true, { 'host_keys[]': spaced }]] as const) {
      const res = await as('maintainer').post(mirrorsPath(project), { body: { url: `ssh://git@example.com/conformance/host-keys-plus-${form ? 'form' : 'json'}.git`, ...body }, form });
      expectOk(res, 201, 'remote-mirror');
      expectFingerprints(res, res.body as Mirror, [key], `the mirror created with a ${form ? 'form' : 'JSON'} body`);
      await expectReadBack(as, log, project, (res.body as Mirror).id, [key]);
    }
  },
);

create.test(
  {
    case: 'host-keys-invalid',
    title: 'an invalid host key, or more than 10, is refused with 400 "Invalid SSH host key(s): …" and nothing is created; 10 keys are accepted',
    clauses: ['mirrors.host-keys.invalid'],
    fixtures: { freshProject },
    requires: SINCE,
  },
  async ({ as, log, freshProject }) => {
    const project = freshProject;
    const valid = newSshKey('ed25519');
    const notABlob = `ssh-ed25519 ${Buffer.from('not the blob of an ed25519 key').toString('base64')}`;
    const cases: { hostKeys: string[]; message: string; gitlab?: string }[] = [
      { hostKeys: [valid.text, 'not-a-key'], message: 'Invalid SSH host key(s): not-a-key' },
      { hostKeys: ['ssh-ed25519 not_base64!', valid.text, `  ${notABlob} `], message: `Invalid SSH host key(s): ssh-ed25519 not_base64!, ${notABlob}` },
      { hostKeys: Array.from({ length: 11 }, () => newSshKey('ed25519').text), message: 'Invalid SSH host key(s): too many host keys (maximum is 10)' },
      // Blank entries count: 10 keys and a blank one are 11 entries.
      { hostKeys: [...Array.from({ length: 10 }, () => valid.text), ''], message: 'Invalid SSH host key(s): too many host keys (maximum is 10)' },
      // Blobs that SSHData does not parse, one a request; the message lists the key with its parts' padding dropped.
      ...malformedSshKeys().map((key) => ({ hostKeys: [key], message: `Invalid SSH host key(s): ${key}`, gitlab: MALFORMED_GITLAB })),
      { hostKeys: [`example.com   ${notABlob}`], message: `Invalid SSH host key(s): example.com ${notABlob}`, gitlab: MALFORMED_GITLAB },
    ];
    const accepted: number[] = [];
    for (const [i, { hostKeys, message, gitlab = INVALID_GITLAB }] of cases.entries()) {
      const res = await as('maintainer').post(mirrorsPath(project), { body: { url: `ssh://git@example.com/conformance/host-keys-invalid-${i}.git`, host_keys: hostKeys } });
      // A target that does not take host_keys ignores them: the mirror is created.
      expectStatus(res, [400, 201], 'GitLab refuses the keys; a target without host_keys creates the mirror');
      parity(res, gitlab, () => expectError(res, 400, { message, gitlab }));
      if (res.status === 400) expectError(res, 400);
      else {
        expectOk(res, 201, 'remote-mirror');
        accepted.push((res.body as Mirror).id);
      }
    }
    // A bare key needs the host of the url: GitLab says so before it validates the url itself.
    for (const url of ['not a url', 'ssh:///conformance/host-keys-no-host.git', 'ssh://git@/conformance/host-keys-no-host.git', 'ssh://git@exam ple.com/conformance/host-keys.git']) {
      const hostless = await as('maintainer').post(mirrorsPath(project), { body: { url, host_keys: [valid.text] } });
      expectError(hostless, 400, { message: 'Invalid SSH host key(s): cannot determine hostname from URL for bare key', gitlab: INVALID_GITLAB });
    }
    // Blank entries and keys with a host of their own need none of the url: there the url itself is refused.
    for (const hostKeys of [['', '  '], [`example.com ${valid.text}`]]) {
      const res = await as('maintainer').post(mirrorsPath(project), { body: { url: 'not a url', host_keys: hostKeys } });
      expectError(res, 400);
      parity(res, `${INVALID_GITLAB}; app/models/remote_mirror.rb (validates :url, public_url)`, () => expectValidationError(res, 'url'));
    }
    expectEqual((await listMirrorPages(as('maintainer'), project)).flatMap((page) => page.body as Mirror[]).map((m) => m.id), accepted, 'no mirror to exist for the refused requests');

    const ten = Array.from({ length: 10 }, () => newSshKey('ed25519'));
    const res = await as('maintainer').post(mirrorsPath(project), { body: { url: 'ssh://git@example.com/conformance/host-keys-ten.git', host_keys: ten.map((k) => k.text) } });
    expectOk(res, 201, 'remote-mirror');
    expectFingerprints(res, res.body as Mirror, ten, 'a mirror created with 10 keys');
    await expectReadBack(as, log, project, (res.body as Mirror).id, ten);
  },
);

create.test(
  {
    case: 'host-keys-types',
    title: 'host_keys as Grape coerces an Array[String]: no array, or an array holding null, an array or an object, is refused with 400 {"error":"host_keys is invalid"} and nothing is created; numbers and booleans are keys as text; an empty string is no keys',
    clauses: ['mirrors.host-keys.types'],
    fixtures: { ownProject },
    requires: SINCE,
  },
  async ({ as, log, ownProject }) => {
    const project = ownProject;
    const valid = newSshKey('ed25519');
    const cases: { hostKeys: unknown; error?: string; message?: string }[] = [
      { hostKeys: valid.text, error: 'host_keys is invalid' },
      { hostKeys: 10, error: 'host_keys is invalid' },
      { hostKeys: { key: valid.text }, error: 'host_keys is invalid' },
      { hostKeys: [valid.text, null], error: 'host_keys is invalid' },
      { hostKeys: [[valid.text]], error: 'host_keys is invalid' },
      { hostKeys: [{ key: valid.text }], error: 'host_keys is invalid' },
      { hostKeys: [valid.text, 5], message: 'Invalid SSH host key(s): 5' },
      { hostKeys: [true], message: 'Invalid SSH host key(s): true' },
    ];
    const refused: string[] = [];
    for (const [i, { hostKeys, error, message }] of cases.entries()) {
      const url = `ssh://example.com/conformance/host-keys-types-${i}.git`;
      const res = await as('maintainer').post(mirrorsPath(project), { body: { url, host_keys: hostKeys } });
      // A target that does not take host_keys ignores them: the mirror is created.
      expectStatus(res, [400, 201], 'GitLab refuses host_keys of these types; a target without host_keys creates the mirror');
      const gitlab = error === undefined ? `${TYPES_GITLAB}; ${INVALID_GITLAB}` : TYPES_GITLAB;
      parity(res, gitlab, () => expectError(res, 400, { error, message, gitlab }));
      if (res.status === 400) {
        expectError(res, 400);
        refused.push(url);
      } else expectOk(res, 201, 'remote-mirror');
    }
    const listed = (await listMirrorPages(as('maintainer'), project)).flatMap((page) => page.body as Mirror[]).map((m) => m.url);
    expectEqual(listed.filter((url) => refused.includes(url)), [], 'no mirror to exist for the refused requests');
    // An empty string is an empty array: the mirror is created without keys.
    const empty = await as('maintainer').post(mirrorsPath(project), { body: { url: 'ssh://git@example.com/conformance/host-keys-types-empty.git', host_keys: '' } });
    expectOk(empty, 201, 'remote-mirror');
    await expectReadBack(as, log, project, (empty.body as Mirror).id, [], TYPES_GITLAB);
  },
);

update.test(
  {
    case: 'host-keys',
    title: 'PUT host_keys replaces the stored keys; a PUT without host_keys keeps them; host_keys [] or null clears them',
    clauses: ['mirrors.host-keys.stored', 'mirrors.host-keys.kept-or-cleared', 'mirrors.update.toggle'],
    fixtures: { ownProject },
    requires: SINCE,
  },
  async ({ as, log, ownProject }) => {
    const project = ownProject;
    const [first, second, third] = [newSshKey('ed25519'), newSshKey('ecdsa'), newSshKey('rsa')];
    const created = await createMirror(as('maintainer'), project, { url: 'ssh://git@example.com/conformance/host-keys-update.git', auth_method: 'ssh_public_key' });
    expectFingerprints({ log }, created, [], 'a mirror created without host_keys');

    const put = async (body: Record<string, unknown>, keys: SshKey[], what: string, gitlab = HOST_KEYS_GITLAB) => {
      const res = await as('maintainer').put(mirrorPath(project, created.id), { body });
      expectOk(res, 200, 'remote-mirror');
      expectFingerprints(res, res.body as Mirror, keys, `the update response (${what})`, gitlab);
      return expectReadBack(as, log, project, created.id, keys, gitlab);
    };
    await put({ host_keys: [first.text, `git.example.org ${second.text}`] }, [first, second], 'two keys set');
    const toggled = await put({ enabled: true }, [first, second], 'host_keys left out', KEPT_GITLAB);
    expectEqual(toggled.enabled, true, 'enabled changed by the update without host_keys');
    await put({ host_keys: [third.text] }, [third], 'the keys replaced');
    await put({ host_keys: [] }, [], 'host_keys []', KEPT_GITLAB);
    await put({ host_keys: [first.text] }, [first], 'a key set again');
    await put({ host_keys: null }, [], 'host_keys null', KEPT_GITLAB);
    await put({ host_keys: [second.text] }, [second], 'a key set once more');
    await put({ host_keys: '' }, [], 'host_keys "" (an empty array to Grape)', `${KEPT_GITLAB}; ${TYPES_GITLAB}`);
    expectEqual((await readMirror(as('maintainer'), project, created.id)).enabled, true, 'enabled as the updates left it');
  },
);

update.test(
  {
    case: 'host-keys-invalid',
    title: 'PUT with an invalid host key, or more than 10, is refused with 400 "Invalid SSH host key(s): …" and changes nothing',
    clauses: ['mirrors.host-keys.invalid'],
    requires: SINCE,
  },
  async ({ as, log, repositories }) => {
    const { privateProject } = repositories;
    const stored = newSshKey('ed25519');
    const created = await createMirror(as('maintainer'), privateProject, { url: 'ssh://git@example.com/conformance/host-keys-update-invalid.git', host_keys: [stored.text] });
    const cases = [
      { hostKeys: [newSshKey('ecdsa').text, 'not-a-key'], message: 'Invalid SSH host key(s): not-a-key' },
      { hostKeys: Array.from({ length: 11 }, () => newSshKey('ed25519').text), message: 'Invalid SSH host key(s): too many host keys (maximum is 10)' },
    ];
    for (const { hostKeys, message } of cases) {
      const before = await readMirror(as('maintainer'), privateProject, created.id);
      const res = await as('maintainer').put(mirrorPath(privateProject, created.id), { body: { enabled: !before.enabled, host_keys: hostKeys } });
      expectStatus(res, [400, 200], 'GitLab refuses the keys; a target without host_keys updates the mirror');
      parity(res, INVALID_GITLAB, () => expectError(res, 400, { message, gitlab: INVALID_GITLAB }));
      if (res.status === 200) {
        expectOk(res, 200, 'remote-mirror');
        continue;
      }
      expectError(res, 400);
      const after = await readMirror(as('maintainer'), privateProject, created.id);
      expectEqual(after.enabled, before.enabled, 'enabled unchanged by the refused update');
      expectFingerprints({ log }, after, [stored], 'the mirror after the refused update');
    }
  },
);
