/**
 * The places workbook: mines, units, cafes, services and prices loaded from an .xlsx file (docs/places-workbook.md).
 * Sheets and headers are recognised in Spanish or English, whatever the case or accents; rows marked in the
 * Example column are skipped. An import is shown before it is written: `previewPlacesImport` checks every row
 * against the database and the rest of the workbook and says what would be created, changed or left alone (and
 * each problem, with its sheet, row and column), with a fingerprint of the plan. `importPlaces` then writes that
 * plan in one transaction, and only that plan: given the fingerprint the person confirmed, it refuses (PlanChanged,
 * with the new preview) when the database changed so that the plan differs. Records are upserted by their natural
 * key (mine name, unit name within its mine, cafe name within its unit, service code), service lists only add
 * assignments, and the containment rule (a unit offers only what its mine offers, a cafe only what its unit
 * offers) holds afterwards. Price changes keep their history; the import itself is one audit record.
 *
 * Scope: rows that touch an existing place outside the actor's scope fail as "not found". Without an all-places
 * scope a new cafe needs a business of the actor's headquarters areas, and a new mine or unit a new such cafe in
 * it (in the same workbook), so everything created stays within reach. A sheet that creates or changes something
 * needs its permission: places.manage (mines, units, cafes), services.manage (services), prices.manage (prices); a
 * sheet that only repeats what is there (a re-imported export) needs none.
 */
import { bumpAccessVersion } from "../access/authorization";
import { reachesBusiness, reachesCafe, type Scope } from "../access/scope";
import { COMPANY_WIDE, recordAudit, treePlace, type Actor, type AuditPlace, type Tx } from "../audit";
import { ValidationFailed } from "../errors";
import { message, type Message } from "../../shared/message";
import type { Translate } from "../../shared/i18n";
import { centsToSoles, MAX_CENTS, parseSoles } from "../../shared/money";
import type { Db } from "../../db";
import type { CellValue, WorkbookRows } from "../spreadsheets/read";
import type { ExportSheet } from "../spreadsheets/write";
import { applyCafePriceChanges, type PriceChange } from "./prices";
import { placeNameKey } from "./places";
import { offerService } from "./service-assignments";
import {
  businesses,
  cafes,
  cafeServices,
  mines,
  mineServices,
  services,
  units,
  unitServices,
  SERVICE_TYPES,
  type ServiceType,
} from "../../../db/schema";
import { eq } from "drizzle-orm";
import { createHash } from "node:crypto";

// ---------------------------------------------------------------------------------------------------------------
// The format

type SheetKind = "mines" | "units" | "cafes" | "services" | "prices";
type ColumnKey =
  | "example"
  | "name"
  | "services"
  | "mine"
  | "unit"
  | "cafe"
  | "business"
  | "timeZone"
  | "code"
  | "type"
  | "description"
  | "active"
  | "service"
  | "price";
type Language = "es" | "en";

/** Sheet names, in the order they are applied. */
const SHEETS: Record<SheetKind, Record<Language, string>> = {
  services: { es: "Servicios", en: "Services" },
  mines: { es: "Minas", en: "Mines" },
  units: { es: "Unidades", en: "Units" },
  cafes: { es: "Comedores", en: "Cafes" },
  prices: { es: "Precios", en: "Prices" },
};

const COLUMNS: Record<ColumnKey, Record<Language, string>> = {
  example: { es: "Ejemplo", en: "Example" },
  name: { es: "Nombre", en: "Name" },
  services: { es: "Servicios", en: "Services" },
  mine: { es: "Mina", en: "Mine" },
  unit: { es: "Unidad", en: "Unit" },
  cafe: { es: "Comedor", en: "Cafe" },
  business: { es: "Empresa", en: "Business" },
  timeZone: { es: "Zona horaria", en: "Time zone" },
  code: { es: "Código", en: "Code" },
  type: { es: "Tipo", en: "Type" },
  description: { es: "Descripción", en: "Description" },
  active: { es: "Activo", en: "Active" },
  service: { es: "Servicio", en: "Service" },
  price: { es: "Precio", en: "Price" },
};

/** Each sheet's columns; those marked required must be present in its header row. */
const SHEET_COLUMNS: Record<SheetKind, { key: ColumnKey; required: boolean }[]> = {
  mines: [
    { key: "example", required: false },
    { key: "name", required: true },
    { key: "services", required: false },
  ],
  units: [
    { key: "example", required: false },
    { key: "mine", required: true },
    { key: "name", required: true },
    { key: "services", required: false },
  ],
  cafes: [
    { key: "example", required: false },
    { key: "mine", required: true },
    { key: "unit", required: true },
    { key: "name", required: true },
    { key: "business", required: false },
    { key: "timeZone", required: false },
    { key: "services", required: false },
  ],
  services: [
    { key: "example", required: false },
    { key: "code", required: true },
    { key: "name", required: true },
    { key: "type", required: true },
    { key: "description", required: false },
    { key: "active", required: false },
  ],
  prices: [
    { key: "example", required: false },
    { key: "mine", required: true },
    { key: "unit", required: true },
    { key: "cafe", required: true },
    { key: "service", required: true },
    { key: "price", required: true },
  ],
};

const TYPE_NAMES: Record<ServiceType, Record<Language, string>> = {
  breakfast: { es: "desayuno", en: "breakfast" },
  lunch: { es: "almuerzo", en: "lunch" },
  dinner: { es: "cena", en: "dinner" },
  snack: { es: "refrigerio", en: "snack" },
  disposables: { es: "descartables", en: "disposables" },
};

const PERMISSION: Record<SheetKind, keyof ImportAbilities> = {
  mines: "places",
  units: "places",
  cafes: "places",
  services: "services",
  prices: "prices",
};

/** Lower case, no accents, single spaces: "  Zona  Horaria " and "zona horaria" are the same header. */
function normalise(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

const SHEET_BY_NAME = new Map<string, SheetKind>(
  Object.entries(SHEETS).flatMap(([kind, names]) => [
    [normalise(names.es), kind as SheetKind],
    [normalise(names.en), kind as SheetKind],
  ]),
);
const COLUMN_BY_NAME = new Map<string, ColumnKey>([
  ...Object.entries(COLUMNS).flatMap(([key, names]) => [
    [normalise(names.es), key as ColumnKey] as const,
    [normalise(names.en), key as ColumnKey] as const,
  ]),
  ["timezone", "timeZone"],
]);
const TYPE_BY_NAME = new Map<string, ServiceType>(
  SERVICE_TYPES.flatMap((type) => [[TYPE_NAMES[type].es, type] as const, [TYPE_NAMES[type].en, type] as const]),
);
const YES = new Set(["si", "yes", "true", "1", "verdadero", "x"]);
const NO = new Set(["no", "false", "0", "falso"]);

// ---------------------------------------------------------------------------------------------------------------
// Public types

/** What the actor may change: places.manage, services.manage and prices.manage. */
export interface ImportAbilities {
  places: boolean;
  services: boolean;
  prices: boolean;
}

export const ALL_ABILITIES: ImportAbilities = { places: true, services: true, prices: true };

/** One problem of the workbook: the sheet as named in the file, its row (1-based) and column, and what is wrong. */
export interface ImportProblem {
  sheet: string;
  row: number;
  column?: string;
  message: Message;
}

/** What an import does to one kind of record named in the workbook: created, updated, or left as it is. */
export interface Tally {
  created: number;
  updated: number;
  unchanged: number;
}

export type ImportKind = "services" | "mines" | "units" | "cafes" | "prices";

/** The kinds in the order a preview lists them. */
export const IMPORT_KINDS: readonly ImportKind[] = ["mines", "units", "cafes", "services", "prices"];

export type ImportCounts = Record<ImportKind, Tally>;

/** A field an import changes, with its value before (null on a new record) and after. */
export interface ChangedField {
  field: "name" | "type" | "description" | "active" | "business" | "timeZone" | "price";
  before: string | number | boolean | null;
  after: string | number | boolean | null;
}

/** One record the import creates or updates, as the preview lists it. */
export interface PlannedChange {
  kind: "service" | "mine" | "unit" | "cafe" | "price";
  action: "created" | "updated";
  /** A service's code and name; a place's names from its mine down; a price's cafe path and then the service code. */
  path: string[];
  /** Services a place starts offering (codes). */
  added?: string[];
  fields?: ChangedField[];
}

/** A row marked as an example in the Example column: skipped. */
export interface SkippedExample {
  sheet: string;
  row: number;
}

/**
 * What importing a workbook would do, worked out without writing: the counts per kind, the records it creates or
 * updates (the first MAX_LISTED_CHANGES), the rows skipped as examples, the problems (the first
 * MAX_LISTED_PROBLEMS; any problem means nothing can be imported), and `plan`, a fingerprint of everything it would
 * write, which confirming checks again.
 */
export interface ImportPreview {
  counts: ImportCounts;
  changes: PlannedChange[];
  moreChanges: number;
  examples: SkippedExample[];
  moreExamples: number;
  problems: ImportProblem[];
  moreProblems: number;
  plan: string;
}

/** The most problems listed; beyond that, one line says how many more there are. */
export const MAX_LISTED_PROBLEMS = 200;
/** The most changes a preview lists one by one; the counts cover them all. */
export const MAX_LISTED_CHANGES = 100;

/** Whether a preview has anything to write. */
export function previewWrites(preview: ImportPreview): boolean {
  return IMPORT_KINDS.some((kind) => preview.counts[kind].created + preview.counts[kind].updated > 0);
}

/** Whether confirming a preview could import it: no problems and something to write. */
export function canConfirm(preview: ImportPreview): boolean {
  return preview.problems.length === 0 && previewWrites(preview);
}

/** A workbook with problems: nothing was written. `errors` is keyed `rows.<sheet>.<row>[.<column>]`. */
export class ImportFailed extends ValidationFailed {
  constructor(readonly problems: ImportProblem[]) {
    super(problemErrors(problems));
  }
}

/**
 * Confirming found a different plan than the preview the person saw (the places changed meanwhile, or their rights
 * did): nothing was written; `preview` is what importing the workbook would do now.
 */
export class PlanChanged extends Error {
  constructor(readonly preview: ImportPreview) {
    super("The import plan changed since it was previewed");
  }
}

const keyPart = (text: string) => text.replace(/\./g, " ");

/** Each listed problem with its key `rows.<sheet>.<row>[.<column>]` (unique), and how many were left unlisted. */
function keyed(problems: ImportProblem[]): { entries: [string, ImportProblem][]; unlisted: number } {
  const entries: [string, ImportProblem][] = [];
  const used = new Set<string>();
  for (const p of problems.slice(0, MAX_LISTED_PROBLEMS)) {
    const base = `rows.${keyPart(p.sheet)}.${p.row}${p.column ? `.${keyPart(p.column)}` : ""}`;
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}.${n}`;
    used.add(key);
    entries.push([key, p]);
  }
  return { entries, unlisted: Math.max(0, problems.length - MAX_LISTED_PROBLEMS) };
}

function problemErrors(problems: ImportProblem[]): Record<string, Message> {
  const { entries, unlisted } = keyed(problems);
  const errors: Record<string, Message> = Object.fromEntries(entries.map(([key, p]) => [key, p.message]));
  if (unlisted) errors["rows.more"] = message("import.more_problems", { count: unlisted });
  return errors;
}

/** The problems as form errors whose text says where: `{"rows.Comedores.7.Empresa": "Comedores, fila 7 (Empresa): …"}`. */
export function describeProblems(problems: ImportProblem[], translate: Translate): Record<string, string> {
  const { entries, unlisted } = keyed(problems);
  const errors: Record<string, string> = Object.fromEntries(
    entries.map(([key, p]) => [key, describeProblem(p, translate)]),
  );
  if (unlisted) errors["rows.more"] = translate("import.more_problems", { count: unlisted });
  return errors;
}

/** A problem as one line of text: "Comedores, fila 7 (Empresa): …", in the language of `translate`. */
export function describeProblem(problem: ImportProblem, translate: Translate): string {
  const where = problem.column
    ? translate("import.row_column_label", { sheet: problem.sheet, row: problem.row, column: problem.column })
    : translate("import.row_label", { sheet: problem.sheet, row: problem.row });
  const text =
    typeof problem.message === "string"
      ? translate(problem.message)
      : translate(problem.message.key, problem.message.params);
  return `${where}: ${text}`;
}

/**
 * One line per kind the workbook names: "2 comedores nuevos, 1 comedor con cambios, 5 comedores sin cambios"
 * (kinds it does not name are left out, and so are counts of zero).
 */
export function describeCounts(counts: ImportCounts, translate: Translate): string[] {
  const lines: string[] = [];
  for (const kind of IMPORT_KINDS) {
    const tally = counts[kind];
    const parts = (["created", "updated", "unchanged"] as const)
      .filter((outcome) => tally[outcome] > 0)
      .map((outcome) => translate(`import.count.${kind}.${outcome}`, { count: tally[outcome] }));
    if (parts.length) lines.push(parts.join(", "));
  }
  return lines;
}

/** The rows skipped as examples, as one sentence: "Se omitieron 5 filas de ejemplo (Minas fila 2, …)." */
export function describeExamples(preview: ImportPreview, translate: Translate): string | null {
  const count = preview.examples.length + preview.moreExamples;
  if (count === 0) return null;
  const rows = preview.examples
    .map((e) => translate("import.row_label", { sheet: e.sheet, row: e.row }))
    .concat(preview.moreExamples ? [translate("import.and_more", { count: preview.moreExamples })] : [])
    .join("; ");
  return translate("import.examples_skipped", { count, rows });
}

// A non-breaking space keeps "S/ 12.50" on one line.
const soles = (cents: number) => `S/\u00a0${centsToSoles(cents)}`;

const isServiceType = (value: unknown): value is ServiceType => (SERVICE_TYPES as readonly unknown[]).includes(value);

function fieldValue(change: ChangedField, value: ChangedField["before"], translate: Translate): string {
  if (value === null || value === "") return translate("import.value_none");
  if (change.field === "price" && typeof value === "number") return soles(value);
  if (change.field === "active") return translate(value ? "import.value_yes" : "import.value_no");
  if (change.field === "type" && isServiceType(value)) return translate(`import.type.${value}`);
  return String(value);
}

/**
 * A planned change as one line: "Nuevo comedor: Mina Este › Unidad E1 › Comedor E1 — Empresa: …; Zona horaria: …",
 * "Precio de DES en Mina Norte › Unidad A › Comedor A: S/ 10.00 → S/ 12.50".
 */
export function describeChange(change: PlannedChange, translate: Translate): string {
  if (change.kind === "price") {
    const price = change.fields?.find((f) => f.field === "price");
    return translate(`import.change.price_${change.action}`, {
      code: change.path.at(-1) ?? "",
      subject: change.path.slice(0, -1).join(" › "),
      before: price ? fieldValue(price, price.before, translate) : "",
      after: price ? fieldValue(price, price.after, translate) : "",
    });
  }
  const subject = change.path.join(change.kind === "service" ? " — " : " › ");
  const details: string[] = [];
  for (const f of change.fields ?? []) {
    const label = translate(`import.field.${f.field}`);
    const after = fieldValue(f, f.after, translate);
    details.push(
      change.action === "created" ? `${label}: ${after}` : `${label}: ${fieldValue(f, f.before, translate)} → ${after}`,
    );
  }
  if (change.added?.length)
    details.push(
      translate(change.action === "created" ? "import.field.services" : "import.field.services_added", {
        codes: change.added.join(", "),
      }),
    );
  const text = translate(`import.change.${change.kind}_${change.action}`, { subject });
  return details.length ? `${text} — ${details.join("; ")}` : text;
}

// ---------------------------------------------------------------------------------------------------------------
// Cells

function text(value: CellValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  // An export writes text that would start a formula behind an apostrophe (neutraliseFormula): read it back as it was.
  const cell = /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
  return cell.replace(/\s+/g, " ").trim();
}

/** Service codes as written in a list cell: "des, alm; CEN" → DES, ALM, CEN. */
function codeList(value: CellValue | undefined): string[] {
  return [
    ...new Set(
      text(value)
        .split(/[,;]/)
        .map((c) => c.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
}

/** A price in soles as cents: a number cell with at most two decimals, or text such as "12.50" / "12,5". */
function priceCents(value: CellValue | undefined): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0) return null;
    const cents = Math.round(value * 100);
    // 12.345 has more than two decimals: refused rather than rounded.
    if (Math.abs(value * 100 - cents) > 1e-6 || cents > MAX_CENTS) return null;
    return cents;
  }
  return parseSoles(text(value));
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The plan: the database's places as they will be after the import

interface ServicePlan {
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

interface PlacePlan {
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

interface CafePlan extends PlacePlan {
  businessId: number | null;
  timeZone: string;
  changed: boolean;
  businessChanged: boolean;
  /** The cafe as it was, when the import changes it (for the audit). */
  before?: { businessId: number | null; timeZone: string };
  prices: Map<string, number | null>;
  priceChanges: Map<string, { old: number | null; next: number }>;
}

interface UnitPlan extends PlacePlan {
  cafes: Map<string, CafePlan>;
  /** A new cafe reachable by the actor is created in it. */
  gainsReachableCafe: boolean;
}

interface MinePlan extends PlacePlan {
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

class Planner {
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

/** The cells of one row, read by column. */
class Cells {
  constructor(
    private readonly row: CellValue[],
    private readonly columns: Map<ColumnKey, { index: number; header: string }>,
    private readonly headers: Record<ColumnKey, string>,
  ) {}

  has(key: ColumnKey): boolean {
    return this.columns.has(key);
  }

  value(key: ColumnKey): CellValue | undefined {
    const column = this.columns.get(key);
    return column ? this.row[column.index] : undefined;
  }

  text(key: ColumnKey): string {
    return text(this.value(key));
  }

  /** The column's header as the file names it (for messages). */
  header(key: ColumnKey): string {
    return this.columns.get(key)?.header ?? this.headers[key];
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the workbook into the plan

interface RecognisedSheet {
  kind: SheetKind;
  name: string;
  headerRow: number;
  rows: { number: number; cells: Cells }[];
}

/** A cell of the Example column that marks its row as an example: anything but blank or a "no". */
function marksExample(cells: Cells): boolean {
  const value = normalise(cells.text("example"));
  return value !== "" && !NO.has(value);
}

function recognise(workbook: WorkbookRows, problems: ImportProblem[], examples: SkippedExample[]): RecognisedSheet[] {
  const found = new Map<SheetKind, RecognisedSheet>();
  for (const sheet of workbook) {
    const kind = SHEET_BY_NAME.get(normalise(sheet.name));
    if (!kind) continue;
    if (found.has(kind)) {
      problems.push({
        sheet: sheet.name,
        row: 1,
        message: message("import.duplicate_sheet", { sheet: sheet.name, other: found.get(kind)!.name }),
      });
      continue;
    }
    const headerIndex = sheet.rows.findIndex((row) => row.some((cell) => text(cell) !== ""));
    const recognised: RecognisedSheet = {
      kind,
      name: sheet.name,
      headerRow: sheet.firstRow + Math.max(headerIndex, 0),
      rows: [],
    };
    found.set(kind, recognised);
    if (headerIndex < 0) continue;
    const language: Language = normalise(sheet.name) === normalise(SHEETS[kind].en) ? "en" : "es";
    const headers = Object.fromEntries(Object.entries(COLUMNS).map(([key, names]) => [key, names[language]])) as Record<
      ColumnKey,
      string
    >;
    const columns = new Map<ColumnKey, { index: number; header: string }>();
    const allowed = new Set(SHEET_COLUMNS[kind].map((c) => c.key));
    sheet.rows[headerIndex].forEach((cell, index) => {
      const header = text(cell);
      const key = COLUMN_BY_NAME.get(normalise(header));
      if (key && allowed.has(key) && !columns.has(key)) columns.set(key, { index, header });
    });
    const missing = SHEET_COLUMNS[kind].filter((c) => c.required && !columns.has(c.key));
    for (const c of missing)
      problems.push({
        sheet: sheet.name,
        row: recognised.headerRow,
        message: message("import.missing_column", { column: headers[c.key] }),
      });
    if (missing.length) continue;
    sheet.rows.slice(headerIndex + 1).forEach((row, i) => {
      // Empty rows are skipped, and so are rows marked as examples (the template's).
      if (!row.some((cell) => text(cell) !== "")) return;
      const number = recognised.headerRow + 1 + i;
      const cells = new Cells(row, columns, headers);
      if (marksExample(cells)) examples.push({ sheet: sheet.name, row: number });
      else recognised.rows.push({ number, cells });
    });
  }
  return (Object.keys(SHEETS) as SheetKind[]).flatMap((kind) => (found.has(kind) ? [found.get(kind)!] : []));
}

interface Planned {
  planner: Planner;
  examples: SkippedExample[];
}

function plan(
  db: Tx,
  scope: Scope,
  abilities: ImportAbilities,
  workbook: WorkbookRows,
  defaultTimeZone: string,
  onProgress?: ImportOptions["onProgress"],
): Planned {
  const recognisedProblems: ImportProblem[] = [];
  const examples: SkippedExample[] = [];
  const sheets = recognise(workbook, recognisedProblems, examples);
  if (sheets.length === 0 && recognisedProblems.length === 0) {
    throw new ValidationFailed({
      file: message("import.no_sheets", {
        sheets: Object.values(SHEETS)
          .map((n) => `${n.es}/${n.en}`)
          .join(", "),
      }),
    });
  }
  const planner = new Planner(db, scope, defaultTimeZone);
  planner.problems.push(...recognisedProblems);
  const totalRows = sheets.reduce((sum, sheet) => sum + sheet.rows.length, 0);
  let checked = 0;
  for (const sheet of sheets) {
    const seen = new Map<string, number>();
    for (const { number, cells } of sheet.rows) {
      onProgress?.("checking", checked++, totalRows);
      if (sheet.kind === "services") planner.serviceRow(sheet.name, number, cells, seen);
      else if (sheet.kind === "mines") planner.mineRow(sheet.name, number, cells, seen);
      else if (sheet.kind === "units") planner.unitRow(sheet.name, number, cells, seen);
      else if (sheet.kind === "cafes") planner.cafeRow(sheet.name, number, cells, seen);
      else planner.priceRow(sheet.name, number, cells, seen);
    }
  }
  onProgress?.("checking", checked, totalRows);
  planner.checkContainment();
  planner.checkNewPlacesReachable();
  // A sheet that would create or change something needs its permission; one that only repeats what is there does not.
  const counts = count(planner);
  for (const sheet of sheets) {
    const tally = counts[sheet.kind];
    if (tally.created + tally.updated > 0 && !abilities[PERMISSION[sheet.kind]])
      planner.problem(
        sheet.name,
        sheet.headerRow,
        undefined,
        message("import.sheet_not_allowed", { sheet: sheet.name }),
      );
  }
  planner.problems.sort((a, b) => sheetOrder(workbook, a.sheet) - sheetOrder(workbook, b.sheet) || a.row - b.row);
  return { planner, examples };
}

// ---------------------------------------------------------------------------------------------------------------
// What the plan does: counts, changes, fingerprint

function count(planner: Planner): ImportCounts {
  const counts = Object.fromEntries(
    IMPORT_KINDS.map((kind) => [kind, { created: 0, updated: 0, unchanged: 0 }]),
  ) as ImportCounts;
  const tally = (t: Tally, isNew: boolean, changed: boolean) =>
    isNew ? t.created++ : changed ? t.updated++ : t.unchanged++;
  for (const s of planner.services.values()) if (s.named) tally(counts.services, s.id === null, s.changed);
  for (const mine of planner.mines.values()) {
    if (mine.at) tally(counts.mines, mine.id === null, mine.added.size > 0);
    for (const unit of mine.units.values()) {
      if (unit.at) tally(counts.units, unit.id === null, unit.added.size > 0);
      for (const cafe of unit.cafes.values()) {
        if (cafe.at) tally(counts.cafes, cafe.id === null, cafe.changed || cafe.added.size > 0);
        for (const change of cafe.priceChanges.values()) tally(counts.prices, change.old === null, true);
      }
    }
  }
  counts.prices.unchanged = planner.unchangedPrices;
  return counts;
}

/**
 * Every record the plan creates or updates, in the order it is written, each with the ids it touches (null for a
 * new record): what the preview lists, and what its fingerprint covers.
 */
function changesOf(planner: Planner): { change: PlannedChange; ids: (number | null)[] }[] {
  const out: { change: PlannedChange; ids: (number | null)[] }[] = [];
  const sorted = (codes: Set<string>) => [...codes].sort();
  for (const s of planner.services.values()) {
    if (!s.named || (s.id !== null && !s.changed)) continue;
    const now = { name: s.name, type: s.type, description: s.description, active: s.active };
    const fields = (["name", "type", "description", "active"] as const)
      .filter((f) => s.id === null || s.before![f] !== now[f])
      .map((f) => ({ field: f, before: s.id === null ? null : s.before![f], after: now[f] }));
    out.push({
      change: { kind: "service", action: s.id === null ? "created" : "updated", path: [s.code, s.name], fields },
      ids: [s.id],
    });
  }
  for (const mine of planner.mines.values()) {
    if (mine.id === null || mine.added.size > 0)
      out.push({
        change: {
          kind: "mine",
          action: mine.id === null ? "created" : "updated",
          path: [mine.name],
          added: sorted(mine.added),
        },
        ids: [mine.id],
      });
    for (const unit of mine.units.values()) {
      if (unit.id === null || unit.added.size > 0)
        out.push({
          change: {
            kind: "unit",
            action: unit.id === null ? "created" : "updated",
            path: [mine.name, unit.name],
            added: sorted(unit.added),
          },
          ids: [mine.id, unit.id],
        });
      for (const cafe of unit.cafes.values()) {
        const path = [mine.name, unit.name, cafe.name];
        const business = (id: number | null) =>
          id === null ? null : (planner.businessesById.get(id)?.name ?? String(id));
        if (cafe.id === null || cafe.changed || cafe.added.size > 0) {
          const fields: ChangedField[] = [];
          const before = cafe.before ?? { businessId: cafe.businessId, timeZone: cafe.timeZone };
          if (cafe.id === null || before.businessId !== cafe.businessId)
            fields.push({
              field: "business",
              before: cafe.id === null ? null : business(before.businessId),
              after: business(cafe.businessId),
            });
          if (cafe.id === null || before.timeZone !== cafe.timeZone)
            fields.push({ field: "timeZone", before: cafe.id === null ? null : before.timeZone, after: cafe.timeZone });
          out.push({
            change: {
              kind: "cafe",
              action: cafe.id === null ? "created" : "updated",
              path,
              added: sorted(cafe.added),
              fields,
            },
            ids: [mine.id, unit.id, cafe.id, cafe.businessId, before.businessId],
          });
        }
        for (const [code, c] of cafe.priceChanges)
          out.push({
            change: {
              kind: "price",
              action: c.old === null ? "created" : "updated",
              path: [...path, code],
              fields: [{ field: "price", before: c.old, after: c.next }],
            },
            ids: [cafe.id],
          });
      }
    }
  }
  return out;
}

function preview(planned: Planned): ImportPreview {
  const { planner, examples } = planned;
  const counts = count(planner);
  const changes = changesOf(planner);
  // The fingerprint covers every write with the ids and values it starts from, and the counts the preview shows.
  const plan = createHash("sha256")
    .update(JSON.stringify({ counts, changes: changes.map((c) => [c.change, c.ids]) }))
    .digest("base64url");
  return {
    counts,
    changes: changes.slice(0, MAX_LISTED_CHANGES).map((c) => c.change),
    moreChanges: Math.max(0, changes.length - MAX_LISTED_CHANGES),
    examples: examples.slice(0, MAX_LISTED_PROBLEMS),
    moreExamples: Math.max(0, examples.length - MAX_LISTED_PROBLEMS),
    problems: planner.problems.slice(0, MAX_LISTED_PROBLEMS),
    moreProblems: Math.max(0, planner.problems.length - MAX_LISTED_PROBLEMS),
    plan,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Applying the plan

/**
 * Writes the plan. Each place and service it creates or changes gets the same audit record the pages write,
 * besides one `places.imported` record with the counts.
 */
function apply(
  tx: Tx,
  actor: Actor,
  planner: Planner,
  counts: ImportCounts,
  now: Date,
  onProgress?: ImportOptions["onProgress"],
): void {
  const audit = (
    action: string,
    subjectType: string,
    subjectId: number,
    places: readonly AuditPlace[],
    before: Record<string, unknown> | undefined,
    after: Record<string, unknown>,
  ) => recordAudit(tx, actor, { action, subjectType, subjectId, places, before, after }, now);
  // The places of the workbook: the summary entry is about all of them.
  const touched: AuditPlace[] = [];
  const offer = (kind: "mine" | "unit" | "cafe", id: number, place: PlacePlan, isNew: boolean) => {
    touched.push(treePlace(kind, id));
    for (const code of place.added) offerService(tx, kind, id, serviceIds.get(code)!, now);
    if (place.added.size === 0 || isNew) return;
    const after = [...place.services].sort();
    audit(
      "place.services.updated",
      kind,
      id,
      [treePlace(kind, id)],
      { services: after.filter((code) => !place.added.has(code)) },
      { services: after },
    );
  };
  // Progress: one step per service, mine, unit and cafe of the plan.
  const unitPlans = [...planner.mines.values()].flatMap((mine) => [...mine.units.values()]);
  const total =
    planner.services.size +
    planner.mines.size +
    unitPlans.length +
    unitPlans.reduce((sum, unit) => sum + unit.cafes.size, 0);
  let saved = 0;
  const step = () => onProgress?.("saving", ++saved, total);
  onProgress?.("saving", 0, total);
  const serviceIds = new Map<string, number>();
  for (const s of planner.services.values()) {
    step();
    const snapshot = { code: s.code, name: s.name, type: s.type, description: s.description, active: s.active };
    if (s.id === null) {
      const created = tx
        .insert(services)
        .values({
          code: s.code,
          name: s.name,
          description: s.description,
          type: s.type,
          active: s.active,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: services.id })
        .get();
      serviceIds.set(s.code, created.id);
      audit("service.created", "service", created.id, COMPANY_WIDE, undefined, snapshot);
    } else {
      if (s.changed) {
        tx.update(services)
          .set({ name: s.name, type: s.type, description: s.description, active: s.active, updatedAt: now })
          .where(eq(services.id, s.id))
          .run();
        audit("service.updated", "service", s.id, COMPANY_WIDE, { code: s.code, ...s.before }, snapshot);
      }
      serviceIds.set(s.code, s.id);
    }
  }
  let accessChanged = false;
  for (const mine of planner.mines.values()) {
    let mineId = mine.id;
    if (mineId === null) {
      mineId = tx.insert(mines).values({ name: mine.name }).returning({ id: mines.id }).get().id;
      audit("mine.created", "mine", mineId, [{ mineId }], undefined, {
        name: mine.name,
        services: [...mine.added].sort(),
      });
    }
    offer("mine", mineId, mine, mine.id === null);
    step();
    for (const unit of mine.units.values()) {
      let unitId = unit.id;
      if (unitId === null) {
        unitId = tx.insert(units).values({ mineId, name: unit.name }).returning({ id: units.id }).get().id;
        audit("unit.created", "unit", unitId, [{ unitId }], undefined, {
          mine: mine.name,
          name: unit.name,
          services: [...unit.added].sort(),
        });
      }
      offer("unit", unitId, unit, unit.id === null);
      step();
      for (const cafe of unit.cafes.values()) {
        let cafeId = cafe.id;
        const business = cafe.businessId === null ? null : (planner.businessesById.get(cafe.businessId)?.name ?? null);
        if (cafeId === null) {
          cafeId = tx
            .insert(cafes)
            .values({ unitId, name: cafe.name, businessId: cafe.businessId, timeZone: cafe.timeZone })
            .returning({ id: cafes.id })
            .get().id;
          audit("cafe.created", "cafe", cafeId, [{ cafeId }], undefined, {
            mine: mine.name,
            unit: unit.name,
            name: cafe.name,
            business,
            timeZone: cafe.timeZone,
            services: [...cafe.added].sort(),
          });
          accessChanged = true;
        } else if (cafe.changed) {
          tx.update(cafes)
            .set({ businessId: cafe.businessId, timeZone: cafe.timeZone })
            .where(eq(cafes.id, cafeId))
            .run();
          audit(
            "cafe.updated",
            "cafe",
            cafeId,
            [{ cafeId }],
            { name: cafe.name, ...cafe.before },
            { name: cafe.name, businessId: cafe.businessId, timeZone: cafe.timeZone },
          );
          if (cafe.businessChanged) accessChanged = true;
        }
        offer("cafe", cafeId, cafe, cafe.id === null);
        const changes: PriceChange[] = [...cafe.priceChanges].map(([code, c]) => ({
          serviceId: serviceIds.get(code)!,
          code,
          old: c.old,
          next: c.next,
        }));
        applyCafePriceChanges(tx, actor, cafeId, changes, now);
        step();
      }
    }
  }
  if (accessChanged) bumpAccessVersion(tx);
  // A workbook of services alone changed only company-wide data.
  recordAudit(
    tx,
    actor,
    {
      action: "places.imported",
      subjectType: "places",
      subjectId: null,
      places: touched.length ? touched : COMPANY_WIDE,
      after: counts,
    },
    now,
  );
}

export interface ImportOptions {
  /** APP_TIMEZONE: the time zone of a new cafe whose row leaves it blank. */
  timeZone: string;
  now?: Date;
  /** Told how far the import got: rows checked of all rows, then services and places saved of all. Called often. */
  onProgress?: (step: "checking" | "saving", done: number, total: number) => void;
}

/**
 * What importing a places workbook (rows as read by readWorkbook) would do, worked out in one read transaction
 * without writing anything: see ImportPreview. Problems are part of the preview; throws ValidationFailed keyed
 * `file` only when the workbook has no sheet Mesa recognises.
 */
export function previewPlacesImport(
  db: Db,
  scope: Scope,
  abilities: ImportAbilities,
  workbook: WorkbookRows,
  options: ImportOptions,
): ImportPreview {
  return db.transaction((tx) => preview(plan(tx, scope, abilities, workbook, options.timeZone, options.onProgress)), {
    behavior: "deferred",
  });
}

/**
 * Imports a places workbook: checks every row, then writes everything in one transaction, or nothing. With
 * `expectedPlan` (the `plan` of the preview the person confirmed) it writes only that plan: when the workbook
 * would now do anything else, or has problems, it throws PlanChanged with the new preview. Without it, it throws
 * ImportFailed listing each problem. Throws ValidationFailed keyed `file` when the workbook has no sheet Mesa
 * recognises. Returns what was created, updated and left unchanged.
 */
export function importPlaces(
  db: Db,
  actor: Actor,
  scope: Scope,
  abilities: ImportAbilities,
  workbook: WorkbookRows,
  options: ImportOptions & { expectedPlan?: string },
): ImportCounts {
  const now = options.now ?? new Date();
  // Checked and written in one immediate transaction, so nothing changes between the check and the write.
  return db.transaction(
    (tx) => {
      const planned = plan(tx, scope, abilities, workbook, options.timeZone, options.onProgress);
      const { planner } = planned;
      if (options.expectedPlan !== undefined) {
        const current = preview(planned);
        if (current.plan !== options.expectedPlan || current.problems.length) throw new PlanChanged(current);
      }
      if (planner.problems.length) throw new ImportFailed(planner.problems);
      const counts = count(planner);
      apply(tx, actor, planner, counts, now, options.onProgress);
      return counts;
    },
    { behavior: "immediate" },
  );
}

function sheetOrder(workbook: WorkbookRows, name: string): number {
  return workbook.findIndex((s) => s.name === name);
}

// ---------------------------------------------------------------------------------------------------------------
// The template and the sheets an export writes

/** One row of a sheet of the places workbook, by column. */
export type WorkbookRow = Partial<Record<ColumnKey, string | number>>;

export type PlacesSheetKind = SheetKind;

/**
 * A sheet of the places workbook exactly as the import reads it: its name and headers in `language`, its columns
 * in order; the Example column only when `withExamples`. A price is written as a number of soles.
 */
export function workbookSheet(
  kind: SheetKind,
  language: Language,
  rows: WorkbookRow[],
  withExamples = false,
): ExportSheet<WorkbookRow> {
  return {
    name: SHEETS[kind][language],
    columns: SHEET_COLUMNS[kind]
      .filter(({ key }) => withExamples || key !== "example")
      .map(({ key }) => ({
        header: COLUMNS[key][language],
        value: (row: WorkbookRow) => row[key] ?? null,
        format: key === "price" ? "0.00" : undefined,
        width: key === "description" || key === "business" || key === "example" ? 30 : 18,
      })),
    rows,
  };
}

/** The sheets in the order they are applied (and written). */
export const PLACES_SHEETS: readonly SheetKind[] = Object.keys(SHEETS) as SheetKind[];

/** A service's type as a workbook names it. */
export function serviceTypeName(type: ServiceType, language: Language): string {
  return TYPE_NAMES[type][language];
}

/** Yes or no as a workbook writes it. */
export function yesNo(value: boolean, language: Language): string {
  return value ? (language === "es" ? "sí" : "yes") : "no";
}

/** An existing service the template's example rows use, so the example shows a real code. */
export interface TemplateService {
  code: string;
  name: string;
  type: ServiceType;
  description: string;
}

/**
 * The workbook to fill in: the five sheets with their headers in `language` and one example row each, marked in
 * the first column (Ejemplo / Example) so it is never imported: the import skips marked rows and says so. The
 * example cafe has `business`; the example service is `service` when given (an existing one), else a breakfast.
 */
export function placesTemplate(
  language: Language,
  example: { business: string; timeZone: string; service?: TemplateService },
): ExportSheet<WorkbookRow>[] {
  const service = example.service ?? {
    code: "DES",
    name: language === "es" ? "Desayuno" : "Breakfast",
    type: "breakfast" as const,
    description: language === "es" ? "Desayuno del turno día" : "Day shift breakfast",
  };
  const sample: WorkbookRow = {
    example: EXAMPLE_MARK[language],
    services: service.code,
    mine: language === "es" ? "Mina Ejemplo" : "Example Mine",
    unit: language === "es" ? "Unidad Norte" : "North Unit",
    cafe: language === "es" ? "Comedor Principal" : "Main Cafe",
    business: example.business,
    timeZone: example.timeZone,
    code: service.code,
    type: TYPE_NAMES[service.type][language],
    description: service.description,
    active: yesNo(true, language),
    service: service.code,
    price: 12.5,
  };
  const rowFor: Record<SheetKind, WorkbookRow> = {
    services: { ...sample, name: service.name },
    mines: { ...sample, name: sample.mine },
    units: { ...sample, name: sample.unit },
    cafes: { ...sample, name: sample.cafe },
    prices: sample,
  };
  return PLACES_SHEETS.map((kind) => workbookSheet(kind, language, [rowFor[kind]], true));
}

/** What the template writes in the Example column of its example rows. */
export const EXAMPLE_MARK: Record<Language, string> = {
  es: "EJEMPLO (no se importa)",
  en: "EXAMPLE (not imported)",
};
