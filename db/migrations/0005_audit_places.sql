-- The places of each audit entry (the audit shows an entry only to viewers whose scope holds all of them).
-- Entries written before this migration have no places, so they count as company-wide: only the
-- super-administrator and holders of audit.view in a headquarters area see them. That is the safe default.
CREATE TABLE `audit_places` (
	`audit_id` integer NOT NULL,
	`kind` text NOT NULL,
	`place_id` integer NOT NULL,
	PRIMARY KEY(`audit_id`, `kind`, `place_id`),
	FOREIGN KEY (`audit_id`) REFERENCES `audit_log`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "audit_places_kind_check" CHECK("audit_places"."kind" IN ('cafe', 'headquarters', 'unit', 'mine', 'business'))
);
--> statement-breakpoint
CREATE INDEX `audit_places_place_index` ON `audit_places` (`kind`,`place_id`);