CREATE TABLE `business_services` (
	`business_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	PRIMARY KEY(`business_id`, `service_id`),
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `business_services_service_index` ON `business_services` (`service_id`);--> statement-breakpoint
CREATE TABLE `dealerships` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`ruc` text NOT NULL,
	`fiscal_address` text DEFAULT '' NOT NULL,
	`legal_address` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dealerships_name_unique` ON `dealerships` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `dealerships_ruc_unique` ON `dealerships` (`ruc`);--> statement-breakpoint
CREATE TABLE `properties` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`category` text NOT NULL,
	`serial` text DEFAULT '' NOT NULL,
	`headquarters_id` integer,
	`cafe_id` integer,
	`status` text NOT NULL,
	`acquired_on` text,
	`acquisition_value_cents` integer,
	`notes` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`headquarters_id`) REFERENCES `headquarters`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "properties_location_check" CHECK(("properties"."headquarters_id" IS NULL) <> ("properties"."cafe_id" IS NULL)),
	CONSTRAINT "properties_status_check" CHECK("properties"."status" IN ('in_use', 'in_storage', 'under_repair', 'retired'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `properties_code_unique` ON `properties` (`code`);--> statement-breakpoint
CREATE INDEX `properties_headquarters_index` ON `properties` (`headquarters_id`);--> statement-breakpoint
CREATE INDEX `properties_cafe_index` ON `properties` (`cafe_id`);--> statement-breakpoint
CREATE TABLE `subdealership_units` (
	`subdealership_id` integer NOT NULL,
	`unit_id` integer NOT NULL,
	PRIMARY KEY(`subdealership_id`, `unit_id`),
	FOREIGN KEY (`subdealership_id`) REFERENCES `subdealerships`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`unit_id`) REFERENCES `units`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `subdealership_units_unit_index` ON `subdealership_units` (`unit_id`);--> statement-breakpoint
CREATE TABLE `subdealerships` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dealership_id` integer NOT NULL,
	`name` text NOT NULL,
	`ruc` text NOT NULL,
	`fiscal_address` text DEFAULT '' NOT NULL,
	`legal_address` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`dealership_id`) REFERENCES `dealerships`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subdealerships_ruc_unique` ON `subdealerships` (`ruc`);--> statement-breakpoint
CREATE UNIQUE INDEX `subdealerships_dealership_name_unique` ON `subdealerships` (`dealership_id`,`name`);--> statement-breakpoint
ALTER TABLE `businesses` ADD `ruc` text;--> statement-breakpoint
ALTER TABLE `businesses` ADD `fiscal_address` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `legal_address` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `email` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `phone` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `businesses_ruc_unique` ON `businesses` (`ruc`);--> statement-breakpoint
ALTER TABLE `cafes` ADD `time_zone` text DEFAULT 'America/Lima' NOT NULL;--> statement-breakpoint
ALTER TABLE `headquarters` ADD `address` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `headquarters` ADD `phone` text DEFAULT '' NOT NULL;