-- Documents (src/domain/documents.ts): users and blacklist entries get a document type (dni, ce or pas) beside the
-- number, and the blacklist is unique by (type, number).
-- Existing numbers are normalized as new ones are (upper case, no spaces or dashes), and their type is guessed:
-- 8 digits (the default DNI_LENGTH) is a DNI; anything else becomes a passport, the type every foreigner has and
-- whose rule (6 to 12 letters or digits) is the widest. An administrator who knows better lifts the entry and adds
-- it again with the right type. Two blacklist entries that normalizing would make one (say "AB-12" and "A-B12"),
-- and the users whose number is theirs, keep their numbers as they were, so every bar still matches exactly the
-- accounts it matched. A user's number that is only spaces or dashes is dropped.
DROP INDEX `users_document_number_index`;--> statement-breakpoint
ALTER TABLE `users` ADD `document_type` text;--> statement-breakpoint
UPDATE `users` SET
	`document_type` = CASE
		WHEN REPLACE(REPLACE(UPPER(TRIM(`document_number`)), '-', ''), ' ', '') = '' THEN NULL
		WHEN REPLACE(REPLACE(UPPER(TRIM(`document_number`)), '-', ''), ' ', '') GLOB '[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]' THEN 'dni'
		ELSE 'pas' END,
	`document_number` = CASE
		WHEN REPLACE(REPLACE(UPPER(TRIM(`document_number`)), '-', ''), ' ', '') = '' THEN NULL
		WHEN (SELECT COUNT(*) FROM `blacklist` b WHERE REPLACE(REPLACE(UPPER(TRIM(b.`document_number`)), '-', ''), ' ', '') = REPLACE(REPLACE(UPPER(TRIM(`users`.`document_number`)), '-', ''), ' ', '')) > 1 THEN `document_number`
		ELSE REPLACE(REPLACE(UPPER(TRIM(`document_number`)), '-', ''), ' ', '') END
	WHERE `document_number` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `users_document_index` ON `users` (`document_type`,`document_number`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_blacklist` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_type` text NOT NULL,
	`document_number` text NOT NULL,
	`name` text NOT NULL,
	`reason` text NOT NULL,
	`user_id` integer,
	`decided_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "blacklist_document_type_check" CHECK("__new_blacklist"."document_type" IN ('dni', 'ce', 'pas'))
);
--> statement-breakpoint
INSERT INTO `__new_blacklist`("id", "document_type", "document_number", "name", "reason", "user_id", "decided_by", "created_at")
	SELECT "id",
		CASE WHEN REPLACE(REPLACE(UPPER(TRIM("document_number")), '-', ''), ' ', '') GLOB '[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]' THEN 'dni' ELSE 'pas' END,
		CASE
			WHEN REPLACE(REPLACE(UPPER(TRIM("document_number")), '-', ''), ' ', '') = '' THEN "document_number"
			WHEN (SELECT COUNT(*) FROM `blacklist` o WHERE REPLACE(REPLACE(UPPER(TRIM(o."document_number")), '-', ''), ' ', '') = REPLACE(REPLACE(UPPER(TRIM(`blacklist`."document_number")), '-', ''), ' ', '')) > 1 THEN "document_number"
			ELSE REPLACE(REPLACE(UPPER(TRIM("document_number")), '-', ''), ' ', '') END,
		"name", "reason", "user_id", "decided_by", "created_at"
	FROM `blacklist`;--> statement-breakpoint
DROP TABLE `blacklist`;--> statement-breakpoint
ALTER TABLE `__new_blacklist` RENAME TO `blacklist`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `blacklist_document_unique` ON `blacklist` (`document_type`,`document_number`);
