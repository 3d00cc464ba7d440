/** The audit's places: written with each entry, and read back only by viewers whose scope holds all of them. */
import { describe, expect, test } from "bun:test";
import { auditPlaces } from "../../db/schema";
import { type Db } from "../db";
import { migratedDatabase } from "../../tests/support/database";
import { ensureCafe, ensureHeadquarters } from "./access/places";
import { EVERYTHING, type Scope } from "./access/scope";
import { CLI_ACTOR, COMPANY_WIDE, listAudit, recordAudit, unionOfPlaces, type AuditPlace } from "./audit";

function world() {
  const db = migratedDatabase();
  const x = ensureHeadquarters(db, "Catering X S.A.C.", "Sede X");
  const y = ensureHeadquarters(db, "Catering Y S.A.C.", "Sede Y");
  const cafeA = ensureCafe(db, "Mina Norte", "Unidad A", "Comedor A", x.businessId);
  const cafeB = ensureCafe(db, "Mina Sur", "Unidad B", "Comedor B", y.businessId);
  const ids = db.$client
    .query<{ cafe: number; unit: number; mine: number }, []>(
      "SELECT c.id AS cafe, u.id AS unit, u.mine_id AS mine FROM cafes c JOIN units u ON u.id = c.unit_id ORDER BY c.id",
    )
    .all();
  return { db, x, y, a: ids[0], b: ids[1], cafeA, cafeB };
}

function write(db: Db, action: string, places: readonly AuditPlace[]): void {
  recordAudit(db, CLI_ACTOR, { action, subjectType: "test", subjectId: null, places });
}

function seen(db: Db, scope: Scope, companyWide: boolean): string[] {
  return listAudit(db, { scope, companyWide }, { page: 1, perPage: 50 })
    .rows.map((r) => r.action)
    .sort();
}

const scope = (cafeIds: number[], headquartersIds: number[] = [], businessIds: number[] = []): Scope => ({
  all: false,
  cafeIds: new Set(cafeIds),
  headquartersIds: new Set(headquartersIds),
  businessIds: new Set(businessIds),
});

describe("audit places", () => {
  test("each place kind is matched against the scope; a unit or mine by the cafes it holds; every place must match", () => {
    const w = world();
    write(w.db, "cafe A", [{ cafeId: w.cafeA }]);
    write(w.db, "unit A", [{ unitId: w.a.unit }]);
    write(w.db, "mine A", [{ mineId: w.a.mine }]);
    write(w.db, "sede X", [{ headquartersId: w.x.headquartersId }]);
    write(w.db, "business X", [{ businessId: w.x.businessId }]);
    write(w.db, "cafes A and B", [{ cafeId: w.cafeA }, { cafeId: w.cafeB }]);
    write(w.db, "company-wide", COMPANY_WIDE);
    write(w.db, "cafe B", [{ cafeId: w.cafeB }]);

    expect(seen(w.db, scope([w.cafeA]), false)).toEqual(["cafe A", "mine A", "unit A"]);
    expect(seen(w.db, scope([w.cafeA], [w.x.headquartersId], [w.x.businessId]), true)).toEqual([
      "business X",
      "cafe A",
      "company-wide",
      "mine A",
      "sede X",
      "unit A",
    ]);
    expect(seen(w.db, scope([w.cafeA, w.cafeB]), false)).toEqual([
      "cafe A",
      "cafe B",
      "cafes A and B",
      "mine A",
      "unit A",
    ]);
    expect(seen(w.db, scope([]), false)).toEqual([]);
    expect(seen(w.db, EVERYTHING, true)).toHaveLength(8);
    expect(listAudit(w.db, { scope: scope([w.cafeA]), companyWide: false }, { page: 1, perPage: 2 }).total).toBe(3);
  });

  test("places are stored once each, and the union of before and after keeps each place once", () => {
    const w = world();
    write(
      w.db,
      "moved",
      unionOfPlaces([{ cafeId: w.cafeA }], [{ cafeId: w.cafeA }, { headquartersId: w.x.headquartersId }]),
    );
    expect(w.db.select({ kind: auditPlaces.kind, placeId: auditPlaces.placeId }).from(auditPlaces).all()).toEqual([
      { kind: "cafe", placeId: w.cafeA },
      { kind: "headquarters", placeId: w.x.headquartersId },
    ]);
  });
});
