CREATE TABLE `call_meetings` (
	`user_lo` integer NOT NULL,
	`user_hi` integer NOT NULL,
	`answered_at` integer NOT NULL,
	PRIMARY KEY(`user_lo`, `user_hi`),
	FOREIGN KEY (`user_lo`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_hi`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `call_meetings_answered` ON `call_meetings` (`answered_at`);--> statement-breakpoint
ALTER TABLE `reports` ADD `reporter_address_hash` text;--> statement-breakpoint
ALTER TABLE `reports` ADD `reporter_device_id` text;