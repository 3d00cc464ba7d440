/**
 * The point of sale from the command line: `diner:find`, `diner:create`, `sale:list` and `sale:void`, each with
 * `--json`. They call the same domain code as the Dinners page (src/domain/sales) as the `cli` actor with every
 * place in scope and every permission: the command line is the administrator, so `sale:void` voids any sale of any
 * day. A void is published like the page's, so the cafe's open points of sale strike it through at once (through the
 * running Mesa, reached over HTTP; when it is not reached the void is made all the same and the command says so).
 *
 * Places, subdealerships and levels are named, never numbered. A cafe is "Cafe", or "Unit/Cafe" (or
 * "Mine/Unit/Cafe") when the name repeats; a subdealership is its name, "Dealership/Subdealership" when the name
 * repeats, or its RUC. A name that matches nothing or more than one thing is refused (exit code 1) with what
 * exists. Usage mistakes (an unknown option, a bad date or id, a missing argument) exit with code 2.
 */
import { asc, eq } from "drizzle-orm";
import { InvalidArgumentError, Option, type Command } from "commander";
import { cafes, dealerships, mines, subdealerships, units } from "../../db/schema";
import type { Db } from "../../src/db";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import {
  DEFAULT_DOCUMENT_TYPE,
  documentProblem,
  normalizeDocumentNumber,
  type DocumentType,
} from "../../src/shared/documents";
import { Conflict, NotFound, ValidationFailed } from "../../src/domain/errors";
import { type Message } from "../../src/shared/message";
import { foldText } from "../../src/shared/fold";
import { centsToSoles } from "../../src/shared/money";
import {
  createDiner,
  DinerInput,
  findDinerByDocument,
  listLevels,
  searchDiners,
  type DinerView,
} from "../../src/domain/sales/diners";
import { dateIn, isCalendarDate } from "../../src/shared/calendar";
import { salesOfDay, type DaySales, type SaleView } from "../../src/domain/sales/queries";
import { voidSale } from "../../src/domain/sales/sell";
import { parseWithDocument } from "../../src/domain/validation";
import { translate, type Locale } from "../../src/shared/i18n";
import { cliEvents } from "../events";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { explainValidation, say, table } from "../output";

// ---------------------------------------------------------------------------------------------------------------
// Option values

/** "dni", "ce", "pas" or "passport" (any case) → the document type. */
export function parseDocumentType(value: string): DocumentType {
  const type = value.trim().toLowerCase();
  if (type === "dni" || type === "ce" || type === "pas") return type;
  if (type === "passport") return "pas";
  throw new InvalidArgumentError("Use dni, ce (carné de extranjería) or passport (also written pas).");
}

function parseDate(value: string): string {
  if (!isCalendarDate(value.trim())) throw new InvalidArgumentError("Write the date as YYYY-MM-DD, e.g. 2026-11-24.");
  return value.trim();
}

function parseSaleId(value: string): number {
  const id = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(id) || id < 1)
    throw new InvalidArgumentError("Give the sale's id (a number, as ./mesa sale:list shows it).");
  return id;
}

/** "DNI 40000001", "CE 001234567", "PAS AB123456". */
function documentLabel(type: DocumentType, number: string): string {
  return `${type.toUpperCase()} ${number}`;
}

/** Names for an error message: all of them when there are few, else the first few and how many more. */
function some(names: string[], max = 12): string {
  if (names.length === 0) return "none";
  const shown = names
    .slice(0, max)
    .map((n) => `"${n}"`)
    .join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

function plural(count: number, one: string, other: string): string {
  return `${count} ${count === 1 ? one : other}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Names → records. Each resolver returns the record, or the words saying why the name picks none.

type Resolved<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The candidates whose name is `wanted`: written exactly, else (when none is) with case and accents ignored. */
function pick<T>(candidates: T[], nameOf: (c: T) => string, wanted: string): T[] {
  const exact = candidates.filter((c) => nameOf(c) === wanted);
  if (exact.length) return exact;
  const folded = foldText(wanted);
  return candidates.filter((c) => foldText(nameOf(c)) === folded);
}

export interface CafeChoice {
  id: number;
  name: string;
  unit: string;
  mine: string;
  timeZone: string;
  /** Mine › Unit › Cafe. */
  path: string;
}

function allCafes(db: Db): CafeChoice[] {
  return db
    .select({ id: cafes.id, name: cafes.name, unit: units.name, mine: mines.name, timeZone: cafes.timeZone })
    .from(cafes)
    .innerJoin(units, eq(units.id, cafes.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .orderBy(asc(mines.name), asc(units.name), asc(cafes.name))
    .all()
    .map((c) => ({ ...c, path: `${c.mine} › ${c.unit} › ${c.name}` }));
}

/** A cafe written "Cafe", "Unit/Cafe" or "Mine/Unit/Cafe". */
export function resolveCafe(db: Db, written: string): Resolved<CafeChoice> {
  const text = written.trim();
  const all = allCafes(db);
  const parts = text.split("/").map((p) => p.trim());
  let found: CafeChoice[] = [];
  if (parts.length <= 3 && parts.every(Boolean)) {
    const [cafe, unit, mine] = [...parts].reverse();
    found = pick(all, (c) => c.name, cafe);
    if (unit !== undefined) found = pick(found, (c) => c.unit, unit);
    if (mine !== undefined) found = pick(found, (c) => c.mine, mine);
  }
  // A cafe really called "A/B" is found by its whole name.
  if (found.length === 0 && parts.length > 1) found = pick(all, (c) => c.name, text);
  if (found.length === 1) return { ok: true, value: found[0] };
  if (found.length > 1) {
    const units = new Set(found.map((c) => `${c.unit}/${c.name}`));
    const labels = found.map((c) =>
      units.size === found.length ? `${c.unit}/${c.name}` : `${c.mine}/${c.unit}/${c.name}`,
    );
    return {
      ok: false,
      problem: `More than one cafe is named "${text}"; write it as ${units.size === found.length ? "Unit/Cafe" : "Mine/Unit/Cafe"}: ${some(labels)}.`,
    };
  }
  return { ok: false, problem: `No cafe named "${text}". Cafes: ${some(all.map((c) => `${c.unit}/${c.name}`))}.` };
}

interface SubdealershipChoice {
  id: number;
  name: string;
  ruc: string;
  dealership: string;
}

/** A subdealership written as its RUC, its name, or "Dealership/Subdealership". */
export function resolveSubdealership(db: Db, written: string): Resolved<SubdealershipChoice> {
  const text = written.trim();
  const all = db
    .select({ id: subdealerships.id, name: subdealerships.name, ruc: subdealerships.ruc, dealership: dealerships.name })
    .from(subdealerships)
    .innerJoin(dealerships, eq(dealerships.id, subdealerships.dealershipId))
    .orderBy(asc(dealerships.name), asc(subdealerships.name))
    .all();
  let found = all.filter((s) => s.ruc === text);
  if (found.length === 0) found = pick(all, (s) => s.name, text);
  const slash = text.indexOf("/");
  if (found.length === 0 && slash > 0) {
    const dealership = text.slice(0, slash).trim();
    found = pick(
      pick(all, (s) => s.dealership, dealership),
      (s) => s.name,
      text.slice(slash + 1).trim(),
    );
  }
  if (found.length === 1) return { ok: true, value: found[0] };
  if (found.length > 1)
    return {
      ok: false,
      problem: `More than one subdealership is named "${text}"; write it as Dealership/Subdealership or give its RUC: ${found.map((s) => `"${s.dealership}/${s.name}" (RUC ${s.ruc})`).join(", ")}.`,
    };
  if (all.length === 0)
    return { ok: false, problem: `No subdealership named "${text}": there are no subdealerships yet.` };
  return {
    ok: false,
    problem: `No subdealership named "${text}" or with that RUC. Subdealerships: ${some(all.map((s) => s.name))}.`,
  };
}

/** A level by name (case and accents ignored). */
function resolveLevel(db: Db, written: string): Resolved<{ id: number; name: string }> {
  const levels = listLevels(db);
  const found = pick(levels, (l) => l.name, written.trim());
  if (found.length === 1) return { ok: true, value: found[0] };
  return { ok: false, problem: `No level named "${written.trim()}". Levels: ${some(levels.map((l) => l.name))}.` };
}

function requireCafe(db: Db, written: string): CafeChoice {
  const cafe = resolveCafe(db, written);
  if (!cafe.ok) throw new CliError(cafe.problem);
  return cafe.value;
}

// ---------------------------------------------------------------------------------------------------------------
// Errors

/** How the domain's input fields (a diner's, a void's) are called on the command line, in the order of the usage line. */
const FIELDS: Record<string, string> = {
  document_type: "--type",
  document_number: "--document",
  name: "--name",
  subdealership_id: "--subdealership",
  cafe_id: "--cafe",
  phone: "--phone",
  level_id: "--level",
  active: "active",
  reason: "--reason",
};
const FIELD_ORDER = Object.keys(FIELDS);

/** The field errors of a validation failure under the command line's names for the fields, in the usage's order. */
function renamed<M>(errors: Record<string, M>): Record<string, M> {
  const place = (field: string) => {
    const i = FIELD_ORDER.indexOf(field.split(".")[0]);
    return i === -1 ? FIELD_ORDER.length : i;
  };
  return Object.fromEntries(
    Object.entries(errors)
      .sort(([a], [b]) => place(a) - place(b))
      .map(([field, m]) => [FIELDS[field.split(".")[0]] ?? field, m]),
  );
}

/** A domain refusal as a command line error (exit code 1) in the configured language; anything else is rethrown. */
function explain(error: unknown, locale: Locale): never {
  if (error instanceof ValidationFailed) explainValidation(new ValidationFailed(renamed(error.errors)), locale);
  if (error instanceof Conflict) throw new CliError(say(locale, error.detail));
  throw error;
}

// ---------------------------------------------------------------------------------------------------------------
// Live updates

// ---------------------------------------------------------------------------------------------------------------
// Printing

/** A diner as `diner:find` and `diner:create` print them: one fact a line. */
export function dinerText(diner: DinerView): string {
  const rows: [string, string][] = [
    ["Diner", `${diner.name} (#${diner.id})`],
    ["Document", documentLabel(diner.documentType, diner.documentNumber)],
    ["Phone", diner.phone || "—"],
    ["Subdealership", `${diner.subdealershipName} (${diner.dealershipName})`],
    ["Home cafe", diner.cafePath],
    ["Level", diner.levelName ?? "—"],
    ["Active", diner.active ? "yes" : "no: cannot be sold to"],
    ["Blacklisted", diner.barredReason === null ? "no" : `yes: ${diner.barredReason}`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length)) + 1;
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`).join("\n");
}

/** 10:05, in the sale's cafe's time zone. */
function timeOfSale(sale: SaleView): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: sale.timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(sale.soldAt));
}

function linesText(sale: SaleView): string {
  return sale.lines.map((l) => `${l.quantity} × ${l.serviceName}`).join(", ");
}

function statusText(sale: SaleView): string {
  if (sale.voided) return `voided: ${sale.voidReason ?? ""}`.trim();
  return sale.otherUnit ? `ok (other unit ×${sale.priceFactorPercent / 100})` : "ok";
}

export interface DaySalesListing {
  cafe: { id: number; name: string; path: string; timeZone: string };
  date: string;
  totals: DaySales["totals"];
  /** In the order they were sold. */
  sales: SaleView[];
}

/** Every sale of a cafe's service date (every page of salesOfDay), in the order they were sold. */
export function daySalesListing(db: Db, cafe: CafeChoice, date: string): DaySalesListing {
  const perPage = 500;
  const seen = new Map<number, SaleView>();
  let totals: DaySales["totals"] | null = null;
  for (let page = 1; ; page++) {
    const day = salesOfDay(db, EVERYTHING, cafe.id, date, { page, perPage });
    totals ??= day.totals;
    for (const sale of day.rows) seen.set(sale.id, sale);
    if (day.page < page || day.rows.length < perPage || page * perPage >= day.total) break;
  }
  return {
    cafe: { id: cafe.id, name: cafe.name, path: cafe.path, timeZone: cafe.timeZone },
    date,
    totals: totals!,
    sales: [...seen.values()].sort((a, b) => a.number - b.number || a.id - b.id),
  };
}

export function daySalesText(listing: DaySalesListing): string {
  const heading = `${listing.cafe.path}, ${listing.date} (${listing.cafe.timeZone})`;
  if (listing.sales.length === 0) return `${heading}\nNo sales.`;
  const rows = listing.sales.map((s) => [
    String(s.id),
    s.ticket,
    timeOfSale(s),
    s.saleType,
    s.dinerName,
    documentLabel(s.documentType, s.documentNumber),
    linesText(s),
    centsToSoles(s.totalCents),
    statusText(s),
  ]);
  const { totals } = listing;
  const summary =
    `${plural(totals.sales, "sale", "sales")}, ${plural(totals.meals, "meal", "meals")}, S/ ${centsToSoles(totals.totalCents)}` +
    (totals.voided ? `; ${plural(totals.voided, "voided sale", "voided sales")} not counted` : "");
  return [
    heading,
    table(["ID", "TICKET", "TIME", "TYPE", "DINER", "DOCUMENT", "LINES", "TOTAL S/", "STATUS"], rows),
    "",
    summary,
  ].join("\n");
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

// ---------------------------------------------------------------------------------------------------------------
// Commands

interface DinerCreateOptions {
  document: string;
  name: string;
  subdealership: string;
  cafe: string;
  type: DocumentType;
  phone?: string;
  level?: string;
  json?: boolean;
}

/** Checks the names, then registers the diner; every problem (names and fields) is reported at once. */
function dinerCreate(opts: DinerCreateOptions): void {
  const config = cliConfig();
  const db = cliDatabase(config);
  const cafe = resolveCafe(db, opts.cafe);
  const subdealership = resolveSubdealership(db, opts.subdealership);
  const level = opts.level === undefined ? null : resolveLevel(db, opts.level);
  const input = {
    name: opts.name,
    document_type: opts.type,
    document_number: opts.document,
    ...(opts.phone === undefined ? {} : { phone: opts.phone }),
    subdealership_id: subdealership.ok ? subdealership.value.id : 1,
    cafe_id: cafe.ok ? cafe.value.id : 1,
    level_id: level?.ok ? level.value.id : null,
  };
  // The resolvers' problems are already in words (the command's own), not translation keys.
  const unresolved: Record<string, string> = {};
  if (!cafe.ok) unresolved.cafe_id = cafe.problem;
  if (!subdealership.ok) unresolved.subdealership_id = subdealership.problem;
  if (level && !level.ok) unresolved.level_id = level.problem;
  if (Object.keys(unresolved).length) {
    // The other fields are checked too (without writing anything), so one run shows every problem.
    let fields: Record<string, Message> = {};
    try {
      parseWithDocument(DinerInput, input, config);
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      fields = error.errors;
    }
    const worded: Record<string, string> = {
      ...Object.fromEntries(Object.entries(fields).map(([field, m]) => [field, say(config.locale, m)])),
      ...unresolved,
    };
    const lines = Object.entries(renamed(worded)).map(([field, text]) => `  ${field}: ${text}`);
    throw new CliError(`${translate(config.locale, "validation.failed")}\n${lines.join("\n")}`);
  }
  let diner: DinerView;
  try {
    diner = createDiner(db, CLI_ACTOR, EVERYTHING, input, config);
  } catch (error) {
    explain(error, config.locale);
  }
  if (opts.json) {
    console.log(json(diner));
    return;
  }
  console.log(`Registered ${diner.name} (#${diner.id}).`);
  console.log(dinerText(diner));
}

/** The diner with this document; with no --type given, a diner with the number under another type is pointed to. */
function dinerFind(document: string, opts: { type?: DocumentType; json?: boolean }): void {
  const config = cliConfig();
  const db = cliDatabase(config);
  const type = opts.type ?? DEFAULT_DOCUMENT_TYPE;
  const number = normalizeDocumentNumber(document);
  const diner = number === "" ? null : findDinerByDocument(db, { type, number });
  if (diner) {
    console.log(opts.json ? json(diner) : dinerText(diner));
    return;
  }
  const lines = [`No diner is registered with ${documentLabel(type, number || document.trim())}.`];
  const problem = number === "" ? null : documentProblem({ type, number }, config);
  if (problem) lines.push(`(${say(config.locale, problem)})`);
  if (opts.type === undefined && number !== "") {
    const others = searchDiners(db, EVERYTHING, number).filter((d) => d.documentNumber === number);
    for (const other of others)
      lines.push(
        `${documentLabel(other.documentType, other.documentNumber)} is registered to ${other.name}: add --type ${other.documentType}.`,
      );
  }
  throw new CliError(lines.join("\n"));
}

function saleList(opts: { cafe: string; date?: string; json?: boolean }): void {
  const config = cliConfig();
  const db = cliDatabase(config);
  const cafe = requireCafe(db, opts.cafe);
  const listing = daySalesListing(db, cafe, opts.date ?? dateIn(cafe.timeZone));
  console.log(opts.json ? json(listing) : daySalesText(listing));
}

async function saleVoid(id: number, opts: { reason: string; json?: boolean }): Promise<void> {
  const config = cliConfig();
  const db = cliDatabase(config);
  const events = cliEvents(config);
  let sale: SaleView;
  try {
    sale = voidSale(db, CLI_ACTOR, EVERYTHING, id, { reason: opts.reason }, { voidAny: true }, events.publisher);
  } catch (error) {
    if (error instanceof NotFound) throw new CliError(`No sale has the id ${id}.`);
    explain(error, config.locale);
  }
  const unreached = await events.unreached();
  const outcome = unreached
    ? `The realtime server at ${unreached.endpoint} was not reached (${unreached.reason}), so open points of sale show the void when their list is next loaded.`
    : null;
  if (opts.json) {
    console.log(json(sale));
    if (outcome) console.error(outcome);
    return;
  }
  console.log(
    `Voided ticket ${sale.ticket} (#${sale.id}) of ${sale.cafeName}, ${sale.serviceDate}: ${sale.dinerName}, S/ ${centsToSoles(sale.totalCents)}. Reason: ${sale.voidReason}`,
  );
  if (outcome) console.log(outcome);
}

const typeOption = () =>
  new Option("--type <type>", "the document's type: dni, ce (carné de extranjería) or passport (pas)").argParser(
    parseDocumentType,
  );

export function registerPosCommands(program: Command): void {
  program
    .command("diner:find")
    .description("Show the diner with a document (exit code 1 when there is none)")
    .argument("<document>", "the document number (spaces and dashes are dropped)")
    .addOption(typeOption())
    .option("--json", "print JSON")
    .action((document: string, opts: { type?: DocumentType; json?: boolean }) => dinerFind(document, opts));

  program
    .command("diner:create")
    .description("Register a diner")
    .requiredOption("--document <number>", "the document number, checked by its type")
    .requiredOption("--name <name>", "the diner's full name")
    .requiredOption(
      "--subdealership <name>",
      'who pays their credit meals: its name, its RUC, or "Dealership/Subdealership" when the name repeats',
    )
    .requiredOption(
      "--cafe <cafe>",
      'the home cafe: "Cafe", or "Unit/Cafe" when several units have a cafe of that name',
    )
    .addOption(typeOption().default(DEFAULT_DOCUMENT_TYPE))
    .option("--phone <phone>", "a phone number")
    .option("--level <level>", "the diner's level, by name (by default Master, Staff, Employee or Laborer)")
    .option("--json", "print JSON")
    .action((opts: DinerCreateOptions) => dinerCreate(opts));

  program
    .command("sale:list")
    .description("List every sale of a cafe's day: id, ticket, time, diner, document, lines, total and status")
    .requiredOption("--cafe <cafe>", 'the cafe: "Cafe", or "Unit/Cafe" when several units have a cafe of that name')
    .option("--date <date>", "the service date, YYYY-MM-DD (default: today at the cafe)", parseDate)
    .option("--json", "print JSON")
    .action((opts: { cafe: string; date?: string; json?: boolean }) => saleList(opts));

  program
    .command("sale:void")
    .description("Void a sale, of any cashier and any day; the cafe's open points of sale strike it through")
    .argument("<id>", "the sale's id, as ./mesa sale:list shows it", parseSaleId)
    .requiredOption("--reason <text>", "why the sale is voided")
    .option("--json", "print JSON")
    .action((id: number, opts: { reason: string; json?: boolean }) => saleVoid(id, opts));
}
