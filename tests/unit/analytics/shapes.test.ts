/** Analytics shapes: lot outcome, sales volume, career path. */
import { describe, expect, test } from "bun:test";
import { careerPath, lotOutcome, salesVolume } from "../../../src/analytics/shapes";

describe("lotOutcome", () => {
  test("sold against the estimate (bounds inclusive)", () => {
    expect(lotOutcome("sold", 150, 80, 120)).toBe("above");
    expect(lotOutcome("sold", 120, 80, 120)).toBe("within");
    expect(lotOutcome("sold", 80, 80, 120)).toBe("within");
    expect(lotOutcome("sold", 79, 80, 120)).toBe("below");
    expect(lotOutcome("sold", 100, 120, 80)).toBe("within"); // swapped bounds
    expect(lotOutcome("sold", 100, null, 90)).toBe("above"); // one bound: a point estimate
    expect(lotOutcome("sold", 100, 110, null)).toBe("below");
  });
  test("not sold, not counted", () => {
    expect(lotOutcome("passed", null, 80, 120)).toBe("not_sold");
    expect(lotOutcome("withdrawn", null, 80, 120)).toBeNull();
    expect(lotOutcome("upcoming", null, 80, 120)).toBeNull();
    expect(lotOutcome("unknown", 100, 80, 120)).toBeNull();
    expect(lotOutcome("sold", null, 80, 120)).toBeNull(); // no hammer
    expect(lotOutcome("sold", 100, null, null)).toBeNull(); // no estimate
  });
});

describe("salesVolume", () => {
  test("yearly, contiguous, overall first, same dates everywhere", () => {
    const got = salesVolume([
      { date: "2019-03-01", categoryId: 2, outcome: "above" },
      { date: "2019-11-30", categoryId: 1, outcome: "within" },
      { date: "2019-12-31", categoryId: 1, outcome: "not_sold" },
      { date: "2021-06-15", categoryId: 2, outcome: "below" },
      { date: "2021-01-01", categoryId: 2, outcome: "below" },
    ]);
    const dates = ["2019-01-01", "2020-01-01", "2021-01-01"]; // 2020 has no lots: zeros
    expect(got).toEqual([
      { category_id: null, dates, lots_above_estimate: [1, 0, 0], lots_within_estimate: [1, 0, 0], lots_below_estimate: [0, 0, 2], lots_not_sold: [1, 0, 0] },
      { category_id: 1, dates, lots_above_estimate: [0, 0, 0], lots_within_estimate: [1, 0, 0], lots_below_estimate: [0, 0, 0], lots_not_sold: [1, 0, 0] },
      { category_id: 2, dates, lots_above_estimate: [1, 0, 0], lots_within_estimate: [0, 0, 0], lots_below_estimate: [0, 0, 2], lots_not_sold: [0, 0, 0] },
    ]);
  });
  test("no lots → the overall item with empty arrays", () => {
    expect(salesVolume([])).toEqual([{ category_id: null, dates: [], lots_above_estimate: [], lots_within_estimate: [], lots_below_estimate: [], lots_not_sold: [] }]);
  });
});

describe("careerPath", () => {
  const works = [
    { creationYear: 1899, medium: "oil", valueUsd: 1000 }, // before birth → out
    { creationYear: 1900, medium: "oil", valueUsd: 100 },
    { creationYear: 1902, medium: "oil", valueUsd: null },
    { creationYear: 1902, medium: "bronze", valueUsd: 500 },
    { creationYear: 1951, medium: "bronze", valueUsd: 9000 }, // after death → out
    { creationYear: null, medium: "oil", valueUsd: 50 }, // no year → out
  ];
  test("count: per medium, shared contiguous years 1900..1902, larger total first", () => {
    expect(careerPath(works, 1900, 1950, false)).toEqual([
      {
        medium: "oil",
        points: [
          { year: 1900, value: 1 },
          { year: 1901, value: 0 },
          { year: 1902, value: 1 },
        ],
      },
      {
        medium: "bronze",
        points: [
          { year: 1900, value: 0 },
          { year: 1901, value: 0 },
          { year: 1902, value: 1 },
        ],
      },
    ]);
  });
  test("weighted by value: a null value adds 0; bronze (500) now before oil (100)", () => {
    expect(careerPath(works, 1900, 1950, true)).toEqual([
      {
        medium: "bronze",
        points: [
          { year: 1900, value: 0 },
          { year: 1901, value: 0 },
          { year: 1902, value: 500 },
        ],
      },
      {
        medium: "oil",
        points: [
          { year: 1900, value: 100 },
          { year: 1901, value: 0 },
          { year: 1902, value: 0 },
        ],
      },
    ]);
  });
  test("unknown birth and death: nothing is cut; nothing kept → []", () => {
    const got = careerPath(works, null, null, false);
    expect(got[0]!.points[0]).toEqual({ year: 1899, value: 1 });
    expect(got.find((m) => m.medium === "bronze")!.points.at(-1)).toEqual({ year: 1951, value: 1 });
    expect(careerPath([], 1900, 1950, false)).toEqual([]);
    expect(careerPath(works, 1960, null, false)).toEqual([]);
  });
});
