/**
 * The New-ingredient dialog: an ingredient with its figures and, optionally, its first offer (a provider's price for
 * it in a city), written in one transaction, every field of both checked at once. The offer's fields come under
 * `offer` (their errors keyed `offer.<field>`); creating one needs `logistics.manage` besides `food.manage`.
 */
import type { Db } from "../../db";
import type { Actor } from "../audit";
import { Forbidden, ValidationFailed } from "../errors";
import { type Message } from "../../shared/message";
import { insertIngredient, parseIngredient, type Ingredient } from "./ingredients";
import { insertOffer, parseNewOffer, type Offer, type PriceAuthor } from "./offers";

/** Whether the dialog's "first offer" part was filled in: `with_offer` true ("1", "true", "on" from a form). */
function wantsOffer(input: unknown): boolean {
  const value = input && typeof input === "object" ? (input as Record<string, unknown>).with_offer : undefined;
  return value === true || value === "1" || value === "true" || value === "on";
}

/** Creates the ingredient and, when asked, its first offer. Throws Forbidden for an offer without `canOffer`. */
export function createIngredientWithOffer(
  db: Db,
  actor: Actor,
  author: PriceAuthor,
  input: unknown,
  options: { canOffer: boolean },
  now = new Date(),
): { ingredient: Ingredient; offer: Offer | null } {
  const withOffer = wantsOffer(input);
  if (withOffer && !options.canOffer) throw new Forbidden();
  const errors: Record<string, Message> = {};
  const offerInput = (input as Record<string, unknown> | null)?.offer;
  const offer = withOffer ? parseNewOffer(db, offerInput, errors, { prefix: "offer.", ingredientId: "new" }) : null;
  const values = parseIngredient(db, input, undefined, errors);
  if (withOffer && !offer) throw new ValidationFailed(errors);
  return db.transaction(
    (tx) => {
      const ingredient = insertIngredient(tx, actor, values, now);
      const created = offer ? insertOffer(tx, actor, author, { ...offer, ingredientId: ingredient.id }, now) : null;
      return { ingredient, offer: created };
    },
    { behavior: "immediate" },
  );
}
