CREATE TABLE `dish_import_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`action` text NOT NULL,
	`subject_id` integer NOT NULL,
	`before` text,
	`after` text,
	FOREIGN KEY (`run_id`) REFERENCES `dish_import_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `dish_import_audit_run_index` ON `dish_import_audit` (`run_id`);--> statement-breakpoint
CREATE TABLE `dish_import_dishes` (
	`run_id` integer NOT NULL,
	`dish_id` integer NOT NULL,
	`is_new` integer NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`active` integer NOT NULL,
	PRIMARY KEY(`run_id`, `dish_id`),
	FOREIGN KEY (`run_id`) REFERENCES `dish_import_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `dish_import_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`recipe_id` integer NOT NULL,
	`position` integer NOT NULL,
	`ingredient_id` integer,
	`sub_dish_id` integer,
	`quantity` real NOT NULL,
	`offer_id` integer,
	FOREIGN KEY (`run_id`) REFERENCES `dish_import_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `dish_import_lines_run_index` ON `dish_import_lines` (`run_id`);--> statement-breakpoint
CREATE TABLE `dish_import_links` (
	`run_id` integer NOT NULL,
	`dish_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	PRIMARY KEY(`run_id`, `dish_id`, `category_id`),
	FOREIGN KEY (`run_id`) REFERENCES `dish_import_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `dish_import_recipes` (
	`run_id` integer NOT NULL,
	`recipe_id` integer NOT NULL,
	`is_new` integer NOT NULL,
	`dish_id` integer NOT NULL,
	`level_id` integer NOT NULL,
	`yield_grams` real,
	PRIMARY KEY(`run_id`, `recipe_id`),
	FOREIGN KEY (`run_id`) REFERENCES `dish_import_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `dish_import_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer,
	`actor_id` integer,
	`actor_label` text NOT NULL,
	`state` text NOT NULL,
	`lease_until` integer NOT NULL,
	`started_at` integer NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "dish_import_runs_state_check" CHECK("dish_import_runs"."state" IN ('staging', 'done'))
);
