/**
 * The cheapest mix of presentations for a need, and the note about a larger one (requirements-packs.ts), against
 * covers worked by hand and, for random presentations, against trying every mix.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { cheapestCover, largerPackNote, presentationsFor, type Pack } from "./requirements-packs";

const pack = (offerId: number, presentation: string, quantity: number, netCents: number): Pack => ({
  offerId,
  presentation,
  quantity,
  netCents,
});

// Sugar: a 1 kg bag at S/ 3.56 and a 50 kg sack at S/ 159.15 (S/ 3.18 per kg), net of IGV.
const BAG = pack(1, "Bolsa 1 kg", 1000, 356);
const SACK = pack(2, "Saco 50 kg", 50_000, 15_915);
const counts = (cover: ReturnType<typeof cheapestCover>) => cover.packs.map((p) => [p.presentation, p.count]);

describe("the cheapest mix of presentations", () => {
  test("2 kg of sugar is two 1 kg bags, not a 50 kg sack; 48 kg is the sack", () => {
    const small = cheapestCover(2000, [SACK, BAG]);
    expect(counts(small)).toEqual([["Bolsa 1 kg", 2]]);
    expect(small.netCents).toBe(712);
    expect(small.boughtQuantity).toBe(2000);
    // 45 bags (S/ 160.20) cost more than the sack (S/ 159.15); 44 bags (S/ 156.64) less.
    expect(counts(cheapestCover(45_000, [BAG, SACK]))).toEqual([["Saco 50 kg", 1]]);
    expect(counts(cheapestCover(44_000, [BAG, SACK]))).toEqual([["Bolsa 1 kg", 44]]);
  });

  test("several presentations mix: the sacks first, then what covers the rest at the lowest cost", () => {
    const FIVE = pack(3, "Bolsa 5 kg", 5000, 1650); // S/ 3.30 per kg
    const cover = cheapestCover(107_500, [BAG, FIVE, SACK]);
    // 2 sacks (100 kg) + 1 × 5 kg + 3 × 1 kg = 108 kg for 31,830 + 1,650 + 1,068 = 34,548 cents; 2 sacks and
    // 2 × 5 kg would be 35,130.
    expect(counts(cover)).toEqual([
      ["Saco 50 kg", 2],
      ["Bolsa 5 kg", 1],
      ["Bolsa 1 kg", 3],
    ]);
    expect(cover.netCents).toBe(34_548);
    expect(cover.boughtQuantity).toBe(108_000);
  });

  test("an exact cover leaves nothing over; a hair of floating point above it buys nothing more", () => {
    expect(counts(cheapestCover(100_000, [BAG, SACK]))).toEqual([["Saco 50 kg", 2]]);
    const hair = cheapestCover(3000 * (1 + 1e-12), [BAG]);
    expect(counts(hair)).toEqual([["Bolsa 1 kg", 3]]);
    expect(presentationsFor(0.1 + 0.2, 0.3)).toBe(1);
  });

  test("leftovers: when no mix is exact, the cheapest one wins even if it buys more", () => {
    // 2.5 L of oil: a 1 L bottle at S/ 10.00 and a 5 L can at S/ 24.00. Three bottles (S/ 30.00, 0.5 L over) cost
    // more than the can (S/ 24.00, 2.5 L over).
    const BOTTLE = pack(10, "Botella 1 L", 1000, 1000);
    const CAN = pack(11, "Bidón 5 L", 5000, 2400);
    const cover = cheapestCover(2500, [BOTTLE, CAN]);
    expect(counts(cover)).toEqual([["Bidón 5 L", 1]]);
    expect(cover.boughtQuantity - 2500).toBe(2500);
    // 1.2 L: two bottles (S/ 20.00) beat the can.
    expect(counts(cheapestCover(1200, [BOTTLE, CAN]))).toEqual([["Botella 1 L", 2]]);
  });

  test("ties: the same cost buys less, then fewer packs, then larger ones", () => {
    // 1 kg as one 1 kg bag or two 500 g bags, both S/ 3.56: one bag.
    const HALF = pack(4, "Bolsa 500 g", 500, 178);
    expect(counts(cheapestCover(1000, [HALF, BAG]))).toEqual([["Bolsa 1 kg", 1]]);
    // 600 g: a 1 kg bag at 356 or two 500 g bags at 356 buy the same; a 700 g pack at 356 buys less and wins.
    const SEVEN = pack(5, "Bolsa 700 g", 700, 356);
    expect(counts(cheapestCover(600, [HALF, BAG, SEVEN]))).toEqual([["Bolsa 700 g", 1]]);
    // Two offers of the same size and price: the one listed first by id, every time.
    const twin = pack(6, "Bolsa 1 kg (otra)", 1000, 356);
    expect(cheapestCover(2000, [twin, BAG]).packs.map((p) => p.offerId)).toEqual([1]);
  });

  test("nothing needed, or nothing offered, buys nothing", () => {
    expect(cheapestCover(0, [BAG]).packs).toEqual([]);
    expect(cheapestCover(500, []).packs).toEqual([]);
  });

  test("for random presentations and needs, no mix of whole presentations costs less", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ quantity: fc.integer({ min: 1, max: 40 }), netCents: fc.integer({ min: 1, max: 500 }) }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.integer({ min: 1, max: 120 }),
        (specs, needed) => {
          const packs = specs.map((s, i) => pack(i + 1, `P${i}`, s.quantity, s.netCents));
          const cover = cheapestCover(needed, packs);
          expect(cover.boughtQuantity).toBeGreaterThanOrEqual(needed);
          // Every mix up to covering the need with each presentation alone.
          let best = Infinity;
          const limits = packs.map((p) => Math.ceil(needed / p.quantity));
          const walk = (i: number, quantity: number, cost: number) => {
            if (i === packs.length) {
              if (quantity >= needed) best = Math.min(best, cost);
              return;
            }
            for (let c = 0; c <= limits[i]; c++)
              walk(i + 1, quantity + c * packs[i].quantity, cost + c * packs[i].netCents);
          };
          walk(0, 0, 0);
          expect(cover.netCents).toBe(best);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("many presentations and a large need are worked out at once", () => {
    const many = [1, 2, 3, 5, 7, 11, 13].map((q, i) => pack(i + 1, `${q} kg`, q * 1000, q * 330 + (i % 3) * 17));
    const started = performance.now();
    const cover = cheapestCover(1_234_567, many);
    expect(performance.now() - started).toBeLessThan(500);
    expect(cover.boughtQuantity).toBeGreaterThanOrEqual(1_234_567);
  });
});

describe("the note about a larger presentation", () => {
  test("2 kg bought in bags: the sack is cheaper per kg, and covering the need with it costs S/ 159.15", () => {
    const cover = cheapestCover(2000, [BAG, SACK]);
    const note = largerPackNote(2000, cover, [BAG, SACK]);
    expect(note?.presentation).toBe("Saco 50 kg");
    expect(note?.unitNetCents).toBeCloseTo(15_915 / 50_000, 12);
    expect(note?.boughtUnitNetCents).toBeCloseTo(0.356, 12);
    expect(note?.coverNetCents).toBe(15_915);
  });

  test("no note when what is bought is already the cheapest per unit, or a larger one costs more per unit", () => {
    const sack = cheapestCover(50_000, [BAG, SACK]);
    expect(largerPackNote(50_000, sack, [BAG, SACK])).toBeNull();
    const dearSack = pack(7, "Saco 50 kg", 50_000, 20_000);
    const bags = cheapestCover(2000, [BAG, dearSack]);
    expect(largerPackNote(2000, bags, [BAG, dearSack])).toBeNull();
    // A sack at S/ 3.55 a kg against bags at S/ 3.56: less than 1 % cheaper, not worth a note.
    const nearSack = pack(8, "Saco 50 kg", 50_000, 17_750);
    expect(largerPackNote(2000, cheapestCover(2000, [BAG, nearSack]), [BAG, nearSack])).toBeNull();
    const cheaperSack = pack(9, "Saco 50 kg", 50_000, 17_600); // S/ 3.52 a kg: 1.1 % cheaper
    expect(largerPackNote(2000, cheapestCover(2000, [BAG, cheaperSack]), [BAG, cheaperSack])?.offerId).toBe(9);
  });

  test("of several larger presentations, the cheapest per unit is named", () => {
    const FIVE = pack(3, "Bolsa 5 kg", 5000, 1650);
    const note = largerPackNote(2000, cheapestCover(2000, [BAG, FIVE, SACK]), [BAG, FIVE, SACK]);
    expect(note?.presentation).toBe("Saco 50 kg");
  });
});
