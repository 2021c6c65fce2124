/**
 * Search responses: SearchByImageResponse as the spec gives it (results: [{score, artwork}] by score
 * descending), and the same shape for similar artworks with the anchor's id. The artwork objects
 * are the artwork module's (ArtworkSchema, or ArtworkPublicSchema for a public-schema plan).
 */
import { Type as t, type TSchema } from "@sinclair/typebox";
import { ArtworkPublicSchema, ArtworkSchema } from "../artworks/model";
import { SEARCH_LIMIT, SHARED_PARAMS, MAX_EXCLUDED } from "./fields";

const score = t.Number({ description: "cosine similarity of the image embeddings, -1 to 1 (1: the same picture), 6 decimals" });

const result = (artwork: TSchema, $id: string) => t.Object({ score, artwork }, { $id });

export const SearchResultSchema = result(ArtworkSchema, "SearchResultSchema");
export const SearchResultPublicSchema = result(ArtworkPublicSchema, "SearchResultPublicSchema");

const results = (item: TSchema) => t.Array(item, { description: "ordered by score, highest first (ties by artwork id)" });

export const SearchByImageResponse = t.Object({ results: results(SearchResultSchema) }, { $id: "SearchByImageResponse" });
export const SearchByImagePublicResponse = t.Object({ results: results(SearchResultPublicSchema) }, { $id: "SearchByImagePublicResponse" });

export const SimilarArtworksResponse = t.Object(
  { artwork_id: t.Integer({ description: "the artwork the neighbours are of" }), results: results(SearchResultSchema) },
  { $id: "SimilarArtworksResponse" },
);
export const SimilarArtworksPublicResponse = t.Object({ artwork_id: t.Integer(), results: results(SearchResultPublicSchema) }, { $id: "SimilarArtworksPublicResponse" });

/** The form fields of search by image (the same names may come in the query string instead). */
export const SearchByImageForm = t.Object({
  image_url: t.Optional(t.String({ minLength: 1, maxLength: 2048, description: SHARED_PARAMS.image_url!.description })),
  collectable_id: t.Optional(t.Integer({ minimum: 1, description: SHARED_PARAMS.collectable_id!.description })),
  min_score: t.Optional(t.Number({ minimum: 0, maximum: 1, description: SHARED_PARAMS.min_score!.description })),
  exclude_artwork_id__in: t.Optional(t.Array(t.Integer({ minimum: 1 }), { maxItems: MAX_EXCLUDED, description: "artworks never returned (repeat the field or comma-separate)" })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: SEARCH_LIMIT.max, description: SHARED_PARAMS.limit!.description })),
});
