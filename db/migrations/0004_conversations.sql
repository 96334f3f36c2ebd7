-- WITHOUT ROWID added by hand (drizzle-kit cannot say it): the row lives in its key's b-tree,
-- so each message updates one b-tree fewer.
CREATE TABLE `conversations` (
	`owner_id` integer NOT NULL,
	`partner_id` integer NOT NULL,
	`last_message_id` integer NOT NULL,
	`last_message_at` integer NOT NULL,
	`unread_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`owner_id`, `partner_id`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`partner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `conversations_recent` ON `conversations` (`owner_id`,`last_message_at`);--> statement-breakpoint
-- Only the old chat list read this index; every message insert no longer pays for it.
DROP INDEX `messages_pair_hi`;--> statement-breakpoint
-- Backfill: each side of every pair, with its newest message (created_at is taken from the row
-- that max(id) picks) and the messages to that side still unread.
INSERT INTO `conversations` (`owner_id`, `partner_id`, `last_message_id`, `last_message_at`, `unread_count`)
SELECT `owner_id`, `partner_id`, max(`id`), `created_at`, sum(`unread`) FROM (
  SELECT `sender_id` AS `owner_id`, `receiver_id` AS `partner_id`, `id`, `created_at`, 0 AS `unread` FROM `messages`
  UNION ALL
  SELECT `receiver_id`, `sender_id`, `id`, `created_at`, `read_at` IS NULL FROM `messages`
) GROUP BY `owner_id`, `partner_id`;
