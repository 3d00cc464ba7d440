/**
 * Money at the till from the command line (docs/cash.md): `./mesa payment-method:list [--json]`, the catalogue of
 * payment methods with what each needs and the cafes that take it; `./mesa shift:list --cafe C [--date D] [--json]`
 * and `./mesa shift:show ID [--json]`, a cafe's cash shifts and one shift's reckoning (expected against counted).
 */
import type { Command } from "commander";
import { asc, eq } from "drizzle-orm";
import { cafePaymentMethods, cafes } from "../../db/schema";
import { findCafeByName } from "../../src/domain/access/places";
import { EVERYTHING } from "../../src/domain/access/scope";
import { listPaymentMethods } from "../../src/domain/cash/payment-methods";
import { getShift, listShifts, shiftSummary } from "../../src/domain/cash/shifts";
import { NotFound } from "../../src/domain/errors";
import { clockIn, isCalendarDate } from "../../src/shared/calendar";
import { formatMoney } from "../../src/shared/money";
import { translate, translateDynamic } from "../../src/shared/i18n";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
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

  program
    .command("shift:list")
    .description("List a cafe's cash shifts, newest first: till, cashier, opened and closed, expected and counted cash")
    .requiredOption("--cafe <name>", "the cafe, by name (Unit/Cafe when two units have one of that name)")
    .option("--date <YYYY-MM-DD>", "only the shifts opened that day (the cafe's time zone)")
    .option("--json", "print JSON")
    .action((opts: { cafe: string; date?: string; json?: boolean }) => {
      const config = cliConfig();
      const db = cliDatabase(config);
      const cafe = findCafeByName(db, opts.cafe);
      if (!cafe)
        throw new CliError(`No single cafe is named "${opts.cafe}" (write Unit/Cafe when two units have one).`);
      if (opts.date !== undefined && !isCalendarDate(opts.date))
        throw new CliError(`"${opts.date}" is not a date such as 2026-12-01.`, 2);
      const zone = db.select({ zone: cafes.timeZone }).from(cafes).where(eq(cafes.id, cafe.id)).get()!.zone;
      const rows = listShifts(db, EVERYTHING, cafe.id, opts.date);
      if (opts.json) {
        console.log(JSON.stringify(rows, null, 2));
        return;
      }
      const money = (cents: number | null) => (cents === null ? "—" : formatMoney(cents, config.locale));
      console.log(
        table(
          ["ID", "TILL", "CASHIER", "OPENED", "CLOSED", "FLOAT", "EXPECTED", "COUNTED", "DIFFERENCE"],
          rows.map((r) => [
            String(r.id),
            r.tillName,
            r.cashierName,
            clockIn(zone, r.openedAt),
            r.closedAt ? clockIn(zone, r.closedAt) : "open",
            money(r.openingFloatCents),
            money(r.expectedCents),
            money(r.countedCents),
            r.countedCents === null || r.expectedCents === null ? "—" : money(r.countedCents - r.expectedCents),
          ]),
        ),
      );
    });

  program
    .command("shift:show")
    .description("Show one cash shift: its sales by payment method, voids, cash moves, expected and counted cash")
    .argument("<id>", "the shift's number (shift:list shows it)")
    .option("--json", "print JSON")
    .action((id: string, opts: { json?: boolean }) => {
      const config = cliConfig();
      const db = cliDatabase(config);
      if (!/^\d+$/.test(id)) throw new CliError(`"${id}" is not a shift number.`, 2);
      let summary;
      try {
        summary = shiftSummary(db, getShift(db, EVERYTHING, Number(id)));
      } catch (error) {
        if (error instanceof NotFound) throw new CliError(`There is no shift ${id}.`);
        throw error;
      }
      if (opts.json) {
        console.log(JSON.stringify(summary, null, 2));
        return;
      }
      const { shift } = summary;
      const money = (cents: number) => formatMoney(cents, config.locale);
      const zone = db.select({ zone: cafes.timeZone }).from(cafes).where(eq(cafes.id, shift.cafeId)).get()!.zone;
      console.log(`Shift ${shift.id} at ${shift.tillName}, ${shift.cashierName}: ${shift.state}`);
      console.log(`Opened ${clockIn(zone, shift.openedAt)} with ${money(shift.openingFloatCents)}`);
      for (const m of summary.byMethod)
        console.log(
          `  ${translateDynamic(config.locale, `cash.methods.${m.code}`, m.name)}: ${m.sales} sale${m.sales === 1 ? "" : "s"}, ${money(m.amountCents)}`,
        );
      console.log(`  voided: ${summary.voided.sales}, ${money(summary.voided.amountCents)}`);
      for (const move of summary.moves)
        console.log(
          `  cash ${move.kind} ${money(move.amountCents)}: ${translate(config.locale, `cash.move_reasons.${move.reason}`)}${move.note ? ` (${move.note})` : ""}`,
        );
      console.log(`Expected cash: ${money(summary.expectedCashCents)}`);
      if (shift.state === "closed" && shift.countedCents !== null)
        console.log(
          `Counted ${money(shift.countedCents)} (difference ${money(summary.differenceCents ?? 0)}), closed ${clockIn(zone, shift.closedAt!)} by ${shift.closedByName}${shift.note ? `: ${shift.note}` : ""}`,
        );
    });
}
