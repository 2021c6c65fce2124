/**
 * Shared lists: a public token that shows a user's list of artworks or lots for 30 days. The rows are
 * read and written through the account store (src/serve/accounts/store.ts).
 */
export const SHARE_LIFETIME_DAYS = 30;
export type ShareKind = "artwork" | "lot";

export interface Share {
  token: string;
  kind: ShareKind;
  ids: number[];
  title: string | null;
  expiresAt: number;
}
