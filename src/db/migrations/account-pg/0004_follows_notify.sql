-- Each follow or unfollow announces its user on the channel artmarket_follows (delivered at
-- commit), so that every thread of every node drops its copy of that user's follows: the
-- "followed" marks of list items are then read from the copy instead of a round trip per list
-- (src/serve/accounts/account-view.ts).
CREATE FUNCTION "follows_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('artmarket_follows', OLD."user_id"::text);
  ELSE
    PERFORM pg_notify('artmarket_follows', NEW."user_id"::text);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "follows_changed" AFTER INSERT OR UPDATE OR DELETE ON "follows" FOR EACH ROW EXECUTE FUNCTION "follows_notify"();
