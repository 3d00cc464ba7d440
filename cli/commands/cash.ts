/**
 * Money at the till from the command line (docs/cash.md): `./mesa payment-method:list [--json]`, the catalogue of
 * payment methods with what each needs and the cafes that take it.
 */
import type { Command } from "commander";
import { asc, eq } from "drizzle-orm";
import { cafePaymentMethods, cafes } from "../../db/schema";
import { listPaymentMethods } from "../../src/domain/cash/payment-methods";
import { translate, translateDynamic } from "../../src/shared/i18n";
import { cliConfig, cliDatabase } from "../bootstrap";
import { table } from "../output";

export function registerCashCommands(program: Command): void {
  program
    .command("payment-method:list")
    .description(
      "List the payment methods: whether each needs a reference, goes into the drawer, and which cafes take it",
    )
    .option("--json", "print JSON")
    .action((opts: { json?: boolean }) => {
      const config = cliConfig();
      const db = cliDatabase(config);
      const takenBy = new Map<number, string[]>();
      for (const row of db
        .select({ methodId: cafePaymentMethods.methodId, cafe: cafes.name })
        .from(cafePaymentMethods)
        .innerJoin(cafes, eq(cafes.id, cafePaymentMethods.cafeId))
        .orderBy(asc(cafes.name))
        .all())
        takenBy.set(row.methodId, [...(takenBy.get(row.methodId) ?? []), row.cafe]);
      const rows = listPaymentMethods(db).map((m) => ({
        code: m.code,
        name: translateDynamic(config.locale, `cash.methods.${m.code}`, m.name),
        needsReference: m.needsReference,
        inDrawer: m.inDrawer,
        active: m.active,
        cafes: takenBy.get(m.id) ?? [],
      }));
      if (opts.json) {
        console.log(JSON.stringify(rows, null, 2));
        return;
      }
      const yes = (value: boolean) => translate(config.locale, value ? "access.audit.yes" : "access.audit.no");
      console.log(
        table(
          ["CODE", "NAME", "REFERENCE", "DRAWER", "ACTIVE", "CAFES"],
          rows.map((r) => [
            r.code,
            r.name,
            yes(r.needsReference),
            yes(r.inDrawer),
            yes(r.active),
            r.cafes.length ? `${r.cafes.length}: ${r.cafes.join(", ")}` : "—",
          ]),
        ),
      );
    });
}
