/** Reference data: auction houses, locations, categories, currencies and the four vocabularies. */
import { Type as t } from "@sinclair/typebox";
import { defineEndpoint, type Endpoint } from "../../http/endpoint";
import { DU } from "../../http/pricing";
import { T, type ListSpec } from "../../query/grammar";
import { AuctionHouseSchema, AuctionLocationList, CategorySchema, CurrencySchema, VocabularySchema } from "./model";
import * as service from "./service";

const byName = {
  fields: {},
  params: { name: { type: T.str(200), description: "case-insensitive substring of the name" } },
} satisfies ListSpec;
const count = (body: unknown[]) => body.length;
/** The operationId of each vocabulary's list. */
const VOCABULARY_OPERATIONS: Record<service.Vocabulary, string> = {
  materials: "listMaterials",
  substrates: "listSubstrates",
  surfaces: "listSurfaces",
  damages: "listDamages",
};
const name = (q: { params: { name?: string } }) => q.params.name;

export const referenceEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/v1/auction-houses",
    price: DU.spec(1),
    operationId: "listAuctionHouses",
    summary: "Auction houses",
    tag: "Reference",
    auth: "required",
    list: byName,
    response: { full: t.Array(AuctionHouseSchema) },
    records: count,
    handle: ({ deps, query }) => service.auctionHouses(deps.market, name(query)),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/auction-locations",
    price: DU.REFERENCE,
    operationId: "listAuctionLocations",
    summary: "Every known sale location",
    tag: "Reference",
    auth: "required",
    list: byName,
    response: { full: AuctionLocationList },
    records: count,
    handle: ({ deps, query }) => service.auctionLocations(deps.market, name(query)),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/categories",
    price: DU.spec(1),
    operationId: "listCategories",
    summary: "Category taxonomy",
    tag: "Reference",
    auth: "required",
    response: { full: t.Array(CategorySchema) },
    records: count,
    handle: ({ deps }) => service.categories(deps.market),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/currencies",
    price: DU.REFERENCE,
    operationId: "listCurrencies",
    summary: "Supported currencies (the preferred_currency values)",
    tag: "Reference",
    auth: "required",
    response: { full: t.Array(CurrencySchema) },
    records: count,
    handle: ({ deps }) => service.currencies(deps.market),
  }),
  ...service.VOCABULARIES.map((table) =>
    defineEndpoint({
      method: "GET",
      path: `/v1/${table}`,
      price: DU.REFERENCE,
      operationId: VOCABULARY_OPERATIONS[table],
      summary: `${table[0]!.toUpperCase()}${table.slice(1)} vocabulary`,
      tag: "Reference",
      auth: "required",
      list: byName,
      response: { full: t.Array(VocabularySchema) },
      records: count,
      handle: ({ deps, query }) => service.vocabulary(deps.market, table, name(query)),
    }),
  ),
];
