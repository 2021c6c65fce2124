/**
 * Statements run on a finished market snapshot (after derivation) for the lots endpoints:
 * indexes for their filters and sorts (and any search structure). Each is idempotent.
 */
export const STATEMENTS: string[] = [];
