-- The daily totals become clustered on their keys (WITHOUT ROWID): the dashboard reads a month of one cafe as one
-- contiguous range of the table itself instead of an index range plus one table lookup per row. The triggers that
-- keep the totals name the tables, so they are dropped first and created again, unchanged, once the tables are back.
DROP TRIGGER `sales_figures_insert`;--> statement-breakpoint
DROP TRIGGER `sales_figures_update`;--> statement-breakpoint
DROP TRIGGER `sales_figures_delete`;--> statement-breakpoint
DROP TRIGGER `sale_lines_figures_insert`;--> statement-breakpoint
DROP TRIGGER `sale_lines_figures_update`;--> statement-breakpoint
DROP TRIGGER `sale_lines_figures_delete`;--> statement-breakpoint
CREATE TABLE `daily_sale_figures_clustered` (
	`cafe_id` integer NOT NULL,
	`service_date` text NOT NULL,
	`subdealership_id` integer NOT NULL,
	`other_unit` integer NOT NULL,
	`sales` integer DEFAULT 0 NOT NULL,
	`total_cents` integer DEFAULT 0 NOT NULL,
	`voided_sales` integer DEFAULT 0 NOT NULL,
	`voided_cents` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`cafe_id`, `service_date`, `subdealership_id`, `other_unit`),
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `daily_sale_figures_clustered` SELECT `cafe_id`, `service_date`, `subdealership_id`, `other_unit`, `sales`,
  `total_cents`, `voided_sales`, `voided_cents` FROM `daily_sale_figures`;--> statement-breakpoint
DROP TABLE `daily_sale_figures`;--> statement-breakpoint
ALTER TABLE `daily_sale_figures_clustered` RENAME TO `daily_sale_figures`;--> statement-breakpoint
CREATE TABLE `daily_service_figures_clustered` (
	`cafe_id` integer NOT NULL,
	`service_date` text NOT NULL,
	`service_id` integer NOT NULL,
	`meals` integer DEFAULT 0 NOT NULL,
	`total_cents` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`cafe_id`, `service_date`, `service_id`),
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `daily_service_figures_clustered` SELECT `cafe_id`, `service_date`, `service_id`, `meals`, `total_cents`
  FROM `daily_service_figures`;--> statement-breakpoint
DROP TABLE `daily_service_figures`;--> statement-breakpoint
ALTER TABLE `daily_service_figures_clustered` RENAME TO `daily_service_figures`;--> statement-breakpoint
CREATE TRIGGER `sales_figures_insert` AFTER INSERT ON `sales`
BEGIN
INSERT INTO `daily_sale_figures` (`cafe_id`, `service_date`, `subdealership_id`, `other_unit`, `sales`, `total_cents`, `voided_sales`, `voided_cents`)
VALUES (NEW.`cafe_id`, NEW.`service_date`, coalesce(NEW.`subdealership_id`, 0), NEW.`other_unit`, NEW.`voided_at` IS NULL,
  iif(NEW.`voided_at` IS NULL, NEW.`total_cents`, 0), NEW.`voided_at` IS NOT NULL, iif(NEW.`voided_at` IS NULL, 0, NEW.`total_cents`))
ON CONFLICT (`cafe_id`, `service_date`, `subdealership_id`, `other_unit`) DO UPDATE SET `sales` = `sales` + excluded.`sales`,
  `total_cents` = `total_cents` + excluded.`total_cents`, `voided_sales` = `voided_sales` + excluded.`voided_sales`,
  `voided_cents` = `voided_cents` + excluded.`voided_cents`;
END;
--> statement-breakpoint
CREATE TRIGGER `sales_figures_update` AFTER UPDATE OF `cafe_id`, `service_date`, `subdealership_id`, `other_unit`, `total_cents`, `voided_at` ON `sales`
BEGIN
UPDATE `daily_sale_figures` SET `sales` = `sales` - (OLD.`voided_at` IS NULL),
  `total_cents` = `total_cents` - iif(OLD.`voided_at` IS NULL, OLD.`total_cents`, 0),
  `voided_sales` = `voided_sales` - (OLD.`voided_at` IS NOT NULL),
  `voided_cents` = `voided_cents` - iif(OLD.`voided_at` IS NULL, 0, OLD.`total_cents`)
WHERE `cafe_id` = OLD.`cafe_id` AND `service_date` = OLD.`service_date`
  AND `subdealership_id` = coalesce(OLD.`subdealership_id`, 0) AND `other_unit` = OLD.`other_unit`;
INSERT INTO `daily_sale_figures` (`cafe_id`, `service_date`, `subdealership_id`, `other_unit`, `sales`, `total_cents`, `voided_sales`, `voided_cents`)
VALUES (NEW.`cafe_id`, NEW.`service_date`, coalesce(NEW.`subdealership_id`, 0), NEW.`other_unit`, NEW.`voided_at` IS NULL,
  iif(NEW.`voided_at` IS NULL, NEW.`total_cents`, 0), NEW.`voided_at` IS NOT NULL, iif(NEW.`voided_at` IS NULL, 0, NEW.`total_cents`))
ON CONFLICT (`cafe_id`, `service_date`, `subdealership_id`, `other_unit`) DO UPDATE SET `sales` = `sales` + excluded.`sales`,
  `total_cents` = `total_cents` + excluded.`total_cents`, `voided_sales` = `voided_sales` + excluded.`voided_sales`,
  `voided_cents` = `voided_cents` + excluded.`voided_cents`;
UPDATE `daily_service_figures` SET `meals` = `daily_service_figures`.`meals` - l.`meals`,
  `total_cents` = `daily_service_figures`.`total_cents` - l.`total_cents`
FROM (SELECT `service_id`, sum(`quantity`) AS `meals`, sum(`total_cents`) AS `total_cents` FROM `sale_lines`
  WHERE `sale_id` = OLD.`id` GROUP BY `service_id`) AS l
WHERE OLD.`voided_at` IS NULL AND `daily_service_figures`.`cafe_id` = OLD.`cafe_id`
  AND `daily_service_figures`.`service_date` = OLD.`service_date` AND `daily_service_figures`.`service_id` = l.`service_id`;
INSERT INTO `daily_service_figures` (`cafe_id`, `service_date`, `service_id`, `meals`, `total_cents`)
SELECT NEW.`cafe_id`, NEW.`service_date`, `service_id`, sum(`quantity`), sum(`total_cents`) FROM `sale_lines`
WHERE `sale_id` = NEW.`id` AND NEW.`voided_at` IS NULL GROUP BY `service_id`
ON CONFLICT (`cafe_id`, `service_date`, `service_id`) DO UPDATE SET `meals` = `meals` + excluded.`meals`,
  `total_cents` = `total_cents` + excluded.`total_cents`;
END;
--> statement-breakpoint
CREATE TRIGGER `sales_figures_delete` AFTER DELETE ON `sales`
BEGIN
UPDATE `daily_sale_figures` SET `sales` = `sales` - (OLD.`voided_at` IS NULL),
  `total_cents` = `total_cents` - iif(OLD.`voided_at` IS NULL, OLD.`total_cents`, 0),
  `voided_sales` = `voided_sales` - (OLD.`voided_at` IS NOT NULL),
  `voided_cents` = `voided_cents` - iif(OLD.`voided_at` IS NULL, 0, OLD.`total_cents`)
WHERE `cafe_id` = OLD.`cafe_id` AND `service_date` = OLD.`service_date`
  AND `subdealership_id` = coalesce(OLD.`subdealership_id`, 0) AND `other_unit` = OLD.`other_unit`;
END;
--> statement-breakpoint
CREATE TRIGGER `sale_lines_figures_insert` AFTER INSERT ON `sale_lines`
BEGIN
INSERT INTO `daily_service_figures` (`cafe_id`, `service_date`, `service_id`, `meals`, `total_cents`)
SELECT s.`cafe_id`, s.`service_date`, NEW.`service_id`, NEW.`quantity`, NEW.`total_cents` FROM `sales` s
WHERE s.`id` = NEW.`sale_id` AND s.`voided_at` IS NULL
ON CONFLICT (`cafe_id`, `service_date`, `service_id`) DO UPDATE SET `meals` = `meals` + excluded.`meals`,
  `total_cents` = `total_cents` + excluded.`total_cents`;
END;
--> statement-breakpoint
CREATE TRIGGER `sale_lines_figures_update` AFTER UPDATE OF `sale_id`, `service_id`, `quantity`, `total_cents` ON `sale_lines`
BEGIN
UPDATE `daily_service_figures` SET `meals` = `meals` - OLD.`quantity`, `total_cents` = `total_cents` - OLD.`total_cents`
WHERE `service_id` = OLD.`service_id`
  AND (`cafe_id`, `service_date`) = (SELECT s.`cafe_id`, s.`service_date` FROM `sales` s WHERE s.`id` = OLD.`sale_id` AND s.`voided_at` IS NULL);
INSERT INTO `daily_service_figures` (`cafe_id`, `service_date`, `service_id`, `meals`, `total_cents`)
SELECT s.`cafe_id`, s.`service_date`, NEW.`service_id`, NEW.`quantity`, NEW.`total_cents` FROM `sales` s
WHERE s.`id` = NEW.`sale_id` AND s.`voided_at` IS NULL
ON CONFLICT (`cafe_id`, `service_date`, `service_id`) DO UPDATE SET `meals` = `meals` + excluded.`meals`,
  `total_cents` = `total_cents` + excluded.`total_cents`;
END;
--> statement-breakpoint
CREATE TRIGGER `sale_lines_figures_delete` AFTER DELETE ON `sale_lines`
BEGIN
UPDATE `daily_service_figures` SET `meals` = `meals` - OLD.`quantity`, `total_cents` = `total_cents` - OLD.`total_cents`
WHERE `service_id` = OLD.`service_id`
  AND (`cafe_id`, `service_date`) = (SELECT s.`cafe_id`, s.`service_date` FROM `sales` s WHERE s.`id` = OLD.`sale_id` AND s.`voided_at` IS NULL);
END;
