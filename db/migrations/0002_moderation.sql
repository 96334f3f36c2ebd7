CREATE TABLE `appeals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ban_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`text` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`response` text,
	`created_at` integer NOT NULL,
	`decided_at` integer,
	`decided_by` integer,
	FOREIGN KEY (`ban_id`) REFERENCES `bans`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `appeals_ban` ON `appeals` (`ban_id`);--> statement-breakpoint
CREATE INDEX `appeals_status` ON `appeals` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor_id` integer,
	`action` text NOT NULL,
	`target_user_id` integer,
	`report_ids` text,
	`reason` text,
	`detail` text,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`target_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_at` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_target` ON `audit_log` (`target_user_id`,`at`);--> statement-breakpoint
CREATE INDEX `audit_action` ON `audit_log` (`action`,`at`);--> statement-breakpoint
CREATE TABLE `ban_devices` (
	`ban_id` integer NOT NULL,
	`device_id` text NOT NULL,
	PRIMARY KEY(`ban_id`, `device_id`),
	FOREIGN KEY (`ban_id`) REFERENCES `bans`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ban_devices_device` ON `ban_devices` (`device_id`);--> statement-breakpoint
CREATE TABLE `bans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`reason` text NOT NULL,
	`until` integer,
	`created_at` integer NOT NULL,
	`created_by` integer,
	`address_hash` text,
	`lifted_at` integer,
	`lifted_by` integer,
	`lift_reason` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`lifted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `bans_user` ON `bans` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `bans_address` ON `bans` (`address_hash`);--> statement-breakpoint
CREATE TABLE `warnings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` integer,
	`acknowledged_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `warnings_user` ON `warnings` (`user_id`,`acknowledged_at`);--> statement-breakpoint
ALTER TABLE `messages` ADD `removed_at` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `first_action_at` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `closed_at` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `closed_by` integer REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `reports` ADD `purged_at` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `device_id` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `address_hash` text;--> statement-breakpoint
ALTER TABLE `users` ADD `roulette_suspended_until` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `roulette_suspension_reason` text;