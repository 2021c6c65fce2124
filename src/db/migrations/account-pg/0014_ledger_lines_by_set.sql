-- artmarket_ledger_commit with the notice lines sent once per set (p_lines: rows of "set", pool,
-- threshold, line, du_limit), each account naming its set ("lines", an integer). 0013's form carries
-- each account's lines in the account's own row: the same few lines for every account of a plan,
-- read and expanded once per account (about 7 µs an account: a batch of 32 accounts' statement took
-- 1.43-1.46 ms, 1.21-1.25 ms in this form). Same rows, totals and notices as 0013's form, which stays
-- for the nodes of an earlier build during a rolling upgrade (the two differ in their arguments).
CREATE FUNCTION "artmarket_ledger_commit"("p_rows" jsonb, "p_users" jsonb, "p_admissions" jsonb, "p_lines" jsonb)
RETURNS TABLE ("user_id" integer, "period" double precision, "day" double precision, "month" double precision)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  PERFORM count(pg_advisory_xact_lock(7040363, l."id")) FROM (SELECT (x->>'user_id')::integer AS "id" FROM jsonb_array_elements(p_users) AS x ORDER BY 1) AS l;
  INSERT INTO "du_ledger" ("user_id", "key_id", "ts", "day", "method", "route", "status", "records", "du")
    SELECT r."user_id", r."key_id", r."ts", r."day", r."method", r."route", r."status", r."records", r."du"
    FROM jsonb_to_recordset(p_rows) AS r("user_id" integer, "key_id" integer, "ts" bigint, "day" text, "method" text, "route" text, "status" integer, "records" integer, "du" double precision);
  INSERT INTO "du_daily" ("user_id", "day", "endpoint", "du", "requests")
    SELECT r."user_id", r."day", r."method" || ' ' || r."route", sum(r."du"), count(*)
    FROM jsonb_to_recordset(p_rows) AS r("user_id" integer, "day" text, "method" text, "route" text, "du" double precision)
    GROUP BY 1, 2, 3
    ON CONFLICT ("user_id", "day", "endpoint") DO UPDATE SET "du" = "du_daily"."du" + excluded."du", "requests" = "du_daily"."requests" + excluded."requests";
  IF jsonb_array_length(p_admissions) > 0 THEN
    DELETE FROM "cap_admissions" WHERE "id" IN (SELECT jsonb_array_elements_text(p_admissions)::bigint);
  END IF;
  -- in one statement: the accounts whose row holds the batch's windows get the batch's DU in each
  -- window added (add_period, add_day, add_month: what the node sent, the rows of a batch across
  -- midnight counted in the windows their days fall in); the others (no row yet, or another
  -- period, day or month, or a node of an earlier build that sends no add_period) are counted
  -- again from du_daily, this batch included; then the notices crossed
  RETURN QUERY
  WITH u AS (
    SELECT * FROM jsonb_to_recordset(p_users) AS x("user_id" integer, "period_start" text, "period_end" text, "day" text, "month_start" text, "month_end" text,
      "added" double precision, "add_period" double precision, "add_day" double precision, "add_month" double precision,
      "plan_slug" text, "period_days" double precision, "elapsed" double precision, "ts" bigint, "lines" integer)
  ), kept AS (
    UPDATE "du_totals" d SET "period_du" = d."period_du" + u."add_period", "day_du" = d."day_du" + u."add_day", "month_du" = d."month_du" + u."add_month"
    FROM u
    WHERE d."user_id" = ANY (ARRAY(SELECT x."user_id" FROM u x)) AND d."user_id" = u."user_id" AND d."period_start" = u."period_start" AND d."period_end" = u."period_end" AND d."day" = u."day"
      AND d."month_start" = u."month_start" AND d."month_end" = u."month_end" AND u."add_period" IS NOT NULL
    RETURNING d."user_id", d."period_du", d."day_du", d."month_du"
  ), counted AS (
    INSERT INTO "du_totals" ("user_id", "period_start", "period_end", "period_du", "day", "day_du", "month_start", "month_end", "month_du")
    SELECT u."user_id", u."period_start", u."period_end", s."t_period", u."day", s."t_day", u."month_start", u."month_end", s."t_month"
    FROM u CROSS JOIN LATERAL (
      SELECT coalesce(sum(d."du") FILTER (WHERE d."day" BETWEEN u."period_start" AND u."period_end"), 0) AS "t_period",
             coalesce(sum(d."du") FILTER (WHERE d."day" = u."day"), 0) AS "t_day",
             coalesce(sum(d."du") FILTER (WHERE d."day" BETWEEN u."month_start" AND u."month_end"), 0) AS "t_month"
      FROM "du_daily" d
      WHERE d."user_id" = u."user_id" AND d."day" BETWEEN least(u."period_start", u."month_start") AND greatest(u."period_end", u."month_end")
    ) AS s
    WHERE u."user_id" NOT IN (SELECT k."user_id" FROM kept k)
    ON CONFLICT ("user_id") DO UPDATE SET "period_start" = excluded."period_start", "period_end" = excluded."period_end", "period_du" = excluded."period_du",
      "day" = excluded."day", "day_du" = excluded."day_du", "month_start" = excluded."month_start", "month_end" = excluded."month_end", "month_du" = excluded."month_du"
    RETURNING "du_totals"."user_id", "du_totals"."period_du", "du_totals"."day_du", "du_totals"."month_du"
  ), t AS (
    SELECT u.*, n."period_du" AS "t_period", n."day_du" AS "t_day", n."month_du" AS "t_month"
    FROM u JOIN (SELECT * FROM kept UNION ALL SELECT * FROM counted) AS n ON n."user_id" = u."user_id"
  ), crossed AS (
    INSERT INTO "notices" ("user_id", "plan_slug", "pool", "threshold", "period_start", "period_end", "du_limit", "du_consumed", "projected_eop", "created_at")
    SELECT t."user_id", t."plan_slug", l."pool", l."threshold", t."period_start", t."period_end", l."du_limit", t."t_period",
           round((t."t_period" / t."elapsed" * t."period_days" * 100)::numeric) / 100, t."ts"
    FROM t JOIN jsonb_to_recordset(p_lines) AS l("set" integer, "pool" text, "threshold" integer, "line" double precision, "du_limit" double precision) ON l."set" = t."lines"
    WHERE t."t_period" - t."added" < l."line" AND t."t_period" >= l."line"
    ON CONFLICT ("user_id", "pool", "threshold", "period_start") DO NOTHING
  )
  SELECT t."user_id", t."t_period", t."t_day", t."t_month" FROM t;
END
$$;
