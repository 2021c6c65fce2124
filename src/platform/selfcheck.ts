/**
 * `artmarket doctor`: proves the native parts work in this build (from source or compiled):
 * sqlite-vec answers a KNN query, argon2 hashes and verifies, sharp renders an image.
 */
import { Database } from "bun:sqlite";
import { hash, verify } from "@node-rs/argon2";
import { BUILD_ID, isCompiled, loadSharp, loadSqliteVec } from "./native";

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

/** Width of the PNG the sharp check renders and decodes again. */
const SHARP_WIDTH = 240;

export async function selfCheck(dataDir: string): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const run = async (name: string, fn: () => Promise<string> | string) => {
    try {
      results.push({ name, ok: true, detail: await fn() });
    } catch (err) {
      results.push({ name, ok: false, detail: err instanceof Error ? err.message : String(err) });
    }
  };
  await run("build", () => `${BUILD_ID} (${isCompiled ? "compiled binary" : "from source"})`);
  await run("sqlite-vec", () => {
    const db = new Database(":memory:");
    try {
      loadSqliteVec(db, dataDir);
      const v = db.query<{ v: string }, []>("SELECT vec_version() AS v").get()!.v;
      db.run("CREATE VIRTUAL TABLE t USING vec0(e float[3])");
      const insert = db.prepare("INSERT INTO t(rowid, e) VALUES (?, ?)");
      insert.run(1, "[1, 0, 0]");
      insert.run(2, "[0, 1, 0]");
      insert.run(3, "[0, 0, 1]");
      const near = db.query<{ rowid: number }, [string]>("SELECT rowid FROM t WHERE e MATCH ? ORDER BY distance LIMIT 1").get("[0.1, 0.9, 0]");
      if (near?.rowid !== 2) throw new Error(`KNN query returned row ${near?.rowid}, expected 2`);
      return `${v}, KNN ok`;
    } finally {
      db.close();
    }
  });
  await run("argon2", async () => {
    const options = { algorithm: 2 /* argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
    const digest = await hash("artmarket doctor", options);
    if (!(await verify(digest, "artmarket doctor"))) throw new Error("verify rejected the password it hashed");
    if (await verify(digest, "another password")) throw new Error("verify accepted a wrong password");
    return `argon2id hash + verify ok (${digest.split("$").slice(1, 3).join(" ")})`;
  });
  await run("sharp", async () => {
    const sharp = loadSharp(dataDir);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#c33"/><circle cx="60" cy="40" r="30" fill="#36c"/></svg>`;
    const png = await sharp(Buffer.from(svg)).resize({ width: SHARP_WIDTH }).png().toBuffer();
    const meta = await sharp(png).metadata();
    if (meta.format !== "png" || meta.width !== SHARP_WIDTH) throw new Error(`rendered ${meta.format} ${meta.width}x${meta.height}, expected a ${SHARP_WIDTH}-px-wide png`);
    return `libvips ${sharp.versions.vips}, svg -> png ${meta.width}x${meta.height} ok`;
  });
  return results;
}
