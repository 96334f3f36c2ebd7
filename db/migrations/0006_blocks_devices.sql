CREATE TABLE `device_carriers` (
	`user_id` integer NOT NULL,
	`carrier_id` integer NOT NULL,
	PRIMARY KEY(`user_id`, `carrier_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`carrier_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `roulette_blocks` (
	`blocker_id` integer NOT NULL,
	`blocked_id` integer NOT NULL,
	`roulette_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`blocker_id`, `roulette_id`),
	FOREIGN KEY (`blocker_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blocked_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `user_devices` (
	`user_id` integer NOT NULL,
	`device_id` text NOT NULL,
	`last_seen_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `device_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_devices_device` ON `user_devices` (`device_id`,`last_seen_at`);--> statement-breakpoint
-- Blocks of roulette strangers move to their own table, which nothing named reads (issue 18).
-- Their pairing ids are not known any more: each gets one that no session can have.
INSERT INTO `roulette_blocks` (`blocker_id`, `blocked_id`, `roulette_id`, `created_at`)
SELECT `blocker_id`, `blocked_id`, 'before-0006:' || `blocked_id`, `created_at` FROM `blocks` WHERE `anonymous` = 1;--> statement-breakpoint
DELETE FROM `blocks` WHERE `anonymous` = 1;--> statement-breakpoint
ALTER TABLE `blocks` DROP COLUMN `anonymous`;--> statement-breakpoint
-- The browsers of live sessions are the accounts' known devices so far.
INSERT OR IGNORE INTO `user_devices` (`user_id`, `device_id`, `last_seen_at`)
SELECT `user_id`, `device_id`, max(`last_used_at`) FROM `sessions` WHERE `device_id` IS NOT NULL GROUP BY `user_id`, `device_id`;