-- Two point-of-sale settings of a cafe. `keep_cash` (off by default): a cash-only cafe keeps the sale type on cash
-- after a cash sale; every other cafe goes back to credit. `auto_print` becomes on by default for cafes made from now
-- on, while every existing cafe keeps the value it has. drizzle-kit writes a default change as a rebuild of `cafes`,
-- which cannot run here: the migrator runs inside a transaction, where `PRAGMA foreign_keys=OFF` does nothing, so
-- dropping `cafes` would trip (or cascade through) every table that references it and lose its ticket-series
-- trigger. The column is replaced in place instead: a new column with the new default takes the old one's values,
-- the old one is dropped and the new one takes its name.
ALTER TABLE `cafes` ADD `keep_cash` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `cafes` ADD `auto_print_new` integer DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE `cafes` SET `auto_print_new` = `auto_print`;--> statement-breakpoint
ALTER TABLE `cafes` DROP COLUMN `auto_print`;--> statement-breakpoint
ALTER TABLE `cafes` RENAME COLUMN `auto_print_new` TO `auto_print`;
