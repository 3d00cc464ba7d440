CREATE TABLE `closed_periods` (
	`cafe_id` integer NOT NULL,
	`month` text NOT NULL,
	`closed_at` integer NOT NULL,
	`closed_by` integer,
	`closed_by_name` text NOT NULL,
	PRIMARY KEY(`cafe_id`, `month`),
	FOREIGN KEY (`cafe_id`) REFERENCES `cafes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`closed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "closed_periods_month_check" CHECK("closed_periods"."month" GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]')
);
