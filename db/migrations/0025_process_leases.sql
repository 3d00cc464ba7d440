CREATE TABLE `processes` (
	`id` text PRIMARY KEY NOT NULL,
	`pid` integer NOT NULL,
	`hostname` text NOT NULL,
	`address` text NOT NULL,
	`started_at` integer NOT NULL,
	`seen_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `jobs` ADD `process_id` text;