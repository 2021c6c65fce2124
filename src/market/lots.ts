/** Facts about lots shared by the generator, the importer and the API. */

/** A lot is a top lot from this high estimate, in USD (the generator also marks lots of outstanding quality). */
export const TOP_LOT_MIN_ESTIMATE_USD = 250_000;
