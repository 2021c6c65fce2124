PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_du_ledger` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`key_id` integer NOT NULL,
	`ts` integer NOT NULL,
	`day` text NOT NULL,
	`method` text NOT NULL,
	`route` text NOT NULL,
	`status` integer NOT NULL,
	`records` integer NOT NULL,
	`du` real NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_du_ledger`("id", "user_id", "key_id", "ts", "day", "method", "route", "status", "records", "du") SELECT "id", "user_id", "key_id", "ts", "day", "method", "route", "status", "records", "du" FROM `du_ledger`;--> statement-breakpoint
DROP TABLE `du_ledger`;--> statement-breakpoint
ALTER TABLE `__new_du_ledger` RENAME TO `du_ledger`;--> statement-breakpoint
PRAGMA foreign_keys=ON;