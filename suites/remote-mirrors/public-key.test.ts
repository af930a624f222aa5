// GET /projects/:id/remote_mirrors/:mirror_id/public_key: GitLab's endpoint beyond the spec's 47
// forms (an extension of the area, GitLab 17.9). Its tests are at the parity level and need GitLab
// 17.9 or later (runner/run/conformance.ts).
import { endpoint } from './kit.js';
import { expectEqual, expectError, expectOk, expectTrue } from '../../runner/core/checks.js';
import { apiPath, type Client, type Exchange } from '../../runner/core/client.js';
import type { ProjectInfo } from '../../runner/core/vocabulary.js';
import { createMirror, expectAnonymousOnPrivate, expectAnonymousOnPublic, expectInsufficientScope, expectRefusedToNonMaintainers, expectUnknownMirrorsNotFound, mirrorPath, target } from './helpers.js';
import { rsaPublicKey } from './ssh-keys.js';

const suite = endpoint('public-key');

/** Introduced in GitLab 17.9 (doc/api/remote_mirrors.md; merge request 180291). */
const SINCE = { minVersion: '17.9' };

const publicKeyPath = (project: ProjectInfo | number, mirrorId: number | string) => apiPath`/projects/${typeof project === 'number' ? project : project.id}/remote_mirrors/${mirrorId}/public_key`;

/** An SSH mirror that uses key authentication: the mirrors that have a public key. */
const sshMirror = (client: Client, project: ProjectInfo, name: string) => createMirror(client, project, { url: `ssh://git@example.com/conformance/${name}.git`, auth_method: 'ssh_public_key' });

/** The public key of a mirror: 200, the schema, "ssh-rsa <Base64> git@<host>" of a 4096-bit key. Returns the key without its comment. */
async function readPublicKey(client: Client, project: ProjectInfo, mirrorId: number): Promise<string> {
  const res = await client.get(publicKeyPath(project, mirrorId));
  expectOk(res, 200, 'remote-mirror-public-key');
  const text = (res.body as { public_key: string }).public_key;
  const match = /^(ssh-rsa [A-Za-z0-9+/]+={0,2}) git@(\S+)$/.exec(text);
  expectTrue(match !== null, 'the public key as "ssh-rsa <Base64> git@<host>"', `got ${JSON.stringify(text)}`, res);
  const key = rsaPublicKey(match![1]);
  expectTrue(key !== undefined, 'an RSA public key whose exponent and modulus are positive mpints in their shortest form (RFC 4251)', `got ${JSON.stringify(match![1])}`, res);
  expectEqual(key!.bits, 4096, 'the size of the RSA key in bits (GitLab: SSHData::PrivateKey::RSA.generate(4096))', res);
  expectEqual(Number(key!.exponent), 65537, 'the public exponent (GitLab: SSHData::PrivateKey::RSA.generate; github/ssh_data lib/ssh_data/private_key/rsa.rb: OpenSSL::PKey::RSA.generate(size), whose default exponent is 65537)', res);
  return match![1];
}

/** A mirror without SSH key authentication: 404 "404 Not Found" (not_found!, capital F; an unknown id's is RecordNotFound's "404 Not found"). */
function expectNoPublicKey(res: Exchange): void {
  expectError(res, 404, { message: '404 Not Found', gitlab: 'lib/api/remote_mirrors.rb (not_found! unless mirror.ssh_key_auth?); lib/api/helpers.rb (not_found!)' });
}

suite.test(
  {
    case: 'ssh-key',
    title: 'an ssh:// mirror with auth_method ssh_public_key has a 4096-bit RSA public key "ssh-rsa … git@<host>", the same on every read, another for another mirror',
    clauses: ['mirrors.public-key.ssh'],
    requires: SINCE,
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const mirror = await sshMirror(as('maintainer'), privateProject, 'public-key');
    const key = await readPublicKey(as('maintainer'), privateProject, mirror.id);
    expectEqual(await readPublicKey(as('maintainer'), privateProject, mirror.id), key, 'the public key read again');
    // A user other than git in the url, with a password: the url still starts with ssh://.
    const other = await createMirror(as('maintainer'), privateProject, { url: 'ssh://deployer:Pa55-key-word@example.org/conformance/public-key-other.git', auth_method: 'ssh_public_key' });
    const otherKey = await readPublicKey(as('maintainer'), privateProject, other.id);
    expectTrue(otherKey !== key, 'another mirror to have another key', 'both mirrors show the same key');
  },
);

suite.test(
  {
    case: 'auth-method-switch',
    title: 'a password mirror has no public key (404); switched to ssh_public_key it has one, none again with password, and the same key back',
    clauses: ['mirrors.public-key.ssh', 'mirrors.public-key.not-ssh'],
    requires: SINCE,
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const mirror = await createMirror(as('maintainer'), privateProject, { url: 'ssh://git@example.com/conformance/public-key-switch.git' });
    expectNoPublicKey(await as('maintainer').get(publicKeyPath(privateProject, mirror.id)));
    const switchTo = async (method: string) => expectOk(await as('maintainer').put(mirrorPath(privateProject, mirror.id), { body: { auth_method: method } }), 200, 'remote-mirror');
    await switchTo('ssh_public_key');
    const key = await readPublicKey(as('maintainer'), privateProject, mirror.id);
    await switchTo('password');
    expectNoPublicKey(await as('maintainer').get(publicKeyPath(privateProject, mirror.id)));
    // GitLab keeps the private key in the mirror's credentials and makes one only when there is none.
    await switchTo('ssh_public_key');
    expectEqual(await readPublicKey(as('maintainer'), privateProject, mirror.id), key, 'the key after switching back to ssh_public_key');
  },
);

suite.test(
  {
    case: 'not-ssh',
    title: 'mirrors whose url is not ssh:// (even with auth_method ssh_public_key) or that use a password have no public key: 404; an unknown mirror 404 "404 Not found"',
    clauses: ['mirrors.public-key.not-ssh', 'mirrors.id.not-found'],
    requires: SINCE,
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const mirrors = [
      await createMirror(as('maintainer'), privateProject, { url: target('public-key-https'), auth_method: 'ssh_public_key' }),
      await createMirror(as('maintainer'), privateProject, { url: 'git://example.com/conformance/public-key-git.git', auth_method: 'ssh_public_key' }),
      await createMirror(as('maintainer'), privateProject, { url: 'ssh://git@example.com/conformance/public-key-password.git', auth_method: 'password' }),
    ];
    for (const mirror of mirrors) expectNoPublicKey(await as('maintainer').get(publicKeyPath(privateProject, mirror.id)));
    await expectUnknownMirrorsNotFound(as, repositories, { url: 'ssh://git@example.com/conformance/public-key-elsewhere.git', auth_method: 'ssh_public_key' }, (client, project, id) => client.get(publicKeyPath(project, id)));
  },
);

suite.test(
  {
    case: 'role-matrix',
    title: 'Maintainer and Owner read the public key; Developer, Reporter and Guest get 401; an outsider gets 404',
    clauses: ['mirrors.auth.maintainer', 'mirrors.auth.below-maintainer', 'mirrors.auth.invisible-project'],
    requires: SINCE,
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const mirror = await sshMirror(as('maintainer'), privateProject, 'public-key-roles');
    const key = await readPublicKey(as('maintainer'), privateProject, mirror.id);
    expectEqual(await readPublicKey(as('owner'), privateProject, mirror.id), key, 'the key read as Owner');
    await expectRefusedToNonMaintainers(as, (client) => client.get(publicKeyPath(privateProject, mirror.id)));
  },
);

suite.test(
  {
    case: 'anonymous',
    title: 'without a token the public key is not readable: 401 on a public project, 401 or 404 on a private one',
    clauses: ['mirrors.auth.anonymous'],
    requires: SINCE,
  },
  async ({ as, repositories }) => {
    const { publicProject, privateProject } = repositories;
    const open = await sshMirror(as('maintainer'), publicProject, 'public-key-anonymous');
    const hidden = await sshMirror(as('maintainer'), privateProject, 'public-key-anonymous');
    expectAnonymousOnPublic(await as('anonymous').get(publicKeyPath(publicProject, open.id)));
    expectAnonymousOnPrivate(await as('anonymous').get(publicKeyPath(privateProject, hidden.id)));
  },
);

suite.test(
  {
    case: 'token-scopes',
    title: 'a read_api token may read the public key; a read_repository token is refused with 403',
    clauses: ['mirrors.auth.scopes'],
    requires: SINCE,
  },
  async ({ as, repositories }) => {
    const { privateProject } = repositories;
    const mirror = await sshMirror(as('maintainer'), privateProject, 'public-key-scopes');
    await readPublicKey(as('maintainer', 'read_api'), privateProject, mirror.id);
    expectInsufficientScope(await as('maintainer', 'read_repository').get(publicKeyPath(privateProject, mirror.id)));
  },
);
