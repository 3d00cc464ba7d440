/**
 * Seeders, run in order by `./mesa db:seed` and on the first start of an empty database. Reference data is always
 * loaded; the demo data set when the DEMO_DATA setting is on or `./mesa db:seed --demo` asks for it. Each is
 * idempotent: running it twice leaves the same data. Areas add their reference and demo data here as they are built.
 */
import type { Config } from "../../src/config";
import type { Db } from "../../src/db";
import {
  accessSeeder,
  demoPeopleSeeder,
  firstAdministratorSeeder,
  firstHeadquartersSeeder,
  rolesSeeder,
} from "./access";
import { dealershipsSeeder } from "./dealerships";
import { dinersSeeder } from "./diners";
import { dishesSeeder } from "./dishes";
import { foodSeeder } from "./food";
import { menusSeeder } from "./menus";
import { placesSeeder } from "./places";
import { propertiesSeeder } from "./properties";
import { serviceCatalogueSeeder, servicesSeeder } from "./services";

export interface Seeder {
  name: string;
  run(db: Db, config: Config): Promise<string[]>;
}

/** What every Mesa needs: the permission catalogue, the starting roles and the services catalogue. */
export const referenceSeeders: Seeder[] = [rolesSeeder, serviceCatalogueSeeder];

/**
 * The demo business with its places, areas, prices, properties, client companies, ingredients, providers, offers,
 * dishes and recipes, and people with known accounts.
 */
export const demoSeeders: Seeder[] = [
  placesSeeder,
  accessSeeder,
  servicesSeeder,
  propertiesSeeder,
  dealershipsSeeder,
  // After the places: the demo headquarters and cafes get their cities.
  foodSeeder,
  // After the ingredients: the demo dishes' recipes are made of them.
  dishesSeeder,
  // After the dish categories and the cafe prices: the demo cafes' lunch and breakfast structures.
  menusSeeder,
  demoPeopleSeeder,
  // After the demo accounts: the demo cashier sells the demo sales.
  dinersSeeder,
];

/** Without the demo set: a first headquarters area when there is none, and how to create the first administrator. */
export const firstRunSeeders: Seeder[] = [firstHeadquartersSeeder, firstAdministratorSeeder];

/**
 * Runs the reference seeders, then the demo ones when `demo` (default: the DEMO_DATA setting) or else the first-run
 * ones; returns the lines each reports (what it created, how to sign in).
 */
export async function runSeeders(
  db: Db,
  config: Config,
  options: { demo?: boolean } = {},
): Promise<{ seeder: string; lines: string[] }[]> {
  const demo = options.demo ?? config.demoData;
  const results = [];
  for (const seeder of [...referenceSeeders, ...(demo ? demoSeeders : firstRunSeeders)])
    results.push({ seeder: seeder.name, lines: await seeder.run(db, config) });
  return results;
}

/** Prints each seeder's lines under its name; a seeder with nothing to say is left out. */
export function printSeedResults(results: { seeder: string; lines: string[] }[]): void {
  for (const { seeder, lines } of results) {
    if (lines.length === 0) continue;
    console.log(`${seeder}:`);
    for (const line of lines) console.log(`  ${line}`);
  }
}
