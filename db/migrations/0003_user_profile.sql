ALTER TABLE `users` ADD `profile` text;--> statement-breakpoint
CREATE INDEX `users_country` ON `users` (`country_code`,`is_online`,`last_seen`);