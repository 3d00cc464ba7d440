/**
 * The series registry: a cafe's series belong to it for ever under its business, a new series starts at 1, going
 * back to one of its own goes on at its number, another cafe's is refused with the series and the business named; the
 * boleta series has its own form and registry; new cafes and cafes that change business are registered by triggers;
 * a change is audited with the next number.
 */
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { businesses, cafes, receiptSeries, sales, users } from "../../../db/schema";
import { errorsOf } from "../../../tests/support/errors";
import { posWorld } from "../../../tests/support/pos";
import { migrateDatabase, openDatabase } from "../../db";
import { translate, type TranslationKey, type TranslationParams } from "../../shared/i18n";
import { EVERYTHING } from "../access/scope";
import { listAudit, type Actor } from "../audit";
import { describeAuditRows } from "../audit-view";
import type { Message } from "../../shared/message";
import { setPosSettings } from "./point-of-sale";
import { recordSale } from "./sell";
import { currentTicketSeries } from "./series";

const NOW = new Date("2026-11-24T15:00:00Z");
const TODAY = "2026-11-24";
const MANAGER: Actor = { userId: 1, label: "jefa@mesa.test" };
let keys = 0;

function setup() {
  const db = openDatabase(":memory:");
  migrateDatabase(db);
  const w = posWorld(db);
  db.insert(users)
    .values({ id: 1, name: "Jefa", email: "jefa@mesa.test", passwordHash: "x", createdAt: NOW, updatedAt: NOW })
    .run();
  const sell = (cafeId: number, document = "40000001") =>
    recordSale(
      db,
      MANAGER,
      EVERYTHING,
      {
        key: `series-key-${++keys}`,
        cafe_id: cafeId,
        document_number: document,
        service_date: TODAY,
        sale_type: "cash",
        lines: [{ service_id: w.alm, quantity: 1 }],
      },
      { dniLength: 8, igvRateBasisPoints: 1800, otherUnitFactorPercent: 200 },
      { backdate: false },
      undefined,
      NOW,
    ).sale;
  const settings = (cafeId: number, input: Record<string, unknown>) =>
    setPosSettings(db, MANAGER, EVERYTHING, cafeId, input, NOW);
  const seriesOf = (cafeId: number) => db.select().from(cafes).where(eq(cafes.id, cafeId)).get()!;
  const registry = () =>
    db
      .select({ kind: receiptSeries.kind, series: receiptSeries.series, cafeId: receiptSeries.cafeId })
      .from(receiptSeries)
      .orderBy(receiptSeries.id)
      .all();
  return { db, w, sell, settings, seriesOf, registry };
}

/** A message in both languages. */
function words(m: Message): { es: string; en: string } {
  const { key, params } = typeof m === "string" ? { key: m, params: undefined } : m;
  return {
    es: translate("es", key as TranslationKey, params as TranslationParams),
    en: translate("en", key as TranslationKey, params as TranslationParams),
  };
}

const defaultSeries = (id: number) => `T${String(id).padStart(3, "0")}`;

describe("the series registry", () => {
  test("another cafe's series is refused, in Spanish and English; nothing changes and both keep numbering apart", () => {
    const { w, sell, settings, seriesOf, registry } = setup();
    sell(w.norte);
    const before = registry();
    const errors = errorsOf(() => settings(w.sur, { ticket_series: defaultSeries(w.norte).toLowerCase() }));
    expect(Object.keys(errors)).toEqual(["ticket_series"]);
    expect(words(errors.ticket_series)).toEqual({
      es: `La serie ${defaultSeries(w.norte)} ya pertenece a otro comedor de Catering Andino: elija otra.`,
      en: `The series ${defaultSeries(w.norte)} already belongs to another cafe of Catering Andino: choose another.`,
    });
    expect(seriesOf(w.sur).ticketSeries).toBe(defaultSeries(w.sur));
    expect(registry()).toEqual(before);
    expect(sell(w.sur, "40000003").ticket).toBe(`${defaultSeries(w.sur)}-00000001`);
    expect(sell(w.norte, "40000002").ticket).toBe(`${defaultSeries(w.norte)}-00000002`);
  });

  test("a series a cafe left is still its own: another cafe is refused it", () => {
    const { w, sell, settings } = setup();
    sell(w.norte);
    settings(w.norte, { ticket_series: "N2" });
    const errors = errorsOf(() => settings(w.sur, { ticket_series: defaultSeries(w.norte) }));
    expect(errors.ticket_series).toMatchObject({ key: "sales.series_taken" });
  });

  test("a new series starts at 1; going back to one the cafe used goes on at its own number, never colliding", () => {
    const { db, w, sell, settings } = setup();
    const first = [sell(w.norte), sell(w.norte), sell(w.norte)].map((s) => s.ticket);
    settings(w.norte, { ticket_series: "x9" });
    const second = [sell(w.norte), sell(w.norte)].map((s) => s.ticket);
    settings(w.norte, { ticket_series: defaultSeries(w.norte) });
    const third = sell(w.norte).ticket;
    settings(w.norte, { ticket_series: "X9" });
    const fourth = sell(w.norte).ticket;
    const t = defaultSeries(w.norte);
    expect([...first, ...second, third, fourth]).toEqual([
      `${t}-00000001`,
      `${t}-00000002`,
      `${t}-00000003`,
      "X9-00000001",
      "X9-00000002",
      `${t}-00000004`,
      "X9-00000003",
    ]);
    expect(db.select().from(sales).all()).toHaveLength(7);
    expect(currentTicketSeries(db, w.norte)).toMatchObject({ series: "X9", nextNumber: 4 });
  });

  test("the boleta series is B and 3 letters or digits, registered apart from tickets, another cafe's refused", () => {
    const { w, settings, seriesOf, registry } = setup();
    for (const bad of ["B01", "B0001", "T001", "B-01", "", "Bñ01"]) {
      const errors = errorsOf(() => settings(w.norte, { boleta_series: bad }));
      expect({ bad, fields: Object.keys(errors) }).toEqual({ bad, fields: ["boleta_series"] });
    }
    expect(words(errorsOf(() => settings(w.norte, { boleta_series: "B01" })).boleta_series)).toEqual({
      es: "La serie de boletas es una B seguida de 3 letras o dígitos (por ejemplo B001).",
      en: "The boleta series is a B followed by 3 letters or digits (for example B001).",
    });
    expect(settings(w.norte, { boleta_series: "b001" })).toEqual({ changed: true });
    expect(seriesOf(w.norte).boletaSeries).toBe("B001");
    // A ticket series may read B001 too: it numbers another kind of document.
    settings(w.sur, { ticket_series: "B001" });
    expect(registry()).toEqual([
      { kind: "ticket", series: defaultSeries(w.norte), cafeId: w.norte },
      { kind: "ticket", series: defaultSeries(w.sur), cafeId: w.sur },
      { kind: "boleta", series: "B001", cafeId: w.norte },
      { kind: "ticket", series: "B001", cafeId: w.sur },
    ]);
    expect(errorsOf(() => settings(w.sur, { boleta_series: "B001" })).boleta_series).toMatchObject({
      key: "sales.series_taken",
      params: { series: "B001", business: "Catering Andino" },
    });
    // Asking for the series the cafe has already changes nothing.
    expect(settings(w.norte, { boleta_series: "B001", ticket_series: defaultSeries(w.norte) })).toEqual({
      changed: false,
    });
  });

  test("two series refused at once are both named, and a refused one keeps the other from being saved", () => {
    const { w, settings, seriesOf } = setup();
    settings(w.norte, { boleta_series: "B001" });
    const errors = errorsOf(() =>
      settings(w.sur, { ticket_series: defaultSeries(w.norte), boleta_series: "B001", auto_print: false }),
    );
    expect(Object.keys(errors).sort()).toEqual(["boleta_series", "ticket_series"]);
    const partly = errorsOf(() => settings(w.sur, { ticket_series: "S1", boleta_series: "B001", auto_print: false }));
    expect(Object.keys(partly)).toEqual(["boleta_series"]);
    expect(seriesOf(w.sur)).toMatchObject({ ticketSeries: defaultSeries(w.sur), boletaSeries: "", autoPrint: true });
  });

  test("a cafe without an issuing business cannot choose a series", () => {
    const { db, w, settings } = setup();
    const lone = db
      .insert(cafes)
      .values({ unitId: unitOf(db, w.norte), name: "Comedor Suelto" })
      .returning()
      .get();
    expect(lone.ticketSeries).toBe("");
    expect(db.select().from(cafes).where(eq(cafes.id, lone.id)).get()!.ticketSeries).toBe(defaultSeries(lone.id));
    const errors = errorsOf(() => settings(lone.id, { ticket_series: "L1", boleta_series: "B777" }));
    expect(errors).toEqual({
      ticket_series: { key: "sales.series_without_business", params: undefined },
      boleta_series: { key: "sales.series_without_business", params: undefined },
    });
  });

  test("the change is audited with the series before and after and the number the next ticket gets", () => {
    const { db, w, sell, settings } = setup();
    sell(w.norte);
    sell(w.norte);
    settings(w.norte, { ticket_series: "N2", boleta_series: "B123" });
    settings(w.norte, { ticket_series: defaultSeries(w.norte) });
    const entries = describeAuditRows(
      db,
      listAudit(db, { scope: EVERYTHING, companyWide: true }, { page: 1, perPage: 10, search: undefined, locale: "es" })
        .rows,
      { locale: "es", currency: "PEN" },
    ).filter((e) => e.action === "cafe.pos_updated");
    expect(entries.map((e) => e.changes)).toEqual([
      [
        { field: "Serie de tickets", before: "N2", after: defaultSeries(w.norte) },
        { field: "Siguiente número de ticket", before: "—", after: "3" },
      ],
      [
        { field: "Serie de tickets", before: defaultSeries(w.norte), after: "N2" },
        { field: "Siguiente número de ticket", before: "—", after: "1" },
        { field: "Serie de boletas", before: "—", after: "B123" },
        { field: "Siguiente número de boleta", before: "—", after: "1" },
      ],
    ]);
  });
});

describe("series of new cafes and of cafes that change business", () => {
  test("a new cafe gets T and its id; when another cafe holds that, it has none and its sales say what to do", () => {
    const { db, w, settings, sell } = setup();
    // Norte takes the series the next cafe would get by default.
    const nextId = w.sur + 1;
    settings(w.norte, { ticket_series: defaultSeries(nextId) });
    const made = db
      .insert(cafes)
      .values({ unitId: unitOf(db, w.norte), businessId: w.business, name: "Comedor Nuevo" })
      .returning()
      .get();
    expect(made.id).toBe(nextId);
    expect(db.select().from(cafes).where(eq(cafes.id, made.id)).get()!.ticketSeries).toBe("");
    expect(currentTicketSeries(db, made.id)).toBeNull();
    const errors = errorsOf(() => sell(made.id));
    expect(words(errors.cafe_id)).toEqual({
      es: "El comedor Comedor Nuevo no tiene una serie de tickets propia: elíjala en Precios y horarios (Serie de tickets) antes de vender.",
      en: "The cafe Comedor Nuevo has no ticket series of its own: choose one in Prices and hours (Ticket series) before selling.",
    });
  });

  test("a cafe that moves to another business takes its series there, or none where another cafe holds it", () => {
    const { db, w, sell, seriesOf } = setup();
    sell(w.norte);
    sell(w.norte);
    const other = db.insert(businesses).values({ name: "Otra Empresa", ruc: "20604382158" }).returning().get().id;
    const elsewhere = db
      .insert(cafes)
      .values({
        unitId: unitOf(db, w.norte),
        businessId: other,
        name: "Comedor Ajeno",
        ticketSeries: defaultSeries(w.sur),
      })
      .returning()
      .get().id;
    expect(seriesOf(elsewhere).ticketSeries).toBe(defaultSeries(w.sur));
    // Norte moves: its series is new under the other business, so it starts at 1 there.
    db.update(cafes).set({ businessId: other }).where(eq(cafes.id, w.norte)).run();
    expect(sell(w.norte, "40000002")).toMatchObject({
      ticket: `${defaultSeries(w.norte)}-00000001`,
      businessName: "Otra Empresa",
    });
    // And back: it goes on at its own number under its first business.
    db.update(cafes).set({ businessId: w.business }).where(eq(cafes.id, w.norte)).run();
    expect(sell(w.norte, "40000002").ticket).toBe(`${defaultSeries(w.norte)}-00000003`);
    // A cafe whose series another cafe of its new business holds has none of its own there.
    db.update(cafes).set({ businessId: other }).where(eq(cafes.id, w.sur)).run();
    expect(seriesOf(w.sur).ticketSeries).toBe("");
    expect(errorsOf(() => sell(w.sur, "40000003")).cafe_id).toMatchObject({ key: "sales.series_missing" });
    expect(
      db
        .select()
        .from(receiptSeries)
        .where(and(eq(receiptSeries.businessId, other), eq(receiptSeries.series, defaultSeries(w.sur))))
        .get()!.cafeId,
    ).toBe(elsewhere);
  });

  test("a series written on the cafe by hand, not registered to it, takes no number: the sale is refused", () => {
    const { db, w, sell } = setup();
    db.update(cafes)
      .set({ ticketSeries: defaultSeries(w.norte) })
      .where(eq(cafes.id, w.sur))
      .run();
    expect(errorsOf(() => sell(w.sur, "40000003")).cafe_id).toMatchObject({ key: "sales.series_missing" });
    expect(db.select().from(sales).all()).toEqual([]);
    expect(sell(w.norte).ticket).toBe(`${defaultSeries(w.norte)}-00000001`);
  });
});

function unitOf(db: ReturnType<typeof setup>["db"], cafeId: number): number {
  return db.select().from(cafes).where(eq(cafes.id, cafeId)).get()!.unitId;
}
