CREATE TABLE `dish_categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`unit` text DEFAULT 'g' NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dish_categories_unit_check" CHECK("dish_categories"."unit" IN ('g', 'ml'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dish_categories_name_unique` ON `dish_categories` (`name`);--> statement-breakpoint
CREATE TABLE `dish_category_links` (
	`dish_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	PRIMARY KEY(`dish_id`, `category_id`),
	FOREIGN KEY (`dish_id`) REFERENCES `dishes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `dish_categories`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `dish_category_links_category_index` ON `dish_category_links` (`category_id`);--> statement-breakpoint
CREATE TABLE `dishes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dishes_name_unique` ON `dishes` (`name`);--> statement-breakpoint
CREATE TABLE `recipe_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`recipe_id` integer NOT NULL,
	`position` integer NOT NULL,
	`ingredient_id` integer,
	`sub_dish_id` integer,
	`quantity` real NOT NULL,
	`offer_id` integer,
	FOREIGN KEY (`recipe_id`) REFERENCES `recipes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`ingredient_id`) REFERENCES `ingredients`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`sub_dish_id`) REFERENCES `dishes`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`offer_id`) REFERENCES `offers`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "recipe_lines_quantity_check" CHECK("recipe_lines"."quantity" > 0),
	CONSTRAINT "recipe_lines_one_kind_check" CHECK(("recipe_lines"."ingredient_id" IS NULL) <> ("recipe_lines"."sub_dish_id" IS NULL) AND ("recipe_lines"."sub_dish_id" IS NULL OR "recipe_lines"."offer_id" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `recipe_lines_recipe_index` ON `recipe_lines` (`recipe_id`,`position`);--> statement-breakpoint
CREATE INDEX `recipe_lines_ingredient_index` ON `recipe_lines` (`ingredient_id`);--> statement-breakpoint
CREATE INDEX `recipe_lines_sub_dish_index` ON `recipe_lines` (`sub_dish_id`);--> statement-breakpoint
CREATE INDEX `recipe_lines_offer_index` ON `recipe_lines` (`offer_id`);--> statement-breakpoint
CREATE TABLE `recipes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dish_id` integer NOT NULL,
	`level_id` integer NOT NULL,
	`yield_grams` real,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`dish_id`) REFERENCES `dishes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`level_id`) REFERENCES `levels`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "recipes_yield_check" CHECK("recipes"."yield_grams" IS NULL OR "recipes"."yield_grams" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recipes_dish_level_unique` ON `recipes` (`dish_id`,`level_id`);--> statement-breakpoint
CREATE INDEX `recipes_level_index` ON `recipes` (`level_id`);--> statement-breakpoint
CREATE TABLE `display_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cafe_id` integer NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` integer,
	`revoked_at` integer,
	`last_used_at` integer,
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `display_links_token_hash_unique` ON `display_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `display_links_cafe_index` ON `display_links` (`cafe_id`);--> statement-breakpoint
CREATE TABLE `menu_days` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cafe_id` integer NOT NULL,
	`date` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by` integer,
	`updated_by_name` text DEFAULT '' NOT NULL,
	`published_version` integer,
	`published_at` integer,
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `menu_days_cafe_date_unique` ON `menu_days` (`cafe_id`,`date`);--> statement-breakpoint
CREATE TABLE `menu_expected_servings` (
	`cafe_id` integer NOT NULL,
	`date` text NOT NULL,
	`service_id` integer NOT NULL,
	`servings` integer NOT NULL,
	PRIMARY KEY(`cafe_id`, `date`, `service_id`),
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "menu_expected_servings_check" CHECK("menu_expected_servings"."servings" >= 0)
);
--> statement-breakpoint
CREATE TABLE `menu_slots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`day_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`dish_category_id` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`dish_id` integer NOT NULL,
	FOREIGN KEY (`day_id`) REFERENCES `menu_days`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`dish_category_id`) REFERENCES `dish_categories`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`dish_id`) REFERENCES `dishes`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `menu_slots_unique` ON `menu_slots` (`day_id`,`service_id`,`dish_category_id`,`position`);--> statement-breakpoint
CREATE INDEX `menu_slots_dish_index` ON `menu_slots` (`dish_id`);--> statement-breakpoint
CREATE TABLE `menu_structure_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`structure_id` integer NOT NULL,
	`position` integer NOT NULL,
	`dish_category_id` integer NOT NULL,
	`serving_amount` real NOT NULL,
	`share_percent` real DEFAULT 0 NOT NULL,
	`min_cost_cents` integer DEFAULT 0 NOT NULL,
	`max_cost_cents` integer NOT NULL,
	FOREIGN KEY (`structure_id`) REFERENCES `menu_structures`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`dish_category_id`) REFERENCES `dish_categories`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "menu_structure_items_serving_check" CHECK("menu_structure_items"."serving_amount" > 0),
	CONSTRAINT "menu_structure_items_share_check" CHECK("menu_structure_items"."share_percent" >= 0 AND "menu_structure_items"."share_percent" <= 100),
	CONSTRAINT "menu_structure_items_cost_check" CHECK("menu_structure_items"."min_cost_cents" >= 0 AND "menu_structure_items"."max_cost_cents" >= "menu_structure_items"."min_cost_cents")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `menu_structure_items_category_unique` ON `menu_structure_items` (`structure_id`,`dish_category_id`);--> statement-breakpoint
CREATE TABLE `menu_structures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cafe_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `menu_structures_cafe_service_unique` ON `menu_structures` (`cafe_id`,`service_id`);--> statement-breakpoint
CREATE TABLE `published_menu_slots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`day_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`dish_category_id` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`dish_id` integer NOT NULL,
	FOREIGN KEY (`day_id`) REFERENCES `menu_days`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`dish_category_id`) REFERENCES `dish_categories`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`dish_id`) REFERENCES `dishes`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `published_menu_slots_unique` ON `published_menu_slots` (`day_id`,`service_id`,`dish_category_id`,`position`);--> statement-breakpoint
CREATE INDEX `published_menu_slots_dish_index` ON `published_menu_slots` (`dish_id`);--> statement-breakpoint
ALTER TABLE `cafes` ADD `default_level_id` integer REFERENCES levels(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `cafes` ADD `board_language` text DEFAULT 'es' NOT NULL;