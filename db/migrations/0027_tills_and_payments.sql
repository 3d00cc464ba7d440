-- Tills, payment methods and the payments of cash-type sales (docs/cash.md). New tables keyed by sale: `sales` is
-- not rebuilt, so its daily figures' triggers stay as they are.
CREATE TABLE `cafe_payment_methods` (
	`cafe_id` integer NOT NULL,
	`method_id` integer NOT NULL,
	PRIMARY KEY(`cafe_id`, `method_id`),
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`method_id`) REFERENCES `payment_methods`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE TABLE `payment_methods` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`needs_reference` integer NOT NULL,
	`in_drawer` integer NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_methods_code_unique` ON `payment_methods` (`code`);--> statement-breakpoint
CREATE TABLE `sale_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sale_id` integer NOT NULL,
	`method_id` integer NOT NULL,
	`method_code` text NOT NULL,
	`method_name` text NOT NULL,
	`in_drawer` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`tendered_cents` integer,
	`change_cents` integer,
	`reference` text,
	FOREIGN KEY (`sale_id`) REFERENCES `sales`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`method_id`) REFERENCES `payment_methods`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "sale_payments_amount_check" CHECK("sale_payments"."amount_cents" > 0),
	CONSTRAINT "sale_payments_change_check" CHECK(("sale_payments"."tendered_cents" IS NULL AND "sale_payments"."change_cents" IS NULL) OR ("sale_payments"."change_cents" >= 0 AND "sale_payments"."tendered_cents" = "sale_payments"."amount_cents" + "sale_payments"."change_cents"))
);
--> statement-breakpoint
CREATE INDEX `sale_payments_sale_index` ON `sale_payments` (`sale_id`);--> statement-breakpoint
CREATE TABLE `sale_tills` (
	`sale_id` integer PRIMARY KEY NOT NULL,
	`till_id` integer NOT NULL,
	`till_name` text NOT NULL,
	FOREIGN KEY (`sale_id`) REFERENCES `sales`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`till_id`) REFERENCES `tills`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `sale_tills_till_index` ON `sale_tills` (`till_id`,`sale_id`);--> statement-breakpoint
CREATE TABLE `tills` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cafe_id` integer NOT NULL,
	`name` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tills_cafe_name_unique` ON `tills` (`cafe_id`,`name`);--> statement-breakpoint
-- The methods Mesa starts with (names in Spanish; the pages say a built-in method's name in the reader's language).
INSERT INTO `payment_methods` (`code`, `name`, `needs_reference`, `in_drawer`, `active`, `sort_order`, `created_at`, `updated_at`) VALUES
  ('cash', 'Efectivo', 0, 1, 1, 1, CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000),
  ('yape', 'Yape', 1, 0, 1, 2, CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000),
  ('plin', 'Plin', 1, 0, 1, 3, CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000),
  ('card', 'Tarjeta', 1, 0, 1, 4, CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000),
  ('transfer', 'Transferencia', 1, 0, 1, 5, CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000);--> statement-breakpoint
-- Every cafe starts with one till, "Caja 1", and takes cash; a manager registers more tills and an administrator
-- switches other methods on. The same for a cafe made from now on, by any path (the pages, the places import, the CLI).
INSERT INTO `tills` (`cafe_id`, `name`, `active`, `created_at`, `updated_at`)
  SELECT `id`, 'Caja 1', 1, CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000 FROM `cafes`;--> statement-breakpoint
INSERT INTO `cafe_payment_methods` (`cafe_id`, `method_id`)
  SELECT `cafes`.`id`, `payment_methods`.`id` FROM `cafes`, `payment_methods` WHERE `payment_methods`.`code` = 'cash';--> statement-breakpoint
CREATE TRIGGER `cafes_till_and_cash_on_insert` AFTER INSERT ON `cafes`
BEGIN
  INSERT INTO `tills` (`cafe_id`, `name`, `active`, `created_at`, `updated_at`)
    VALUES (NEW.`id`, 'Caja 1', 1, CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000);
  INSERT INTO `cafe_payment_methods` (`cafe_id`, `method_id`)
    SELECT NEW.`id`, `id` FROM `payment_methods` WHERE `code` = 'cash';
END;