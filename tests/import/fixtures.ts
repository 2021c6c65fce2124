/** Import directories written by the tests: a small hand-made one and a large generated one. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mulberry32 } from "../../src/market/random";

export const AS_OF = "2024-06-30";

export function writeManifest(dir: string, manifest: unknown = { format: "artmarket-import", version: 1, as_of: AS_OF }): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "manifest.json"), typeof manifest === "string" ? manifest : JSON.stringify(manifest));
}

export function writeJsonl(dir: string, name: string, rows: (object | string)[]): void {
  writeFileSync(join(dir, `${name}.jsonl`), rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");
}

/**
 * A large import: `lots` lots of `artists` artists (USD sales, so no FX file is needed), written
 * line by line. Each lot line carries `padding` characters in a field the format ignores, so the
 * file is much larger than what it stores: memory that grew with the file would show.
 */
export async function writeBigImport(dir: string, opts: { lots: number; artists: number; sales: number; padding: number }): Promise<number> {
  writeManifest(dir);
  const r = mulberry32(1);
  const houses = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `House ${i + 1}`, is_live: i < 3 }));
  writeJsonl(dir, "auction_houses", houses);
  writeJsonl(
    dir,
    "artists",
    Array.from({ length: opts.artists }, (_, i) => ({ id: i + 1, name: `Artist ${i + 1}`, nationality: "French", birth: 1900 + (i % 80) })),
  );
  const first = Date.parse("1990-01-01T00:00:00Z");
  const last = Date.parse(`${AS_OF}T00:00:00Z`);
  const saleDays: string[] = [];
  const sales = Array.from({ length: opts.sales }, (_, i) => {
    const t = first + Math.floor(((i + 0.5) / opts.sales) * (last - first));
    const day = new Date(t).toISOString().slice(0, 10);
    saleDays.push(day);
    return { id: i + 1, house_id: (i % 10) + 1, name: `Sale ${i + 1}`, location: "New York", start_datetime: `${day}T18:00:00Z`, status: "closed" };
  });
  writeJsonl(dir, "sales", sales);
  const artworks = Math.ceil(opts.lots / 2);
  const categories = ["Painting", "Works on paper", "Sculpture", "Prints and multiples", "Photography"];
  const works: string[] = [];
  for (let i = 1; i <= artworks; i++) {
    const artist = 1 + ((i * 7919) % opts.artists);
    works.push(
      JSON.stringify({
        id: i,
        artist_id: artist,
        title: `Work ${i}`,
        category: categories[i % categories.length],
        materials: ["oil"],
        substrate: "canvas",
        creation_year: 1930 + (i % 60),
        height_cm: 20 + (i % 100),
        width_cm: 30 + (i % 90),
        signed: i % 3 !== 0,
      }),
    );
  }
  writeFileSync(join(dir, "artworks.jsonl"), works.join("\n") + "\n");
  // Lots: each artwork offered twice, at sales far apart, sold at a price of the artist's level.
  const path = join(dir, "lots.jsonl");
  const sink = Bun.file(path).writer({ highWaterMark: 1 << 22 });
  const pad = "x".repeat(opts.padding);
  for (let id = 1; id <= opts.lots; id++) {
    const work = 1 + ((id - 1) >> 1);
    const second = (id - 1) & 1;
    const sale = 1 + Math.min(opts.sales - 1, Math.floor((second ? 0.5 + r() * 0.5 : r() * 0.5) * opts.sales));
    const level = 5000 * Math.exp((((work * 7919) % opts.artists) / opts.artists) * 3);
    const est = Math.round(level / 100) * 100;
    const sold = r() < 0.8;
    const hammer = Math.round((level * Math.exp(0.3 * (r() - 0.5))) / 10) * 10;
    sink.write(
      `${JSON.stringify({
        id,
        sale_id: sale,
        artwork_id: work,
        lot_num: String(id % 300),
        status: sold ? "sold" : "passed",
        estimate_min: est,
        estimate_max: Math.round(est * 1.5),
        ...(sold ? { hammer, premium: Math.round(hammer * 1.25) } : {}),
        source_comment: pad,
      })}\n`,
    );
  }
  await sink.end();
  return Bun.file(path).size;
}
