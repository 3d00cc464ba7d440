CREATE TABLE `diner_import_undo` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_id` integer NOT NULL,
	`created_from` integer,
	`created_to` integer,
	`audit_from` integer,
	`audit_to` integer,
	`changed` text DEFAULT '[]' NOT NULL,
	FOREIGN KEY (`import_id`) REFERENCES `diner_imports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `diner_import_undo_import_index` ON `diner_import_undo` (`import_id`,`id`);--> statement-breakpoint
CREATE TABLE `diner_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file_name` text NOT NULL,
	`sha256` text NOT NULL,
	`via` text NOT NULL,
	`job_id` integer,
	`actor_id` integer,
	`actor_label` text NOT NULL,
	`state` text NOT NULL,
	`rows` integer DEFAULT 0 NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`updated` integer DEFAULT 0 NOT NULL,
	`unchanged` integer DEFAULT 0 NOT NULL,
	`deactivated` integer DEFAULT 0 NOT NULL,
	`problem_count` integer DEFAULT 0 NOT NULL,
	`message_key` text,
	`message_params` text,
	`lease_owner` text,
	`lease_until` integer,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "diner_imports_state_check" CHECK("diner_imports"."state" IN ('writing', 'succeeded', 'refused', 'failed', 'rolled_back')),
	CONSTRAINT "diner_imports_via_check" CHECK("diner_imports"."via" IN ('page', 'cli', 'inbox'))
);
--> statement-breakpoint
CREATE INDEX `diner_imports_sha256_index` ON `diner_imports` (`sha256`,`id`);--> statement-breakpoint
CREATE INDEX `diner_imports_state_index` ON `diner_imports` (`state`);