/**
 * A small seeded pseudo-random generator (mulberry32) so a simulated household uses the same water on every run
 * with the same seed. Not for secrets: credentials come from node:crypto.
 */
export class Rng {
  private state: number;
  /** @param seed any integer; the same seed gives the same sequence. */
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Next value in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Uniform value in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
  /** Exponentially distributed value with the given mean (time between Poisson arrivals). */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }
}

/** Derives a 32-bit seed from a text (FNV-1a), e.g. to give each device of a fleet its own stream. */
export function seedFrom(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
