CREATE TABLE `diners` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_type` text NOT NULL,
	`document_number` text NOT NULL,
	`name` text NOT NULL,
	`name_folded` text,
	`phone` text DEFAULT '' NOT NULL,
	`subdealership_id` integer NOT NULL,
	`cafe_id` integer NOT NULL,
	`level_id` integer,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`subdealership_id`) REFERENCES `subdealerships`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`level_id`) REFERENCES `levels`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "diners_document_type_check" CHECK("diners"."document_type" IN ('dni', 'ce', 'pas'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `diners_document_unique` ON `diners` (`document_type`,`document_number`);--> statement-breakpoint
CREATE INDEX `diners_document_number_index` ON `diners` (`document_number`);--> statement-breakpoint
CREATE INDEX `diners_cafe_name_index` ON `diners` (`cafe_id`,`name_folded`);--> statement-breakpoint
CREATE INDEX `diners_subdealership_index` ON `diners` (`subdealership_id`);--> statement-breakpoint
CREATE TABLE `levels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `levels_name_unique` ON `levels` (`name`);--> statement-breakpoint
CREATE TABLE `sale_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sale_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`service_code` text NOT NULL,
	`service_name` text NOT NULL,
	`quantity` integer NOT NULL,
	`list_price_cents` integer NOT NULL,
	`unit_price_cents` integer NOT NULL,
	`base_cents` integer NOT NULL,
	`igv_cents` integer NOT NULL,
	`total_cents` integer NOT NULL,
	`diner_id` integer,
	`sale_type` text NOT NULL,
	`service_date` text NOT NULL,
	`voided` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`sale_id`) REFERENCES `sales`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "sale_lines_quantity_check" CHECK("sale_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE INDEX `sale_lines_sale_index` ON `sale_lines` (`sale_id`);--> statement-breakpoint
CREATE INDEX `sale_lines_service_index` ON `sale_lines` (`service_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sale_lines_one_credit_meal` ON `sale_lines` (`diner_id`,`service_id`,`service_date`) WHERE "sale_lines"."sale_type" = 'credit' AND "sale_lines"."voided" = 0;--> statement-breakpoint
CREATE TABLE `sale_prints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sale_id` integer NOT NULL,
	`user_id` integer,
	`reprint` integer NOT NULL,
	`printed_at` integer NOT NULL,
	FOREIGN KEY (`sale_id`) REFERENCES `sales`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `sale_prints_sale_index` ON `sale_prints` (`sale_id`);--> statement-breakpoint
CREATE TABLE `sales` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cafe_id` integer NOT NULL,
	`receipt_type` text NOT NULL,
	`series` text NOT NULL,
	`number` integer NOT NULL,
	`sale_type` text NOT NULL,
	`service_date` text NOT NULL,
	`sold_at` integer NOT NULL,
	`request_key` text NOT NULL,
	`request_digest` text NOT NULL,
	`diner_id` integer,
	`document_type` text NOT NULL,
	`document_number` text NOT NULL,
	`diner_name` text NOT NULL,
	`subdealership_id` integer,
	`subdealership_name` text,
	`subdealership_ruc` text,
	`dealership_id` integer,
	`dealership_name` text,
	`dealership_ruc` text,
	`business_id` integer NOT NULL,
	`business_name` text NOT NULL,
	`business_ruc` text NOT NULL,
	`business_address` text DEFAULT '' NOT NULL,
	`cafe_name` text NOT NULL,
	`other_unit` integer DEFAULT false NOT NULL,
	`price_factor_percent` integer DEFAULT 100 NOT NULL,
	`igv_rate_basis_points` integer NOT NULL,
	`base_cents` integer NOT NULL,
	`igv_cents` integer NOT NULL,
	`total_cents` integer NOT NULL,
	`cashier_id` integer,
	`cashier_name` text NOT NULL,
	`voided_at` integer,
	`voided_by` integer,
	`voided_by_name` text,
	`void_reason` text,
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`diner_id`) REFERENCES `diners`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`subdealership_id`) REFERENCES `subdealerships`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`dealership_id`) REFERENCES `dealerships`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`cashier_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`voided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "sales_sale_type_check" CHECK("sales"."sale_type" IN ('credit', 'cash')),
	CONSTRAINT "sales_receipt_type_check" CHECK("sales"."receipt_type" IN ('ticket')),
	CONSTRAINT "sales_credit_diner_check" CHECK("sales"."sale_type" = 'cash' OR "sales"."diner_id" IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sales_cafe_series_number_unique` ON `sales` (`cafe_id`,`series`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `sales_request_key_unique` ON `sales` (`request_key`);--> statement-breakpoint
CREATE INDEX `sales_cafe_date_index` ON `sales` (`cafe_id`,`service_date`,`id`);--> statement-breakpoint
CREATE INDEX `sales_diner_index` ON `sales` (`diner_id`);--> statement-breakpoint
CREATE INDEX `sales_service_date_index` ON `sales` (`service_date`);--> statement-breakpoint
ALTER TABLE `cafes` ADD `ticket_series` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `cafes` ADD `next_ticket_number` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `cafes` ADD `auto_print` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `cafe_services` ADD `window_start` integer;--> statement-breakpoint
ALTER TABLE `cafe_services` ADD `window_end` integer;--> statement-breakpoint
CREATE TRIGGER `diners_name_folded_stale` AFTER UPDATE OF `name` ON `diners`
WHEN NEW.`name` IS NOT OLD.`name` AND NEW.`name_folded` IS OLD.`name_folded` AND NEW.`name_folded` IS NOT NULL
BEGIN UPDATE `diners` SET `name_folded` = NULL WHERE `id` = NEW.`id`; END;--> statement-breakpoint
CREATE TRIGGER `cafes_ticket_series_default` AFTER INSERT ON `cafes`
WHEN NEW.`ticket_series` = ''
BEGIN UPDATE `cafes` SET `ticket_series` = 'T' || printf('%03d', NEW.`id`) WHERE `id` = NEW.`id`; END;--> statement-breakpoint
UPDATE `cafes` SET `ticket_series` = 'T' || printf('%03d', `id`) WHERE `ticket_series` = '';--> statement-breakpoint
INSERT INTO `levels` (`name`, `sort_order`) VALUES ('Master', 1), ('Staff', 2), ('Employee', 3), ('Laborer', 4);
