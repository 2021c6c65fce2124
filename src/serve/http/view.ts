/**
 * How rows are shown to the caller, one type for every market module (artists, artworks, lots,
 * sales, search): which schema, whose follows, which image variant, which origin the signed URLs
 * carry, which preferred currency. A module that needs more extends it (artists: the signer and
 * include_chart).
 */
import type { Variant } from "../images/urls";
import type { RequestContext, Schema } from "./endpoint";

export interface CallerView {
  schema: Schema;
  /** Whose follows is_followed reports; null without a key. */
  userId: number | null;
  /** Callers without a key get the blurred variant (not under `deps.bare`, the benchmark's auth-off baseline). */
  image: Variant;
  /** Scheme and host written into image URLs. */
  origin: string;
  /** preferred_currency: the *_preferred values, only ever shown on the full schema. */
  preferred?: string;
}

/** The caller's view of a request: its schema and follows, the image variant, the origin, preferred_currency (full schema only). */
export function callerView(ctx: RequestContext<unknown>): CallerView {
  return {
    schema: ctx.schema,
    userId: ctx.caller?.userId ?? null,
    image: ctx.caller === null && !ctx.deps.bare ? "blur" : "full",
    origin: ctx.origin,
    preferred: ctx.schema === "full" ? (ctx.query.params.preferred_currency as string | undefined) : undefined,
  };
}
