ALTER TABLE `diners` ADD `import_id` integer REFERENCES diner_imports(id);--> statement-breakpoint
CREATE INDEX `diners_import_index` ON `diners` (`import_id`) WHERE "diners"."import_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `diner_imports` ADD `stop_key` text;--> statement-breakpoint
ALTER TABLE `diner_imports` ADD `stop_params` text;--> statement-breakpoint
CREATE VIEW `visible_diners` AS select "id", "document_type", "document_number", "name", "name_folded", "phone", "subdealership_id", "cafe_id", "level_id", "active", "import_id", "created_at", "updated_at" from "diners" where "diners"."import_id" IS NULL OR "diners"."import_id" NOT IN (SELECT id FROM diner_imports WHERE state = 'writing');