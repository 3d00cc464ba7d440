-- Cash shifts (docs/cash.md): a cashier's shift at a till, the cash moved in and out of its drawer, and the shift each
-- sale was made in. One open shift per till and per cashier, held by two partial unique indexes.
CREATE TABLE `cash_moves` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shift_id` integer NOT NULL,
	`kind` text NOT NULL,
	`reason` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`by_id` integer,
	`by_name` text NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`shift_id`) REFERENCES `cash_shifts`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "cash_moves_amount_check" CHECK("cash_moves"."amount_cents" > 0),
	CONSTRAINT "cash_moves_kind_check" CHECK("cash_moves"."kind" IN ('in', 'out'))
);
--> statement-breakpoint
CREATE INDEX `cash_moves_shift_index` ON `cash_moves` (`shift_id`);--> statement-breakpoint
CREATE TABLE `cash_shifts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cafe_id` integer NOT NULL,
	`till_id` integer NOT NULL,
	`till_name` text NOT NULL,
	`cashier_id` integer,
	`cashier_name` text NOT NULL,
	`state` text NOT NULL,
	`opened_at` integer NOT NULL,
	`opening_float_cents` integer NOT NULL,
	`closed_at` integer,
	`closed_by_id` integer,
	`closed_by_name` text,
	`counted_pieces` text,
	`counted_cents` integer,
	`expected_cents` integer,
	`note` text,
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`till_id`) REFERENCES `tills`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`cashier_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`closed_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "cash_shifts_state_check" CHECK("cash_shifts"."state" IN ('open', 'closed')),
	CONSTRAINT "cash_shifts_float_check" CHECK("cash_shifts"."opening_float_cents" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cash_shifts_one_open_per_till` ON `cash_shifts` (`till_id`) WHERE "cash_shifts"."state" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX `cash_shifts_one_open_per_cashier` ON `cash_shifts` (`cashier_id`) WHERE "cash_shifts"."state" = 'open';--> statement-breakpoint
CREATE INDEX `cash_shifts_cafe_index` ON `cash_shifts` (`cafe_id`,`opened_at`);--> statement-breakpoint
ALTER TABLE `cafes` ADD `allowed_difference_cents` integer DEFAULT 500 NOT NULL;--> statement-breakpoint
ALTER TABLE `sale_tills` ADD `shift_id` integer REFERENCES cash_shifts(id);--> statement-breakpoint
CREATE INDEX `sale_tills_shift_index` ON `sale_tills` (`shift_id`,`sale_id`) WHERE "sale_tills"."shift_id" IS NOT NULL;