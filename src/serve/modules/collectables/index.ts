/**
 * The collectables area: each user's own collection (docs/api-collectables.md). Every route needs a
 * key and acts on the caller's records only: another user's collectable (or a child of it) is 404,
 * exactly like one that does not exist. Reads cost 1 + 1 per record returned, writes 1.
 */
import { defineEndpoint, type Endpoint, type RequestContext } from "../../http/endpoint";
import { DU } from "../../http/pricing";
import type { Caller } from "../../accounts/keys";
import type { TObject, TSchema } from "@sinclair/typebox";
import { UPLOAD_MEDIA_TYPES, checkUploadPart } from "../../images/upload";
import { loadSharp } from "../../../platform/native";
import { T, type IntType } from "../../query/grammar";
import { AS_OF, historicalDay } from "../../query/params";
import { COLLECTABLE_LIST } from "./fields";
import {
  AcquiredSchema,
  AcquiredUpdateInput,
  AppraisalCreateInput,
  AppraisalList,
  AppraisalSchema,
  AppraisalUpdateInput,
  CollectableCreateForm,
  CollectableSaleCreateInput,
  CollectableSaleList,
  CollectableSaleSchema,
  CollectableSaleUpdateInput,
  CollectableSchema,
  CollectablesListResponse,
  CollectableUpdateInput,
  CompSetInput,
  CompSetSchema,
  DeletedSchema,
  ImageForm,
  MAX_COMPS,
  ProvenanceCreateInput,
  ProvenanceList,
  ProvenanceSchema,
  ProvenanceUpdateInput,
} from "./model";
import * as service from "./service";

const TAG = "Collectables";
const BASE = "/v1/collectables/{collectable_id}";
const idParam = { collectable_id: T.int(1) };
const common = { tag: TAG, auth: "required", entitlement: "collectables" } as const;
const one = () => 1;
const many = (body: unknown[]) => body.length;
/** Every collectables route is auth "required": its handler always has a caller. */
const user = (ctx: { readonly caller: Caller }) => ctx.caller.userId;

/** The image part of a form, checked (type, size, pixels) and stored with its embedding; null without one. */
async function uploadedImage(ctx: RequestContext<unknown>): Promise<service.StoredImage | null> {
  const part = ctx.files.image;
  if (!part) return null;
  const checked = await checkUploadPart(part, loadSharp(ctx.deps.config.dataDir));
  return service.storeImage(ctx.deps, checked.bytes, checked.width, checked.height);
}

/** The list, add, update and remove routes of one kind of child. */
function childEndpoints(
  name: service.ChildName,
  param: string,
  words: { one: string; many: string },
  schemas: { item: TSchema; list: TSchema; create: TObject; update: TObject },
  /** The operationIds of the list, add, update and remove routes. */
  ids: { list: string; add: string; update: string; remove: string },
): Endpoint[] {
  const itemPath = `${BASE}/${name}/{${param}}`;
  const childParams: typeof idParam & Record<string, IntType> = { ...idParam, [param]: T.int(1) };
  return [
    defineEndpoint({
      ...common,
      method: "GET",
      price: DU.COLLECTABLE_READ,
      path: `${BASE}/${name}`,
      operationId: ids.list,
      summary: `List a collectable's ${words.many}`,
      description: `A JSON array${name === "provenance" ? ", in the order added" : ", oldest date first"}. 1 DU + 1 per entry.`,
      pathParams: idParam,
      response: { full: schemas.list },
      records: many,
      handle: (ctx) => service.listChildren(ctx.deps, user(ctx), ctx.params.collectable_id, name),
    }),
    defineEndpoint({
      ...common,
      method: "POST",
      price: DU.WRITE,
      path: `${BASE}/${name}`,
      operationId: ids.add,
      summary: `Add ${words.one}`,
      description:
        name === "provenance"
          ? "Returns the entry created. year_from must not be after year_to."
          : "Returns the entry created, with value_usd at the reference rate of its date. currency defaults to USD; an unknown currency is 422.",
      pathParams: idParam,
      body: schemas.create,
      response: { full: schemas.item },
      handle: (ctx) => service.addChild(ctx.deps, user(ctx), ctx.params.collectable_id, name, ctx.body),
    }),
    defineEndpoint({
      ...common,
      method: "PATCH",
      price: DU.WRITE,
      path: itemPath,
      operationId: ids.update,
      summary: `Update ${words.one}`,
      description: "Only the fields sent change; null clears a nullable field; unknown fields are 422.",
      pathParams: childParams,
      body: schemas.update,
      response: { full: schemas.item },
      handle: (ctx) => service.updateChild(ctx.deps, user(ctx), ctx.params.collectable_id, name, ctx.params[param]!, ctx.body),
    }),
    defineEndpoint({
      ...common,
      method: "DELETE",
      price: DU.WRITE,
      path: itemPath,
      operationId: ids.remove,
      summary: `Remove ${words.one}`,
      description: "200 {id, deleted: true}; removing it again is 404 (it no longer exists).",
      pathParams: childParams,
      response: { full: DeletedSchema },
      handle: (ctx) => {
        service.deleteChild(ctx.deps, user(ctx), ctx.params.collectable_id, name, ctx.params[param]!);
        return { id: ctx.params[param]!, deleted: true as const };
      },
    }),
  ];
}

export const collectableEndpoints: Endpoint[] = [
  defineEndpoint({
    ...common,
    method: "GET",
    price: DU.COLLECTABLE_READ,
    path: "/v1/collectables",
    operationId: "listCollectables",
    summary: "List the caller's collectables",
    description:
      "Filters: artist_id, category_id (exact or __in), artist_name__ilike, title__ilike, value__gte / value__lte (the value in effect, USD), creation_year (exact, __gte, __lte), edition_unique_type, created_at__gte / __lte. sort: CREATED_AT, VALUE, ARTIST_NAME, TITLE or CREATION_YEAR with _ASC or _DESC (default CREATED_AT_DESC; records without a value or year last). limit default 20, max 100. 1 DU + 1 per item.",
    list: COLLECTABLE_LIST,
    response: { full: CollectablesListResponse },
    records: (body: { items: unknown[] }) => body.items.length,
    handle: (ctx) => service.listCollectables(ctx.deps, user(ctx), ctx.query, ctx.origin),
  }),
  defineEndpoint({
    ...common,
    method: "POST",
    price: DU.WRITE,
    path: "/v1/collectables",
    operationId: "createCollectable",
    summary: "Create a collectable",
    description:
      "multipart/form-data: artist_id, category_id, edition_unique_type (unique or edition), optional suggested_artwork_id (a market artwork: seeds title, creation year, measurements, materials, substrate, edition data and image), optionally any field of CollectableUpdateInput by its flat name (overrides the seeds; id lists repeated or comma-separated), optional image file (JPEG, PNG, WebP, GIF or TIFF; replaces the seeded image). Returns the created CollectableSchema: without suggested_artwork_id, an image that closely matches a market artwork gives suggested_matches (a suggestion to link with PATCH, never linked by itself). 1 DU, whatever the image. Unknown reference ids are 422.",
    form: {
      fields: CollectableCreateForm,
      files: { image: { required: false, accept: UPLOAD_MEDIA_TYPES, description: "the work's image" } },
    },
    response: { full: CollectableSchema },
    handle: async (ctx) => {
      const input = ctx.body as service.CreateInput;
      const seed = service.checkCreate(ctx.deps, input);
      const image = await uploadedImage(ctx);
      try {
        return service.createCollectable(ctx.deps, user(ctx), input, seed, image, ctx.origin);
      } catch (err) {
        service.removeImage(ctx.deps, image?.key);
        throw err;
      }
    },
  }),
  defineEndpoint({
    ...common,
    method: "GET",
    price: DU.COLLECTABLE_READ,
    path: BASE,
    operationId: "getCollectable",
    summary: "One collectable",
    description:
      "The full CollectableSchema with its acquisition, appraisals, provenance and private sales. 1 DU + 1 (one record). With as_of=YYYY-MM-DD, machine_estimated_price (and current_estimated_price when it is the machine's) is valued on the market's estimates of that day; the user's own entries are as they are now. A day before the first snapshot the service kept is 422.",
    pathParams: idParam,
    list: { fields: {}, params: { as_of: AS_OF } },
    response: { full: CollectableSchema },
    records: one,
    handle: (ctx) => service.getCollectable(ctx.deps, user(ctx), ctx.params.collectable_id, ctx.origin, historicalDay(ctx.deps.market, ctx.query.params.as_of, ctx.deps.asOf)),
  }),
  defineEndpoint({
    ...common,
    method: "PATCH",
    price: DU.WRITE,
    path: BASE,
    operationId: "updateCollectable",
    summary: "Update a collectable",
    description:
      "CollectableUpdateInput: only the fields sent change; null clears a nullable field; unknown fields, wrong types and unknown reference ids are 422 and change nothing. Returns the updated record.",
    pathParams: idParam,
    body: CollectableUpdateInput,
    response: { full: CollectableSchema },
    handle: (ctx) => service.updateCollectable(ctx.deps, user(ctx), ctx.params.collectable_id, ctx.body, ctx.origin),
  }),
  defineEndpoint({
    ...common,
    method: "DELETE",
    price: DU.WRITE,
    path: BASE,
    operationId: "deleteCollectable",
    summary: "Delete a collectable",
    description:
      "Removes the record with its acquisition, appraisals, provenance, private sales, comp set and image, in one transaction. 200 {id, deleted: true}; deleting it again is 404.",
    pathParams: idParam,
    response: { full: DeletedSchema },
    handle: (ctx) => {
      service.deleteCollectable(ctx.deps, user(ctx), ctx.params.collectable_id);
      return { id: ctx.params.collectable_id, deleted: true as const };
    },
  }),
  defineEndpoint({
    ...common,
    method: "PUT",
    price: DU.WRITE,
    path: `${BASE}/image`,
    operationId: "uploadCollectableImage",
    summary: "Upload or replace a collectable's image",
    description:
      "multipart/form-data with one file part `image` (JPEG, PNG, WebP, GIF or TIFF, sniffed from the bytes). Returns the updated record with fresh signed image URLs; the image is embedded for comps and search by image, and, while the record has no suggested_artwork_id, matched against the market's images (suggested_matches). 1 DU.",
    pathParams: idParam,
    form: {
      fields: ImageForm,
      files: { image: { required: true, accept: UPLOAD_MEDIA_TYPES, description: "the work's image" } },
    },
    response: { full: CollectableSchema },
    handle: async (ctx) => {
      service.ownCollectable(ctx.deps, user(ctx), ctx.params.collectable_id);
      const image = (await uploadedImage(ctx))!;
      return service.replaceImage(ctx.deps, user(ctx), ctx.params.collectable_id, image, ctx.origin);
    },
  }),
  defineEndpoint({
    ...common,
    method: "GET",
    price: DU.COLLECTABLE_READ,
    path: `${BASE}/acquired`,
    operationId: "getCollectableAcquisition",
    summary: "A collectable's acquisition",
    description: "AcquiredSchema; every field null (use_instead_of_estimates false) until set. 1 DU + 1 (one record).",
    pathParams: idParam,
    response: { full: AcquiredSchema },
    records: one,
    handle: (ctx) => service.getAcquisition(ctx.deps, user(ctx), ctx.params.collectable_id),
  }),
  defineEndpoint({
    ...common,
    method: "PATCH",
    price: DU.WRITE,
    path: `${BASE}/acquired`,
    operationId: "updateCollectableAcquisition",
    summary: "Update a collectable's acquisition",
    description:
      "AcquiredUpdateInput: only the fields sent change; null clears. A price without a currency is in USD; price_usd is at the reference rate of the date (of the market's as-of date without one). use_instead_of_estimates makes the acquisition price the value in effect unless a manual price is selected.",
    pathParams: idParam,
    body: AcquiredUpdateInput,
    response: { full: AcquiredSchema },
    handle: (ctx) => service.updateAcquisition(ctx.deps, user(ctx), ctx.params.collectable_id, ctx.body),
  }),
  ...childEndpoints(
    "appraisals",
    "appraisal_id",
    { one: "an appraisal", many: "appraisals" },
    {
      item: AppraisalSchema,
      list: AppraisalList,
      create: AppraisalCreateInput,
      update: AppraisalUpdateInput,
    },
    { list: "listCollectableAppraisals", add: "addCollectableAppraisal", update: "updateCollectableAppraisal", remove: "removeCollectableAppraisal" },
  ),
  ...childEndpoints(
    "provenance",
    "provenance_id",
    { one: "a provenance entry", many: "provenance entries" },
    {
      item: ProvenanceSchema,
      list: ProvenanceList,
      create: ProvenanceCreateInput,
      update: ProvenanceUpdateInput,
    },
    { list: "listCollectableProvenance", add: "addCollectableProvenance", update: "updateCollectableProvenance", remove: "removeCollectableProvenance" },
  ),
  ...childEndpoints(
    "sales",
    "sale_id",
    { one: "a private sale", many: "private sales" },
    {
      item: CollectableSaleSchema,
      list: CollectableSaleList,
      create: CollectableSaleCreateInput,
      update: CollectableSaleUpdateInput,
    },
    { list: "listCollectableSales", add: "addCollectableSale", update: "updateCollectableSale", remove: "removeCollectableSale" },
  ),
  defineEndpoint({
    ...common,
    method: "GET",
    price: DU.COLLECTABLE_READ,
    path: `${BASE}/comps`,
    operationId: "getCollectableComps",
    summary: "A collectable's comp set",
    description: "Always 200: {comps: [], updated_at: null} when no set is saved. 1 DU + 1 per comp.",
    pathParams: idParam,
    response: { full: CompSetSchema },
    records: (body: { comps: unknown[] }) => body.comps.length,
    handle: (ctx) => service.getComps(ctx.deps, user(ctx), ctx.params.collectable_id),
  }),
  defineEndpoint({
    ...common,
    method: "PUT",
    price: DU.WRITE,
    path: `${BASE}/comps`,
    operationId: "replaceCollectableComps",
    summary: "Replace a collectable's comp set",
    description: `The whole set (at most ${MAX_COMPS} comps, each artwork once, artworks and artists the market has; weight default 1.0) replaces the stored one; an empty array clears it. Returns the saved set with names, similarity and verified (false for an artwork not by the comp's artist_id). Any invalid comp is 422 and keeps the stored set.`,
    pathParams: idParam,
    body: CompSetInput,
    response: { full: CompSetSchema },
    handle: (ctx) => service.replaceComps(ctx.deps, user(ctx), ctx.params.collectable_id, ctx.body.comps),
  }),
  defineEndpoint({
    ...common,
    method: "DELETE",
    price: DU.WRITE,
    path: `${BASE}/comps`,
    operationId: "clearCollectableComps",
    summary: "Clear a collectable's comp set",
    description: "Same effect and answer as PUT with an empty array: 200 {comps: [], updated_at: null}, whether or not a set was saved.",
    pathParams: idParam,
    response: { full: CompSetSchema },
    handle: (ctx) => service.replaceComps(ctx.deps, user(ctx), ctx.params.collectable_id, []),
  }),
];
