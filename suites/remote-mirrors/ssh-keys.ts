// SSH public keys for the host_keys and public_key tests of the remote-mirrors suite: fresh keys in
// OpenSSH form ("ssh-ed25519 AAAA…") with the SHA-256 fingerprint GitLab shows for them, and a reader
// of an OpenSSH RSA key (its modulus size). Built with node:crypto: no key is a constant of the suite.
import { createHash, generateKeyPairSync } from 'node:crypto';

export interface SshKey {
  /** "<type> <base64>", as `ssh-keygen` and `ssh-keyscan` write a public key (without a comment). */
  text: string;
  /** "SHA256:<base64 of the SHA-256 of the key blob, unpadded>", as `ssh-keygen -lf` (and GitLab's host_keys) show it. */
  fingerprint: string;
}

export type SshKeyType = 'ed25519' | 'ecdsa' | 'rsa';

function sshString(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

const text = (value: string) => sshString(Buffer.from(value, 'latin1'));
const number = (b64url: string) => Buffer.from(b64url, 'base64url');

/** An SSH mpint: unsigned big-endian, with a zero byte before a set high bit. */
const mpint = (bytes: Buffer) => sshString(bytes[0] >= 128 ? Buffer.concat([Buffer.alloc(1), bytes]) : bytes);

/** A key from its RFC 4253 blob. */
export function sshKeyOf(type: string, blob: Buffer): SshKey {
  return { text: `${type} ${blob.toString('base64')}`, fingerprint: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}` };
}

/** A new public key of the type. */
export function newSshKey(type: SshKeyType): SshKey {
  if (type === 'ed25519') {
    const { x } = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    return sshKeyOf('ssh-ed25519', Buffer.concat([text('ssh-ed25519'), sshString(number(x!))]));
  }
  if (type === 'ecdsa') {
    const { x, y } = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const point = Buffer.concat([Buffer.from([4]), number(x!), number(y!)]);
    return sshKeyOf('ecdsa-sha2-nistp256', Buffer.concat([text('ecdsa-sha2-nistp256'), text('nistp256'), sshString(point)]));
  }
  // 1024 bits: any size is a valid host key (Gitlab::SSHPublicKey), and it is made in a moment.
  const { e, n } = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
  return sshKeyOf('ssh-rsa', Buffer.concat([text('ssh-rsa'), mpint(number(e!)), mpint(number(n!))]));
}

/**
 * A new ed25519 key whose Base64 holds a "+" (a form decoder turns it into a space), not as its last
 * character: a trailing space is stripped with the padding around the key, on GitLab too.
 */
export function sshKeyWithPlus(): SshKey {
  for (;;) {
    const key = newSshKey('ed25519');
    if (key.text.includes('+') && !key.text.endsWith('+')) return key;
  }
}

/**
 * The parts of an OpenSSH RSA public key "ssh-rsa <base64> [comment]": the size of its modulus in
 * bits, or undefined when the text is not one.
 */
export function rsaModulusBits(publicKey: string): number | undefined {
  const [type, data] = publicKey.split(' ');
  if (type !== 'ssh-rsa' || data === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return undefined;
  const blob = Buffer.from(data, 'base64');
  const fields: Buffer[] = [];
  for (let at = 0; at < blob.length;) {
    if (at + 4 > blob.length) return undefined;
    const length = blob.readUInt32BE(at);
    if (at + 4 + length > blob.length) return undefined;
    fields.push(blob.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  if (fields.length !== 3 || fields[0].toString('latin1') !== 'ssh-rsa') return undefined;
  const modulus = fields[2][0] === 0 ? fields[2].subarray(1) : fields[2];
  return modulus.length === 0 ? 0 : (modulus.length - 1) * 8 + modulus[0].toString(2).length;
}
