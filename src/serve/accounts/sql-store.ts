/**
 * The account data's SQL, composed: each concern of sql/ (keys, plans, usage, notices, follows,
 * shares, collectables) is written once over a dialect (sql/dialect.ts: bun:sqlite or PostgreSQL
 * through SyncPg, and the few things that differ) and mixed into this one class. Both stores
 * extend it and add what is theirs: the hot path (the ledger, the key verifier, the data version)
 * and closing their connection (SqliteAccountStore in store.ts, PgAccountStore in pg-store.ts).
 *
 * A new concern (webhooks, say): its tables in the schemas and migrations, a file in sql/ with its
 * interface and its mixin, one more step in the chain below and its interface in AccountStore.
 */
import { CollectablesSql } from "./sql/collectables";
import { OverDialect } from "./sql/dialect";
import { FollowsSql } from "./sql/follows";
import { KeysSql } from "./sql/keys";
import { NoticesSql } from "./sql/notices";
import { PlansSql } from "./sql/plans";
import { SharesSql } from "./sql/shares";
import { UsageSql } from "./sql/usage";
import { UsersSql } from "./sql/users";
import { WebhooksSql } from "./sql/webhooks";
import { NotificationsSql } from "./sql/notifications";

export abstract class SqlAccountStore extends NotificationsSql(
  WebhooksSql(UsersSql(CollectablesSql(SharesSql(FollowsSql(NoticesSql(UsageSql(PlansSql(KeysSql(OverDialect))))))))),
) {}
