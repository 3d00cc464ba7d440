/**
 * `./mesa menu:publish --cafe C --from D --to D [--json]`: publishes a range of a cafe's meal schedule (at most 62
 * days), as the `cli` actor, with the same service as the schedule page's Publish button (src/domain/menu/publish.ts):
 * each day's draft becomes what the cafe's boards show. The cafe is named by id, by name, or as "Unit/Cafe" when the
 * name repeats. The open boards of the cafe update at once when Mesa is running (reached through the Pusher HTTP
 * API); when it is not, the days are published all the same and the boards show them on their next load.
 */
import type { Command } from "commander";
import { eq } from "drizzle-orm";
import { cafes } from "../../db/schema";
import { findCafeByName } from "../../src/domain/access/places";
import { CLI_ACTOR } from "../../src/domain/audit";
import { NotFound } from "../../src/domain/errors";
import { publishRange, type PublishResult } from "../../src/domain/menu/publish";
import { translate, type TranslationKey, type TranslationParams } from "../../src/shared/i18n";
import type { Db } from "../../src/db";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { cliEvents } from "../events";
import { explainValidation } from "../output";

/** The cafe a --cafe value names: an id, else a name ("Cafe" or "Unit/Cafe"). */
export function resolveCafe(db: Db, value: string): number {
  const text = value.trim();
  if (/^[1-9]\d*$/.test(text)) {
    const byId = db
      .select({ id: cafes.id })
      .from(cafes)
      .where(eq(cafes.id, Number(text)))
      .get();
    if (byId) return byId.id;
  }
  const byName = findCafeByName(db, text);
  if (!byName) throw new CliError(`No single cafe is called "${value}" (name it by id, or as Unit/Cafe).`, 2);
  return byName.id;
}

export function registerMenuCommands(program: Command): void {
  program
    .command("menu:publish")
    .description("publish a cafe's meal schedule for a range of days (at most 62): its boards show it")
    .requiredOption("--cafe <cafe>", "the cafe, by id, by name, or as Unit/Cafe")
    .requiredOption("--from <date>", "the first day, YYYY-MM-DD")
    .requiredOption("--to <date>", "the last day, YYYY-MM-DD")
    .option("--json", "print the result as one JSON object")
    .action(async (opts: { cafe: string; from: string; to: string; json?: boolean }) => {
      const config = cliConfig();
      const db = cliDatabase(config);
      const t = (key: TranslationKey, params?: TranslationParams) => translate(config.locale, key, params);
      const cafeId = resolveCafe(db, opts.cafe);
      const events = cliEvents(config);
      let result: PublishResult;
      try {
        result = publishRange(db, CLI_ACTOR, cafeId, opts.from, opts.to, { events: events.publisher });
      } catch (error) {
        if (error instanceof NotFound) throw new CliError(`No cafe ${opts.cafe}.`, 2);
        explainValidation(error, config.locale);
      }
      const unreached = await events.unreached();
      if (opts.json) {
        console.log(JSON.stringify({ ...result, boardsUpdated: unreached === null }));
        return;
      }
      console.log(
        t("menuBoard.publish.done", {
          published: result.published.length,
          unchanged: result.unchanged.length,
          empty: result.empty.length,
        }),
      );
      if (result.published.length) console.log(t("menuBoard.cli.dates", { dates: result.published.join(", ") }));
      if (unreached)
        console.log(t("menuBoard.cli.unreached", { endpoint: unreached.endpoint, reason: unreached.reason }));
    });
}
