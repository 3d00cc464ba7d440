/**
 * Demo diners and their sales, so the point of sale and every report have something to show on the first start:
 * about 300 diners of the demo subdealerships spread over the demo cafes (Peruvian names, 8-digit DNIs, a few
 * carnés de extranjería, phones, levels, a few deactivated), and the two weeks of sales at the demo cafes that end
 * yesterday: mostly credit meals at breakfast, lunch and dinner, at the hours a mining camp eats in the cafe's time
 * zone, some cash snacks and visitors, a few other-unit meals at the other-unit factor, and a few voided tickets
 * with their reasons. The demo cafes also get their service windows and an issuing business.
 *
 * Everything is drawn from a fixed seed, so every database gets the same diners. The sales are written in one
 * transaction with the arithmetic of a sale (`applyFactor`, `splitIgv`), the snapshots, the audit entries and the
 * gapless ticket numbers that `recordSale` writes (src/domain/sales/sell.ts): `recordSale` sells 230–340 sales a
 * second on the 2-core development machine (`npm run bench:pos`), so its ~6,100 tickets, one transaction and one
 * disk flush each, would hold the first start for 20–30 s; this takes under a second.
 *
 * Idempotent: a diner is added only when their document is missing, a window only where the cafe has none, and
 * sales only while the demo cafes have none at all.
 */
import { createHash } from "node:crypto";
import type { SQLQueryBindings } from "bun:sqlite";
import { and, eq, getTableColumns, getTableName, inArray, isNull, max } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { ensureCafe } from "../../src/domain/access/places";
import { CLI_ACTOR, type Actor } from "../../src/domain/audit";
import { findUserByEmail } from "../../src/domain/accounts/users";
import type { DocumentType } from "../../src/shared/documents";
import { foldText } from "../../src/shared/fold";
import { dateIn } from "../../src/shared/calendar";
import { applyFactor, splitIgv } from "../../src/shared/money";
import { ticketNumber } from "../../src/domain/sales/queries";
import { currentTicketSeries } from "../../src/domain/sales/series";
import type { Db } from "../../src/db";
import {
  auditLog,
  auditPlaces,
  businesses,
  cafePaymentMethods,
  cafes,
  cafeServices,
  dealerships,
  diners,
  levels,
  paymentMethods,
  receiptSeries,
  saleLines,
  salePayments,
  sales,
  saleTills,
  services,
  subdealerships,
  subdealershipUnits,
  tills,
  units,
  type SaleType,
} from "../schema";
import { paymentsDigest, planPayments, type PaymentsRequest } from "../../src/domain/cash/sale-payments";
import type { Seeder } from "./index";
import { DEMO_BUSINESS, DEMO_PLACES } from "./places";

/** The person who sells at the demo cafes (a demo account, see ./access.ts). */
export const DEMO_CASHIER_EMAIL = "cajero@mesa.test";

/** How many diners call each demo cafe home: the demo cashier's Comedor Principal has the most. */
const DINERS_PER_CAFE: Record<string, number> = {
  "Comedor Principal": 70,
  "Comedor Taller": 35,
  "Comedor Campamento": 45,
  "Comedor Chancadora": 30,
  "Comedor Yanacancha": 45,
  "Comedor Tajo": 30,
  "Comedor Puerto": 25,
  "Comedor Mineroducto": 20,
};

/** Days of sales, ending yesterday in each cafe's time zone. */
export const DEMO_SALE_DAYS = 14;

/** Service windows of the demo cafes, minutes after midnight, by service code (no window for disposables). */
const WINDOWS: Record<string, [number, number]> = {
  DES: [4 * 60 + 30, 9 * 60 + 30],
  ALM: [11 * 60, 15 * 60],
  CEN: [18 * 60, 22 * 60],
  REF: [15 * 60, 18 * 60],
};

const MALE = [
  "Juan",
  "José",
  "Luis",
  "Carlos",
  "Jorge",
  "Víctor",
  "Miguel",
  "Pedro",
  "Wilber",
  "Edwin",
  "Percy",
  "Richard",
  "Alberto",
  "Félix",
  "Hugo",
  "Raúl",
  "Walter",
  "Fredy",
  "Rubén",
  "Néstor",
  "Julio",
  "César",
  "Efraín",
  "Teodoro",
  "Alejandro",
  "Ronald",
  "Elmer",
  "Grimaldo",
  "Yony",
  "Abel",
];
const FEMALE = [
  "María",
  "Rosa",
  "Carmen",
  "Lucía",
  "Ana",
  "Elena",
  "Yesenia",
  "Maribel",
  "Flor",
  "Gladys",
  "Norma",
  "Ruth",
  "Sonia",
  "Verónica",
  "Milagros",
  "Roxana",
];
const SURNAMES = [
  "Quispe",
  "Mamani",
  "Huamán",
  "Condori",
  "Flores",
  "Rojas",
  "Torres",
  "Chávez",
  "Ramos",
  "Vargas",
  "Mendoza",
  "Castillo",
  "Gutiérrez",
  "Sánchez",
  "Ccahuana",
  "Huanca",
  "Apaza",
  "Choque",
  "Ticona",
  "Puma",
  "Yupanqui",
  "Cusi",
  "Layme",
  "Ñaupari",
  "Paucar",
  "Villanueva",
  "Salazar",
  "Espinoza",
  "Rodríguez",
  "García",
  "López",
  "Díaz",
  "Cruz",
  "Gonzales",
  "Palomino",
  "Saavedra",
  "Calcina",
  "Coaquira",
  "Ayala",
  "Zevallos",
  "Medina",
  "Núñez",
  "Aguilar",
  "Cárdenas",
  "Ccori",
  "Huallpa",
  "Ttito",
  "Anccasi",
  "Peña",
  "Muñoz",
];
/** Foreign workers, registered with a carné de extranjería. */
const FOREIGN = [
  "Yorman Alexander Pérez Guerrero",
  "Daniela Carolina Rangel Suárez",
  "Jhon Freddy Ospina Cárdenas",
  "Marcelo Andrés Quiroga Vaca",
];
/** Visitors (inspectors, suppliers, auditors) who pay their lunch in cash now and then. */
const VISITORS = [
  "Ricardo Benavides Prado",
  "Patricia Olivares Rey",
  "Fernando Valdivia Cornejo",
  "Marco Antonio Lazo Ugarte",
  "Gisela Tapia Ramírez",
  "Óscar Mejía Talavera",
];
const VOID_REASONS = [
  "Servicio equivocado",
  "Comensal se retiró sin consumir",
  "Error de digitación del DNI",
  "Ticket duplicado por el cajero",
  "Venta al contado registrada como crédito",
];

/** A small deterministic generator (mulberry32), so every database gets the same demo data. */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    chance: (p: number) => next() < p,
    /** A minute within [start, end), most often near `peak` (a triangular spread). */
    minute: (start: number, end: number, peak: number) => {
      const u = next();
      const c = (peak - start) / (end - start);
      const x = u < c ? Math.sqrt(u * c) : 1 - Math.sqrt((1 - u) * (1 - c));
      return Math.min(end - 1, Math.floor(start + x * (end - start)));
    },
  };
}

// ——— Time in the cafe's time zone ———

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone`'s clock is ahead of UTC at the instant `ms`, in ms. */
function zoneOffset(timeZone: string, ms: number): number {
  let format = offsetFormats.get(timeZone);
  if (!format)
    offsetFormats.set(
      timeZone,
      (format = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      })),
    );
  const part = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  const local = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  return local - Math.floor(ms / 1000) * 1000;
}

const offsets = new Map<string, number>();

/** The instant a cafe's clock reads `minute` after midnight of `date` (YYYY-MM-DD); offsets are kept by the hour. */
function instantAt(date: string, minute: number, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number);
  const wall = Date.UTC(y, m - 1, d, 0, minute);
  const key = `${timeZone} ${date} ${Math.floor(minute / 60)}`;
  let offset = offsets.get(key);
  if (offset === undefined)
    offsets.set(key, (offset = zoneOffset(timeZone, wall - zoneOffset(timeZone, wall - (minute % 60) * 60_000))));
  return new Date(wall - offset);
}

/** `date` moved by `days` calendar days. */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

// ——— The demo cafes as the seed needs them ———

interface DemoCafe {
  id: number;
  name: string;
  unitId: number;
  mineId: number;
  timeZone: string;
  series: string;
  nextNumber: number;
  business: { id: number; name: string; ruc: string; address: string };
  /** Priced, active services by code. */
  prices: Map<string, { serviceId: number; code: string; name: string; priceCents: number }>;
  /** Subdealerships working in the cafe's unit. */
  subdealershipIds: number[];
}

function demoCafes(db: Db): DemoCafe[] {
  const business = db.select().from(businesses).where(eq(businesses.name, DEMO_BUSINESS.name)).get();
  const ids: number[] = [];
  for (const mine of DEMO_PLACES)
    for (const unit of mine.units) for (const cafe of unit.cafes) ids.push(ensureCafe(db, mine.mine, unit.name, cafe));
  // A demo cafe without an issuing business could not sell: the demo business issues its tickets.
  if (business)
    db.update(cafes)
      .set({ businessId: business.id })
      .where(and(inArray(cafes.id, ids), isNull(cafes.businessId)))
      .run();
  const rows = db
    .select({ cafe: cafes, mineId: units.mineId, business: businesses })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .leftJoin(businesses, eq(businesses.id, cafes.businessId))
    .where(inArray(cafes.id, ids))
    .all();
  // A cafe sells when its business has a RUC and it has a ticket series of its own.
  return rows
    .map((r) => ({ ...r, ticket: r.business?.ruc ? currentTicketSeries(db, r.cafe.id) : null }))
    .filter((r) => r.ticket !== null)
    .map(({ cafe, mineId, business: b, ticket }) => ({
      id: cafe.id,
      name: cafe.name,
      unitId: cafe.unitId,
      mineId,
      timeZone: cafe.timeZone,
      series: ticket!.series,
      nextNumber: ticket!.nextNumber,
      business: { id: b!.id, name: b!.name, ruc: b!.ruc!, address: b!.fiscalAddress },
      prices: new Map(
        db
          .select({
            serviceId: services.id,
            code: services.code,
            name: services.name,
            priceCents: cafeServices.priceCents,
          })
          .from(cafeServices)
          .innerJoin(services, eq(services.id, cafeServices.serviceId))
          .where(and(eq(cafeServices.cafeId, cafe.id), eq(services.active, true)))
          .all()
          .filter((s) => s.priceCents !== null)
          .map((s) => [s.code, { ...s, priceCents: s.priceCents! }]),
      ),
      subdealershipIds: db
        .select({ id: subdealershipUnits.subdealershipId })
        .from(subdealershipUnits)
        .where(eq(subdealershipUnits.unitId, cafe.unitId))
        .orderBy(subdealershipUnits.subdealershipId)
        .all()
        .map((r) => r.id),
    }));
}

/** Gives the demo cafes' services their windows, where the cafe has none yet. */
function setWindows(db: Db, cafeIds: number[], now: Date): number {
  let set = 0;
  for (const [code, [start, end]] of Object.entries(WINDOWS)) {
    const service = db.select({ id: services.id }).from(services).where(eq(services.code, code)).get();
    if (!service) continue;
    set += db
      .update(cafeServices)
      .set({ windowStart: start, windowEnd: end, updatedAt: now })
      .where(
        and(
          inArray(cafeServices.cafeId, cafeIds),
          eq(cafeServices.serviceId, service.id),
          isNull(cafeServices.windowStart),
          isNull(cafeServices.windowEnd),
        ),
      )
      .returning({ cafeId: cafeServices.cafeId })
      .all().length;
  }
  return set;
}

// ——— Diners ———

interface DemoDiner {
  documentType: DocumentType;
  documentNumber: string;
  name: string;
  phone: string;
  cafeId: number;
  subdealershipId: number;
  level: string;
  /** Days before today the diner stopped working here (deactivated), or null while active. */
  leftDaysAgo: number | null;
  /** Their day in a 14-on, 7-off rotation. */
  rotation: number;
  createdDaysAgo: number;
}

const LEVEL_SPREAD: [string, number][] = [
  ["Laborer", 0.55],
  ["Employee", 0.3],
  ["Staff", 0.12],
  ["Master", 0.03],
];

function demoDiners(cafeList: DemoCafe[], dniLength: number): DemoDiner[] {
  const random = randomFrom(20261124);
  const taken = new Set<string>();
  const dni = () => {
    for (;;) {
      // About one in eight DNIs starts with a zero (older ones), a few with two.
      const zeros = random.chance(0.12) ? (random.chance(0.2) ? 2 : 1) : 0;
      let number = "0".repeat(zeros) + String(random.int(1, 9));
      while (number.length < dniLength) number += String(random.int(0, 9));
      if (!taken.has(number)) {
        taken.add(number);
        return number;
      }
    }
  };
  const phone = () => `9${random.int(0, 9)}${random.int(0, 9)} ${random.int(100, 999)} ${random.int(100, 999)}`;
  const level = () => {
    let u = random.next();
    for (const [name, share] of LEVEL_SPREAD) if ((u -= share) < 0) return name;
    return "Laborer";
  };
  const list: DemoDiner[] = [];
  let foreign = 0;
  for (const cafe of cafeList) {
    const count = DINERS_PER_CAFE[cafe.name] ?? 0;
    if (cafe.subdealershipIds.length === 0) continue;
    for (let i = 0; i < count; i++) {
      const female = random.chance(0.18);
      const first = female ? random.pick(FEMALE) : random.pick(MALE);
      const second = random.chance(0.35) ? ` ${female ? random.pick(FEMALE) : random.pick(MALE)}` : "";
      const isForeign = foreign < FOREIGN.length && list.length % 70 === 33;
      const name = isForeign
        ? FOREIGN[foreign]
        : `${first}${second === ` ${first}` ? "" : second} ${random.pick(SURNAMES)} ${random.pick(SURNAMES)}`;
      const documentType: DocumentType = isForeign ? "ce" : "dni";
      const documentNumber = isForeign ? `00${random.int(1000000, 9999999)}` : dni();
      if (isForeign) foreign++;
      list.push({
        documentType,
        documentNumber,
        name,
        phone: random.chance(0.85) ? phone() : "",
        cafeId: cafe.id,
        // The first subdealership of the unit employs the most people.
        subdealershipId: random.chance(0.5) ? cafe.subdealershipIds[0] : random.pick(cafe.subdealershipIds),
        level: level(),
        leftDaysAgo: list.length % 43 === 21 ? random.int(2, 10) : null,
        rotation: random.int(0, 20),
        createdDaysAgo: random.int(20, 400),
      });
    }
  }
  return list;
}

// ——— Sales ———

interface PlannedLine {
  code: string;
  quantity: number;
}

interface PlannedSale {
  cafe: DemoCafe;
  date: string;
  minute: number;
  saleType: SaleType;
  diner: { id: number; name: string; documentType: DocumentType; documentNumber: string; cafeId: number } | null;
  visitor: { name: string; documentNumber: string } | null;
  lines: PlannedLine[];
  otherUnit: boolean;
  voidReason: string | null;
}

/** What each service's diners eat, and when (start, end, busiest minute). */
const MEALS: { code: string; share: number; start: number; end: number; peak: number }[] = [
  { code: "DES", share: 0.78, start: 4 * 60 + 40, end: 9 * 60 + 20, peak: 5 * 60 + 50 },
  { code: "ALM", share: 0.9, start: 11 * 60 + 15, end: 14 * 60 + 50, peak: 12 * 60 + 40 },
  { code: "CEN", share: 0.55, start: 18 * 60 + 10, end: 21 * 60 + 50, peak: 19 * 60 + 15 },
];

function planSales(
  cafeList: DemoCafe[],
  dinerRows: (DemoDiner & { id: number })[],
  visitorDnis: () => string,
  now: Date,
): PlannedSale[] {
  const random = randomFrom(14_2026);
  const visitors = VISITORS.map((name) => ({ name, documentNumber: visitorDnis() }));
  const byId = new Map(cafeList.map((c) => [c.id, c]));
  const planned: PlannedSale[] = [];
  const today = new Map(cafeList.map((c) => [c.id, dateIn(c.timeZone, now)]));
  const dinerOf = (d: DemoDiner & { id: number }) => ({
    id: d.id,
    name: d.name,
    documentType: d.documentType,
    documentNumber: d.documentNumber,
    cafeId: d.cafeId,
  });
  for (let back = DEMO_SALE_DAYS; back >= 1; back--) {
    for (const diner of dinerRows) {
      const home = byId.get(diner.cafeId);
      if (!home) continue;
      const date = addDays(today.get(home.id)!, -back);
      if (diner.leftDaysAgo !== null && back <= diner.leftDaysAgo) continue;
      // Fourteen days on site, seven off.
      if ((DEMO_SALE_DAYS - back + diner.rotation) % 21 >= 14) continue;
      for (const meal of MEALS) {
        if (!random.chance(meal.share)) continue;
        // Now and then a meal at another cafe of the same mine: an other-unit sale.
        let cafe = home;
        if (random.chance(0.025)) {
          const others = cafeList.filter(
            (c) => c.mineId === home.mineId && c.id !== home.id && c.prices.has(meal.code),
          );
          if (others.length) cafe = random.pick(others);
        }
        if (!cafe.prices.has(meal.code)) continue;
        const lines: PlannedLine[] = [{ code: meal.code, quantity: 1 }];
        // A lunch to take away carries its disposables.
        if (meal.code === "ALM" && cafe.prices.has("DSC") && random.chance(0.1))
          lines.push({ code: "DSC", quantity: 1 });
        planned.push({
          cafe,
          date,
          minute: random.minute(meal.start, meal.end, meal.peak),
          saleType: "credit",
          diner: dinerOf(diner),
          visitor: null,
          lines,
          otherUnit: cafe.id !== home.id,
          voidReason: random.chance(0.006) ? random.pick(VOID_REASONS) : null,
        });
      }
      // A snack between shifts, paid in cash.
      if (home.prices.has("REF") && random.chance(0.07))
        planned.push({
          cafe: home,
          date,
          minute: random.minute(15 * 60, 18 * 60, 16 * 60),
          saleType: "cash",
          diner: dinerOf(diner),
          visitor: null,
          lines: [{ code: "REF", quantity: random.chance(0.25) ? 2 : 1 }],
          otherUnit: false,
          voidReason: random.chance(0.01) ? random.pick(VOID_REASONS) : null,
        });
    }
    // Visitors (inspectors, suppliers) pay their lunch in cash.
    for (const cafe of cafeList) {
      if (!cafe.prices.has("ALM")) continue;
      const date = addDays(today.get(cafe.id)!, -back);
      for (let v = random.int(0, 2); v > 0; v--)
        planned.push({
          cafe,
          date,
          minute: random.minute(11 * 60 + 30, 14 * 60 + 30, 12 * 60 + 45),
          saleType: "cash",
          diner: null,
          visitor: random.pick(visitors),
          lines: [{ code: "ALM", quantity: 1 }],
          otherUnit: false,
          voidReason: null,
        });
    }
  }
  return planned;
}

/**
 * How a demo cash sale was paid, by its number: about half in cash (exact, or a note of S/ 10, 20 or 50 with change),
 * the rest by Yape, Plin and card with their references.
 */
function demoPayment(number: number, totalCents: number): PaymentsRequest[number] {
  const kind = number % 20;
  if (kind < 10) {
    // Some hand over the exact amount; the others the smallest note that covers it.
    const note = kind < 4 ? totalCents : ([1000, 2000, 5000, 10000].find((n) => n >= totalCents) ?? totalCents);
    return { method: "cash", amount_cents: totalCents, tendered_cents: note };
  }
  const method = kind < 14 ? "yape" : kind < 17 ? "plin" : "card";
  const reference = `${method === "card" ? "V" : "OP"}-${String(104729 * number).slice(-8)}`;
  return { method, amount_cents: totalCents, reference };
}

/** The digest of the request a sale answers, in the shape `recordSale` keeps (so a replay of its key matches). */
function digestOf(
  actor: Actor,
  sale: PlannedSale,
  document: { type: DocumentType; number: string },
  payments: PaymentsRequest | undefined,
): string {
  const lines = sale.lines
    .map((l) => [sale.cafe.prices.get(l.code)!.serviceId, l.quantity])
    .sort((a, b) => a[0] - b[0]);
  return createHash("sha256")
    .update(
      JSON.stringify([
        actor.userId,
        sale.cafe.id,
        "ticket",
        document.type,
        document.number,
        sale.visitor?.name ?? null,
        sale.date,
        sale.saleType,
        sale.otherUnit,
        lines,
        null,
        paymentsDigest(payments),
      ]),
    )
    .digest("hex");
}

/**
 * Inserts rows of one of the schema's tables with one statement prepared once (inside the caller's transaction):
 * each value converted as drizzle converts it (dates, booleans), a column missing from a row written as NULL.
 * Thousands of rows this way take milliseconds, where drizzle building an INSERT per row or batch takes a second.
 */
function insertRows<T extends SQLiteTable>(db: Db, table: T, rows: T["$inferInsert"][]): void {
  if (rows.length === 0) return;
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => rows.some((row) => key in row));
  const statement = db.$client.prepare(
    `INSERT INTO "${getTableName(table)}" (${columns.map(([, c]) => `"${c.name}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  for (const row of rows)
    statement.run(
      ...columns.map(([key, column]) => {
        const value = (row as Record<string, unknown>)[key];
        return value === undefined || value === null ? null : (column.mapToDriverValue(value) as SQLQueryBindings);
      }),
    );
}

/** Writes the planned sales in one transaction, numbered per cafe in the order they were sold; returns the count. */
function writeSales(
  db: Db,
  planned: PlannedSale[],
  actor: Actor,
  cashierName: string,
  settings: { igvRateBasisPoints: number; otherUnitFactorPercent: number },
): { sold: number; voided: number } {
  const withTimes = planned
    .map((sale, order) => ({ sale, order, at: instantAt(sale.date, sale.minute, sale.cafe.timeZone) }))
    .sort((a, b) => a.at.getTime() - b.at.getTime() || a.order - b.order);
  const companies = new Map(
    db
      .select({
        id: subdealerships.id,
        name: subdealerships.name,
        ruc: subdealerships.ruc,
        dealership: { id: dealerships.id, name: dealerships.name, ruc: dealerships.ruc },
      })
      .from(subdealerships)
      .innerJoin(dealerships, eq(dealerships.id, subdealerships.dealershipId))
      .all()
      .map((s) => [s.id, s]),
  );
  const dinerCompany = new Map(
    db
      .select({ id: diners.id, subdealershipId: diners.subdealershipId })
      .from(diners)
      .all()
      .map((d) => [d.id, companies.get(d.subdealershipId)!]),
  );
  const saleRows: (typeof sales.$inferInsert)[] = [];
  const lineRows: (typeof saleLines.$inferInsert)[] = [];
  const auditRows: (typeof auditLog.$inferInsert)[] = [];
  const tillRows: (typeof saleTills.$inferInsert)[] = [];
  const paymentRows: (typeof salePayments.$inferInsert)[] = [];
  // Each demo cafe sells at its first till and takes cash, Yape, Plin and card.
  const tillOf = new Map(
    db
      .select({ cafeId: tills.cafeId, id: tills.id, name: tills.name })
      .from(tills)
      .orderBy(tills.id)
      .all()
      .reverse()
      .map((t) => [t.cafeId, t]),
  );
  const methods = new Map(
    db
      .select()
      .from(paymentMethods)
      .all()
      .map((m) => [m.code, m]),
  );
  const demoMethods = ["cash", "yape", "plin", "card"].map((code) => methods.get(code)!);
  for (const cafe of new Set(planned.map((p) => p.cafe.id)))
    for (const code of ["yape", "plin", "card"])
      db.insert(cafePaymentMethods)
        .values({ cafeId: cafe, methodId: methods.get(code)!.id })
        .onConflictDoNothing()
        .run();
  let voided = 0;
  db.transaction(
    (tx) => {
      // Ids are given here, inside the immediate transaction, so the rows can be written in batches.
      const firstId = (table: typeof sales | typeof saleLines | typeof auditLog) =>
        (tx
          .select({ last: max(table.id) })
          .from(table)
          .get()?.last ?? 0) + 1;
      let saleId = firstId(sales);
      let lineId = firstId(saleLines);
      let auditId = firstId(auditLog);
      const next = new Map(planned.map((p) => [p.cafe.id, p.cafe.nextNumber]));
      for (const { sale, at } of withTimes) {
        const cafe = sale.cafe;
        const number = next.get(cafe.id)!;
        next.set(cafe.id, number + 1);
        const factor = sale.otherUnit ? settings.otherUnitFactorPercent : 100;
        const lines = sale.lines.map((l) => {
          const price = cafe.prices.get(l.code)!;
          const unitPriceCents = applyFactor(price.priceCents, factor);
          const totalCents = unitPriceCents * l.quantity;
          return {
            ...price,
            quantity: l.quantity,
            unitPriceCents,
            totalCents,
            ...splitIgv(totalCents, settings.igvRateBasisPoints),
          };
        });
        const sum = (pick: (l: (typeof lines)[number]) => number) => lines.reduce((t, l) => t + pick(l), 0);
        const document = sale.diner
          ? { type: sale.diner.documentType, number: sale.diner.documentNumber }
          : { type: "dni" as const, number: sale.visitor!.documentNumber };
        const company = sale.diner ? dinerCompany.get(sale.diner.id)! : null;
        const ticket = ticketNumber(cafe.series, number);
        const voidedAt = sale.voidReason ? new Date(at.getTime() + (2 + (number % 9)) * 60_000) : null;
        const id = saleId++;
        const payment =
          sale.saleType === "cash"
            ? demoPayment(
                number,
                sum((l) => l.totalCents),
              )
            : undefined;
        if (payment) {
          // Checked and worked out (the change) as the sale request's own payments are.
          const errors = {};
          const planned = planPayments(
            demoMethods,
            [payment],
            sum((l) => l.totalCents),
            errors,
          );
          if (!planned) throw new Error(`A demo payment was refused: ${JSON.stringify(errors)}`);
          for (const p of planned) paymentRows.push({ saleId: id, ...p });
        }
        const till = tillOf.get(cafe.id);
        if (till) tillRows.push({ saleId: id, tillId: till.id, tillName: till.name });
        saleRows.push({
          id,
          cafeId: cafe.id,
          receiptType: "ticket",
          series: cafe.series,
          number,
          saleType: sale.saleType,
          serviceDate: sale.date,
          soldAt: at,
          requestKey: `demo-${cafe.id}-${number}`,
          requestDigest: digestOf(actor, sale, document, payment ? [payment] : undefined),
          dinerId: sale.diner?.id ?? null,
          documentType: document.type,
          documentNumber: document.number,
          dinerName: sale.diner?.name ?? sale.visitor!.name,
          subdealershipId: company?.id ?? null,
          subdealershipName: company?.name ?? null,
          subdealershipRuc: company?.ruc ?? null,
          dealershipId: company?.dealership.id ?? null,
          dealershipName: company?.dealership.name ?? null,
          dealershipRuc: company?.dealership.ruc ?? null,
          businessId: cafe.business.id,
          businessName: cafe.business.name,
          businessRuc: cafe.business.ruc,
          businessAddress: cafe.business.address,
          cafeName: cafe.name,
          otherUnit: sale.otherUnit,
          priceFactorPercent: factor,
          igvRateBasisPoints: settings.igvRateBasisPoints,
          baseCents: sum((l) => l.baseCents),
          igvCents: sum((l) => l.igvCents),
          totalCents: sum((l) => l.totalCents),
          cashierId: actor.userId,
          cashierName,
          voidedAt,
          voidedBy: voidedAt ? actor.userId : null,
          voidedByName: voidedAt ? cashierName : null,
          voidReason: sale.voidReason,
        });
        for (const l of lines)
          lineRows.push({
            id: lineId++,
            saleId: id,
            serviceId: l.serviceId,
            serviceCode: l.code,
            serviceName: l.name,
            quantity: l.quantity,
            listPriceCents: l.priceCents,
            unitPriceCents: l.unitPriceCents,
            baseCents: l.baseCents,
            igvCents: l.igvCents,
            totalCents: l.totalCents,
            dinerId: sale.diner?.id ?? null,
            saleType: sale.saleType,
            serviceDate: sale.date,
            voided: voidedAt !== null,
          });
        // The audit entries recordSale and voidSale write (src/domain/audit.ts, recordAudit), in batches.
        auditRows.push({
          id: auditId++,
          actorId: actor.userId,
          actorLabel: actor.label,
          action: "sale.created",
          subjectType: "sale",
          subjectId: id,
          after: JSON.stringify({
            ticket,
            saleType: sale.saleType,
            serviceDate: sale.date,
            documentNumber: document.number,
            name: sale.diner?.name ?? sale.visitor!.name,
            otherUnit: sale.otherUnit,
            totalCents: sum((l) => l.totalCents),
          }),
          createdAt: at,
        });
        if (voidedAt) {
          voided++;
          auditRows.push({
            id: auditId++,
            actorId: actor.userId,
            actorLabel: actor.label,
            action: "sale.voided",
            subjectType: "sale",
            subjectId: id,
            before: JSON.stringify({ ticket, totalCents: sum((l) => l.totalCents) }),
            after: JSON.stringify({ reason: sale.voidReason }),
            createdAt: voidedAt,
          });
        }
      }
      const cafeOfSale = new Map(saleRows.map((r) => [r.id!, r.cafeId]));
      insertRows(db, sales, saleRows);
      insertRows(db, saleLines, lineRows);
      insertRows(db, saleTills, tillRows);
      insertRows(db, salePayments, paymentRows);
      insertRows(db, auditLog, auditRows);
      insertRows(
        db,
        auditPlaces,
        auditRows.map((a) => ({ auditId: a.id!, kind: "cafe" as const, placeId: cafeOfSale.get(a.subjectId!)! })),
      );
      for (const [cafeId, number] of next)
        tx.update(receiptSeries)
          .set({ nextNumber: number })
          .where(eq(receiptSeries.id, currentTicketSeries(tx, cafeId)!.id))
          .run();
    },
    { behavior: "immediate" },
  );
  return { sold: withTimes.length, voided };
}

const count = (n: number) => n.toLocaleString("en-US");

export const dinersSeeder: Seeder = {
  name: "Demo diners and sales",
  async run(db, config) {
    const now = new Date();
    const cafeList = demoCafes(db);
    if (cafeList.length === 0) return ["no demo cafe with an issuing business: no diners or sales added"];
    const windows = setWindows(
      db,
      cafeList.map((c) => c.id),
      now,
    );
    const levelIds = new Map(
      db
        .select()
        .from(levels)
        .all()
        .map((l) => [l.name, l.id]),
    );
    const planned = demoDiners(cafeList, config.dniLength);
    const day = 86_400_000;
    const added = db.transaction(
      (tx) => {
        // A document already registered keeps its diner as they are.
        const known = new Set(
          tx
            .select({ type: diners.documentType, number: diners.documentNumber })
            .from(diners)
            .all()
            .map((d) => `${d.type}:${d.number}`),
        );
        const rows = planned
          .filter((d) => !known.has(`${d.documentType}:${d.documentNumber}`))
          .map((d) => {
            const left = d.leftDaysAgo === null ? null : new Date(now.getTime() - d.leftDaysAgo * day);
            const createdAt = new Date(now.getTime() - d.createdDaysAgo * day);
            return {
              documentType: d.documentType,
              documentNumber: d.documentNumber,
              name: d.name,
              nameFolded: foldText(d.name),
              phone: d.phone,
              subdealershipId: d.subdealershipId,
              cafeId: d.cafeId,
              levelId: levelIds.get(d.level) ?? null,
              active: left === null,
              createdAt,
              updatedAt: left ?? createdAt,
            };
          });
        insertRows(db, diners, rows);
        return rows.length;
      },
      { behavior: "immediate" },
    );
    const lines = [
      `${count(added)} diners added (${count(planned.length)} in the demo set, ${planned.filter((d) => d.leftDaysAgo !== null).length} of them inactive)`,
    ];
    if (windows) lines.push(`${windows} service windows set at the demo cafes`);

    const sold = db
      .select({ id: sales.id })
      .from(sales)
      .where(
        inArray(
          sales.cafeId,
          cafeList.map((c) => c.id),
        ),
      )
      .limit(1)
      .get();
    if (sold) return [...lines, "the demo cafes already have sales: none added"];

    const stored = new Map(
      db
        .select({ id: diners.id, type: diners.documentType, number: diners.documentNumber, cafeId: diners.cafeId })
        .from(diners)
        .all()
        .map((d) => [`${d.type}:${d.number}`, d]),
    );
    // The demo diners as stored (an earlier diner with the same document keeps their own home cafe).
    const dinerRows = planned.flatMap((d) => {
      const row = stored.get(`${d.documentType}:${d.documentNumber}`);
      return row ? [{ ...d, id: row.id, cafeId: row.cafeId }] : [];
    });
    const visitorRandom = randomFrom(7_2026);
    const visitorDnis = () => {
      for (;;) {
        let number = String(visitorRandom.int(1, 7));
        while (number.length < config.dniLength) number += String(visitorRandom.int(0, 9));
        if (!stored.has(`dni:${number}`)) return number;
      }
    };
    const cashier = findUserByEmail(db, DEMO_CASHIER_EMAIL);
    const actor: Actor = cashier ? { userId: cashier.id, label: cashier.email } : CLI_ACTOR;
    const plannedSales = planSales(cafeList, dinerRows, visitorDnis, now);
    const { sold: written, voided } = writeSales(db, plannedSales, actor, cashier?.name ?? CLI_ACTOR.label, config);
    lines.push(
      `${count(written)} sales over ${DEMO_SALE_DAYS} days at ${cafeList.length} cafes, ending yesterday (${count(voided)} voided), sold by ${cashier ? DEMO_CASHIER_EMAIL : CLI_ACTOR.label}`,
    );
    return lines;
  },
};
