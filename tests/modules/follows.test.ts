/** Follow state table: POST 204, DELETE 204 idempotent, 0 DU, 404 for what the market lacks. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext, type TestContext } from "../helpers/app";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const followed = (kind: string) =>
  ctx.deps.account
    .query("SELECT target_id FROM follows WHERE kind = ? ORDER BY target_id")
    .all(kind)
    .map((r: any) => r.target_id);

for (const [plural, kind, table] of [
  ["artists", "artist", "artists"],
  ["artworks", "artwork", "artworks"],
  ["lots", "lot", "lots"],
  ["sales", "sale", "sales"],
] as const) {
  describe(`${plural} follow`, () => {
    test("follow: 204, no body, 0 DU; twice keeps one; unfollow twice: 204 both", async () => {
      const id = (ctx.deps.market.query(`SELECT id FROM ${table} ORDER BY id LIMIT 1 OFFSET 3`).get() as { id: number }).id;
      const a = await ctx.call(`/v1/${plural}/${id}/follow`, { method: "POST" });
      expect(a.status).toBe(204);
      expect(await a.text()).toBe("");
      expect(a.headers.get("X-Service-DataUnits")).toBe("0");
      expect((await ctx.call(`/v1/${plural}/${id}/follow`, { method: "POST" })).status).toBe(204);
      expect(followed(kind)).toEqual([id]);
      for (let i = 0; i < 2; i++) {
        const d = await ctx.call(`/v1/${plural}/${id}/follow`, { method: "DELETE" });
        expect(d.status).toBe(204);
        expect(d.headers.get("X-Service-DataUnits")).toBe("0");
      }
      expect(followed(kind)).toEqual([]);
    });

    test("following an unknown id is 404; a bad id 422; no key 401", async () => {
      expect((await ctx.call(`/v1/${plural}/999999999/follow`, { method: "POST" })).status).toBe(404);
      expect((await ctx.call(`/v1/${plural}/abc/follow`, { method: "POST" })).status).toBe(422);
      expect((await ctx.call(`/v1/${plural}/1/follow`, { method: "POST", key: null })).status).toBe(401);
      expect(followed(kind)).toEqual([]);
    });
  });
}
