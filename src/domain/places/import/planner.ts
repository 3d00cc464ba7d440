/**
 * The plan: the database's places as they will be after the import. The Planner reads the places, services and
 * businesses once, then takes the workbook's rows one by one, collecting problems rather than stopping at the first.
 */
import { reachesBusiness, reachesCafe, type Scope } from "../../access/scope";
import type { Tx } from "../../audit";
import { message, type Message } from "../../../shared/message";
import { placeNameKey } from "../places";
import {
  businesses,
  cafes,
  cafeServices,
  mines,
  mineServices,
  services,
  units,
  unitServices,
  type ServiceType,
} from "../../../../db/schema";
import type { CellValue } from "../../spreadsheets/read";
import { codeList, isTimeZone, priceCents, type Cells } from "./cells";
import { NO, normalise, TYPE_BY_NAME, YES } from "./format";
import type { ImportProblem } from "./types";

export interface ServicePlan {
  id: number | null;
  code: string;
  name: string;
  type: ServiceType;
  description: string;
  active: boolean;
  changed: boolean;
  /** A row of the Services sheet names it. */
  named?: true;
  /** The service as it was, when the import changes it (for the audit). */
  before?: { name: string; type: ServiceType; description: string; active: boolean };
}

export interface PlacePlan {
  id: number | null;
  name: string;
  /** Codes offered after the import. */
  services: Set<string>;
  added: Set<string>;
  reachable: boolean;
  /** Two places of the database share this name but for case or spacing: rows naming it cannot tell which. */
  ambiguous?: true;
  /** Where the workbook names this place as a row of its own sheet. */
  at?: { sheet: string; row: number; column: string };
}

export interface CafePlan extends PlacePlan {
  businessId: number | null;
  timeZone: string;
  changed: boolean;
  businessChanged: boolean;
  /** The cafe as it was, when the import changes it (for the audit). */
  before?: { businessId: number | null; timeZone: string };
  prices: Map<string, number | null>;
  priceChanges: Map<string, { old: number | null; next: number }>;
}

export interface UnitPlan extends PlacePlan {
  cafes: Map<string, CafePlan>;
  /** A new cafe reachable by the actor is created in it. */
  gainsReachableCafe: boolean;
}

export interface MinePlan extends PlacePlan {
  units: Map<string, UnitPlan>;
  gainsReachableCafe: boolean;
}

/** Files a place of the database under its name; a second place with the same name marks that name ambiguous. */
function keep<T extends PlacePlan>(places: Map<string, T>, name: string, plan: T): void {
  const key = placeNameKey(name);
  const first = places.get(key);
  if (first) {
    first.ambiguous = true;
    first.reachable ||= plan.reachable;
  } else places.set(key, plan);
}

export class Planner {
  readonly problems: ImportProblem[] = [];
  readonly services = new Map<string, ServicePlan>();
  readonly mines = new Map<string, MinePlan>();
  readonly businessesById = new Map<number, { id: number; name: string; ruc: string | null }>();
  /** Price rows that repeat the price the cafe has. */
  unchangedPrices = 0;
  /** Service lists of units and cafes, checked against their parent once the whole workbook is read. */
  private readonly pendingContainment: {
    sheet: string;
    row: number;
    column: string;
    parent: PlacePlan;
    parentKind: "mine" | "unit";
    codes: string[];
  }[] = [];

  constructor(
    private readonly db: Tx,
    private readonly scope: Scope,
    private readonly defaultTimeZone: string,
  ) {
    for (const s of db.select().from(services).all()) {
      this.services.set(s.code, {
        id: s.id,
        code: s.code,
        name: s.name,
        type: s.type,
        description: s.description,
        active: s.active,
        changed: false,
      });
    }
    const codeOf = new Map([...this.services.values()].map((s) => [s.id!, s.code]));
    const offered = <K>(rows: { key: K; serviceId: number }[]) => {
      const map = new Map<K, Set<string>>();
      for (const r of rows) map.set(r.key, (map.get(r.key) ?? new Set()).add(codeOf.get(r.serviceId)!));
      return map;
    };
    const mineOffers = offered(
      db.select({ key: mineServices.mineId, serviceId: mineServices.serviceId }).from(mineServices).all(),
    );
    const unitOffers = offered(
      db.select({ key: unitServices.unitId, serviceId: unitServices.serviceId }).from(unitServices).all(),
    );
    const cafeRows = db.select().from(cafeServices).all();
    const cafeOffers = offered(cafeRows.map((r) => ({ key: r.cafeId, serviceId: r.serviceId })));
    const cafePrices = new Map<number, Map<string, number | null>>();
    for (const r of cafeRows)
      cafePrices.set(r.cafeId, (cafePrices.get(r.cafeId) ?? new Map()).set(codeOf.get(r.serviceId)!, r.priceCents));

    const mineById = new Map<number, MinePlan>();
    for (const m of db.select().from(mines).all()) {
      const plan: MinePlan = {
        id: m.id,
        name: m.name,
        services: new Set(mineOffers.get(m.id)),
        added: new Set(),
        reachable: scope.all,
        units: new Map(),
        gainsReachableCafe: false,
      };
      keep(this.mines, m.name, plan);
      mineById.set(m.id, plan);
    }
    const unitById = new Map<number, { unit: UnitPlan; mine: MinePlan }>();
    for (const u of db.select().from(units).all()) {
      const mine = mineById.get(u.mineId)!;
      const plan: UnitPlan = {
        id: u.id,
        name: u.name,
        services: new Set(unitOffers.get(u.id)),
        added: new Set(),
        reachable: scope.all,
        cafes: new Map(),
        gainsReachableCafe: false,
      };
      keep(mine.units, u.name, plan);
      unitById.set(u.id, { unit: plan, mine });
    }
    for (const c of db.select().from(cafes).all()) {
      const { unit, mine } = unitById.get(c.unitId)!;
      const reachable = reachesCafe(scope, c.id);
      keep(unit.cafes, c.name, {
        id: c.id,
        name: c.name,
        services: new Set(cafeOffers.get(c.id)),
        added: new Set(),
        reachable,
        businessId: c.businessId,
        timeZone: c.timeZone,
        changed: false,
        businessChanged: false,
        prices: cafePrices.get(c.id) ?? new Map(),
        priceChanges: new Map(),
      });
      // A mine or unit is within reach when it holds a cafe within reach.
      if (reachable) unit.reachable = mine.reachable = true;
    }
    for (const b of db.select({ id: businesses.id, name: businesses.name, ruc: businesses.ruc }).from(businesses).all())
      this.businessesById.set(b.id, b);
  }

  problem(sheet: string, row: number, column: string | undefined, m: Message): void {
    this.problems.push({ sheet, row, column, message: m });
  }

  /**
   * The place named `name` in `places` that the actor reaches; otherwise the row's problem is recorded (not found,
   * or a name two places share) and the answer is undefined.
   */
  private find<T extends PlacePlan>(
    places: Map<string, T>,
    name: string,
    at: { sheet: string; row: number; column: string },
    notFound: Message,
  ): T | undefined {
    const place = places.get(placeNameKey(name));
    if (place?.ambiguous && place.reachable)
      this.problem(at.sheet, at.row, at.column, message("import.name_ambiguous", { name }));
    else if (!place || !place.reachable) this.problem(at.sheet, at.row, at.column, notFound);
    else return place;
    return undefined;
  }

  private findBusiness(value: string): { id: number; name: string } | undefined {
    const digits = value.replace(/\s/g, "");
    for (const b of this.businessesById.values()) if (b.ruc && b.ruc === digits) return b;
    for (const b of this.businessesById.values()) if (placeNameKey(b.name) === placeNameKey(value)) return b;
    return undefined;
  }

  /** A name of 2–80 characters, or a problem. */
  private checkName(sheet: string, row: number, column: string, value: string): string | null {
    if (!value) this.problem(sheet, row, column, message("validation.required"));
    else if (value.length < 2) this.problem(sheet, row, column, message("validation.min_length", { min: 2 }));
    else if (value.length > 80) this.problem(sheet, row, column, message("validation.max_length", { max: 80 }));
    else return value;
    return null;
  }

  /** The codes of a Services cell that name known services (after the import); a problem for each other. */
  private checkCodes(sheet: string, row: number, column: string, value: CellValue | undefined): string[] {
    const codes: string[] = [];
    for (const code of codeList(value)) {
      if (!this.services.has(code)) this.problem(sheet, row, column, message("import.service_unknown", { code }));
      else codes.push(code);
    }
    return codes;
  }

  /**
   * Adds `codes` to what `place` offers and returns those it then offers. Adding an inactive service is a problem;
   * one the place already offers stays as it is (so an exported workbook imports back unchanged).
   */
  private offer(place: PlacePlan, codes: string[], at: { sheet: string; row: number; column: string }): string[] {
    const offered: string[] = [];
    for (const code of codes) {
      if (!place.services.has(code)) {
        if (!this.services.get(code)!.active) {
          this.problem(at.sheet, at.row, at.column, message("import.service_inactive", { code }));
          continue;
        }
        place.services.add(code);
        place.added.add(code);
      }
      offered.push(code);
    }
    return offered;
  }

  serviceRow(sheet: string, row: number, cells: Cells, seen: Map<string, number>): void {
    const code = cells.text("code").toUpperCase();
    if (!code) return this.problem(sheet, row, cells.header("code"), message("validation.required"));
    if (code.length > 12 || !/^[A-Z0-9][A-Z0-9_-]*$/.test(code))
      return this.problem(sheet, row, cells.header("code"), message("import.code_format", { code }));
    if (seen.has(code))
      return this.problem(
        sheet,
        row,
        cells.header("code"),
        message("import.duplicate_row", { name: code, row: seen.get(code)! }),
      );
    seen.set(code, row);
    const name = this.checkName(sheet, row, cells.header("name"), cells.text("name"));
    const typeText = cells.text("type");
    const type = TYPE_BY_NAME.get(normalise(typeText));
    if (!type)
      this.problem(
        sheet,
        row,
        cells.header("type"),
        typeText ? message("import.type_invalid", { value: typeText }) : message("validation.required"),
      );
    const description = cells.has("description") ? cells.text("description") : null;
    if (description && description.length > 500)
      this.problem(sheet, row, cells.header("description"), message("validation.max_length", { max: 500 }));
    const activeText = normalise(cells.text("active"));
    const active = activeText === "" || YES.has(activeText) ? true : NO.has(activeText) ? false : null;
    if (active === null)
      this.problem(
        sheet,
        row,
        cells.header("active"),
        message("import.active_invalid", { value: cells.text("active") }),
      );
    if (!name || !type || active === null) return;
    const existing = this.services.get(code);
    if (!existing) {
      this.services.set(code, {
        id: null,
        code,
        name,
        type,
        description: description ?? "",
        active,
        changed: true,
        named: true,
      });
      return;
    }
    const next: ServicePlan = {
      ...existing,
      name,
      type,
      description: description ?? existing.description,
      active,
      named: true,
    };
    next.changed =
      next.name !== existing.name ||
      next.type !== existing.type ||
      next.description !== existing.description ||
      next.active !== existing.active;
    if (next.changed)
      next.before = existing.before ?? {
        name: existing.name,
        type: existing.type,
        description: existing.description,
        active: existing.active,
      };
    this.services.set(code, next);
  }

  mineRow(sheet: string, row: number, cells: Cells, seen: Map<string, number>): void {
    const name = this.checkName(sheet, row, cells.header("name"), cells.text("name"));
    if (!name) return;
    if (seen.has(placeNameKey(name)))
      return this.problem(
        sheet,
        row,
        cells.header("name"),
        message("import.duplicate_row", { name, row: seen.get(placeNameKey(name))! }),
      );
    seen.set(placeNameKey(name), row);
    let mine = this.mines.get(placeNameKey(name));
    if (mine && !mine.reachable)
      return this.problem(sheet, row, cells.header("name"), message("import.mine_not_found", { mine: name }));
    if (mine?.ambiguous)
      return this.problem(sheet, row, cells.header("name"), message("import.name_ambiguous", { name }));
    if (!mine) {
      mine = {
        id: null,
        name,
        services: new Set(),
        added: new Set(),
        reachable: true,
        units: new Map(),
        gainsReachableCafe: false,
      };
      this.mines.set(placeNameKey(name), mine);
    }
    mine.at = { sheet, row, column: cells.header("name") };
    const codes = this.checkCodes(sheet, row, cells.header("services"), cells.value("services"));
    this.offer(mine, codes, { sheet, row, column: cells.header("services") });
  }

  unitRow(sheet: string, row: number, cells: Cells, seen: Map<string, number>): void {
    const mineName = cells.text("mine");
    const name = this.checkName(sheet, row, cells.header("name"), cells.text("name"));
    if (!mineName) return this.problem(sheet, row, cells.header("mine"), message("validation.required"));
    const mine = this.find(
      this.mines,
      mineName,
      { sheet, row, column: cells.header("mine") },
      message("import.mine_not_found", { mine: mineName }),
    );
    if (!mine) return;
    if (!name) return;
    const key = `${placeNameKey(mine.name)}\n${placeNameKey(name)}`;
    if (seen.has(key))
      return this.problem(
        sheet,
        row,
        cells.header("name"),
        message("import.duplicate_row", { name, row: seen.get(key)! }),
      );
    seen.set(key, row);
    let unit = mine.units.get(placeNameKey(name));
    if (unit && !unit.reachable)
      return this.problem(
        sheet,
        row,
        cells.header("name"),
        message("import.unit_not_found", { unit: name, mine: mine.name }),
      );
    if (unit?.ambiguous)
      return this.problem(sheet, row, cells.header("name"), message("import.name_ambiguous", { name }));
    if (!unit) {
      unit = {
        id: null,
        name,
        services: new Set(),
        added: new Set(),
        reachable: true,
        cafes: new Map(),
        gainsReachableCafe: false,
      };
      mine.units.set(placeNameKey(name), unit);
    }
    unit.at = { sheet, row, column: cells.header("name") };
    const listed = this.checkCodes(sheet, row, cells.header("services"), cells.value("services"));
    // The containment rule is checked against the mine as the whole workbook leaves it (see `checkContainment`).
    const codes = this.offer(unit, listed, { sheet, row, column: cells.header("services") });
    this.pendingContainment.push({
      sheet,
      row,
      column: cells.header("services"),
      parent: mine,
      parentKind: "mine",
      codes,
    });
  }

  cafeRow(sheet: string, row: number, cells: Cells, seen: Map<string, number>): void {
    const mineName = cells.text("mine");
    const unitName = cells.text("unit");
    const name = this.checkName(sheet, row, cells.header("name"), cells.text("name"));
    if (!mineName) return this.problem(sheet, row, cells.header("mine"), message("validation.required"));
    const mine = this.find(
      this.mines,
      mineName,
      { sheet, row, column: cells.header("mine") },
      message("import.mine_not_found", { mine: mineName }),
    );
    if (!mine) return;
    if (!unitName) return this.problem(sheet, row, cells.header("unit"), message("validation.required"));
    const unit = this.find(
      mine.units,
      unitName,
      { sheet, row, column: cells.header("unit") },
      message("import.unit_not_found", { unit: unitName, mine: mine.name }),
    );
    if (!unit) return;
    if (!name) return;
    const key = `${placeNameKey(mine.name)}\n${placeNameKey(unit.name)}\n${placeNameKey(name)}`;
    if (seen.has(key))
      return this.problem(
        sheet,
        row,
        cells.header("name"),
        message("import.duplicate_row", { name, row: seen.get(key)! }),
      );
    seen.set(key, row);
    let cafe = unit.cafes.get(placeNameKey(name));
    if (cafe && !cafe.reachable)
      return this.problem(
        sheet,
        row,
        cells.header("name"),
        message("import.cafe_not_found", { cafe: name, unit: unit.name }),
      );
    if (cafe?.ambiguous)
      return this.problem(sheet, row, cells.header("name"), message("import.name_ambiguous", { name }));

    const businessText = cells.text("business");
    let businessId: number | null = null;
    if (businessText) {
      const business = this.findBusiness(businessText);
      // Choosing a business outside the actor's reach looks the same as naming none that exists.
      const keeps = cafe && business && cafe.businessId === business.id;
      if (!business || !(keeps || reachesBusiness(this.scope, business.id))) {
        this.problem(
          sheet,
          row,
          cells.header("business"),
          message("import.business_not_found", { business: businessText }),
        );
      } else businessId = business.id;
    } else if (!cafe) this.problem(sheet, row, cells.header("business"), message("validation.required"));
    const zoneText = cells.text("timeZone");
    if (zoneText && !isTimeZone(zoneText))
      this.problem(sheet, row, cells.header("timeZone"), message("import.time_zone_invalid", { zone: zoneText }));
    const timeZone = zoneText && isTimeZone(zoneText) ? zoneText : null;
    const listed = this.checkCodes(sheet, row, cells.header("services"), cells.value("services"));

    if (!cafe) {
      if (businessId === null) return;
      cafe = {
        id: null,
        name,
        services: new Set(),
        added: new Set(),
        reachable: true,
        businessId,
        timeZone: timeZone ?? this.defaultTimeZone,
        changed: false,
        businessChanged: false,
        prices: new Map(),
        priceChanges: new Map(),
      };
      unit.cafes.set(placeNameKey(name), cafe);
      unit.gainsReachableCafe = mine.gainsReachableCafe = true;
    } else {
      const before = { businessId: cafe.businessId, timeZone: cafe.timeZone };
      if (businessId !== null && businessId !== cafe.businessId) {
        cafe.businessId = businessId;
        cafe.businessChanged = cafe.changed = true;
      }
      if (timeZone && timeZone !== cafe.timeZone) {
        cafe.timeZone = timeZone;
        cafe.changed = true;
      }
      if (cafe.changed) cafe.before ??= before;
    }
    cafe.at = { sheet, row, column: cells.header("name") };
    const codes = this.offer(cafe, listed, { sheet, row, column: cells.header("services") });
    this.pendingContainment.push({
      sheet,
      row,
      column: cells.header("services"),
      parent: unit,
      parentKind: "unit",
      codes,
    });
  }

  priceRow(sheet: string, row: number, cells: Cells, seen: Map<string, number>): void {
    const required = (["mine", "unit", "cafe", "service", "price"] as const).filter((c) => cells.text(c) === "");
    for (const c of required) this.problem(sheet, row, cells.header(c), message("validation.required"));
    if (required.length) return;
    const mine = this.find(
      this.mines,
      cells.text("mine"),
      { sheet, row, column: cells.header("mine") },
      message("import.mine_not_found", { mine: cells.text("mine") }),
    );
    if (!mine) return;
    const unit = this.find(
      mine.units,
      cells.text("unit"),
      { sheet, row, column: cells.header("unit") },
      message("import.unit_not_found", { unit: cells.text("unit"), mine: mine.name }),
    );
    if (!unit) return;
    const cafe = this.find(
      unit.cafes,
      cells.text("cafe"),
      { sheet, row, column: cells.header("cafe") },
      message("import.cafe_not_found", { cafe: cells.text("cafe"), unit: unit.name }),
    );
    if (!cafe) return;
    const code = cells.text("service").toUpperCase();
    const cents = priceCents(cells.value("price"));
    if (cents === null)
      this.problem(sheet, row, cells.header("price"), message("import.price_invalid", { value: cells.text("price") }));
    if (!this.services.has(code))
      return this.problem(sheet, row, cells.header("service"), message("import.service_unknown", { code }));
    if (!cafe.services.has(code))
      return this.problem(
        sheet,
        row,
        cells.header("service"),
        message("import.not_offered", { code, cafe: cafe.name }),
      );
    const key = `${placeNameKey(mine.name)}\n${placeNameKey(unit.name)}\n${placeNameKey(cafe.name)}\n${code}`;
    if (seen.has(key))
      return this.problem(
        sheet,
        row,
        cells.header("service"),
        message("import.duplicate_price", { code, row: seen.get(key)! }),
      );
    seen.set(key, row);
    if (cents === null) return;
    const old = cafe.prices.get(code) ?? null;
    if (old !== cents) cafe.priceChanges.set(code, { old, next: cents });
    else this.unchangedPrices++;
  }

  /** A unit offers only services its mine offers, a cafe only services its unit offers — after the whole import. */
  checkContainment(): void {
    for (const c of this.pendingContainment) {
      for (const code of c.codes) {
        if (!c.parent.services.has(code))
          this.problem(
            c.sheet,
            c.row,
            c.column,
            message(`import.parent_lacks_${c.parentKind}`, { code, parent: c.parent.name }),
          );
      }
    }
  }

  /** Without an all-places scope, a new mine or unit must receive a new cafe within reach, or it would vanish from view. */
  checkNewPlacesReachable(): void {
    if (this.scope.all) return;
    for (const mine of this.mines.values()) {
      if (mine.id === null && !mine.gainsReachableCafe && mine.at)
        this.problem(mine.at.sheet, mine.at.row, mine.at.column, message("import.needs_cafe", { name: mine.name }));
      for (const unit of mine.units.values()) {
        if (unit.id === null && !unit.gainsReachableCafe && unit.at)
          this.problem(unit.at.sheet, unit.at.row, unit.at.column, message("import.needs_cafe", { name: unit.name }));
      }
    }
  }
}
