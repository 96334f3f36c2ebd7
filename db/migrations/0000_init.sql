CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sender_id` integer NOT NULL,
	`receiver_id` integer NOT NULL,
	`pair_lo` integer NOT NULL,
	`pair_hi` integer NOT NULL,
	`content` text NOT NULL,
	`message_type` text NOT NULL,
	`file_name` text,
	`file_path` text,
	`file_size` integer,
	`file_mime` text,
	`group_id` text,
	`client_message_id` text,
	`created_at` integer NOT NULL,
	`delivered_at` integer,
	`read_at` integer,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`receiver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `messages_conversation` ON `messages` (`pair_lo`,`pair_hi`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_pair_hi` ON `messages` (`pair_hi`,`pair_lo`);--> statement-breakpoint
CREATE INDEX `messages_unread` ON `messages` (`receiver_id`,`read_at`,`sender_id`);--> statement-breakpoint
CREATE INDEX `messages_undelivered` ON `messages` (`receiver_id`,`delivered_at`);--> statement-breakpoint
CREATE INDEX `messages_file` ON `messages` (`file_path`);--> statement-breakpoint
CREATE UNIQUE INDEX `messages_client_id` ON `messages` (`sender_id`,`client_message_id`) WHERE client_message_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`username_key` text NOT NULL,
	`email` text,
	`email_key` text,
	`password_hash` text,
	`name` text NOT NULL,
	`gender` text NOT NULL,
	`orientation` text DEFAULT 'heterosexual' NOT NULL,
	`age` integer,
	`country_code` text,
	`country_name` text,
	`avatar_path` text,
	`is_guest` integer DEFAULT false NOT NULL,
	`is_online` integer DEFAULT false NOT NULL,
	`last_seen` integer NOT NULL,
	`created_at` integer NOT NULL,
	`banned` integer DEFAULT false NOT NULL,
	`banned_until` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_key` ON `users` (`username_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_key` ON `users` (`email_key`);--> statement-breakpoint
CREATE INDEX `users_presence` ON `users` (`is_online`,`last_seen`);