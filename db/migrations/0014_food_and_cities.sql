CREATE TABLE `cities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`region` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cities_name_unique` ON `cities` (`name`);--> statement-breakpoint
CREATE TABLE `ingredient_categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ingredient_categories_name_unique` ON `ingredient_categories` (`name`);--> statement-breakpoint
CREATE TABLE `ingredients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`category_id` integer NOT NULL,
	`name` text NOT NULL,
	`base_unit` text NOT NULL,
	`unit_weight_grams` real,
	`density_g_per_ml` real,
	`kcal_per_100g` real NOT NULL,
	`solid_waste_percent` real DEFAULT 0 NOT NULL,
	`liquid_waste_percent` real DEFAULT 0 NOT NULL,
	`water_g` real,
	`protein_g` real,
	`fat_g` real,
	`carbohydrate_g` real,
	`fibre_g` real,
	`ash_g` real,
	`calcium_mg` real,
	`phosphorus_mg` real,
	`iron_mg` real,
	`retinol_ug` real,
	`thiamine_mg` real,
	`riboflavin_mg` real,
	`niacin_mg` real,
	`vitamin_c_mg` real,
	`sodium_mg` real,
	`potassium_mg` real,
	`allergens` text DEFAULT '[]' NOT NULL,
	`demo_values` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `ingredient_categories`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "ingredients_base_unit_check" CHECK("ingredients"."base_unit" IN ('g', 'ml', 'unit')),
	CONSTRAINT "ingredients_unit_weight_check" CHECK("ingredients"."base_unit" <> 'unit' OR "ingredients"."unit_weight_grams" > 0),
	CONSTRAINT "ingredients_density_check" CHECK("ingredients"."base_unit" <> 'ml' OR "ingredients"."density_g_per_ml" > 0),
	CONSTRAINT "ingredients_kcal_check" CHECK("ingredients"."kcal_per_100g" >= 0),
	CONSTRAINT "ingredients_waste_check" CHECK("ingredients"."solid_waste_percent" >= 0 AND "ingredients"."liquid_waste_percent" >= 0 AND "ingredients"."solid_waste_percent" + "ingredients"."liquid_waste_percent" < 100)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ingredients_name_unique` ON `ingredients` (`name`);--> statement-breakpoint
CREATE INDEX `ingredients_category_index` ON `ingredients` (`category_id`);--> statement-breakpoint
CREATE TABLE `offer_price_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`offer_id` integer NOT NULL,
	`price_cents` integer NOT NULL,
	`price_includes_igv` integer NOT NULL,
	`quantity` real NOT NULL,
	`changed_at` integer NOT NULL,
	`changed_by` integer,
	`changed_by_name` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`offer_id`) REFERENCES `offers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`changed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `offer_price_history_offer_index` ON `offer_price_history` (`offer_id`,`changed_at`);--> statement-breakpoint
CREATE INDEX `offer_price_history_changed_index` ON `offer_price_history` (`changed_at`);--> statement-breakpoint
CREATE TABLE `offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider_id` integer NOT NULL,
	`ingredient_id` integer NOT NULL,
	`city_id` integer NOT NULL,
	`presentation` text NOT NULL,
	`quantity` real NOT NULL,
	`price_cents` integer NOT NULL,
	`price_includes_igv` integer NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`price_changed_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`provider_id`) REFERENCES `providers`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`ingredient_id`) REFERENCES `ingredients`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "offers_quantity_check" CHECK("offers"."quantity" > 0),
	CONSTRAINT "offers_price_check" CHECK("offers"."price_cents" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `offers_provider_ingredient_city_presentation_unique` ON `offers` (`provider_id`,`ingredient_id`,`city_id`,`presentation`);--> statement-breakpoint
CREATE INDEX `offers_ingredient_city_index` ON `offers` (`ingredient_id`,`city_id`);--> statement-breakpoint
CREATE INDEX `offers_city_index` ON `offers` (`city_id`);--> statement-breakpoint
CREATE TABLE `providers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`ruc` text NOT NULL,
	`contact` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `providers_name_unique` ON `providers` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `providers_ruc_unique` ON `providers` (`ruc`);--> statement-breakpoint
ALTER TABLE `cafes` ADD `city_id` integer REFERENCES cities(id);--> statement-breakpoint
CREATE INDEX `cafes_city_index` ON `cafes` (`city_id`);--> statement-breakpoint
ALTER TABLE `headquarters` ADD `city_id` integer REFERENCES cities(id);--> statement-breakpoint
CREATE INDEX `headquarters_city_index` ON `headquarters` (`city_id`);