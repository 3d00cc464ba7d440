/**
 * The services catalogue in the domain: the service the places template shows in its example row (the first active
 * one by code).
 */
import { describe, expect, test } from "bun:test";
import { migratedDatabase } from "../../../tests/support/database";
import { CLI_ACTOR } from "../audit";
import { createService, firstActiveService, updateService } from "./services";

describe("firstActiveService", () => {
  test("is the first active service by code, with what a workbook row says of it", () => {
    const db = migratedDatabase();
    expect(firstActiveService(db)).toBeUndefined();
    createService(db, CLI_ACTOR, { code: "DES", name: "Desayuno", type: "breakfast", description: "Turno día" });
    const alm = createService(db, CLI_ACTOR, { code: "ALM", name: "Almuerzo", type: "lunch" });
    expect(firstActiveService(db)).toEqual({ code: "ALM", name: "Almuerzo", type: "lunch", description: "" });
    // A withdrawn service is no example.
    updateService(db, CLI_ACTOR, alm.id, { code: "ALM", name: "Almuerzo", type: "lunch", active: false });
    expect(firstActiveService(db)).toEqual({
      code: "DES",
      name: "Desayuno",
      type: "breakfast",
      description: "Turno día",
    });
  });
});
