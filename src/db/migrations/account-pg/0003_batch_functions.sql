-- The metering hot path in one round trip each (src/serve/accounts/pg-hot.ts).
--
-- artmarket_ledger_commit: one batch of ledger rows (every call a worker charged in one
-- event-loop turn), as one statement. It takes a transaction-scoped advisory lock per account
-- (in id order, so two batches never wait on each other crosswise), inserts the rows and their
-- daily roll-ups, ends the hard-cap admissions the rows settle, then reads each account's
-- period, day and month totals from the roll-up (each statement of a function sees the rows
-- committed before it, the lock orders the batches of one account across every node) and
-- inserts the allowance notices the batch crossed (80 % and 100 % lines of each pool, once per
-- period by the unique index). It returns the totals, which the responses show as Remaining.
CREATE FUNCTION "artmarket_ledger_commit"("p_rows" jsonb, "p_users" jsonb, "p_admissions" jsonb)
RETURNS TABLE ("user_id" integer, "period" double precision, "day" double precision, "month" double precision)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  u jsonb;
  l jsonb;
  t_period double precision;
  t_day double precision;
  t_month double precision;
  before double precision;
BEGIN
  FOR u IN SELECT x FROM jsonb_array_elements(p_users) AS x ORDER BY (x->>'user_id')::integer LOOP
    PERFORM pg_advisory_xact_lock(7040363, (u->>'user_id')::integer);
  END LOOP;
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
  FOR u IN SELECT x FROM jsonb_array_elements(p_users) AS x LOOP
    SELECT coalesce(sum(d."du") FILTER (WHERE d."day" BETWEEN u->>'period_start' AND u->>'period_end'), 0),
           coalesce(sum(d."du") FILTER (WHERE d."day" = u->>'day'), 0),
           coalesce(sum(d."du") FILTER (WHERE d."day" BETWEEN u->>'month_start' AND u->>'month_end'), 0)
      INTO t_period, t_day, t_month
      FROM "du_daily" d
      WHERE d."user_id" = (u->>'user_id')::integer
        AND d."day" BETWEEN least(u->>'period_start', u->>'month_start') AND greatest(u->>'period_end', u->>'month_end');
    before := t_period - (u->>'added')::double precision;
    FOR l IN SELECT jsonb_array_elements(u->'lines') LOOP
      IF before < (l->>'line')::double precision AND t_period >= (l->>'line')::double precision THEN
        INSERT INTO "notices" ("user_id", "plan_slug", "pool", "threshold", "period_start", "period_end", "du_limit", "du_consumed", "projected_eop", "created_at")
        VALUES ((u->>'user_id')::integer, u->>'plan_slug', l->>'pool', (l->>'threshold')::integer, u->>'period_start', u->>'period_end',
                (l->>'du_limit')::double precision, t_period,
                round((t_period / (u->>'elapsed')::double precision * (u->>'period_days')::double precision * 100)::numeric) / 100,
                (u->>'ts')::bigint)
        ON CONFLICT ("user_id", "pool", "threshold", "period_start") DO NOTHING;
      END IF;
    END LOOP;
    "user_id" := (u->>'user_id')::integer;
    "period" := t_period;
    "day" := t_day;
    "month" := t_month;
    RETURN NEXT;
  END LOOP;
END
$$;--> statement-breakpoint
-- artmarket_rate_take: counts up to p_n calls of one account in its current second and minute,
-- as many as both windows' limits still allow (a refused call does not count), and returns how
-- many it took with the windows' counts before them. A window that another node's clock already
-- moved past is counted in that newer window.
CREATE FUNCTION "artmarket_rate_take"("p_user" integer, "p_second" bigint, "p_minute" bigint, "p_rps" integer, "p_rpm" integer, "p_n" integer)
RETURNS TABLE ("taken" integer, "second_before" integer, "minute_before" integer)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  r "rate_windows"%ROWTYPE;
  s integer;
  m integer;
  k integer;
BEGIN
  INSERT INTO "rate_windows" ("user_id", "second", "per_second", "minute", "per_minute") VALUES (p_user, p_second, 0, p_minute, 0)
    ON CONFLICT ("user_id") DO NOTHING;
  SELECT * INTO r FROM "rate_windows" w WHERE w."user_id" = p_user FOR UPDATE;
  s := CASE WHEN r."second" >= p_second THEN r."per_second" ELSE 0 END;
  m := CASE WHEN r."minute" >= p_minute THEN r."per_minute" ELSE 0 END;
  k := greatest(0, least(p_n, p_rps - s, p_rpm - m));
  IF k > 0 OR r."second" < p_second OR r."minute" < p_minute THEN
    UPDATE "rate_windows" w
      SET "second" = greatest(r."second", p_second), "per_second" = s + k, "minute" = greatest(r."minute", p_minute), "per_minute" = m + k
      WHERE w."user_id" = p_user;
  END IF;
  "taken" := k;
  "second_before" := s;
  "minute_before" := m;
  RETURN NEXT;
END
$$;
