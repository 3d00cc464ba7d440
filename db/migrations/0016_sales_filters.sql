CREATE INDEX `sale_lines_date_index` ON `sale_lines` (`service_date`,`sale_id`,`voided`,`sale_type`,`service_id`,`quantity`,`base_cents`,`igv_cents`,`total_cents`);--> statement-breakpoint
CREATE INDEX `sale_lines_meal_index` ON `sale_lines` (`service_date`,`diner_id`,`service_id`) WHERE "sale_lines"."voided" = 0 AND "sale_lines"."diner_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `sales_dealership_date_index` ON `sales` (`dealership_id`,`service_date`);--> statement-breakpoint
CREATE INDEX `sales_subdealership_date_index` ON `sales` (`subdealership_id`,`service_date`);