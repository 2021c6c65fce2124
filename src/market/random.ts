/** A small, fast, seedable PRNG (sfc32) so that the same seed always builds the same market. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** The generator's state, to go on with the same stream elsewhere (Random.resume). */
  state(): [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }

  /** Goes on from `state` (from Random.state, maybe taken on another thread). */
  restore(state: readonly [number, number, number, number]): this {
    [this.a, this.b, this.c, this.d] = state;
    return this;
  }

  /** A generator that goes on from `state`. */
  static resume(state: readonly [number, number, number, number]): Random {
    return new Random(0).restore(state);
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Poisson(λ) by inversion (λ small, as used here). */
  poisson(lambda: number): number {
    const l = Math.exp(-lambda);
    let k = 0;
    let p = this.next();
    while (p > l) {
      k++;
      p *= this.next();
    }
    return k;
  }

  /** Normal with mean and standard deviation. */
  gauss(mean: number, sd: number): number {
    return mean + sd * this.normal();
  }
}

/**
 * mulberry32: a one-word seedable generator, uniform in [0, 1). For draws outside the market's own
 * stream (the vector index's k-means sample and centroids, test and benchmark data).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
