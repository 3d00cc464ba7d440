/**
 * What the point of sale of one cafe needs to sell: the cafe (its clock, ticket series, issuing business, whether
 * it prints every ticket), its services with their prices and service windows, and which service the current
 * window preselects. Also the cafe's point-of-sale settings, edited in the prices dialog: the service windows, the
 * ticket and boleta series (chosen in the series registry, series.ts), automatic printing and whether a cash sale
 * keeps the next one on cash (a cash-only cafe).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { businesses, cafes, cafeServices, mines, services, units, type ServiceType } from "../../../db/schema";
import type { Db } from "../../db";
import { reachesCafe, type Scope } from "../access/scope";
import { recordAudit, type Actor } from "../audit";
import { NotFound, ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import { parseInput, t } from "../validation";
import { dateIn, formatTimeOfDay, minuteOfDay, parseTimeOfDay, windowHolds } from "../../shared/calendar";
import { BOLETA_SERIES_PATTERN, chooseSeries, TICKET_SERIES_PATTERN } from "./series";
import type { PointOfSale } from "../../shared/sales/types";
import { cafePaymentMethodList } from "../cash/payment-methods";
import { listTills } from "../cash/tills";
export type { PointOfSale, PosCafe, PosService } from "../../shared/sales/types";

/** The cafes of the scope that offer something, for the cafe chooser: id and Mine › Unit › Cafe. */
export function posCafes(db: Db, scope: Scope): { id: number; name: string; path: string }[] {
  const rows = db
    .select({ id: cafes.id, name: cafes.name, unit: units.name, mine: mines.name })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .where(scope.all ? undefined : inArray(cafes.id, [...scope.cafeIds]))
    .orderBy(asc(mines.name), asc(units.name), asc(cafes.name))
    .all();
  return rows.map((r) => ({ id: r.id, name: r.name, path: `${r.mine} › ${r.unit} › ${r.name}` }));
}

/**
 * When in the day a service is served, in minutes after midnight, for listing the services in the order a day runs:
 * its window's start at the cafe, else the usual hour of its type (breakfast 06:00, lunch 12:00, snack 16:00, dinner
 * 19:00), and disposables, which are not a meal, last.
 */
const USUAL_MINUTE: Record<ServiceType, number> = {
  breakfast: 6 * 60,
  lunch: 12 * 60,
  snack: 16 * 60,
  dinner: 19 * 60,
  disposables: 24 * 60,
};

/** Services in the order a day runs (servedAt, see USUAL_MINUTE), then by code. */
export function servicesByTimeOfDay<S extends { code: string; type: ServiceType; windowStart: number | null }>(
  list: S[],
): S[] {
  const at = (s: S) => s.windowStart ?? USUAL_MINUTE[s.type];
  return [...list].sort((a, b) => at(a) - at(b) || a.code.localeCompare(b.code));
}

export function pointOfSale(db: Db, scope: Scope, cafeId: number, now = new Date()): PointOfSale {
  if (!reachesCafe(scope, cafeId)) throw new NotFound();
  const row = db
    .select({
      cafe: cafes,
      unit: units.name,
      mine: mines.name,
      businessName: businesses.name,
      businessRuc: businesses.ruc,
    })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .leftJoin(businesses, eq(businesses.id, cafes.businessId))
    .where(eq(cafes.id, cafeId))
    .get();
  if (!row) throw new NotFound();
  const list = servicesByTimeOfDay(
    db
      .select({
        id: services.id,
        code: services.code,
        name: services.name,
        type: services.type,
        priceCents: cafeServices.priceCents,
        windowStart: cafeServices.windowStart,
        windowEnd: cafeServices.windowEnd,
      })
      .from(cafeServices)
      .innerJoin(services, eq(services.id, cafeServices.serviceId))
      .where(and(eq(cafeServices.cafeId, cafeId), eq(services.active, true)))
      .orderBy(asc(services.code))
      .all(),
  );
  const minute = minuteOfDay(row.cafe.timeZone, now);
  const current = list.find(
    (s) =>
      s.priceCents !== null &&
      s.windowStart !== null &&
      s.windowEnd !== null &&
      windowHolds({ start: s.windowStart, end: s.windowEnd }, minute),
  );
  return {
    cafe: {
      id: row.cafe.id,
      name: row.cafe.name,
      path: `${row.mine} › ${row.unit} › ${row.cafe.name}`,
      timeZone: row.cafe.timeZone,
      today: dateIn(row.cafe.timeZone, now),
      ticketSeries: row.cafe.ticketSeries,
      boletaSeries: row.cafe.boletaSeries,
      autoPrint: row.cafe.autoPrint,
      keepCash: row.cafe.keepCash,
      business: row.businessName === null ? null : { name: row.businessName, ruc: row.businessRuc },
    },
    services: list.map((s) => ({
      ...s,
      windowStart: s.windowStart === null ? null : formatTimeOfDay(s.windowStart),
      windowEnd: s.windowEnd === null ? null : formatTimeOfDay(s.windowEnd),
    })),
    currentServiceId: current?.id ?? null,
    tills: listTills(db, scope, cafeId)
      .filter((till) => till.active)
      .map(({ id, name }) => ({ id, name })),
    paymentMethods: cafePaymentMethodList(db, cafeId).map(({ code, name, needsReference, inDrawer }) => ({
      code,
      name,
      needsReference,
      inDrawer,
    })),
  };
}

export const PosSettingsInput = t.Object({
  ticket_series: t.Optional(t.String({ pattern: TICKET_SERIES_PATTERN, messageKey: "sales.series_invalid" })),
  boleta_series: t.Optional(t.String({ pattern: BOLETA_SERIES_PATTERN, messageKey: "sales.boleta_series_invalid" })),
  auto_print: t.Optional(t.Boolean()),
  keep_cash: t.Optional(t.Boolean()),
  windows: t.Optional(
    t.Array(
      t.Object({
        service_id: t.Integer({ minimum: 1 }),
        start: t.Union([t.String({ maxLength: 5 }), t.Null()]),
        end: t.Union([t.String({ maxLength: 5 }), t.Null()]),
      }),
      { maxItems: 100 },
    ),
  ),
});

/**
 * Sets a cafe's point-of-sale settings (prices.manage): service windows ("04:30" to "09:30"; both empty for none;
 * an end before the start crosses midnight), the ticket and boleta series, automatic printing and keeping cash after
 * a cash sale. A series is chosen in the registry under the cafe's business: a new one starts at 1, one the cafe held
 * before goes on at its own next number, one another cafe holds is refused. Errors are keyed `windows.<service id>`,
 * `ticket_series`, `boleta_series`. Returns whether anything changed.
 */
export function setPosSettings(
  db: Db,
  actor: Actor,
  scope: Scope,
  cafeId: number,
  input: unknown,
  now = new Date(),
): { changed: boolean } {
  if (!reachesCafe(scope, cafeId)) throw new NotFound();
  const row = db
    .select({ cafe: cafes, businessName: businesses.name })
    .from(cafes)
    .leftJoin(businesses, eq(businesses.id, cafes.businessId))
    .where(eq(cafes.id, cafeId))
    .get();
  if (!row) throw new NotFound();
  const { cafe } = row;
  const data = parseInput(PosSettingsInput, input);
  const offered = new Map(
    db
      .select({ serviceId: cafeServices.serviceId, start: cafeServices.windowStart, end: cafeServices.windowEnd })
      .from(cafeServices)
      .where(eq(cafeServices.cafeId, cafeId))
      .all()
      .map((r) => [r.serviceId, r]),
  );
  const errors: Record<string, Message> = {};
  const windowChanges: { serviceId: number; start: number | null; end: number | null }[] = [];
  for (const w of data.windows ?? []) {
    const key = `windows.${w.service_id}`;
    const current = offered.get(w.service_id);
    if (!current) {
      errors[key] = message("services.not_offered");
      continue;
    }
    const startText = (w.start ?? "").trim();
    const endText = (w.end ?? "").trim();
    if (startText === "" && endText === "") {
      if (current.start !== null || current.end !== null)
        windowChanges.push({ serviceId: w.service_id, start: null, end: null });
      continue;
    }
    const start = parseTimeOfDay(startText);
    const end = parseTimeOfDay(endText);
    if (start === null || end === null || start === end) {
      errors[key] = message("sales.window_invalid");
      continue;
    }
    if (start !== current.start || end !== current.end) windowChanges.push({ serviceId: w.service_id, start, end });
  }
  const seriesChanges = (
    [
      { kind: "ticket", field: "ticket_series", before: cafe.ticketSeries, series: data.ticket_series?.toUpperCase() },
      { kind: "boleta", field: "boleta_series", before: cafe.boletaSeries, series: data.boleta_series?.toUpperCase() },
    ] as const
  ).filter((c): c is typeof c & { series: string } => c.series !== undefined && c.series !== c.before);
  if (seriesChanges.length && cafe.businessId === null)
    for (const change of seriesChanges) errors[change.field] = message("sales.series_without_business");
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  const settings: Partial<Pick<typeof cafes.$inferSelect, "autoPrint" | "keepCash">> = {};
  if (data.auto_print !== undefined && data.auto_print !== cafe.autoPrint) settings.autoPrint = data.auto_print;
  if (data.keep_cash !== undefined && data.keep_cash !== cafe.keepCash) settings.keepCash = data.keep_cash;
  if (windowChanges.length === 0 && seriesChanges.length === 0 && Object.keys(settings).length === 0)
    return { changed: false };
  db.transaction(
    (tx) => {
      // In the write transaction, so two cafes asking for one series at once cannot both get it.
      const chosen: Record<string, string | number> = {};
      const taken: Record<string, Message> = {};
      for (const change of seriesChanges) {
        const choice = chooseSeries(tx, { id: cafeId, businessId: cafe.businessId! }, change.kind, change.series);
        if (choice.taken)
          taken[change.field] = message("sales.series_taken", { series: change.series, business: row.businessName! });
        else
          Object.assign(chosen, {
            [`${change.kind}Series`]: change.series,
            [`${change.kind}SeriesNext`]: choice.nextNumber,
          });
      }
      if (Object.keys(taken).length) throw new ValidationFailed(taken);
      if (Object.keys(settings).length) tx.update(cafes).set(settings).where(eq(cafes.id, cafeId)).run();
      for (const change of windowChanges)
        tx.update(cafeServices)
          .set({ windowStart: change.start, windowEnd: change.end, updatedAt: now })
          .where(and(eq(cafeServices.cafeId, cafeId), eq(cafeServices.serviceId, change.serviceId)))
          .run();
      recordAudit(
        tx,
        actor,
        {
          action: "cafe.pos_updated",
          subjectType: "cafe",
          subjectId: cafeId,
          places: [{ cafeId }],
          before: {
            ...Object.fromEntries(seriesChanges.map((c) => [`${c.kind}Series`, c.before])),
            ...(settings.autoPrint !== undefined ? { autoPrint: cafe.autoPrint } : {}),
            ...(settings.keepCash !== undefined ? { keepCash: cafe.keepCash } : {}),
          },
          after: {
            ...chosen,
            ...settings,
            ...(windowChanges.length
              ? {
                  windows: windowChanges.map((c) => ({
                    serviceId: c.serviceId,
                    start: c.start === null ? null : formatTimeOfDay(c.start),
                    end: c.end === null ? null : formatTimeOfDay(c.end),
                  })),
                }
              : {}),
          },
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
  return { changed: true };
}
