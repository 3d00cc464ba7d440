-- The series registry. Numbering leaves the cafe (`cafes.next_ticket_number`) for `receipt_series`: one row per
-- business, kind of document and series, with the cafe it belongs to and the number its next document gets. The cafe
-- keeps the names of its current series (`ticket_series`, and `boleta_series`, new and empty).
CREATE TABLE `receipt_series` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_id` integer NOT NULL,
	`kind` text NOT NULL,
	`series` text NOT NULL,
	`cafe_id` integer NOT NULL,
	`next_number` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "receipt_series_kind_check" CHECK("receipt_series"."kind" IN ('ticket', 'boleta')),
	CONSTRAINT "receipt_series_next_number_check" CHECK("receipt_series"."next_number" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receipt_series_unique` ON `receipt_series` (`business_id`,`kind`,`series`);--> statement-breakpoint
CREATE INDEX `receipt_series_cafe_index` ON `receipt_series` (`cafe_id`,`kind`);--> statement-breakpoint
ALTER TABLE `cafes` ADD `boleta_series` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- A sale's number is unique within its business, kind and series, for each cafe: numbers issued before this migration
-- may repeat across the cafes of a business, and a cafe that moves to another business starts its series again there.
DROP INDEX `sales_cafe_series_number_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `sales_number_unique` ON `sales` (`business_id`,`receipt_type`,`series`,`number`,`cafe_id`);--> statement-breakpoint
-- Every number issued is kept. First every series sales were numbered in, under the business of those sales: it
-- belongs to the cafe that sold in it first (where cafes shared a series, nothing stopped it before), and its next
-- number follows the highest any sale of that business and series took, so no number issued is given again. For the
-- owner's current series, its own counter when that is further on.
INSERT INTO `receipt_series` (`business_id`, `kind`, `series`, `cafe_id`, `next_number`)
SELECT `g`.`business_id`, 'ticket', `g`.`series`, `c`.`id`,
  CASE WHEN `c`.`business_id` = `g`.`business_id` AND `c`.`ticket_series` = `g`.`series`
    THEN max(`c`.`next_ticket_number`, `g`.`next`) ELSE `g`.`next` END
FROM (
  SELECT `business_id`, `series`, min(`id`) AS `first`, max(`number`) + 1 AS `next` FROM `sales` GROUP BY `business_id`, `series`
) `g`
JOIN `sales` `s` ON `s`.`id` = `g`.`first`
JOIN `cafes` `c` ON `c`.`id` = `s`.`cafe_id`;--> statement-breakpoint
-- Then the cafes' current series no sale has used yet, with the cafe's counter: where several cafes of a business
-- name the same one, the lowest id.
INSERT INTO `receipt_series` (`business_id`, `kind`, `series`, `cafe_id`, `next_number`)
SELECT `business_id`, 'ticket', `ticket_series`, `id`, `next_ticket_number`
FROM (
  SELECT `id`, `business_id`, `ticket_series`, `next_ticket_number`,
    row_number() OVER (PARTITION BY `business_id`, `ticket_series` ORDER BY `id`) AS `rank`
  FROM `cafes` WHERE `business_id` IS NOT NULL AND `ticket_series` <> ''
)
WHERE `rank` = 1
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- A cafe whose series went to another cafe has none of its own until a manager chooses one (its sales say so).
UPDATE `cafes` SET `ticket_series` = ''
WHERE `business_id` IS NOT NULL AND `ticket_series` <> '' AND NOT EXISTS (
  SELECT 1 FROM `receipt_series` `r`
  WHERE `r`.`business_id` = `cafes`.`business_id` AND `r`.`kind` = 'ticket' AND `r`.`series` = `cafes`.`ticket_series` AND `r`.`cafe_id` = `cafes`.`id`
);--> statement-breakpoint
DROP TRIGGER `cafes_ticket_series_default`;--> statement-breakpoint
ALTER TABLE `cafes` DROP COLUMN `next_ticket_number`;--> statement-breakpoint
-- A new cafe (made by any path: the Cafes page, the places import, the CLI) gets the ticket series T and its id, and
-- its series are registered under its business; a series another cafe of that business holds is not its own ('').
CREATE TRIGGER `cafes_series_on_insert` AFTER INSERT ON `cafes`
BEGIN
  UPDATE `cafes` SET `ticket_series` = 'T' || printf('%03d', NEW.`id`) WHERE `id` = NEW.`id` AND `ticket_series` = '';
  INSERT INTO `receipt_series` (`business_id`, `kind`, `series`, `cafe_id`)
    SELECT `business_id`, 'ticket', `ticket_series`, `id` FROM `cafes`
    WHERE `id` = NEW.`id` AND `business_id` IS NOT NULL AND `ticket_series` <> ''
    ON CONFLICT DO NOTHING;
  INSERT INTO `receipt_series` (`business_id`, `kind`, `series`, `cafe_id`)
    SELECT NEW.`business_id`, 'boleta', NEW.`boleta_series`, NEW.`id`
    WHERE NEW.`business_id` IS NOT NULL AND NEW.`boleta_series` <> ''
    ON CONFLICT DO NOTHING;
  UPDATE `cafes` SET `ticket_series` = ''
    WHERE `id` = NEW.`id` AND `business_id` IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM `receipt_series` `r` WHERE `r`.`business_id` = `cafes`.`business_id` AND `r`.`kind` = 'ticket'
        AND `r`.`series` = `cafes`.`ticket_series` AND `r`.`cafe_id` = `cafes`.`id`);
  UPDATE `cafes` SET `boleta_series` = ''
    WHERE `id` = NEW.`id` AND `business_id` IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM `receipt_series` `r` WHERE `r`.`business_id` = `cafes`.`business_id` AND `r`.`kind` = 'boleta'
        AND `r`.`series` = `cafes`.`boleta_series` AND `r`.`cafe_id` = `cafes`.`id`);
END;--> statement-breakpoint
-- A cafe that moves to another business takes its series along: registered under the new business (a series it held
-- there before goes on at its own number), or none of its own where another cafe of that business holds it.
CREATE TRIGGER `cafes_series_follow_business` AFTER UPDATE OF `business_id` ON `cafes`
WHEN NEW.`business_id` IS NOT NULL AND NEW.`business_id` IS NOT OLD.`business_id`
BEGIN
  INSERT INTO `receipt_series` (`business_id`, `kind`, `series`, `cafe_id`)
    SELECT NEW.`business_id`, 'ticket', NEW.`ticket_series`, NEW.`id` WHERE NEW.`ticket_series` <> ''
    ON CONFLICT DO NOTHING;
  INSERT INTO `receipt_series` (`business_id`, `kind`, `series`, `cafe_id`)
    SELECT NEW.`business_id`, 'boleta', NEW.`boleta_series`, NEW.`id` WHERE NEW.`boleta_series` <> ''
    ON CONFLICT DO NOTHING;
  UPDATE `cafes` SET `ticket_series` = ''
    WHERE `id` = NEW.`id` AND NOT EXISTS (
      SELECT 1 FROM `receipt_series` `r` WHERE `r`.`business_id` = NEW.`business_id` AND `r`.`kind` = 'ticket'
        AND `r`.`series` = NEW.`ticket_series` AND `r`.`cafe_id` = NEW.`id`);
  UPDATE `cafes` SET `boleta_series` = ''
    WHERE `id` = NEW.`id` AND NOT EXISTS (
      SELECT 1 FROM `receipt_series` `r` WHERE `r`.`business_id` = NEW.`business_id` AND `r`.`kind` = 'boleta'
        AND `r`.`series` = NEW.`boleta_series` AND `r`.`cafe_id` = NEW.`id`);
END;
