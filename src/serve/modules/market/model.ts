import { Type as t } from "@sinclair/typebox";

export const BENCHMARKS = ["SNP500", "GOLD", "DOW_JONES", "MSCI_WORLD_REAL_ESTATE", "BITCOIN_USD"] as const;

const Point = t.Object({ time: t.String({ format: "date", description: "the first day of the month" }), value: t.Number() });

export const GlobalArtIndexChartResponse = t.Object(
  {
    art_data: t.Array(Point, { description: "the global art index, monthly" }),
    finance_data: t.Array(
      t.Object({
        id: t.Union(
          BENCHMARKS.map((b) => t.Literal(b)),
          { description: "the benchmark asked for" },
        ),
        label: t.String({ description: "display name; the series of this service are synthetic and say so" }),
        data: t.Array(Point),
      }),
      { description: "one series per benchmark asked for, in the order asked" },
    ),
    rebased: t.Boolean({ description: "whether every series is rebased to 100 at base_time (addition to the spec)" }),
    base_time: t.Union([t.String({ format: "date" }), t.Null()], {
      description: "the first month every returned series has a value, where rebased series equal 100 (addition to the spec)",
    }),
  },
  { $id: "GlobalArtIndexChartResponse" },
);
