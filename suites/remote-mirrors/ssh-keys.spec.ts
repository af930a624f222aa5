// The ssh-dss keys the host_keys tests send: each a valid DSA public key (RFC 4253 blob of p, q, g, y
// with y in the subgroup of order q that g generates), each new, with the fingerprint ssh-keygen shows.
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { newDsaKey } from './ssh-keys.js';

/** The RFC 4253 strings of a key line's blob. */
function blobFields(line: string): Buffer[] {
  const blob = Buffer.from(line.split(' ')[1], 'base64');
  const fields: Buffer[] = [];
  for (let at = 0; at < blob.length; at += 4 + blob.readUInt32BE(at)) fields.push(blob.subarray(at + 4, at + 4 + blob.readUInt32BE(at)));
  return fields;
}

const big = (mpint: Buffer) => BigInt(`0x${mpint.toString('hex') || '0'}`);

function power(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  for (let b = base % modulus, e = exponent; e > 0n; e >>= 1n, b = (b * b) % modulus) if (e & 1n) result = (result * b) % modulus;
  return result;
}

test('each ssh-dss key is a new valid DSA key: y = g^x mod p lies in the subgroup of order q, mpints minimal', () => {
  const keys = Array.from({ length: 5 }, () => newDsaKey());
  expect(new Set(keys.map((k) => k.text)).size, 'five keys, all different').toBe(5);
  for (const key of keys) {
    const [type, ...mpints] = blobFields(key.text);
    expect(type.toString('latin1')).toBe('ssh-dss');
    expect(mpints).toHaveLength(4);
    // An SSH mpint is minimal: a leading zero byte only before a set high bit.
    for (const m of mpints) expect(m[0] !== 0 || m[1] >= 128, 'minimal mpint').toBe(true);
    const [p, q, g, y] = mpints.map(big);
    expect(p.toString(2)).toHaveLength(1024);
    expect(q.toString(2)).toHaveLength(160);
    expect((p - 1n) % q).toBe(0n);
    expect(g > 1n && power(g, q, p) === 1n, 'g generates a subgroup of order q').toBe(true);
    expect(y > 1n && y < p - 1n && power(y, q, p) === 1n, 'y is in that subgroup').toBe(true);
    const blob = Buffer.from(key.text.split(' ')[1], 'base64');
    expect(key.fingerprint).toBe(`SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`);
  }
});
