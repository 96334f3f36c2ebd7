CREATE TABLE `roulette_sessions` (
	`row` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`user_a` integer NOT NULL,
	`user_b` integer NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`lines` text DEFAULT '[]' NOT NULL
);
