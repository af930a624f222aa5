// Seeded randomness for the vary layer. Every choice is a pure function of the seed and of what it
// is about (a route, a field name, a row), never of how many choices came before, so that the same
// seed gives the same answers whatever order concurrent requests arrive in. Only the id sequences
// (ids.ts) draw from a stream, since ids are handed out one after another anyway.

/** A 32-bit hash of the seed and the parts (FNV-1a over the text, then a murmur3 finaliser). */
export function hash(seed: number, ...parts: readonly (string | number)[]): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  const text = parts.join('\u0000');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** A number in [0, 1) for the seed and the parts. */
export const chance = (seed: number, ...parts: readonly (string | number)[]) => hash(seed, ...parts) / 2 ** 32;

/** One of `items`, for the seed and the parts. */
export const pick = <T>(items: readonly T[], seed: number, ...parts: readonly (string | number)[]): T => items[hash(seed, ...parts) % items.length];

/** mulberry32: a stream of numbers in [0, 1) from a 32-bit seed. */
export function stream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
