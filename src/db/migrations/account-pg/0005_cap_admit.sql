-- artmarket_cap_admit: admits a call that may cost up to p_max_du under a hard cap, in one
-- statement (src/serve/accounts/pg-hot.ts, PgLedger.admit). Under the account's advisory lock
-- (the one artmarket_ledger_commit takes, so commits and admissions of an account are ordered
-- across every node), it forgets admissions past their expiry (a node that died), then: 'used-up'
-- when the period's committed consumption reached the limit; 'wait' when other calls are in
-- flight and all of them at their largest cost with this one would reach it (one at a time past
-- that point); else it records the admission and returns 'admitted' with its id.
CREATE FUNCTION "artmarket_cap_admit"("p_user" integer, "p_period_start" text, "p_period_end" text, "p_limit" double precision, "p_max_du" double precision, "p_now" bigint, "p_ttl" bigint)
RETURNS TABLE ("verdict" text, "admission_id" bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  consumed double precision;
  in_flight integer;
  reserved double precision;
  added bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(7040363, p_user);
  DELETE FROM "cap_admissions" c WHERE c."user_id" = p_user AND c."expires_at" < p_now;
  SELECT coalesce(sum(d."du"), 0) INTO consumed FROM "du_daily" d WHERE d."user_id" = p_user AND d."day" BETWEEN p_period_start AND p_period_end;
  SELECT count(*), coalesce(sum(c."max_du"), 0) INTO in_flight, reserved FROM "cap_admissions" c WHERE c."user_id" = p_user;
  IF consumed >= p_limit THEN
    "verdict" := 'used-up';
    "admission_id" := NULL;
  ELSIF in_flight > 0 AND consumed + reserved + p_max_du >= p_limit THEN
    "verdict" := 'wait';
    "admission_id" := NULL;
  ELSE
    INSERT INTO "cap_admissions" ("user_id", "max_du", "expires_at") VALUES (p_user, p_max_du, p_now + p_ttl) RETURNING "id" INTO added;
    "verdict" := 'admitted';
    "admission_id" := added;
  END IF;
  RETURN NEXT;
END
$$;
