/**
 * Stored JSON documents (artist_analytics.body): JSON compressed with zstd at level 1. The
 * per-artist documents repeat their keys, dates and zeros, so they shrink about fivefold
 * (docs/history/benchmarks.md#full-scale-measured-before-2-cores-seed-1986) and cost a few µs of CPU each way. A body stored as text (a market
 * built before this format) is read as plain JSON.
 */
export function packDocument(value: unknown): Uint8Array {
  return Bun.zstdCompressSync(Buffer.from(JSON.stringify(value)), { level: 1 });
}

export function unpackDocument(body: string | Uint8Array): unknown {
  return JSON.parse(typeof body === "string" ? body : Bun.zstdDecompressSync(body).toString("utf8"));
}
