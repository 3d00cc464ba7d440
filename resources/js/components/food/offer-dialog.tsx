/**
 * Create an offer (provider, ingredient and city, then presentation, quantity, price and IGV) or change one: its
 * presentation, quantity, price, IGV and whether it is current. A change of price, quantity or IGV is kept with its
 * date in the offer's history; the cost per kilogram, litre or unit is worked out as the price is typed.
 */
import { router, useForm } from "@inertiajs/react";
import { useEffect, type FormEvent } from "react";
import { centsToSoles } from "../../../../src/shared/money";
import { useRoute } from "../../hooks/use-route";
import { Dialog, DialogActions } from "../ui/dialog";
import { OtherErrors } from "../ui/form-errors";
import { SelectField } from "../ui/select-field";
import { draftCost, OFFER_FIELDS, OfferFields, type OfferDraft } from "./ingredient-dialog";
import type { CityOption, IngredientOption, OfferRow, ProviderOption } from "./types";
import { useFoodWords } from "./use-food-words";

export function OfferDialog({
  offer,
  providers,
  cities,
  ingredients,
  defaults,
  igvRate,
  onClose,
}: {
  offer: OfferRow | null;
  providers: ProviderOption[];
  cities: CityOption[];
  /** The ingredients to choose from (loaded when a new offer's dialog opens). */
  ingredients: IngredientOption[] | undefined;
  /** A new offer's provider or city, chosen from where the dialog was opened. */
  defaults?: { providerId?: number; cityId?: number };
  igvRate: number;
  onClose: () => void;
}) {
  const { t, money } = useFoodWords();
  const route = useRoute();
  const form = useForm({
    ingredient_id: offer ? String(offer.ingredientId) : "",
    offer: {
      provider_id: String(offer?.providerId ?? defaults?.providerId ?? ""),
      city_id: String(offer?.cityId ?? defaults?.cityId ?? ""),
      presentation: offer?.presentation ?? "",
      quantity: offer ? String(offer.quantity) : "",
      price: offer ? centsToSoles(offer.priceCents) : "",
      price_includes_igv: offer?.priceIncludesIgv ?? true,
    } as OfferDraft,
    active: offer?.active ?? true,
  });
  // A new offer's ingredients are loaded once, when the dialog opens.
  const needsIngredients = offer === null && ingredients === undefined;
  useEffect(() => {
    if (needsIngredients) router.reload({ only: ["ingredientOptions"] });
  }, [needsIngredients]);
  const errors = form.errors as Record<string, string | undefined>;
  const chosen = ingredients?.find((i) => String(i.id) === form.data.ingredient_id);
  const baseUnit = offer?.baseUnit ?? chosen?.baseUnit ?? "g";
  const cost = draftCost(form.data.offer, baseUnit, igvRate);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.transform((d) => ({
      ...(offer
        ? { active: d.active }
        : {
            provider_id: d.offer.provider_id ? Number(d.offer.provider_id) : null,
            city_id: d.offer.city_id ? Number(d.offer.city_id) : null,
            ingredient_id: d.ingredient_id ? Number(d.ingredient_id) : null,
          }),
      presentation: d.offer.presentation,
      quantity: d.offer.quantity,
      price: d.offer.price,
      price_includes_igv: d.offer.price_includes_igv,
    }));
    const options = { preserveScroll: true, preserveState: true, onSuccess: () => onClose() };
    if (offer) form.put(route("offers.update", { offer: offer.id }), options);
    else form.post(route("offers.store"), options);
  };

  return (
    <Dialog
      open
      wide
      onClose={onClose}
      title={offer ? t("food.offers.edit_title") : t("food.offers.new_title")}
      description={
        offer
          ? t("food.offers.edit_description", {
              ingredient: offer.ingredientName,
              provider: offer.providerName,
              city: offer.cityName,
            })
          : undefined
      }
      closeLabel={t("food.close")}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        {!offer && (
          <SelectField
            searchable
            label={t("food.offers.ingredient")}
            name="ingredient_id"
            required
            value={form.data.ingredient_id}
            onValueChange={(value) => form.setData("ingredient_id", value)}
            error={errors.ingredient_id}
            placeholder={ingredients === undefined ? t("food.loading") : undefined}
            options={(ingredients ?? []).map((i) => ({
              value: String(i.id),
              label: `${i.name} (${t(`food.units_short.${i.baseUnit}`)})`,
            }))}
          />
        )}
        <OfferFields
          draft={form.data.offer}
          onChange={(changes) => form.setData((d) => ({ ...d, offer: { ...d.offer, ...changes } }))}
          errors={errors}
          providers={providers}
          cities={cities}
          baseUnit={baseUnit}
          fixed={offer !== null}
          cost={cost === null ? null : `${money(cost)} ${t(`food.per_reference.${baseUnit}`)}`}
        />
        {offer && (
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="active"
              checked={form.data.active}
              onChange={(e) => form.setData("active", e.target.checked)}
            />
            {t("food.offers.active_label")}
          </label>
        )}
        <OtherErrors errors={errors} fields={[...OFFER_FIELDS, "ingredient_id", "active"]} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("food.cancel")}
          submitLabel={t("food.save")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
