/** The built-in roles are shown by their labels in the viewer's language; any other role by the name it was given. */
import { describe, expect, test } from "bun:test";
import { roleDescription, roleLabel, isBuiltInRoleName, STARTING_ROLES, SUPER_ROLE_NAME } from "./built-in-roles";
import { SUPER_ROLE } from "../../domain/access/roles";

describe("built-in role names", () => {
  test("every built-in role has a label and a description in both languages, the stored description being the English one", () => {
    expect(SUPER_ROLE_NAME).toBe(SUPER_ROLE);
    for (const role of STARTING_ROLES) {
      expect(role.label.es).not.toBe("");
      expect(role.label.en).not.toBe("");
      expect(role.about.es).not.toBe(role.about.en);
      expect(role.description).toBe(role.about.en);
    }
    expect(new Set(STARTING_ROLES.map((r) => r.label.es)).size).toBe(STARTING_ROLES.length);
  });

  test("a built-in role shows its label; a role an administrator created or renamed shows its own name", () => {
    expect(roleLabel("cashier", "es")).toBe("Cajero");
    expect(roleLabel("cashier", "en")).toBe("Cashier");
    expect(roleLabel("cafe manager", "es")).toBe("Jefe de comedor");
    expect(roleLabel(SUPER_ROLE, "es")).toBe("Superadministrador");
    expect(roleLabel("supervisor de turno", "en")).toBe("supervisor de turno");
    expect(isBuiltInRoleName("cajero principal")).toBe(false);
  });

  test("a built-in role's description is translated until an administrator edits it", () => {
    const cashier = STARTING_ROLES.find((r) => r.name === "cashier")!;
    expect(roleDescription("cashier", cashier.description, "es")).toBe(cashier.about.es);
    expect(roleDescription("cashier", cashier.description, "en")).toBe(cashier.about.en);
    expect(roleDescription("cashier", "Caja del turno noche", "en")).toBe("Caja del turno noche");
    expect(roleDescription("auditor", cashier.description, "es")).toBe(cashier.description);
  });
});
