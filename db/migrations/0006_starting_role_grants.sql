CREATE TABLE `starting_role_grants` (
	`role_name` text NOT NULL,
	`permission` text NOT NULL,
	`recorded_at` integer NOT NULL,
	PRIMARY KEY(`role_name`, `permission`)
);
