/** Shared lists of artworks or lots behind a public token. */
import { SHARE_LIFETIME_DAYS, type Share, type ShareKind } from "../../../db/shares";
import type { ShareRow } from "../store";
import type { SqlBase } from "./dialect";

export interface ShareStore {
  createShare(userId: number, kind: ShareKind, ids: number[], title: string | null, now?: number): Share;
  /** The share behind a token, or null when unknown, of another kind, or expired. */
  findShare(token: string, kind: ShareKind, now?: number): Share | null;
}

export function SharesSql<B extends SqlBase>(Base: B) {
  abstract class Shares extends Base implements ShareStore {
    createShare(userId: number, kind: ShareKind, ids: number[], title: string | null, now = Date.now()): Share {
      const token = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64url");
      const expiresAt = now + SHARE_LIFETIME_DAYS * 86_400_000;
      this.sql.run(
        "INSERT INTO shares (token, user_id, kind, ids, title, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        token,
        userId,
        kind,
        JSON.stringify(ids),
        title,
        now,
        expiresAt,
      );
      return { token, kind, ids, title, expiresAt };
    }

    findShare(token: string, kind: ShareKind, now = Date.now()): Share | null {
      if (!/^[A-Za-z0-9_-]{10,64}$/.test(token)) return null;
      const row = this.sql.get<Pick<ShareRow, "token" | "kind" | "ids" | "title" | "expires_at">>("SELECT token, kind, ids, title, expires_at FROM shares WHERE token = ?", token);
      if (!row || row.kind !== kind || row.expires_at <= now) return null;
      return { token: row.token, kind, ids: JSON.parse(row.ids) as number[], title: row.title, expiresAt: row.expires_at };
    }
  }
  return Shares;
}
