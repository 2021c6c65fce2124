/**
 * Similar artworks and search by image (docs/api-search.md). Both need a key whose plan includes
 * analytics (sandbox: 403), like the other vector and analytics reads.
 */
import { defineEndpoint, type Endpoint, type RequestContext } from "../../http/endpoint";
import { DU } from "../../http/pricing";
import { issue, ValidationFailed, type ValidationIssue } from "../../http/errors";
import { callerView } from "../../http/view";
import { embedImage } from "../../../images/embedding";
import { fetchCheckedImage } from "../../images/fetch";
import { checkUploadPart, MAX_UPLOAD_BYTES, UPLOAD_MEDIA_TYPES } from "../../images/upload";
import { loadSharp } from "../../../platform/native";
import { T } from "../../query/grammar";
import { MAX_EXCLUDED, SEARCH_LIMIT, SEARCH_QUERY, SHARED_PARAMS, SIMILAR_QUERY } from "./fields";
import { SearchByImageForm, SearchByImagePublicResponse, SearchByImageResponse, SimilarArtworksPublicResponse, SimilarArtworksResponse } from "./model";
import * as service from "./service";

const ANCHORS = ["image", "image_url", "collectable_id"] as const;
const SHARED_KEYS = Object.keys(SHARED_PARAMS);

/** A shared parameter from the form or the query string (422 when both carry it), with where it came from. */
function sharedParam(
  ctx: RequestContext<unknown, Record<string, unknown>, Readonly<Record<string, unknown>> | undefined>,
  name: string,
  issues: ValidationIssue[],
): { value: unknown; loc: (string | number)[] } | undefined {
  const inBody = ctx.body?.[name] !== undefined;
  const inQuery = ctx.url.searchParams.has(name);
  if (inBody && inQuery) {
    issues.push(issue.custom(["body", name], ctx.body?.[name], `${name} is given both in the query string and in the body; give it once`, "value_error"));
    return undefined;
  }
  if (inBody) return { value: ctx.body?.[name], loc: ["body", name] };
  if (inQuery) return { value: ctx.query.params[name], loc: ["query", name] };
  return undefined;
}

export const searchEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/v1/artworks/{artwork_id}/similar",
    price: DU.spec(10, 1.5),
    operationId: "listSimilarArtworks",
    summary: "Similar artworks",
    description:
      "The artworks whose images look most like this artwork's (cosine similarity of the image embeddings, docs/vectors.md), best first, the artwork itself left out. An artwork without an image has no neighbours: empty results. limit 1 to 100, default 20. A record is one result.",
    tag: "Artworks",
    auth: "required",
    entitlement: "analytics",
    pathParams: { artwork_id: T.int(1) },
    list: SIMILAR_QUERY,
    response: { full: SimilarArtworksResponse, public: SimilarArtworksPublicResponse },
    records: (body: { results: unknown[] }) => body.results.length,
    handle: (ctx) => service.similarArtworks(ctx.deps, callerView(ctx), ctx.params.artwork_id, ctx.query.params.limit),
  }),
  defineEndpoint({
    method: "POST",
    path: "/v1/artworks/search-by-image",
    price: DU.rule(10, 1.5),
    operationId: "searchArtworksByImage",
    summary: "Search artworks by image",
    description: [
      "Exactly one anchor: an uploaded file part `image` (JPEG, PNG, WebP, GIF or TIFF, at most 20 MiB and 64 megapixels), `image_url` (an http(s) address, fetched with a 10 s timeout, at most 3 redirects and 20 MiB), or `collectable_id` (one of the caller's collectables, by its image); none or several: 422.",
      "image_url, collectable_id, min_score, exclude_artwork_id__in and limit may be form fields or query parameters (not both); the pool filters (the artwork list's artist, category, materials, price, measurements, size, creation year, last sale, without_editions…) and preferred_currency are query parameters. The pool filters narrow the candidates and never change the order: results are by score (cosine similarity), highest first.",
      `limit 1 to ${SEARCH_LIMIT.max}, default ${SEARCH_LIMIT.default}. A non-image upload is 422 (image_type), an oversized one 413, an unusable image or address 422, another user's or an unknown collectable 404.`,
    ].join("\n\n"),
    tag: "Artworks",
    auth: "required",
    entitlement: "analytics",
    list: SEARCH_QUERY,
    form: {
      fields: SearchByImageForm,
      files: { image: { description: "the query picture (anchor)", accept: UPLOAD_MEDIA_TYPES } },
      maxBytes: MAX_UPLOAD_BYTES + 1024 * 1024,
    },
    response: { full: SearchByImageResponse, public: SearchByImagePublicResponse },
    records: (body: { results: unknown[] }) => body.results.length,
    handle: async (ctx) => {
      const issues: ValidationIssue[] = [];
      const got = Object.fromEntries(SHARED_KEYS.map((name) => [name, sharedParam(ctx, name, issues)] as const).filter(([, v]) => v !== undefined)) as Record<
        string,
        { value: unknown; loc: (string | number)[] }
      >;
      const image = ctx.files.image;
      const given = ANCHORS.filter((a) => (a === "image" ? image !== undefined : got[a] !== undefined));
      if (given.length === 0 && issues.length === 0) {
        issues.push({
          loc: ["body"],
          msg: "Give exactly one anchor: an image file, image_url or collectable_id",
          type: "missing",
          input: null,
          ctx: { anchors: [...ANCHORS] },
        });
      } else if (given.length > 1) {
        for (const a of given) {
          const at = a === "image" ? ["body", "image"] : got[a]!.loc;
          const input = a === "image" ? image!.name : got[a]!.value;
          issues.push(
            issue.custom(at, input, `Give exactly one anchor: an image file, image_url or collectable_id (got ${given.join(", ")})`, "value_error", { anchors: [...given] }),
          );
        }
      }
      const exclude = (got.exclude_artwork_id__in?.value as number[] | undefined) ?? [];
      if (exclude.length > MAX_EXCLUDED) issues.push(issue.tooMany(got.exclude_artwork_id__in!.loc, exclude, MAX_EXCLUDED));
      if (issues.length) throw new ValidationFailed(issues);

      const sharp = loadSharp(ctx.deps.config.dataDir);
      let query: Float32Array;
      if (image) {
        await checkUploadPart(image, sharp);
        query = await embedImage(sharp, image.bytes);
      } else if (got.image_url) {
        const checked = await fetchCheckedImage(got.image_url.value as string, sharp, got.image_url.loc, { allow: ctx.deps.config.fetchAllow ?? [] });
        query = await embedImage(sharp, checked.bytes);
      } else {
        query = service.collectableAnchor(ctx.deps, ctx.caller?.userId ?? 0, got.collectable_id!.value as number, got.collectable_id!.loc);
      }
      return service.searchByVector(ctx.deps, callerView(ctx), query, {
        limit: (got.limit?.value as number | undefined) ?? SEARCH_LIMIT.default,
        minScore: got.min_score?.value as number | undefined,
        exclude,
        pool: ctx.query,
      });
    },
  }),
];
