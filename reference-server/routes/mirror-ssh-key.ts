// The SSH key GitLab makes for a remote mirror that authenticates with one (its public half is all the API shows).
import { generatePrime } from 'node:crypto';

const newPrime = (bits: number) => new Promise<bigint>((resolve, reject) => generatePrime(bits, { bigint: true }, (error, prime) => (error ? reject(error) : resolve(prime))));
const RSA_BITS = 4096;
const RSA_EXPONENT = 65537n;

/** An SSH string field: its length (four bytes, big-endian), then its bytes. */
function sshString(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** An SSH mpint: unsigned big-endian, a zero byte before a set high bit. */
function sshMpint(value: bigint): Buffer {
  const hex = value.toString(16);
  const bytes = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
  return sshString(bytes[0] >= 128 ? Buffer.concat([Buffer.alloc(1), bytes]) : bytes);
}

/** A prime of `bits` bits that makes a valid RSA factor with the exponent 65537 (gcd(e, p - 1) = 1). */
async function rsaPrime(bits: number): Promise<bigint> {
  for (;;) {
    const prime = await newPrime(bits);
    if ((prime - 1n) % RSA_EXPONENT !== 0n) return prime;
  }
}

/**
 * MirrorAuthentication#generate_ssh_private_key!: GitLab makes an RSA key of 4096 bits for the
 * mirror, once (when auth_method becomes ssh_public_key; no route shows it before the first read of
 * the public key, so it is made then), and keeps it. Only its public half is ever shown and the push
 * is simulated, so the modulus is a multi-prime one (RFC 8017): eight primes of about 512 bits, which
 * cost milliseconds where two of 2048 bits cost seconds of CPU. Returns "ssh-rsa <Base64>", without
 * the comment.
 */
export async function newSshPublicKey(): Promise<string> {
  const primes = await Promise.all(Array.from({ length: 7 }, () => rsaPrime(512)));
  const product = primes.reduce((a, b) => a * b, 1n);
  // The last prime brings the modulus to exactly 4096 bits: a prime of b bits makes it L + b - 1 or L + b bits long.
  const bits = RSA_BITS - product.toString(2).length;
  for (let attempt = 0; ; attempt += 1) {
    const modulus = product * (await rsaPrime(bits + (attempt % 2)));
    if (modulus.toString(2).length === RSA_BITS) {
      return `ssh-rsa ${Buffer.concat([sshString(Buffer.from('ssh-rsa')), sshMpint(RSA_EXPONENT), sshMpint(modulus)]).toString('base64')}`;
    }
  }
}
