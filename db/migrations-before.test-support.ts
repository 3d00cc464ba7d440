/** For the tests of a migration: the migrations that came before it, in a folder of their own. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS_FOLDER } from "../src/db";

/** A copy of db/migrations whose journal lists only the migrations before `tag` (such as "0019"). */
export function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(join(tmpdir(), "mesa-migrations-"));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8"));
  journal.entries = journal.entries.filter((entry: { tag: string }) => entry.tag < tag);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}
