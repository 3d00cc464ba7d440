/**
 * The places export: what the Management page's Excel export writes for its mines, units or cafes tab. It is the
 * places workbook the import reads (src/domain/places/import/, docs/places-workbook.md) — the same sheets and
 * columns, in the reader's language — so an exported workbook imports back, and imported unchanged it changes
 * nothing.
 *
 * The tab's rows matching its search (as the tab lists them, within the person's scope) are written with what they
 * stand on and what they hold, so the workbook stands alone: a mine with its units and cafes, a unit with its mine
 * and cafes, a cafe with its unit and mine; and each exported cafe's prices. The Services sheet lists every service
 * (the catalogue everyone sees), so every code the places use is defined in the same workbook.
 */
import { asc } from "drizzle-orm";
import {
  businesses,
  cafes,
  cafeServices,
  mines,
  mineServices,
  services,
  units,
  unitServices,
} from "../../../db/schema";
import type { Db } from "../../db";
import type { Locale } from "../../shared/i18n";
import { reachesCafe, type Scope } from "../access/scope";
import type { ExportSheet } from "../spreadsheets/write";
import { PLACES_SHEETS, serviceTypeName, workbookSheet, yesNo, type PlacesSheetKind, type WorkbookRow } from "./import";
import { exportCafes, exportMines, exportUnits, reachableParents } from "./places";

export type PlacesTable = "mines" | "units" | "cafes";

const byName = (a: string, b: string) => a.localeCompare(b, "es", { sensitivity: "base" }) || a.localeCompare(b);

/**
 * The places workbook of the `table` tab's rows matching `search` within `scope`, with the places they stand on and
 * hold and their prices, headers and sheet names in `language`.
 */
export function placesExport(
  db: Db,
  scope: Scope,
  language: Locale,
  table: PlacesTable,
  search: string | undefined,
): ExportSheet<WorkbookRow>[] {
  const reach = reachableParents(db, scope);
  const reachMine = reach && new Set(reach.mineIds);
  const reachUnit = reach && new Set(reach.unitIds);
  const allMines = db.select({ id: mines.id, name: mines.name }).from(mines).all();
  const allUnits = db.select({ id: units.id, mineId: units.mineId, name: units.name }).from(units).all();
  const allCafes = db
    .select({
      id: cafes.id,
      unitId: cafes.unitId,
      name: cafes.name,
      businessId: cafes.businessId,
      timeZone: cafes.timeZone,
    })
    .from(cafes)
    .all();
  const unitsInReach = allUnits.filter((u) => !reachUnit || reachUnit.has(u.id));
  const cafesInReach = allCafes.filter((c) => reachesCafe(scope, c.id));

  // The rows the tab shows for this search, then what they stand on and what they hold.
  let mineIds: Set<number>;
  let unitIds: Set<number>;
  let cafeIds: Set<number>;
  if (table === "mines") {
    mineIds = new Set(exportMines(db, scope, search).map((r) => r.id));
    unitIds = new Set(unitsInReach.filter((u) => mineIds.has(u.mineId)).map((u) => u.id));
    cafeIds = new Set(cafesInReach.filter((c) => unitIds.has(c.unitId)).map((c) => c.id));
  } else if (table === "units") {
    const matched = exportUnits(db, scope, search);
    unitIds = new Set(matched.map((r) => r.id));
    mineIds = new Set(matched.map((r) => r.mineId));
    cafeIds = new Set(cafesInReach.filter((c) => unitIds.has(c.unitId)).map((c) => c.id));
  } else {
    const matched = exportCafes(db, scope, search);
    cafeIds = new Set(matched.map((r) => r.id));
    unitIds = new Set(matched.map((r) => r.unitId));
    mineIds = new Set(matched.map((r) => r.mineId));
  }
  if (reachMine) mineIds = new Set([...mineIds].filter((id) => reachMine.has(id)));

  const serviceRows = db.select().from(services).orderBy(asc(services.code)).all();
  const codeOf = new Map(serviceRows.map((s) => [s.id, s.code]));
  const offers = (rows: { placeId: number; serviceId: number }[], ids: Set<number>) => {
    const map = new Map<number, string[]>();
    for (const r of rows)
      if (ids.has(r.placeId)) map.set(r.placeId, [...(map.get(r.placeId) ?? []), codeOf.get(r.serviceId)!]);
    for (const codes of map.values()) codes.sort();
    return map;
  };
  const mineOffers = offers(
    db.select({ placeId: mineServices.mineId, serviceId: mineServices.serviceId }).from(mineServices).all(),
    mineIds,
  );
  const unitOffers = offers(
    db.select({ placeId: unitServices.unitId, serviceId: unitServices.serviceId }).from(unitServices).all(),
    unitIds,
  );
  const cafeOfferRows = db
    .select({ placeId: cafeServices.cafeId, serviceId: cafeServices.serviceId, priceCents: cafeServices.priceCents })
    .from(cafeServices)
    .all()
    .filter((r) => cafeIds.has(r.placeId));
  const cafeOffers = offers(cafeOfferRows, cafeIds);
  const businessName = new Map(
    db
      .select({ id: businesses.id, name: businesses.name })
      .from(businesses)
      .all()
      .map((b) => [b.id, b.name]),
  );

  const mineName = new Map(allMines.map((m) => [m.id, m.name]));
  const unitOf = new Map(allUnits.map((u) => [u.id, u]));
  const mineRows = allMines.filter((m) => mineIds.has(m.id)).sort((a, b) => byName(a.name, b.name));
  const unitRows = allUnits
    .filter((u) => unitIds.has(u.id))
    .map((u) => ({ ...u, mine: mineName.get(u.mineId)! }))
    .sort((a, b) => byName(a.mine, b.mine) || byName(a.name, b.name));
  const cafeRows = allCafes
    .filter((c) => cafeIds.has(c.id))
    .map((c) => {
      const unit = unitOf.get(c.unitId)!;
      return { ...c, unit: unit.name, mine: mineName.get(unit.mineId)! };
    })
    .sort((a, b) => byName(a.mine, b.mine) || byName(a.unit, b.unit) || byName(a.name, b.name));
  const pricesOf = new Map<number, { code: string; cents: number }[]>();
  for (const r of cafeOfferRows) {
    if (r.priceCents === null) continue;
    pricesOf.set(r.placeId, [
      ...(pricesOf.get(r.placeId) ?? []),
      { code: codeOf.get(r.serviceId)!, cents: r.priceCents },
    ]);
  }

  const rows: Record<PlacesSheetKind, WorkbookRow[]> = {
    services: serviceRows.map((s) => ({
      code: s.code,
      name: s.name,
      type: serviceTypeName(s.type, language),
      description: s.description,
      active: yesNo(s.active, language),
    })),
    mines: mineRows.map((m) => ({ name: m.name, services: (mineOffers.get(m.id) ?? []).join(", ") })),
    units: unitRows.map((u) => ({ mine: u.mine, name: u.name, services: (unitOffers.get(u.id) ?? []).join(", ") })),
    cafes: cafeRows.map((c) => ({
      mine: c.mine,
      unit: c.unit,
      name: c.name,
      business: c.businessId === null ? "" : (businessName.get(c.businessId) ?? ""),
      timeZone: c.timeZone,
      services: (cafeOffers.get(c.id) ?? []).join(", "),
    })),
    prices: cafeRows.flatMap((c) =>
      (pricesOf.get(c.id) ?? [])
        .sort((a, b) => a.code.localeCompare(b.code))
        .map((p) => ({ mine: c.mine, unit: c.unit, cafe: c.name, service: p.code, price: p.cents / 100 })),
    ),
  };
  return PLACES_SHEETS.map((kind) => workbookSheet(kind, language, rows[kind]));
}
