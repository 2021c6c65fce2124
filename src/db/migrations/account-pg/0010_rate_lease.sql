-- artmarket_rate_lease: a worker's lease of request-rate units for one account
-- (src/serve/accounts/pg-hot.ts, PgRateLimiter). It counts up to p_want calls in the account's
-- current second and minute, as many as both windows' limits still allow, and returns how many it
-- took with the windows' counts before them; the worker then serves that many calls of the
-- second without a round trip. A worker's earlier lease that it did not use up is given back in
-- the same statement (p_return units, taken in the second p_return_second and the minute
-- p_return_minute): each window the units were counted in and that is still current counts them
-- no more. A window that another node's clock already moved past is counted in that newer window.
-- artmarket_rate_take (0003) stays for nodes of an older build during an upgrade.
CREATE FUNCTION "artmarket_rate_lease"("p_user" integer, "p_second" bigint, "p_minute" bigint, "p_rps" integer, "p_rpm" integer, "p_want" integer, "p_return" integer, "p_return_second" bigint, "p_return_minute" bigint)
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
  IF p_return > 0 THEN
    IF r."second" = p_return_second AND r."second" >= p_second THEN s := greatest(0, s - p_return); END IF;
    IF r."minute" = p_return_minute AND r."minute" >= p_minute THEN m := greatest(0, m - p_return); END IF;
  END IF;
  k := greatest(0, least(p_want, p_rps - s, p_rpm - m));
  IF k > 0 OR p_return > 0 OR r."second" < p_second OR r."minute" < p_minute THEN
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
