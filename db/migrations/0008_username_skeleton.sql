ALTER TABLE `users` ADD `username_skeleton` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_skeleton` ON `users` (`username_skeleton`);