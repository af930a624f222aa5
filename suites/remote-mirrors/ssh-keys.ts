// SSH public keys for the host_keys and public_key tests of the remote-mirrors suite: fresh keys in
// OpenSSH form ("ssh-ed25519 AAAA…") with the SHA-256 fingerprint GitLab shows for them, and a reader
// of an OpenSSH RSA key (its modulus size). Built with node:crypto: no key is a constant of the suite.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';

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

/** The INTEGERs of a DER structure, in order (a DSA SubjectPublicKeyInfo holds p, q, g, then y in its BIT STRING). */
function derIntegers(der: Buffer): Buffer[] {
  const integers: Buffer[] = [];
  for (let at = 0; at < der.length;) {
    const tag = der[at];
    let length = der[at + 1];
    let start = at + 2;
    if (length >= 128) {
      const bytes = length - 128;
      length = der.readUIntBE(start, bytes);
      start += bytes;
    }
    if (tag === 0x02) integers.push(der.subarray(start, start + length));
    // Into constructed values (SEQUENCE) and the BIT STRING (after its unused-bits byte); past the others.
    at = tag === 0x30 ? start : tag === 0x03 ? start + 1 : start + length;
  }
  return integers;
}

/** This process's DSA domain (p, q, g as DER INTEGERs): made once, as making one takes ~50 ms of CPU. */
let dsaDomain: Buffer[] | undefined;

const bigint = (bytes: Buffer) => BigInt(`0x${bytes.toString('hex') || '0'}`);

/** base^exponent mod modulus, by squaring. */
function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  for (let b = base % modulus, e = exponent; e > 0n; e >>= 1n, b = (b * b) % modulus) if (e & 1n) result = (result * b) % modulus;
  return result;
}

/**
 * p, q, g and y of a new 1024-bit DSA key, as SSH mpints (a DER INTEGER is one already: big-endian,
 * minimal). The domain is the process's; y = g^x mod p for a new random x below q, so each key is new.
 */
function dsaFields(): Buffer[] {
  dsaDomain ??= derIntegers(generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 }).publicKey.export({ format: 'der', type: 'spki' })).slice(0, 3);
  const [p, q, g] = dsaDomain.map(bigint);
  const x = (bigint(randomBytes(20)) % (q - 1n)) + 1n;
  const y = modPow(g, x, p).toString(16);
  return [...dsaDomain.map(sshString), mpint(Buffer.from(y.length % 2 ? `0${y}` : y, 'hex'))];
}

/** A new ssh-dss key (a DSA host key GitLab accepts: lib/gitlab/ssh_public_key.rb TECHNOLOGIES). */
export const newDsaKey = (): SshKey => sshKeyOf('ssh-dss', Buffer.concat([text('ssh-dss'), ...dsaFields()]));

/** A new security-key (FIDO) public key: the key of its base type and the application string after it. */
export function newSecurityKey(type: 'sk-ecdsa' | 'sk-ed25519', application = 'ssh:'): SshKey {
  if (type === 'sk-ed25519') {
    const { x } = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    return sshKeyOf('sk-ssh-ed25519@openssh.com', Buffer.concat([text('sk-ssh-ed25519@openssh.com'), sshString(number(x!)), text(application)]));
  }
  const { x, y } = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), number(x!), number(y!)]);
  return sshKeyOf('sk-ecdsa-sha2-nistp256@openssh.com', Buffer.concat([text('sk-ecdsa-sha2-nistp256@openssh.com'), text('nistp256'), sshString(point), text(application)]));
}

/** A public key line of the type with the blob put together from the given fields (RFC 4253 strings). */
const craftedKey = (type: string, ...fields: Buffer[]) => `${type} ${Buffer.concat([text(type), ...fields]).toString('base64')}`;

/** An uncompressed EC point (0x04, x, y) of a new key on the curve. */
function ecPoint(curve: 'P-256' | 'P-384'): Buffer {
  const { x, y } = generateKeyPairSync('ec', { namedCurve: curve }).publicKey.export({ format: 'jwk' });
  return Buffer.concat([Buffer.from([4]), number(x!), number(y!)]);
}

/**
 * Key lines of a supported type whose blob SSHData::PublicKey.parse_openssh refuses with a DecodeError
 * (github/ssh_data: lib/ssh_data.rb key_parts, Base64.strict_decode64; lib/ssh_data/encoding.rb
 * decode_string and decode_mpint, "data too short"; lib/ssh_data/public_key.rb parse_rfc4253,
 * "unexpected trailing data"; lib/ssh_data/public_key/ecdsa.rb check_algorithm!, "bad curve", and
 * OpenSSL's refusal of the point, "bad key data"), which Gitlab::SSHPublicKey#valid? turns into false.
 */
export function malformedSshKeys(): string[] {
  const ed25519 = Buffer.from(newSshKey('ed25519').text.split(' ')[1], 'base64');
  const { e } = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
  const p256 = ecPoint('P-256');
  const offCurve = Buffer.from(p256);
  offCurve[offCurve.length - 1] ^= 1;
  const ecdsa = (curve: string, point: Buffer) => craftedKey('ecdsa-sha2-nistp256', text(curve), sshString(point));
  return [
    // An ed25519 blob that ends after its type.
    craftedKey('ssh-ed25519'),
    // An ed25519 key with trailing bytes.
    `ssh-ed25519 ${Buffer.concat([ed25519, Buffer.from([0, 0])]).toString('base64')}`,
    // An ECDSA key (104 bytes) without its Base64 padding: Base64.strict_decode64 wants it, a lenient decoder does without.
    newSshKey('ecdsa').text.replace(/=+$/, ''),
    // An RSA blob that ends after its type.
    craftedKey('ssh-rsa'),
    // An RSA key without its modulus.
    craftedKey('ssh-rsa', mpint(number(e!))),
    // An ECDSA blob that ends after its type.
    craftedKey('ecdsa-sha2-nistp256'),
    // An ecdsa-sha2-nistp256 key of the curve nistp384.
    ecdsa('nistp384', ecPoint('P-384')),
    // An ECDSA point of the unknown form 0x05.
    ecdsa('nistp256', Buffer.concat([Buffer.from([5]), p256.subarray(1)])),
    // An ECDSA point off the curve.
    ecdsa('nistp256', offCurve),
    // An ECDSA point one byte too long (a zero before y): OpenSSL wants exactly 1 + 2 × 32 bytes.
    ecdsa('nistp256', Buffer.concat([p256.subarray(0, 33), Buffer.alloc(1), p256.subarray(33)])),
    // A DSA key without its y.
    craftedKey('ssh-dss', ...dsaFields().slice(0, 3)),
    // An sk-ecdsa key without its application.
    craftedKey('sk-ecdsa-sha2-nistp256@openssh.com', text('nistp256'), sshString(p256)),
    // An sk-ed25519 key without its application.
    craftedKey('sk-ssh-ed25519@openssh.com', sshString(ed25519.subarray(-32))),
  ];
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

/** An RFC 4251 mpint as a positive number: undefined for a negative one or one with a needless leading zero byte. */
function positiveMpint(bytes: Buffer): bigint | undefined {
  if (bytes.length === 0) return 0n;
  if (bytes[0] >= 0x80) return undefined;
  if (bytes[0] === 0 && (bytes.length === 1 || bytes[1] < 0x80)) return undefined;
  return BigInt(`0x${bytes.toString('hex')}`);
}

/**
 * The RSA public key of an OpenSSH line "ssh-rsa <base64> [comment]": its exponent and the size of
 * its modulus in bits, or undefined when the text is not one whose e and n are positive mpints in
 * their shortest form (RFC 4251 section 5; RFC 4253 section 6.6).
 */
export function rsaPublicKey(publicKey: string): { exponent: bigint; bits: number } | undefined {
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
  const [exponent, modulus] = [positiveMpint(fields[1]), positiveMpint(fields[2])];
  if (exponent === undefined || modulus === undefined) return undefined;
  return { exponent, bits: modulus.toString(2).length };
}
