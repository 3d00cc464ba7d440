/**
 * The series a manager sets in the prices dialog (`dinners.settings`), through HTTP: another cafe's series is refused
 * with 422 and the reason in the person's language, a new series starts at 1, going back to the cafe's own goes on at
 * its number (never two sales with one number), and the boleta series is set and shown on the page.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { cafes, sales } from "../../db/schema";
import { dateIn } from "../../src/shared/calendar";
import { translate } from "../../src/shared/i18n";
import { Client } from "../support/app";
import { posApp, type PosApp } from "../support/pos-app";
import { signedIn, submitJson, visitPage } from "../support/requests";

let world: PosApp;
let today: string;
let root: Client;
let jefa: Client;
let cajera: Client;

beforeAll(async () => {
  world = await posApp();
  today = dateIn("America/Lima");
  root = await signedIn(world.app, world.people.root);
  jefa = await signedIn(world.app, world.people.jefa);
  cajera = await signedIn(world.app, world.people.cajera);
});

const settingsOf = (cafeId: number) => `/dinners/cafes/${cafeId}/settings`;
const defaultSeries = (id: number) => `T${String(id).padStart(3, "0")}`;
let keys = 0;

/** A cash lunch for a visitor at Norte: its ticket. */
async function sellAtNorte(): Promise<string> {
  const response = await submitJson(cajera, "POST", "/sales", {
    key: `series-http-${++keys}`,
    cafe_id: world.w.norte,
    document_number: "45000001",
    visitor_name: "Visitante Uno",
    service_date: today,
    sale_type: "cash",
    lines: [{ service_id: world.w.alm, quantity: 1 }],
  });
  expect(response.status).toBe(201);
  return (await response.json()).ticket;
}

describe("a cafe's series through dinners.settings", () => {
  test("another cafe's series is refused with 422, in Spanish and in English; the cafe keeps its own", async () => {
    const taken = defaultSeries(world.w.norte);
    const spanish = await submitJson(root, "PUT", settingsOf(world.w.sur), { ticket_series: taken, auto_print: false });
    expect(spanish.status).toBe(422);
    expect((await spanish.json()).errors).toEqual({
      ticket_series: `La serie ${taken} ya pertenece a otro comedor de Catering Andino: elija otra.`,
    });
    const english = await signedIn(world.app, world.people.root);
    english.cookies.set("locale", "en");
    const refused = await submitJson(english, "PUT", settingsOf(world.w.sur), { ticket_series: taken });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors).toEqual({
      ticket_series: `The series ${taken} already belongs to another cafe of Catering Andino: choose another.`,
    });
    expect(world.app.db.select().from(cafes).where(eq(cafes.id, world.w.sur)).get()).toMatchObject({
      ticketSeries: defaultSeries(world.w.sur),
      autoPrint: true,
    });
  });

  test("a new series starts at 1; going back to the cafe's own goes on at its number; no number is printed twice", async () => {
    const own = defaultSeries(world.w.norte);
    const first = [await sellAtNorte(), await sellAtNorte()];
    expect((await submitJson(jefa, "PUT", settingsOf(world.w.norte), { ticket_series: "N7" })).status).toBe(204);
    const second = await sellAtNorte();
    expect((await submitJson(jefa, "PUT", settingsOf(world.w.norte), { ticket_series: own })).status).toBe(204);
    const third = await sellAtNorte();
    expect([...first, second, third]).toEqual([`${own}-00000001`, `${own}-00000002`, "N7-00000001", `${own}-00000003`]);
    const printed = world.app.db
      .select({ series: sales.series, number: sales.number })
      .from(sales)
      .all()
      .map((s) => `${s.series}-${s.number}`);
    expect(new Set(printed).size).toBe(printed.length);
  });

  test("the boleta series is set, shown on the page, and a bad one is refused per field", async () => {
    for (const bad of ["B01", "T001", "B0001"]) {
      const response = await submitJson(jefa, "PUT", settingsOf(world.w.norte), { boleta_series: bad });
      expect({ bad, status: response.status }).toEqual({ bad, status: 422 });
      expect((await response.json()).errors).toEqual({
        boleta_series: translate("es", "sales.boleta_series_invalid"),
      });
    }
    expect((await submitJson(jefa, "PUT", settingsOf(world.w.norte), { boleta_series: "b010" })).status).toBe(204);
    const page = await visitPage(jefa, `/dinners?cafe=${world.w.norte}`);
    expect(page.props.pos.cafe).toMatchObject({ ticketSeries: defaultSeries(world.w.norte), boletaSeries: "B010" });
    // A cashier does not set series.
    expect((await submitJson(cajera, "PUT", settingsOf(world.w.norte), { boleta_series: "B011" })).status).toBe(403);
  });
});
