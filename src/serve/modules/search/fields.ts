/**
 * Parameters of similar artworks and search by image. The pool filters of search by image are the
 * artwork list's own declarations (src/serve/modules/artworks/fields.ts), minus the ones that pick
 * records rather than narrow a pool (id, uid) and the upcoming-sale filters; their SQL is the
 * list's too (artworkWhere), so a filter means the same in both places.
 */
import { T, type FieldDecl, type ListSpec, type ParamDecl } from "../../query/grammar";
import { PREFERRED_CURRENCY } from "../../query/params";
import { ARTWORK_FIELDS, ARTWORK_PARAMS } from "../artworks/fields";

export const SIMILAR_LIMIT = { default: 20, max: 100 };
export const SEARCH_LIMIT = { default: 50, max: 200 };
/** At most this many ids in exclude_artwork_id__in. */
export const MAX_EXCLUDED = 1000;

/** Artwork-list filters that do not narrow a search pool. */
const NOT_POOL = new Set(["id", "uid", "sale_auction_house_id", "sale_start_datetime"]);

export const POOL_FIELDS: Readonly<Record<string, FieldDecl>> = Object.fromEntries(Object.entries(ARTWORK_FIELDS).filter(([name]) => !NOT_POOL.has(name)));

/** Metadata columns of the image index: these filters narrow the IVF scan itself. */
export const INDEX_FILTERS = ["artist_id", "category_id"] as const;

export const SIMILAR_QUERY = {
  fields: {},
  params: {
    preferred_currency: PREFERRED_CURRENCY,
    limit: { type: T.int(1, SIMILAR_LIMIT.max), default: SIMILAR_LIMIT.default, description: `neighbours returned, 1 to ${SIMILAR_LIMIT.max} (default ${SIMILAR_LIMIT.default})` },
  },
} satisfies ListSpec;

/** Parameters that may come in the query string or as form fields (not both). */
export const SHARED_PARAMS: Readonly<Record<string, ParamDecl>> = {
  image_url: { type: T.str(2048), description: "anchor: an http(s) address of the query picture (exactly one of image, image_url, collectable_id)" },
  collectable_id: { type: T.int(1), description: "anchor: one of the caller's own collectables, by its image (exactly one of image, image_url, collectable_id)" },
  min_score: { type: T.num(0, 1), description: "leave out results whose score (cosine similarity) is below this" },
  exclude_artwork_id__in: { type: T.int(1), many: true, description: `artworks never returned (repeat or comma-separate; at most ${MAX_EXCLUDED})` },
  limit: { type: T.int(1, SEARCH_LIMIT.max), default: SEARCH_LIMIT.default, description: `results returned, 1 to ${SEARCH_LIMIT.max} (default ${SEARCH_LIMIT.default})` },
};

export const SEARCH_QUERY: ListSpec = {
  fields: POOL_FIELDS,
  params: {
    ...SHARED_PARAMS,
    without_editions: ARTWORK_PARAMS!.without_editions!,
    preferred_currency: PREFERRED_CURRENCY,
  },
};
