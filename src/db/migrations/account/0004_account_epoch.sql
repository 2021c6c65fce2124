CREATE TABLE `account_epoch` (
	`id` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `account_epoch` (`id`, `n`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `account_epoch_key_revoked` AFTER UPDATE OF `revoked_at` ON `api_keys` BEGIN UPDATE `account_epoch` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `account_epoch_key_deleted` AFTER DELETE ON `api_keys` BEGIN UPDATE `account_epoch` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `account_epoch_user_plan` AFTER UPDATE OF `plan_slug`, `period_anchor` ON `users` BEGIN UPDATE `account_epoch` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `account_epoch_user_deleted` AFTER DELETE ON `users` BEGIN UPDATE `account_epoch` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `account_epoch_plan_added` AFTER INSERT ON `plans` BEGIN UPDATE `account_epoch` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `account_epoch_plan_changed` AFTER UPDATE ON `plans` BEGIN UPDATE `account_epoch` SET `n` = `n` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `account_epoch_plan_deleted` AFTER DELETE ON `plans` BEGIN UPDATE `account_epoch` SET `n` = `n` + 1 WHERE `id` = 1; END;
