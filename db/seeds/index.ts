/**
 * Seeders, run in order by `./mesa db:seed` and on the first start of an empty database. Each is idempotent:
 * running it twice leaves the same data. Areas add their reference and demo data here as they are built.
 */
import type { Config } from "../../src/config";
import type { Db } from "../../src/db";
import { accessSeeder, demoPeopleSeeder } from "./access";
import { dealershipsSeeder } from "./dealerships";
import { placesSeeder } from "./places";
import { propertiesSeeder } from "./properties";
import { servicesSeeder } from "./services";

export interface Seeder {
  name: string;
  run(db: Db, config: Config): Promise<string[]>;
}

export const seeders: Seeder[] = [placesSeeder, accessSeeder, servicesSeeder, propertiesSeeder, dealershipsSeeder, demoPeopleSeeder];

/** Runs every seeder; returns the lines each reports (what it created, how to sign in). */
export async function runSeeders(db: Db, config: Config): Promise<{ seeder: string; lines: string[] }[]> {
  const results = [];
  for (const seeder of seeders) results.push({ seeder: seeder.name, lines: await seeder.run(db, config) });
  return results;
}

export function printSeedResults(results: { seeder: string; lines: string[] }[]): void {
  for (const { seeder, lines } of results) {
    console.log(`${seeder}:`);
    for (const line of lines) console.log(`  ${line}`);
  }
}
