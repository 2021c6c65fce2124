-- Request-rate windows live for a second or a minute: no WAL for them (a crash empties the
-- table, which only forgets the current windows' counts).
ALTER TABLE "rate_windows" SET UNLOGGED;
