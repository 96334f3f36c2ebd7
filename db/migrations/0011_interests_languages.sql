CREATE TABLE `interest_tags` (
	`tag` text PRIMARY KEY NOT NULL,
	`uses` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `interest_tags_uses` ON `interest_tags` (`uses`);--> statement-breakpoint
ALTER TABLE `users` ADD `interests` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `languages` text DEFAULT '[]' NOT NULL;