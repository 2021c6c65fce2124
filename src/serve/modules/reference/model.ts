import { Type as t } from "@sinclair/typebox";

export const AuctionHouseSchema = t.Object(
  {
    id: t.Integer(),
    name: t.String(),
    slug: t.String(),
    priority_order: t.Integer({ description: "1 is the highest priority; the seven top houses come first" }),
    is_live: t.Boolean({ description: "whether the house runs live sales" }),
    results_as_of: t.Union([t.String({ format: "date" }), t.Null()], {
      description:
        "the day (UTC) of the latest result the market holds for the house: the latest sale day of a lot sold, passed or withdrawn in a sale held or under way; null when it holds none",
    }),
  },
  { $id: "AuctionHouseSchema" },
);

export const VocabularySchema = t.Object(
  { id: t.Integer(), name: t.String(), label: t.String() },
  { $id: "VocabularyItemSchema", description: "A material, substrate, surface or damage term" },
);

export const CategorySchema = t.Object({ id: t.Integer(), name: t.String() }, { $id: "CategorySchema" });

export const CurrencySchema = t.Object({ code: t.String({ description: "ISO 4217 code" }), name: t.String(), symbol: t.String() }, { $id: "CurrencySchema" });

export const AuctionLocationList = t.Array(t.String({ description: "a sale location, usable as a sale_location filter value" }));
