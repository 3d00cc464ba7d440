import { describe, expect, test } from "bun:test";
import { migratedDatabase } from "../../tests/support/database";
import { SessionStore } from "./session";

function store() {
  const db = migratedDatabase();
  return { db, sessions: new SessionStore(db, 60) };
}

describe("sessions", () => {
  test("flash data lives for exactly the next request", () => {
    const { sessions } = store();
    const meta = { ipAddress: null, userAgent: null };
    const first = sessions.load(undefined);
    first.flash("notice", "saved");
    first.ageFlash();
    sessions.save(first, meta);

    const second = sessions.load(first.id);
    expect(second.get("notice")).toBe("saved");
    second.ageFlash();
    sessions.save(second, meta);

    const third = sessions.load(first.id);
    expect(third.get("notice")).toBeUndefined();
  });

  test("an idle session expires; a regenerated id replaces the old one", () => {
    const { db, sessions } = store();
    const meta = { ipAddress: "127.0.0.1", userAgent: "test" };
    const session = sessions.load(undefined, 0);
    session.put("x", 1);
    sessions.save(session, meta, 1_000_000);
    expect(sessions.load(session.id, 1_000_000 + 59_000).get("x")).toBe(1);
    expect(sessions.load(session.id, 1_000_000 + 61_000).isNew).toBe(true);

    const current = sessions.load(session.id, 1_000_000);
    const oldId = current.id;
    current.regenerate();
    sessions.save(current, meta, 1_000_000);
    expect(sessions.exists(oldId)).toBe(false);
    expect(sessions.exists(current.id)).toBe(true);
    const stored = db.$client.query<{ id: string }, []>("SELECT id FROM sessions").all();
    expect(stored.map((r) => r.id)).not.toContain(current.id);
  });

  test("ending a user's sessions can keep the current one", () => {
    const { sessions } = store();
    const meta = { ipAddress: null, userAgent: null };
    const a = sessions.load(undefined);
    const b = sessions.load(undefined);
    a.setUser(5);
    b.setUser(5);
    sessions.save(a, meta);
    sessions.save(b, meta);
    expect(sessions.destroyForUser(5, a.id)).toBe(1);
    expect(sessions.exists(a.id)).toBe(true);
    expect(sessions.exists(b.id)).toBe(false);
  });
});
