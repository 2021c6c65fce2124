-- The account epoch (see 0004_account_epoch of account.db): one counter that moves whenever
-- something a running server caches about keys and plans changes, announced on the channel
-- artmarket_account_epoch (delivered at commit) so that every node drops its cached key
-- verdicts and plan limits at once. Statement triggers: one move per statement is enough.
INSERT INTO "account_epoch" ("id", "n") VALUES (1, 0);--> statement-breakpoint
CREATE FUNCTION "account_epoch_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next bigint;
BEGIN
  UPDATE "account_epoch" SET "n" = "n" + 1 WHERE "id" = 1 RETURNING "n" INTO next;
  PERFORM pg_notify('artmarket_account_epoch', next::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "account_epoch_key_revoked" AFTER UPDATE OF "revoked_at" ON "api_keys" FOR EACH STATEMENT EXECUTE FUNCTION "account_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "account_epoch_key_deleted" AFTER DELETE ON "api_keys" FOR EACH STATEMENT EXECUTE FUNCTION "account_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "account_epoch_user_plan" AFTER UPDATE OF "plan_slug", "period_anchor" ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "account_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "account_epoch_user_deleted" AFTER DELETE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "account_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "account_epoch_plan_added" AFTER INSERT ON "plans" FOR EACH STATEMENT EXECUTE FUNCTION "account_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "account_epoch_plan_changed" AFTER UPDATE ON "plans" FOR EACH STATEMENT EXECUTE FUNCTION "account_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "account_epoch_plan_deleted" AFTER DELETE ON "plans" FOR EACH STATEMENT EXECUTE FUNCTION "account_epoch_bump"();
