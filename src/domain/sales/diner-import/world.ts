/**
 * What the database holds that a diner file is checked against, loaded once, in one read transaction, into maps:
 * the diners (by document), cafes, subdealerships, levels and the blacklist; and how a cafe or a subdealership
 * written in a cell is found among them.
 */
import type { Database } from "bun:sqlite";
import type { DocumentType } from "../../../shared/documents";
import { BUILT_IN_LEVELS } from "../../../shared/food/built-in-levels";
import { message, type Message } from "../../../shared/message";
import type { DinerField } from "../../../shared/sales/types";
import { nameKey } from "./cells";

export interface DinerRow {
  id: number;
  documentType: DocumentType;
  documentNumber: string;
  name: string;
  phone: string;
  subdealershipId: number;
  cafeId: number;
  levelId: number | null;
  active: boolean;
}

/** The values an import sets (documents are the key and never change). */
export interface DinerValues {
  name: string;
  phone: string;
  subdealershipId: number;
  cafeId: number;
  levelId: number | null;
  active: boolean;
}

export const VALUE_KEYS = ["name", "phone", "subdealershipId", "cafeId", "levelId", "active"] as const;
export type ValueKey = (typeof VALUE_KEYS)[number];
/** A changed value as the preview names it. */
export const FIELD_NAME: Record<ValueKey, DinerField> = {
  name: "name",
  phone: "phone",
  subdealershipId: "subdealership",
  cafeId: "cafe",
  levelId: "level",
  active: "active",
};

export interface CafeRow {
  id: number;
  name: string;
  unit: string;
  mine: string;
}

export interface SubdealershipRow {
  id: number;
  name: string;
  ruc: string;
  dealership: string;
}

/**
 * Things kept by document, looked up by the number first: nearly every number has one type, so a lookup hashes the
 * number alone (a key joining type and number costs more than the rest of a row's check).
 */
export class ByDocument<T extends { documentType: DocumentType }> {
  private readonly first = new Map<string, T>();
  /** Under `type:number`, those whose number is already kept under another type. */
  private readonly others = new Map<string, T>();

  set(number: string, value: T): void {
    const first = this.first.get(number);
    if (!first || first.documentType === value.documentType) this.first.set(number, value);
    else this.others.set(`${value.documentType}:${number}`, value);
  }

  get(type: DocumentType, number: string): T | undefined {
    const first = this.first.get(number);
    if (!first || first.documentType === type) return first;
    return this.others.get(`${type}:${number}`);
  }

  /** The type of the only thing kept under `number`, or null (none, or several types). */
  onlyType(number: string): DocumentType | null {
    const first = this.first.get(number);
    if (!first || this.others.size === 0) return first?.documentType ?? null;
    for (const type of ["dni", "ce", "pas"] as const)
      if (type !== first.documentType && this.others.has(`${type}:${number}`)) return null;
    return first.documentType;
  }
}

export class World {
  readonly diners = new ByDocument<DinerRow>();
  readonly dinerList: DinerRow[] = [];
  readonly cafes = new Map<number, CafeRow>();
  readonly cafesByName = new Map<string, CafeRow[]>();
  readonly subdealerships = new Map<number, SubdealershipRow>();
  readonly subdealershipsByRuc = new Map<string, SubdealershipRow>();
  readonly subdealershipsByName = new Map<string, SubdealershipRow[]>();
  readonly levels = new Map<string, { id: number; name: string }>();
  readonly blacklist = new ByDocument<{ documentType: DocumentType; name: string; reason: string }>();

  constructor(client: Database) {
    for (const [id, documentType, documentNumber, name, phone, subdealershipId, cafeId, levelId, active] of client
      .prepare(
        "SELECT id, document_type, document_number, name, phone, subdealership_id, cafe_id, level_id, active FROM diners",
      )
      .values() as [number, DocumentType, string, string, string, number, number, number | null, number][]) {
      const diner: DinerRow = {
        id,
        documentType,
        documentNumber,
        name,
        phone,
        subdealershipId,
        cafeId,
        levelId,
        active: active === 1,
      };
      this.diners.set(documentNumber, diner);
      this.dinerList.push(diner);
    }
    for (const [id, name, unit, mine] of client
      .prepare(
        "SELECT c.id, c.name, u.name, m.name FROM cafes c JOIN units u ON u.id = c.unit_id JOIN mines m ON m.id = u.mine_id",
      )
      .values() as [number, string, string, string][]) {
      const cafe = { id, name, unit, mine };
      this.cafes.set(id, cafe);
      push(this.cafesByName, nameKey(name), cafe);
    }
    for (const [id, name, ruc, dealership] of client
      .prepare("SELECT s.id, s.name, s.ruc, d.name FROM subdealerships s JOIN dealerships d ON d.id = s.dealership_id")
      .values() as [number, string, string, string][]) {
      const sub = { id, name, ruc, dealership };
      this.subdealerships.set(id, sub);
      this.subdealershipsByRuc.set(ruc, sub);
      push(this.subdealershipsByName, nameKey(name), sub);
    }
    for (const [id, name] of client.prepare("SELECT id, name FROM levels").values() as [number, string][])
      this.levels.set(nameKey(name), { id, name });
    // A built-in level is found by the name the pages show in either language too ("Obrero" is Laborer).
    for (const level of [...this.levels.values()]) {
      const words = BUILT_IN_LEVELS.get(level.name);
      if (!words) continue;
      for (const label of [words.es, words.en])
        if (!this.levels.has(nameKey(label))) this.levels.set(nameKey(label), level);
    }
    for (const [type, number, name, reason] of client
      .prepare("SELECT document_type, document_number, name, reason FROM blacklist")
      .values() as [DocumentType, string, string, string][])
      this.blacklist.set(number, { documentType: type, name, reason });
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export type Resolved<T> = { ok: true; value: T } | { ok: false; problem: Message };

/** A cafe written "Cafe", "Unit/Cafe" or "Mine/Unit/Cafe" (accents, case and spacing ignored). */
export function resolveCafe(world: World, written: string): Resolved<CafeRow> {
  const parts = written.split("/").map(nameKey);
  let found: CafeRow[] = [];
  if (parts.length <= 3 && parts.every(Boolean)) {
    const [cafe, unit, mine] = [...parts].reverse();
    found = world.cafesByName.get(cafe) ?? [];
    if (unit !== undefined) found = found.filter((c) => nameKey(c.unit) === unit);
    if (mine !== undefined) found = found.filter((c) => nameKey(c.mine) === mine);
  }
  // A cafe really called "A/B" is found by its whole name.
  if (found.length === 0 && parts.length > 1) found = world.cafesByName.get(nameKey(written)) ?? [];
  if (found.length === 1) return { ok: true, value: found[0] };
  if (found.length === 0) return { ok: false, problem: message("diners.import_cafe_unknown", { cafe: written }) };
  const units = new Set(found.map((c) => nameKey(`${c.unit}/${c.name}`)));
  const choices = found
    .slice(0, 10)
    .map((c) => (units.size === found.length ? `${c.unit}/${c.name}` : `${c.mine}/${c.unit}/${c.name}`))
    .join(", ");
  return { ok: false, problem: message("diners.import_cafe_ambiguous", { cafe: written, choices }) };
}

/** A subdealership written as its RUC, its name, or "Dealership/Subdealership". */
export function resolveSubdealership(world: World, written: string): Resolved<SubdealershipRow> {
  const byRuc = world.subdealershipsByRuc.get(written.replace(/[\s-]/g, ""));
  if (byRuc) return { ok: true, value: byRuc };
  let found = world.subdealershipsByName.get(nameKey(written)) ?? [];
  const slash = written.indexOf("/");
  if (found.length === 0 && slash > 0) {
    const dealership = nameKey(written.slice(0, slash));
    found = (world.subdealershipsByName.get(nameKey(written.slice(slash + 1))) ?? []).filter(
      (s) => nameKey(s.dealership) === dealership,
    );
  }
  if (found.length === 1) return { ok: true, value: found[0] };
  if (found.length === 0)
    return { ok: false, problem: message("diners.import_subdealership_unknown", { subdealership: written }) };
  const choices = found
    .slice(0, 10)
    .map((s) => `${s.dealership}/${s.name} (RUC ${s.ruc})`)
    .join(", ");
  return { ok: false, problem: message("diners.import_subdealership_ambiguous", { subdealership: written, choices }) };
}

/**
 * What a plan is worked out from, as one text that changes whenever any of it changes: the diners (the last id
 * given, how many there are, the latest change: every change of a diner sets its updated_at) and the names of the
 * cafes, subdealerships and levels the file's cells are resolved against.
 */
export function dataStamp(client: Database): string {
  const row = client
    .prepare(
      `SELECT json_array(
        (SELECT seq FROM sqlite_sequence WHERE name = 'diners'), (SELECT count(*) FROM diners),
        (SELECT max(updated_at) FROM diners),
        (SELECT group_concat(c.id || '|' || c.name || '|' || u.name || '|' || m.name, char(30))
          FROM cafes c JOIN units u ON u.id = c.unit_id JOIN mines m ON m.id = u.mine_id),
        (SELECT group_concat(s.id || '|' || s.name || '|' || s.ruc || '|' || d.name, char(30))
          FROM subdealerships s JOIN dealerships d ON d.id = s.dealership_id),
        (SELECT group_concat(id || '|' || name, char(30)) FROM levels)) AS stamp`,
    )
    .get() as { stamp: string };
  return row.stamp;
}
