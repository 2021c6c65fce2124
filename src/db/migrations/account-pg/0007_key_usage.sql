CREATE TABLE "du_key_daily" (
	"user_id" integer NOT NULL,
	"day" text NOT NULL,
	"key_id" integer NOT NULL,
	"du" double precision NOT NULL,
	"requests" integer NOT NULL,
	CONSTRAINT "du_key_daily_user_id_day_key_id_pk" PRIMARY KEY("user_id","day","key_id")
);--> statement-breakpoint
INSERT INTO "du_key_daily" ("user_id", "day", "key_id", "du", "requests") SELECT "user_id", "day", "key_id", sum("du"), count(*) FROM "du_ledger" GROUP BY 1, 2, 3;--> statement-breakpoint
CREATE FUNCTION "du_key_daily_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "du_key_daily" ("user_id", "day", "key_id", "du", "requests")
    SELECT a."user_id", a."day", a."key_id", sum(a."du"), count(*) FROM "added" a GROUP BY 1, 2, 3
    ON CONFLICT ("user_id", "day", "key_id") DO UPDATE SET "du" = "du_key_daily"."du" + excluded."du", "requests" = "du_key_daily"."requests" + excluded."requests";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "du_key_daily_add" AFTER INSERT ON "du_ledger" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "du_key_daily_add"();
