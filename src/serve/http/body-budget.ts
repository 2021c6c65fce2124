/**
 * A bound on the request-body bytes the process holds at once. Every body the pipeline reads (a
 * JSON document, a form with an upload) takes its bytes from this budget as they arrive and gives
 * them back when its request is answered. Beyond one account's share the request is refused with
 * 429, beyond the process's total with 503, both with Retry-After: a crowd of slow uploads holds
 * at most the total, and everyone else is still served.
 */
import { HttpError } from "./errors";

export interface BodyBudgetLimits {
  /** Bytes held by all requests together. */
  totalBytes: number;
  /** Bytes held by the requests of one account (or of one client address, without a key). */
  perAccountBytes: number;
}

export const BODY_BUDGET: Readonly<BodyBudgetLimits> = Object.freeze({ totalBytes: 256 * 1024 * 1024, perAccountBytes: 64 * 1024 * 1024 });

const MIB = 1024 * 1024;

export class BodyBudget {
  private held = 0;
  private readonly byAccount = new Map<string, number>();

  constructor(readonly limits: BodyBudgetLimits = BODY_BUDGET) {}

  /** Bytes held now, in all and for one account (tests and metrics). */
  heldBytes(account?: string): number {
    return account === undefined ? this.held : (this.byAccount.get(account) ?? 0);
  }

  /** A lease for one request's body: take() as bytes arrive, release() once when the request ends. */
  lease(account: string): BodyLease {
    return new BodyLease(this, account);
  }

  /** @internal */
  take(account: string, bytes: number): void {
    const mine = this.byAccount.get(account) ?? 0;
    if (mine + bytes > this.limits.perAccountBytes) {
      throw new HttpError(
        429,
        `Too many request bodies in flight for this account: at most ${Math.round(this.limits.perAccountBytes / MIB)} MiB at once; retry when your other uploads have finished`,
        { "Retry-After": "5" },
      );
    }
    if (this.held + bytes > this.limits.totalBytes) {
      throw new HttpError(503, "The server is receiving too many request bodies at once; retry shortly", { "Retry-After": "5" });
    }
    this.held += bytes;
    this.byAccount.set(account, mine + bytes);
  }

  /** @internal */
  give(account: string, bytes: number): void {
    if (bytes <= 0) return;
    this.held -= bytes;
    const left = (this.byAccount.get(account) ?? 0) - bytes;
    if (left > 0) this.byAccount.set(account, left);
    else this.byAccount.delete(account);
  }
}

export class BodyLease {
  private bytes = 0;
  private released = false;

  constructor(
    private readonly budget: BodyBudget,
    private readonly account: string,
  ) {}

  take(bytes: number): void {
    if (this.released) return;
    this.budget.take(this.account, bytes);
    this.bytes += bytes;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.give(this.account, this.bytes);
    this.bytes = 0;
  }
}
