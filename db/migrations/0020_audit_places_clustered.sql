-- The places of the audit entries become clustered on their key (WITHOUT ROWID): the table is its primary key, so
-- writing an entry's places fills two b-trees (the key and the index by place) instead of three. A diner import
-- writes one per diner it creates or changes.
CREATE TABLE `audit_places_clustered` (
	`audit_id` integer NOT NULL,
	`kind` text NOT NULL,
	`place_id` integer NOT NULL,
	PRIMARY KEY(`audit_id`, `kind`, `place_id`),
	FOREIGN KEY (`audit_id`) REFERENCES `audit_log`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "audit_places_kind_check" CHECK(`kind` IN ('cafe', 'headquarters', 'unit', 'mine', 'business'))
) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `audit_places_clustered` SELECT `audit_id`, `kind`, `place_id` FROM `audit_places`;--> statement-breakpoint
DROP TABLE `audit_places`;--> statement-breakpoint
ALTER TABLE `audit_places_clustered` RENAME TO `audit_places`;--> statement-breakpoint
CREATE INDEX `audit_places_place_index` ON `audit_places` (`kind`,`place_id`);
