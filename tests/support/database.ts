/**
 * Fresh databases for tests. Running every migration on a new in-memory database takes about 35 ms on the
 * development machine, and the suite makes hundreds; copying one database migrated once per test process takes
 * about 1 ms. The copy is the same database (schema, recorded migrations) and is set up as openDatabase sets up a
 * connection (src/db.test.ts, "openDatabaseCopy").
 */
import { migrateDatabase, openDatabase, openDatabaseCopy, type Db } from "../../src/db";

/** The migrated empty database every test database copies, made on first use. */
let migratedImage: Uint8Array | null = null;

/** A private in-memory database with every migration applied, as `openDatabase(":memory:")` and `migrateDatabase` give. */
export function migratedDatabase(): Db {
  if (!migratedImage) {
    const template = openDatabase(":memory:");
    migrateDatabase(template);
    migratedImage = template.$client.serialize();
    template.$client.close();
  }
  return openDatabaseCopy(migratedImage);
}
