/**
 * Follow and unfollow, for artists, artworks, lots and sales: POST and DELETE
 * /v1/{artists|artworks|lots|sales}/{id}/follow, 204 with no body, 0 DU. Following something the
 * market does not hold is 404; unfollowing is idempotent (204 whether or not it was followed).
 * The followed lists themselves belong to each resource's module.
 */
import { type FollowKind } from "../../accounts/store";
import { defineEndpoint, type Endpoint } from "../../http/endpoint";
import { DU } from "../../http/pricing";
import { notFound } from "../../http/errors";
import { T } from "../../query/grammar";

/** Each kind with the operationIds of its follow and unfollow routes. */
const KINDS: { kind: FollowKind; plural: string; table: string; tag: string; param: string; ids: { follow: string; unfollow: string } }[] = [
  { kind: "artist", plural: "artists", table: "artists", tag: "Artists", param: "artist_id", ids: { follow: "followArtist", unfollow: "unfollowArtist" } },
  { kind: "artwork", plural: "artworks", table: "artworks", tag: "Artworks", param: "artwork_id", ids: { follow: "followArtwork", unfollow: "unfollowArtwork" } },
  { kind: "lot", plural: "lots", table: "lots", tag: "Lots", param: "lot_id", ids: { follow: "followLot", unfollow: "unfollowLot" } },
  { kind: "sale", plural: "sales", table: "sales", tag: "Sales", param: "sale_id", ids: { follow: "followSale", unfollow: "unfollowSale" } },
];

export const followEndpoints: Endpoint[] = KINDS.flatMap(({ kind, plural, table, tag, param, ids }) => [
  defineEndpoint({
    method: "POST",
    path: `/v1/${plural}/{${param}}/follow`,
    price: DU.FREE,
    operationId: ids.follow,
    summary: `Follow a${kind === "artist" || kind === "artwork" ? "n" : ""} ${kind}`,
    description: "Idempotent: following twice keeps one follow. 404 when the market has no such record.",
    tag,
    auth: "required",
    status: 204,
    pathParams: { [param]: T.int(1) },
    handle: ({ deps, caller, params }) => {
      const id = params[param]!;
      if (!deps.market.query(`SELECT 1 FROM ${table} WHERE id = ?`).get(id)) throw notFound(`${kind[0]!.toUpperCase()}${kind.slice(1)} ${id} not found`);
      deps.accounts.follow(caller.userId, kind, id);
      return null;
    },
  }),
  defineEndpoint({
    method: "DELETE",
    path: `/v1/${plural}/{${param}}/follow`,
    price: DU.FREE,
    operationId: ids.unfollow,
    summary: `Unfollow a${kind === "artist" || kind === "artwork" ? "n" : ""} ${kind}`,
    description: "Idempotent: 204 whether or not it was followed.",
    tag,
    auth: "required",
    status: 204,
    pathParams: { [param]: T.int(1) },
    handle: ({ deps, caller, params }) => {
      deps.accounts.unfollow(caller.userId, kind, params[param]!);
      return null;
    },
  }),
]);
