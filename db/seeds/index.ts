/**
 * Seeders, run in order by `./mesa db:seed` and on the first start of an empty database. Each is idempotent:
 * running it twice leaves the same data. Areas add their reference and demo data here as they are built.
 */
import type { Config } from "../../src/config";
import type { Db } from "../../src/db";

export interface Seeder {
  name: string;
  run(db: Db, config: Config): string[];
}

export const seeders: Seeder[] = [];

/** Runs every seeder; returns the lines each reports (what it created, how to sign in). */
export function runSeeders(db: Db, config: Config): { seeder: string; lines: string[] }[] {
  return seeders.map((seeder) => ({ seeder: seeder.name, lines: seeder.run(db, config) }));
}
