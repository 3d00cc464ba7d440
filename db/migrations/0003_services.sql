CREATE TABLE `cafe_services` (
	`cafe_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`price_cents` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`cafe_id`, `service_id`),
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `cafe_services_service_index` ON `cafe_services` (`service_id`);--> statement-breakpoint
CREATE TABLE `mine_services` (
	`mine_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	PRIMARY KEY(`mine_id`, `service_id`),
	FOREIGN KEY (`mine_id`) REFERENCES `mines`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `mine_services_service_index` ON `mine_services` (`service_id`);--> statement-breakpoint
CREATE TABLE `service_price_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cafe_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`old_price_cents` integer,
	`new_price_cents` integer,
	`changed_by` integer,
	`changed_by_label` text NOT NULL,
	`changed_at` integer NOT NULL,
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`changed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `service_price_history_cafe_index` ON `service_price_history` (`cafe_id`,`service_id`,`changed_at`);--> statement-breakpoint
CREATE TABLE `services` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`type` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "services_type_check" CHECK("services"."type" IN ('breakfast', 'lunch', 'dinner', 'snack', 'disposables'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `services_code_unique` ON `services` (`code`);--> statement-breakpoint
CREATE TABLE `unit_services` (
	`unit_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	PRIMARY KEY(`unit_id`, `service_id`),
	FOREIGN KEY (`unit_id`) REFERENCES `units`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `unit_services_service_index` ON `unit_services` (`service_id`);