import { expect, test } from "bun:test";
import { RecentMap } from "../../src/platform/recent";

test("RecentMap keeps the most recently used, hands the dropped value over", () => {
  const dropped: string[] = [];
  const m = new RecentMap<string, string>(2, (v) => dropped.push(v));
  m.set("a", "A");
  m.set("b", "B");
  expect(m.get("a")).toBe("A"); // a is now the most recent
  m.set("c", "C"); // b goes
  expect(dropped).toEqual(["B"]);
  expect(m.get("b")).toBeUndefined();
  expect([m.get("a"), m.get("c")]).toEqual(["A", "C"]);
  m.set("a", "A2"); // a written again: no drop
  expect(dropped).toEqual(["B"]);
  expect(m.get("a")).toBe("A2");
});
