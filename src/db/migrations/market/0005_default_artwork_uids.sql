-- A work's default uid ("aw-", id in base 36, title slug) is stored as '' and made on read
-- (src/db/artwork-uid.ts): the unique index holds the uids imports gave. Markets built before keep
-- their stored uids (served as they are) until they are derived again.
DROP INDEX `artworks_uid`;--> statement-breakpoint
CREATE UNIQUE INDEX `artworks_uid` ON `artworks` (`uid`) WHERE uid <> '';