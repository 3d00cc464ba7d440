import type { LargerPack, Pack } from "../../shared/menu/types";
export type { LargerPack, Pack } from "../../shared/menu/types";
/**
 * How to buy a quantity in the presentations a provider sells an ingredient in: the cheapest mix of whole
 * presentations that covers it (2 kg of sugar is two 1 kg bags at S/ 3.56, not a 50 kg sack at S/ 159.15), and
 * whether a larger presentation would have been cheaper per unit (a buyer ordering more may want it).
 *
 * The choice is exact: a depth-first search over the presentations from the largest down, each tried from as many as
 * cover what is left down to none, the last one taking what covers the rest; a branch is left as soon as what it
 * has spent plus what is left at the lowest price per unit still available cannot beat the best mix found. The
 * single-presentation covers are tried first, so the best mix is a good one from the start and a branch rarely goes
 * far. Among mixes of the same cost (to a thousandth of a cent) the one that buys less wins, then the one with
 * fewer packs, then the one with larger ones. A search cut short by its budget (never reached by presentations a
 * cafeteria buys in) keeps the best mix found so far.
 *
 * Quantities are in the ingredient's base unit and unrounded; what is left a hair above zero because of floating
 * point (a billionth of the smallest presentation) counts as covered, as presentationsFor does.
 */

/** How many of a presentation to buy. */
export interface PackCount extends Pack {
  count: number;
}

/** A cheapest cover of a need: the presentations bought (largest first), what they hold and their unrounded cost. */
export interface Cover {
  packs: PackCount[];
  boughtQuantity: number;
  /** Σ count × netCents, unrounded. */
  netCents: number;
}

/** The most branches one search looks at. */
const SEARCH_BUDGET = 200_000;
/** How much cheaper per unit a larger presentation must be to be noted: 1 %. */
const NOTE_SAVING = 0.01;
/** Costs this close (in cents) are equal. */
const COST_EPSILON = 1e-3;

/** Whole presentations holding `needed`, a hair of floating point above a whole number not counting. */
export function presentationsFor(needed: number, presentationQuantity: number): number {
  if (needed <= 0) return 0;
  const exact = needed / presentationQuantity;
  return Math.max(1, Math.ceil(exact - 1e-9));
}

interface Candidate {
  counts: number[];
  cost: number;
  bought: number;
  packs: number;
}

/** Whether `a` is a better buy than `b` (see the top of this file); `counts` are by presentation, largest first. */
function better(a: Candidate, b: Candidate): boolean {
  if (a.cost < b.cost - COST_EPSILON) return true;
  if (a.cost > b.cost + COST_EPSILON) return false;
  if (a.bought !== b.bought) return a.bought < b.bought;
  if (a.packs !== b.packs) return a.packs < b.packs;
  for (let i = 0; i < a.counts.length; i++) if (a.counts[i] !== b.counts[i]) return a.counts[i] > b.counts[i];
  return false;
}

/**
 * The cheapest mix of whole presentations covering `needed` (see the top of this file). No need, or no
 * presentation, buys nothing.
 */
export function cheapestCover(needed: number, offered: readonly Pack[]): Cover {
  const packs = offered
    .filter((p) => p.quantity > 0 && Number.isFinite(p.quantity) && Number.isFinite(p.netCents) && p.netCents >= 0)
    .sort((a, b) => b.quantity - a.quantity || a.netCents - b.netCents || a.offerId - b.offerId);
  if (!(needed > 0) || packs.length === 0) return { packs: [], boughtQuantity: 0, netCents: 0 };
  const n = packs.length;
  const tolerance = 1e-9 * packs[n - 1].quantity;
  // The lowest price per unit among the presentations from i on: what is left costs at least this much.
  const cheapestFrom = new Array<number>(n + 1).fill(Infinity);
  for (let i = n - 1; i >= 0; i--)
    cheapestFrom[i] = Math.min(cheapestFrom[i + 1], packs[i].netCents / packs[i].quantity);

  const evaluate = (counts: number[]): Candidate => {
    let cost = 0;
    let bought = 0;
    let total = 0;
    counts.forEach((c, i) => {
      cost += c * packs[i].netCents;
      bought += c * packs[i].quantity;
      total += c;
    });
    return { counts: [...counts], cost, bought, packs: total };
  };

  let best: Candidate | null = null;
  const offer = (candidate: Candidate) => {
    if (best === null || better(candidate, best)) best = candidate;
  };
  // Each presentation alone.
  for (let i = 0; i < n; i++) {
    const counts = new Array<number>(n).fill(0);
    counts[i] = presentationsFor(needed, packs[i].quantity);
    offer(evaluate(counts));
  }

  let budget = SEARCH_BUDGET;
  const counts = new Array<number>(n).fill(0);
  const search = (i: number, left: number, spent: number) => {
    if (--budget < 0) return;
    if (left <= tolerance) {
      offer(evaluate(counts));
      return;
    }
    if (spent + left * cheapestFrom[i] > best!.cost + COST_EPSILON) return;
    const most = presentationsFor(left, packs[i].quantity);
    if (i === n - 1) {
      counts[i] = most;
      offer(evaluate(counts));
      counts[i] = 0;
      return;
    }
    for (let c = most; c >= 0 && budget >= 0; c--) {
      counts[i] = c;
      search(i + 1, left - c * packs[i].quantity, spent + c * packs[i].netCents);
    }
    counts[i] = 0;
  };
  search(0, needed, 0);

  const chosen = best as Candidate | null;
  if (chosen === null) return { packs: [], boughtQuantity: 0, netCents: 0 };
  return {
    packs: packs.flatMap((p, i) => (chosen.counts[i] > 0 ? [{ ...p, count: chosen.counts[i] }] : [])),
    boughtQuantity: chosen.bought,
    netCents: chosen.cost,
  };
}

/**
 * The presentation larger than any bought with the lowest price per base unit, when that price is at least 1 % below
 * what the cover pays per unit; null otherwise (the cover already buys the cheapest per unit there is, or only larger ones
 * cost more per unit).
 */
export function largerPackNote(needed: number, cover: Cover, offered: readonly Pack[]): LargerPack | null {
  if (cover.packs.length === 0 || cover.boughtQuantity <= 0) return null;
  const largest = Math.max(...cover.packs.map((p) => p.quantity));
  const boughtUnit = cover.netCents / cover.boughtQuantity;
  let found: LargerPack | null = null;
  for (const pack of offered) {
    if (!(pack.quantity > largest)) continue;
    const unit = pack.netCents / pack.quantity;
    // Cheaper per unit by at least NOTE_SAVING: a hair cheaper is not worth a buyer's second look.
    if (unit > boughtUnit * (1 - NOTE_SAVING)) continue;
    if (found && (unit > found.unitNetCents || (unit === found.unitNetCents && pack.quantity >= found.quantity)))
      continue;
    found = {
      ...pack,
      unitNetCents: unit,
      boughtUnitNetCents: boughtUnit,
      coverNetCents: presentationsFor(needed, pack.quantity) * pack.netCents,
    };
  }
  return found;
}
