CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`user_id` integer NOT NULL,
	`actor_label` text NOT NULL,
	`scope` text NOT NULL,
	`input` text NOT NULL,
	`upload` text,
	`state` text DEFAULT 'queued' NOT NULL,
	`progress_done` integer DEFAULT 0 NOT NULL,
	`progress_total` integer DEFAULT 0 NOT NULL,
	`progress_label` text DEFAULT '' NOT NULL,
	`result` text,
	`error_key` text,
	`error_params` text,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`dismissed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "jobs_state_check" CHECK("jobs"."state" IN ('queued', 'running', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `jobs_user_kind_index` ON `jobs` (`user_id`,`kind`,`id`);--> statement-breakpoint
CREATE INDEX `jobs_state_index` ON `jobs` (`state`);