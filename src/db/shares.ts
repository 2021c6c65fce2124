/** Shared lists: a public token that shows a user's list of artworks or lots for 30 days. */
import type { Database } from "bun:sqlite";

export const SHARE_LIFETIME_DAYS = 30;
export type ShareKind = "artwork" | "lot";

export interface Share {
  token: string;
  kind: ShareKind;
  ids: number[];
  title: string | null;
  expiresAt: number;
}

export function createShare(account: Database, userId: number, kind: ShareKind, ids: number[], title: string | null, now = Date.now()): Share {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64url");
  const expiresAt = now + SHARE_LIFETIME_DAYS * 86_400_000;
  account
    .query("INSERT INTO shares (token, user_id, kind, ids, title, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
    .run(token, userId, kind, JSON.stringify(ids), title, now, expiresAt);
  return { token, kind, ids, title, expiresAt };
}

/** The share behind a token, or null when unknown, of another kind, or expired. */
export function findShare(market: Database, token: string, kind: ShareKind, now = Date.now()): Share | null {
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(token)) return null;
  const row = market
    .query<{ token: string; kind: string; ids: string; title: string | null; expires_at: number }, [string]>(
      "SELECT token, kind, ids, title, expires_at FROM account.shares WHERE token = ?",
    )
    .get(token);
  if (!row || row.kind !== kind || row.expires_at <= now) return null;
  return { token: row.token, kind, ids: JSON.parse(row.ids) as number[], title: row.title, expiresAt: row.expires_at };
}
