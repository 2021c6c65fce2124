/**
 * Lots: GET /v1/lots (key optional: no key gives the public schema, unmetered), GET
 * /v1/lots/{lot_id} (1 DU), GET /v1/lots/followed, POST /v1/lots/share and the public GET
 * /v1/lots/shared/{token}. Follow and unfollow live in the follows module. docs/api-lots-sales.md.
 */

import { defineEndpoint, type Endpoint } from "../../http/endpoint";
import { DU } from "../../http/pricing";
import { notFound, ValidationFailed, issue } from "../../http/errors";
import { callerView } from "../../http/view";
import { T } from "../../query/grammar";
import { PREFERRED_CURRENCY } from "../../query/params";
import { LOT_LIST } from "./fields";
import { LotPublicSchema, LotSchema, MAX_SHARE_IDS, LotShareInput, LotsPublicResponse, LotsResponse, ShareCreatedSchema, SharedLotsResponse } from "./model";
import { existingLotIds, listLots, lotObjects } from "./service";

const count = (body: { lots: unknown[] }) => body.lots.length;

export const lotEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/v1/lots",
    price: DU.spec(2, 1),
    operationId: "listLots",
    summary: "Lot list",
    description:
      "Filters combine with AND. Without a key, or on a plan with the public schema, lots come without price and is_followed. " +
      "No total: has_more says whether a next page exists.",
    tag: "Lots",
    auth: "optional",
    list: LOT_LIST,
    response: { full: LotsResponse, public: LotsPublicResponse },
    records: count,
    handle: (ctx) => listLots(ctx.deps, ctx.query, callerView(ctx)),
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/lots/followed",
    price: DU.spec(2, 1),
    operationId: "listFollowedLots",
    summary: "Followed lots",
    description: "The lot list's grammar, limited to the lots the caller follows.",
    tag: "Lots",
    auth: "required",
    list: LOT_LIST,
    response: { full: LotsResponse, public: LotsPublicResponse },
    records: count,
    handle: (ctx) => listLots(ctx.deps, ctx.query, callerView(ctx), ctx.caller?.userId ?? -1),
  }),
  defineEndpoint({
    method: "POST",
    path: "/v1/lots/share",
    price: DU.FREE,
    operationId: "shareLots",
    summary: "Share a list of lots",
    description: "Creates a public token for up to 500 lots (each must exist, else 422), shown in the given order at GET /v1/lots/shared/{token} for 30 days.",
    tag: "Lots",
    auth: "required",
    body: LotShareInput,
    response: { full: ShareCreatedSchema },
    handle: ({ deps, caller, body, origin }) => {
      const ids = [...new Set(body.ids)];
      const known = existingLotIds(deps.market, ids);
      const missing = body.ids.flatMap((id, i) => (known.has(id) ? [] : [i]));
      if (missing.length) {
        throw new ValidationFailed(missing.map((i) => issue.custom(["body", "ids", i], body.ids[i], `Lot ${body.ids[i]} not found`, "value_error", { lot_id: body.ids[i] })));
      }
      const share = deps.accounts.createShare(caller.userId, "lot", ids, body.title ?? null);
      return {
        token: share.token,
        url: `${deps.config.publicUrl ?? origin}/v1/lots/shared/${share.token}`,
        expires_at: new Date(share.expiresAt).toISOString(),
      };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/lots/shared/{token}",
    price: DU.FREE,
    operationId: "getSharedLots",
    summary: "A shared list of lots",
    description: "Public, 0 DU. The lots in the public schema (no price), images blurred. An unknown or expired token is 404.",
    tag: "Lots",
    auth: "public",
    pathParams: { token: T.str(64) },
    list: { fields: {}, limit: { default: MAX_SHARE_IDS, max: MAX_SHARE_IDS } },
    response: { full: SharedLotsResponse },
    handle: ({ deps, params, origin, query }) => {
      const share = deps.accounts.findShare(params.token, "lot");
      if (!share) throw notFound("Shared list not found or expired");
      // ids of lots that left the market (a later snapshot) are skipped
      const lots = lotObjects(deps, share.ids, { schema: "public", userId: null, image: "blur", origin });
      return {
        title: share.title,
        expires_at: new Date(share.expiresAt).toISOString(),
        lots: lots.slice(query.offset, query.offset + query.limit),
        total: lots.length,
        has_more: query.offset + query.limit < lots.length,
        limit: query.limit,
        offset: query.offset,
      };
    },
  }),
  defineEndpoint({
    method: "GET",
    path: "/v1/lots/{lot_id}",
    price: DU.DETAIL,
    operationId: "getLot",
    summary: "One lot",
    tag: "Lots",
    auth: "required",
    pathParams: { lot_id: T.int(1) },
    list: { fields: {}, params: { preferred_currency: PREFERRED_CURRENCY } },
    response: { full: LotSchema, public: LotPublicSchema },
    handle: (ctx) => {
      const [lot] = lotObjects(ctx.deps, [ctx.params.lot_id], callerView(ctx));
      if (!lot) throw notFound(`Lot ${ctx.params.lot_id} not found`);
      return lot;
    },
  }),
];
