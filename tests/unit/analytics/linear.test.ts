/** Normal equations and Cholesky: small systems solved by hand. */
import { describe, expect, test } from "bun:test";
import { choleskyFactor, choleskySolve, inverseDiagonal, NormalEquations, NotPositiveDefiniteError } from "../../../src/analytics/linear";

describe("choleskySolve", () => {
  test("2×2", () => {
    // A = [[4,2],[2,3]], det 8, A⁻¹ = [[3,−2],[−2,4]]/8; b = (2,1) → x = (6−2, −4+4)/8 = (0.5, 0)
    const x = choleskySolve(new Float64Array([4, 2, 2, 3]), new Float64Array([2, 1]), 2);
    expect(x[0]).toBeCloseTo(0.5, 14);
    expect(x[1]).toBeCloseTo(0, 14);
  });
  test("3×3 with the textbook factor", () => {
    // A = [[4,12,−16],[12,37,−43],[−16,−43,98]] = L·Lᵀ with L = [[2,0,0],[6,1,0],[−8,5,3]]
    const A = new Float64Array([4, 12, -16, 12, 37, -43, -16, -43, 98]);
    const L = choleskyFactor(A.slice(), 3);
    expect([L[0], L[3], L[4], L[6], L[7], L[8]].map((v) => Math.round(v! * 1e12) / 1e12)).toEqual([2, 6, 1, -8, 5, 3]);
    // b = A·(1,1,1) = (0, 6, 39) → x = (1,1,1)
    const x = choleskySolve(A, new Float64Array([0, 6, 39]), 3);
    for (const v of x) expect(v).toBeCloseTo(1, 10);
    expect(A[0]).toBe(4); // input untouched
    // (A⁻¹)₀₀ = (37·98 − 43²)/det = 1777/36, det = (2·1·3)² = 36
    expect(inverseDiagonal(L, 3)[0]).toBeCloseTo(1777 / 36, 9);
  });
  test("not positive definite → NotPositiveDefiniteError", () => {
    // [[1,2],[2,1]] has eigenvalues 3 and −1
    expect(() => choleskySolve(new Float64Array([1, 2, 2, 1]), new Float64Array([1, 1]), 2)).toThrow(NotPositiveDefiniteError);
  });
});

describe("NormalEquations", () => {
  test("exact line y = 1 + 2x", () => {
    const ne = new NormalEquations(2);
    for (const x of [0, 1, 2, 3]) ne.add([1, x], 1 + 2 * x);
    const b = ne.solve();
    expect(b[0]).toBeCloseTo(1, 10);
    expect(b[1]).toBeCloseTo(2, 10);
    expect(ne.residualVariance()).toBeCloseTo(0, 9);
  });
  test("least squares line through (0,1) (1,3) (2,2)", () => {
    // x̄ = 1, ȳ = 2, Sxy = (−1)(−1) + 0 + (1)(0) = 1, Sxx = 2 → slope 0.5, intercept 1.5;
    // residuals −0.5, 1, −0.5 → RSS 1.5, n − k = 1 → σ̂² = 1.5
    const ne = new NormalEquations(2);
    ne.add([1, 0], 1);
    ne.add([1, 1], 3);
    ne.add([1, 2], 2);
    const b = ne.solve();
    expect(b[0]).toBeCloseTo(1.5, 12);
    expect(b[1]).toBeCloseTo(0.5, 12);
    expect(ne.residualSumOfSquares()).toBeCloseTo(1.5, 12);
    expect(ne.residualVariance()).toBeCloseTo(1.5, 12);
  });
  test("a weight of 2 equals the row added twice; addSparse equals add", () => {
    const a = new NormalEquations(3);
    const b = new NormalEquations(3);
    const c = new NormalEquations(3);
    a.add([1, 0, 2], 5, 2);
    b.add([1, 0, 2], 5);
    b.add([1, 0, 2], 5);
    c.addSparse([2, 0], [2, 1], 5, 2);
    for (const ne of [a, b, c]) {
      ne.add([1, 1, 0], 1);
      ne.add([0, 1, 1], 2);
      ne.add([1, 1, 1], 4);
    }
    const ba = a.solve();
    const bb = b.solve();
    const bc = c.solve();
    for (let i = 0; i < 3; i++) {
      expect(ba[i]).toBeCloseTo(bb[i]!, 10);
      expect(bc[i]).toBeCloseTo(bb[i]!, 10);
    }
  });
  test("ridge", () => {
    // one feature x = 1, y = 2 and 4: XᵀX = 2, Xᵀy = 6 → OLS 3; ridge 1 → 6 / (2 + 1) = 2
    const ne = new NormalEquations(1);
    ne.add([1], 2);
    ne.add([1], 4);
    expect(ne.solve()[0]).toBeCloseTo(3, 12);
    expect(ne.solve(1)[0]).toBeCloseTo(2, 12);
  });
  test("penalty matrix", () => {
    // indicator features: (1,0)→0 and (0,1)→2, penalty (β₁ − β₀)² = [[1,−1],[−1,1]];
    // [[2,−1],[−1,2]]·β = (0,2) → β = [[2,1],[1,2]]/3 · (0,2) = (2/3, 4/3)
    const ne = new NormalEquations(2);
    ne.add([1, 0], 0);
    ne.add([0, 1], 2);
    const b = ne.solve(0, new Float64Array([1, -1, -1, 1]));
    expect(b[0]).toBeCloseTo(2 / 3, 12);
    expect(b[1]).toBeCloseTo(4 / 3, 12);
  });
  test("unidentified feature: fallback ridge sets it to ~0, or a clear error", () => {
    const ne = new NormalEquations(2);
    ne.add([1, 0], 3);
    ne.add([1, 0], 5);
    const b = ne.solve();
    expect(b[0]).toBeCloseTo(4, 6);
    expect(b[1]).toBe(0);
    expect(ne.lastRidge).toBeGreaterThan(0);
    expect(() => ne.solve(0, undefined, false)).toThrow(/not positive definite/);
  });
});
