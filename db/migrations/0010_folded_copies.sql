ALTER TABLE `blacklist` ADD `name_folded` text;--> statement-breakpoint
ALTER TABLE `blacklist` ADD `reason_folded` text;--> statement-breakpoint
ALTER TABLE `dealerships` ADD `name_folded` text;--> statement-breakpoint
ALTER TABLE `properties` ADD `name_folded` text;--> statement-breakpoint
ALTER TABLE `properties` ADD `category_folded` text;--> statement-breakpoint
ALTER TABLE `subdealerships` ADD `name_folded` text;--> statement-breakpoint
CREATE TRIGGER `blacklist_name_folded_stale` AFTER UPDATE OF `name` ON `blacklist`
WHEN NEW.`name` IS NOT OLD.`name` AND NEW.`name_folded` IS OLD.`name_folded` AND NEW.`name_folded` IS NOT NULL
BEGIN UPDATE `blacklist` SET `name_folded` = NULL WHERE `id` = NEW.`id`; END;--> statement-breakpoint
CREATE TRIGGER `blacklist_reason_folded_stale` AFTER UPDATE OF `reason` ON `blacklist`
WHEN NEW.`reason` IS NOT OLD.`reason` AND NEW.`reason_folded` IS OLD.`reason_folded` AND NEW.`reason_folded` IS NOT NULL
BEGIN UPDATE `blacklist` SET `reason_folded` = NULL WHERE `id` = NEW.`id`; END;--> statement-breakpoint
CREATE TRIGGER `dealerships_name_folded_stale` AFTER UPDATE OF `name` ON `dealerships`
WHEN NEW.`name` IS NOT OLD.`name` AND NEW.`name_folded` IS OLD.`name_folded` AND NEW.`name_folded` IS NOT NULL
BEGIN UPDATE `dealerships` SET `name_folded` = NULL WHERE `id` = NEW.`id`; END;--> statement-breakpoint
CREATE TRIGGER `properties_name_folded_stale` AFTER UPDATE OF `name` ON `properties`
WHEN NEW.`name` IS NOT OLD.`name` AND NEW.`name_folded` IS OLD.`name_folded` AND NEW.`name_folded` IS NOT NULL
BEGIN UPDATE `properties` SET `name_folded` = NULL WHERE `id` = NEW.`id`; END;--> statement-breakpoint
CREATE TRIGGER `properties_category_folded_stale` AFTER UPDATE OF `category` ON `properties`
WHEN NEW.`category` IS NOT OLD.`category` AND NEW.`category_folded` IS OLD.`category_folded` AND NEW.`category_folded` IS NOT NULL
BEGIN UPDATE `properties` SET `category_folded` = NULL WHERE `id` = NEW.`id`; END;--> statement-breakpoint
CREATE TRIGGER `subdealerships_name_folded_stale` AFTER UPDATE OF `name` ON `subdealerships`
WHEN NEW.`name` IS NOT OLD.`name` AND NEW.`name_folded` IS OLD.`name_folded` AND NEW.`name_folded` IS NOT NULL
BEGIN UPDATE `subdealerships` SET `name_folded` = NULL WHERE `id` = NEW.`id`; END;
