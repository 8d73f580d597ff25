import { seededUint32 } from '../stats/prng.js';
import type { FamilyKind } from './types.js';

// Letters and digits that read unambiguously (no 0/o, 1/l/i), so an agent copying them by hand is
// not failed by the font.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const KIND_SALT: Record<FamilyKind, number> = {
  pointerChase: 0x1b873593,
  faultRecovery: 0x85ebca6b,
  parallelLookup: 0xc2b2ae35,
};

/** Draws tokens for one (kind, seed, size): the same three always give the same tokens, in the same order. */
export class TokenSource {
  readonly #next: () => number;
  readonly #used = new Set<string>();

  constructor(kind: FamilyKind, seed: number, size: number) {
    // Mixing size and kind in: sizes of one family, and families of one seed, do not share a prefix.
    const mixed = (seed ^ Math.imul(size, 0x9e3779b1) ^ KIND_SALT[kind]) >>> 0;
    this.#next = seededUint32(mixed);
  }

  /** A fresh token of `length` characters, distinct from every other this source drew. */
  unique(length: number): string {
    for (;;) {
      const token = this.any(length);
      if (!this.#used.has(token)) {
        this.#used.add(token);
        return token;
      }
    }
  }

  /** A token of `length` characters, repeats allowed. */
  any(length: number): string {
    let token = '';
    for (let index = 0; index < length; index++) token += ALPHABET[this.#next() % ALPHABET.length];
    return token;
  }
}
