/**
 * Subdealerships (subconcesionarias): contractors working for a dealership in some units. The name is unique within
 * the dealership, the RUC across dealerships and subdealerships. Like dealerships they are company-wide records, but
 * the units are scoped: a unit is reachable when it contains a cafe of the actor's scope (everything for a
 * super-administrator). Only reachable units are offered and shown; choosing a unit outside the scope is refused,
 * and the units outside the scope a subdealership already works in are kept as they are when a scoped actor saves.
 * Deleting a subdealership removes its unit links with it.
 */
import { and, asc, eq, inArray, ne, or, sql } from "drizzle-orm";
import { dealerships, mines, subdealershipUnits, subdealerships, units } from "../../../db/schema";
import { alias } from "drizzle-orm/sqlite-core";
import { preparedQuery, type Db } from "../../db";
import { subdealershipSalesUsage } from "../sales/usage";
import type { Scope } from "../access/scope";
import { COMPANY_WIDE, recordAudit, type Actor, type Tx } from "../audit";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { message } from "../../shared/message";
import {
  foldText,
  idList,
  inIdList,
  LIMIT,
  OFFSET,
  readList,
  searchMatch,
  searchPattern,
  type ListResult,
  type SortRequest,
} from "../search";
import { parseInput, t } from "../validation";
import { listSort, orderOf, type ListSort } from "../places/list-sort";
import { reachableParents } from "../places/places";
import {
  checkCompanyFields,
  CompanyFields,
  dealershipRowOf,
  ensureRucFree,
  subdealershipCount,
  type RucSettings,
} from "./dealerships";
import type { DealershipTreeRow, SubdealershipRow, UnitChoiceMine, UnitRef } from "../../shared/organisation/types";
export type { DealershipTreeRow, SubdealershipRow, UnitChoiceMine, UnitRef } from "../../shared/organisation/types";

export type Subdealership = typeof subdealerships.$inferSelect;

type Page = { page: number; perPage: number };

const everyUnit = preparedQuery((db) => db.select({ id: units.id }).from(units).prepare());

/** The ids of the units within the scope (every unit for a super-administrator). */
export function reachableUnitIds(db: Db | Tx, scope: Scope): Set<number> {
  const reach = reachableParents(db, scope);
  return new Set(
    reach
      ? reach.unitIds
      : everyUnit(db as Db)
          .all()
          .map((u) => u.id),
  );
}

const unitsByMine = preparedQuery((db) =>
  db
    .select({ mineId: mines.id, mineName: mines.name, unitId: units.id, unitName: units.name })
    .from(units)
    .innerJoin(mines, eq(mines.id, units.mineId))
    .orderBy(asc(mines.name), asc(units.name))
    .prepare(),
);

/** The reachable units, grouped by mine, by name. */
export function unitChoices(db: Db, scope: Scope): UnitChoiceMine[] {
  const reachable = reachableUnitIds(db, scope);
  const byMine = new Map<number, UnitChoiceMine>();
  for (const r of unitsByMine(db).all()) {
    if (!reachable.has(r.unitId)) continue;
    let mine = byMine.get(r.mineId);
    if (!mine) byMine.set(r.mineId, (mine = { id: r.mineId, name: r.mineName, units: [] }));
    mine.units.push({ id: r.unitId, name: r.unitName });
  }
  return [...byMine.values()];
}

const unitsOfSubdealerships = preparedQuery((db) =>
  db
    .select({
      subdealershipId: subdealershipUnits.subdealershipId,
      id: units.id,
      name: units.name,
      mineName: mines.name,
    })
    .from(subdealershipUnits)
    .innerJoin(units, eq(units.id, subdealershipUnits.unitId))
    .innerJoin(mines, eq(mines.id, units.mineId))
    .where(inIdList(subdealershipUnits.subdealershipId, "ids"))
    .orderBy(asc(mines.name), asc(units.name))
    .prepare(),
);

/** Each subdealership's units (all of them, reachable or not), by mine and unit name. */
function unitsBySubdealership(db: Db, ids: number[]): Map<number, UnitRef[]> {
  const map = new Map<number, UnitRef[]>();
  if (!ids.length) return map;
  for (const { subdealershipId, ...unit } of unitsOfSubdealerships(db).all({ ids: idList(ids) })) {
    const list = map.get(subdealershipId);
    if (list) list.push(unit);
    else map.set(subdealershipId, [unit]);
  }
  return map;
}

function rowsOf(
  db: Db,
  scope: Scope,
  list: { subdealership: Subdealership; dealershipName: string; matched?: number }[],
): SubdealershipRow[] {
  const reachable = reachableUnitIds(db, scope);
  const byId = unitsBySubdealership(
    db,
    list.map((r) => r.subdealership.id),
  );
  return list.map(({ subdealership: s, dealershipName, matched }) => {
    const all = byId.get(s.id) ?? [];
    const shown = all.filter((u) => reachable.has(u.id));
    return {
      id: s.id,
      dealershipId: s.dealershipId,
      dealershipName,
      name: s.name,
      ruc: s.ruc,
      fiscalAddress: s.fiscalAddress,
      legalAddress: s.legalAddress,
      phone: s.phone,
      email: s.email,
      units: shown,
      hiddenUnits: all.length - shown.length,
      matched: Boolean(matched),
    };
  });
}

const subdealershipSearch = () => searchMatch([subdealerships.name, subdealerships.ruc, dealerships.name]);

const countSubdealerships = preparedQuery((db, searched: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(subdealerships)
    .innerJoin(dealerships, eq(dealerships.id, subdealerships.dealershipId))
    .where(searched ? subdealershipSearch() : undefined)
    .prepare(),
);

const subdealershipsPage = preparedQuery((db, searched: boolean) =>
  db
    .select({ subdealership: subdealerships, dealershipName: dealerships.name })
    .from(subdealerships)
    .innerJoin(dealerships, eq(dealerships.id, subdealerships.dealershipId))
    .where(searched ? subdealershipSearch() : undefined)
    .orderBy(asc(dealerships.name), asc(subdealerships.name))
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

/**
 * Subdealerships whose name or RUC, or whose dealership's name, contains the search, by dealership and name;
 * every one when `page` is null (exports).
 */
export function listSubdealerships(
  db: Db,
  scope: Scope,
  filter: { search?: string },
  page: Page | null,
): ListResult<SubdealershipRow> {
  const search = searchPattern(filter.search);
  const searched = search !== null;
  const found = readList(
    page,
    () => countSubdealerships(db, searched).get({ search })?.n ?? 0,
    (window) => subdealershipsPage(db, searched).all({ search, ...window }),
  );
  return { ...found, rows: rowsOf(db, scope, found.rows) };
}

/** A subdealership of the dealership row, `s` in the correlated subquery of the tree's search. */
const child = alias(subdealerships, "s");

/** The tree's search: the dealership's name or RUC, or one of its subdealerships', contains SEARCH. */
const childMatches = () =>
  sql<number>`EXISTS (SELECT 1 FROM subdealerships s WHERE s.dealership_id = "dealerships"."id" AND ${searchMatch([{ column: child.name, folded: child.nameFolded }, child.ruc])})`;
const treeSearch = () => or(searchMatch([dealerships.name, dealerships.ruc]), childMatches());

const countTree = preparedQuery((db, searched: boolean) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(dealerships)
    .where(searched ? treeSearch() : undefined)
    .prepare(),
);

/** The columns the dealership tree sorts its dealerships by on the server. */
const TREE_SORTS = { name: dealerships.name, ruc: dealerships.ruc, subdealerships: subdealershipCount };

const treePage = preparedQuery((db, searched: boolean, sort: ListSort[0], direction: ListSort[1]) =>
  db
    .select({
      dealership: dealerships,
      count: subdealershipCount,
      childMatch: searched ? childMatches() : sql<number>`0`,
    })
    .from(dealerships)
    .where(searched ? treeSearch() : undefined)
    .orderBy(...orderOf(TREE_SORTS, [sort, direction], [asc(dealerships.name), asc(dealerships.id)]))
    .limit(LIMIT)
    .offset(OFFSET)
    .prepare(),
);

const treeChildren = preparedQuery((db, searched: boolean) =>
  db
    .select({
      subdealership: subdealerships,
      dealershipName: dealerships.name,
      matched: searched ? sql<number>`${searchMatch([subdealerships.name, subdealerships.ruc])}` : sql<number>`0`,
    })
    .from(subdealerships)
    .innerJoin(dealerships, eq(dealerships.id, subdealerships.dealershipId))
    .where(inIdList(subdealerships.dealershipId, "ids"))
    .orderBy(asc(subdealerships.name))
    .prepare(),
);

/**
 * The dealership → subdealership tree, paginated by dealership, by name (or the allowed column asked for: name, RUC,
 * number of subdealerships). The search matches a dealership's name or RUC, or
 * one of its subdealerships'; a dealership found through a subdealership comes expanded, the matching
 * subdealerships marked. Units shown are those within the actor's scope. Every dealership found when `page` is null
 * (the export).
 */
export function dealershipTree(
  db: Db,
  scope: Scope,
  filter: { search?: string },
  page: Page | null,
  sort?: SortRequest,
): ListResult<DealershipTreeRow> {
  const search = searchPattern(filter.search);
  const searched = search !== null;
  const parents = readList(
    page,
    () => countTree(db, searched).get({ search })?.n ?? 0,
    (window) => treePage(db, searched, ...listSort(TREE_SORTS, sort)).all({ search, ...window }),
  );
  const ids = parents.rows.map((p) => p.dealership.id);
  const children = rowsOf(db, scope, ids.length ? treeChildren(db, searched).all({ search, ids: idList(ids) }) : []);
  const childrenOf = new Map<number, SubdealershipRow[]>();
  for (const c of children) {
    const list = childrenOf.get(c.dealershipId);
    if (list) list.push(c);
    else childrenOf.set(c.dealershipId, [c]);
  }
  return {
    total: parents.total,
    page: parents.page,
    rows: parents.rows.map((p) => ({
      ...dealershipRowOf(p.dealership, p.count),
      subdealerships: childrenOf.get(p.dealership.id) ?? [],
      expanded: Boolean(p.childMatch),
    })),
  };
}

export function requireSubdealership(db: Db, id: number): Subdealership {
  const subdealership =
    Number.isInteger(id) && id > 0
      ? db.select().from(subdealerships).where(eq(subdealerships.id, id)).get()
      : undefined;
  if (!subdealership) throw new NotFound();
  return subdealership;
}

export function findSubdealershipByRuc(db: Db, ruc: string): Subdealership | undefined {
  return db.select().from(subdealerships).where(eq(subdealerships.ruc, ruc)).get();
}

export const SubdealershipInput = t.Object({
  ...CompanyFields,
  dealership_id: t.Integer({ minimum: 1 }),
  unit_ids: t.Optional(t.Array(t.Integer({ minimum: 1 }), { maxItems: 500 })),
});

function unitIdsOf(db: Db | Tx, subdealershipId: number): number[] {
  return db
    .select({ id: subdealershipUnits.unitId })
    .from(subdealershipUnits)
    .where(eq(subdealershipUnits.subdealershipId, subdealershipId))
    .all()
    .map((u) => u.id);
}

/**
 * Checks the input and works out the units to keep: the chosen ones (all within the scope, unless the
 * subdealership already works there) plus those outside the scope it already works in.
 */
function parseSubdealership(
  db: Db,
  scope: Scope,
  input: unknown,
  settings: RucSettings,
  existing: Subdealership | null,
) {
  const data = parseInput(SubdealershipInput, input);
  checkCompanyFields(data, settings);
  if (!db.select({ id: dealerships.id }).from(dealerships).where(eq(dealerships.id, data.dealership_id)).get()) {
    throw new ValidationFailed({ dealership_id: message("dealerships.dealership_missing") });
  }
  const sameName = db
    .select({ id: subdealerships.id })
    .from(subdealerships)
    .where(
      and(
        eq(subdealerships.dealershipId, data.dealership_id),
        sql`lower(${subdealerships.name}) = lower(${data.name})`,
        existing ? ne(subdealerships.id, existing.id) : undefined,
      ),
    )
    .get();
  if (sameName)
    throw new ValidationFailed({ name: message("dealerships.subdealership_name_taken", { name: data.name }) });
  ensureRucFree(db, data.ruc, existing ? { kind: "subdealership", id: existing.id } : null);

  const chosen = [...new Set(data.unit_ids ?? [])];
  const current = existing ? unitIdsOf(db, existing.id) : [];
  const known = new Set(
    chosen.length
      ? db
          .select({ id: units.id })
          .from(units)
          .where(inArray(units.id, chosen))
          .all()
          .map((u) => u.id)
      : [],
  );
  if (chosen.some((id) => !known.has(id)))
    throw new ValidationFailed({ unit_ids: message("dealerships.unit_missing") });
  const reachable = reachableUnitIds(db, scope);
  if (chosen.some((id) => !reachable.has(id) && !current.includes(id)))
    throw new ValidationFailed({ unit_ids: message("dealerships.unit_out_of_scope") });
  const keptOutside = current.filter((id) => !reachable.has(id));
  const unitIds = [...new Set([...chosen, ...keptOutside])].sort((a, b) => a - b);
  return {
    values: {
      dealershipId: data.dealership_id,
      name: data.name,
      ruc: data.ruc,
      fiscalAddress: data.fiscal_address ?? "",
      legalAddress: data.legal_address ?? "",
      phone: data.phone ?? "",
      email: data.email ?? "",
    },
    unitIds,
  };
}

function snapshot(s: Subdealership, unitIds: number[]) {
  return {
    dealershipId: s.dealershipId,
    name: s.name,
    ruc: s.ruc,
    fiscalAddress: s.fiscalAddress,
    legalAddress: s.legalAddress,
    phone: s.phone,
    email: s.email,
    unitIds,
  };
}

function setUnits(tx: Tx, subdealershipId: number, unitIds: number[]): void {
  tx.delete(subdealershipUnits).where(eq(subdealershipUnits.subdealershipId, subdealershipId)).run();
  if (unitIds.length)
    tx.insert(subdealershipUnits)
      .values(unitIds.map((unitId) => ({ subdealershipId, unitId })))
      .run();
}

export function createSubdealership(
  db: Db,
  actor: Actor,
  scope: Scope,
  input: unknown,
  settings: RucSettings,
  now = new Date(),
): Subdealership {
  const { values, unitIds } = parseSubdealership(db, scope, input, settings, null);
  return db.transaction((tx) => {
    const subdealership = tx
      .insert(subdealerships)
      .values({ ...values, nameFolded: foldText(values.name), createdAt: now, updatedAt: now })
      .returning()
      .get();
    setUnits(tx, subdealership.id, unitIds);
    recordAudit(
      tx,
      actor,
      {
        action: "subdealership.created",
        subjectType: "subdealership",
        subjectId: subdealership.id,
        places: COMPANY_WIDE,
        after: snapshot(subdealership, unitIds),
      },
      now,
    );
    return subdealership;
  });
}

export function updateSubdealership(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  input: unknown,
  settings: RucSettings,
  now = new Date(),
): Subdealership {
  const subdealership = requireSubdealership(db, id);
  const before = snapshot(subdealership, unitIdsOf(db, id));
  const { values, unitIds } = parseSubdealership(db, scope, input, settings, subdealership);
  return db.transaction((tx) => {
    const updated = tx
      .update(subdealerships)
      .set({ ...values, nameFolded: foldText(values.name), updatedAt: now })
      .where(eq(subdealerships.id, id))
      .returning()
      .get();
    setUnits(tx, id, unitIds);
    recordAudit(
      tx,
      actor,
      {
        action: "subdealership.updated",
        subjectType: "subdealership",
        subjectId: id,
        places: COMPANY_WIDE,
        before,
        after: snapshot(updated, unitIds),
      },
      now,
    );
    return updated;
  });
}

/**
 * Deletes a subdealership; its unit links go with it. An actor who does not reach every unit it works in may not
 * delete it (that would end its work in places they cannot see).
 */
export function deleteSubdealership(db: Db, actor: Actor, scope: Scope, id: number): Subdealership {
  const subdealership = requireSubdealership(db, id);
  const unitIds = unitIdsOf(db, id);
  const reachable = reachableUnitIds(db, scope);
  if (unitIds.some((unitId) => !reachable.has(unitId)))
    throw new Conflict(message("dealerships.subdealership_outside_scope", { name: subdealership.name }));
  const sold = subdealershipSalesUsage(db, id);
  if (sold.sales + sold.diners > 0)
    throw new Conflict(message("dealerships.subdealership_has_sales", { name: subdealership.name, ...sold }));
  const before = snapshot(subdealership, unitIds);
  db.transaction((tx) => {
    tx.delete(subdealerships).where(eq(subdealerships.id, id)).run();
    recordAudit(tx, actor, {
      action: "subdealership.deleted",
      subjectType: "subdealership",
      subjectId: id,
      places: COMPANY_WIDE,
      before,
    });
  });
  return subdealership;
}
