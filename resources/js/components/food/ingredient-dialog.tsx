/**
 * Create or edit an ingredient: its name and category, base unit (with the weight of a unit or the density of a
 * millilitre), kcal, solid and liquid waste, the nutrients per 100 g and the allergens. A new ingredient may come with
 * its first offer (for someone who keeps offers): a provider's presentation, quantity and price in a city, with the
 * cost per kilogram, litre or unit worked out as the price is typed.
 */
import { useForm } from "@inertiajs/react";
import { useId, type FormEvent } from "react";
import { ALLERGENS, NUTRIENTS } from "../../../../src/shared/food/composition";
import { costPerReferenceCents } from "../../../../src/shared/food/cost";
import { parseSoles } from "../../../../src/shared/money";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { SelectField } from "../ui/select-field";
import type { CategoryRow, CityOption, IngredientRow, ProviderOption } from "./types";
import { useFoodWords } from "./use-food-words";

type BaseUnit = "g" | "ml" | "unit";

export interface OfferDraft {
  provider_id: string;
  city_id: string;
  presentation: string;
  quantity: string;
  price: string;
  price_includes_igv: boolean;
}

/** A decimal as typed ("12,5" too), or null. */
export function typedNumber(text: string): number | null {
  const cleaned = text.trim().replace(",", ".");
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}

/** What the typed price and quantity make a kilogram, litre or unit cost, net of IGV; null until both are numbers. */
export function draftCost(
  draft: Pick<OfferDraft, "price" | "quantity" | "price_includes_igv">,
  unit: BaseUnit,
  igv: number,
) {
  const cents = parseSoles(draft.price);
  const quantity = typedNumber(draft.quantity);
  if (cents === null || cents === 0 || quantity === null || quantity === 0) return null;
  return costPerReferenceCents({ priceCents: cents, priceIncludesIgv: draft.price_includes_igv, quantity }, unit, igv);
}

const text = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));

function initialData(ingredient: IngredientRow | null, categories: CategoryRow[]) {
  return {
    name: ingredient?.name ?? "",
    category_id: ingredient ? String(ingredient.categoryId) : categories.length === 1 ? String(categories[0].id) : "",
    base_unit: (ingredient?.baseUnit ?? "g") as BaseUnit,
    unit_weight_g: text(ingredient?.unitWeightGrams),
    density: text(ingredient?.densityGramsPerMl),
    kcal: text(ingredient?.kcalPer100g),
    solid_waste: text(ingredient?.solidWastePercent ?? 0),
    liquid_waste: text(ingredient?.liquidWastePercent ?? 0),
    nutrients: Object.fromEntries(NUTRIENTS.map((n) => [n.key, text(ingredient?.[n.property])])) as Record<
      string,
      string
    >,
    allergens: ingredient?.allergens ?? [],
    with_offer: false,
    offer: {
      provider_id: "",
      city_id: "",
      presentation: "",
      quantity: "",
      price: "",
      price_includes_igv: true,
    } as OfferDraft,
  };
}

export function IngredientDialog({
  ingredient,
  categories,
  providers,
  cities,
  canOffer,
  igvRate,
  onClose,
}: {
  ingredient: IngredientRow | null;
  categories: CategoryRow[];
  providers: ProviderOption[];
  cities: CityOption[];
  /** May create the first offer with it (logistics.manage). */
  canOffer: boolean;
  igvRate: number;
  onClose: () => void;
}) {
  const { t, money } = useFoodWords();
  const route = useRoute();
  const id = useId();
  const form = useForm(initialData(ingredient, categories));
  const errors = form.errors as Record<string, string | undefined>;
  const data = form.data;
  const setOffer = (changes: Partial<OfferDraft>) => form.setData((d) => ({ ...d, offer: { ...d.offer, ...changes } }));
  const cost = data.with_offer ? draftCost(data.offer, data.base_unit, igvRate) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.transform((d) => ({
      name: d.name,
      category_id: d.category_id ? Number(d.category_id) : null,
      base_unit: d.base_unit,
      unit_weight_g: d.base_unit === "unit" ? d.unit_weight_g : "",
      density: d.base_unit === "ml" ? d.density : "",
      kcal: d.kcal,
      solid_waste: d.solid_waste,
      liquid_waste: d.liquid_waste,
      ...d.nutrients,
      allergens: d.allergens,
      ...(ingredient === null && d.with_offer
        ? {
            with_offer: true,
            offer: {
              ...d.offer,
              provider_id: d.offer.provider_id ? Number(d.offer.provider_id) : null,
              city_id: d.offer.city_id ? Number(d.offer.city_id) : null,
            },
          }
        : {}),
    }));
    const options = { preserveScroll: true, preserveState: true, onSuccess: () => onClose() };
    if (ingredient) form.put(route("ingredients.update", { ingredient: ingredient.id }), options);
    else form.post(route("ingredients.store"), options);
  };

  const numberField = (
    field: "unit_weight_g" | "density" | "kcal" | "solid_waste" | "liquid_waste",
    label: string,
    required = false,
    hint?: string,
  ) => (
    <Field
      label={label}
      name={field}
      required={required}
      inputMode="decimal"
      autoComplete="off"
      inputClassName="text-right tabular-nums"
      value={data[field]}
      onChange={(e) => form.setData(field, e.target.value)}
      error={errors[field]}
      hint={hint}
    />
  );

  return (
    <Dialog
      open
      wide
      onClose={onClose}
      title={ingredient ? t("food.ingredients.edit_title", { name: ingredient.name }) : t("food.ingredients.new_title")}
      description={ingredient?.demoValues ? t("food.ingredients.demo_note") : undefined}
      closeLabel={t("food.close")}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={t("food.ingredients.name")}
            name="name"
            required
            maxLength={120}
            value={data.name}
            onChange={(e) => form.setData("name", e.target.value)}
            error={errors.name}
          />
          <SelectField
            searchable
            label={t("food.ingredients.category")}
            name="category_id"
            required
            value={data.category_id}
            onValueChange={(value) => form.setData("category_id", value)}
            error={errors.category_id}
            hint={categories.length === 0 ? t("food.categories.none_yet") : undefined}
            options={categories.map((c) => ({ value: String(c.id), label: c.name }))}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-3">
          <SelectField
            label={t("food.ingredients.base_unit")}
            name="base_unit"
            required
            value={data.base_unit}
            onValueChange={(value) => form.setData("base_unit", value as BaseUnit)}
            error={errors.base_unit}
            options={(["g", "ml", "unit"] as const).map((u) => ({ value: u, label: t(`food.units.${u}`) }))}
          />
          {data.base_unit === "unit" &&
            numberField(
              "unit_weight_g",
              t("food.ingredients.unit_weight"),
              true,
              t("food.ingredients.unit_weight_hint"),
            )}
          {data.base_unit === "ml" &&
            numberField("density", t("food.ingredients.density"), true, t("food.ingredients.density_hint"))}
          {numberField("kcal", t("food.ingredients.kcal"), true)}
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          {numberField("solid_waste", t("food.ingredients.solid_waste"), false, t("food.ingredients.solid_waste_hint"))}
          {numberField(
            "liquid_waste",
            t("food.ingredients.liquid_waste"),
            false,
            t("food.ingredients.liquid_waste_hint"),
          )}
        </div>

        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">{t("food.ingredients.nutrients")}</legend>
          <p className="text-xs text-muted-foreground">{t("food.ingredients.nutrients_hint")}</p>
          <div className="grid grid-cols-2 gap-x-3 gap-y-2 sm:grid-cols-4">
            {NUTRIENTS.map((n) => (
              <Field
                key={n.key}
                label={`${t(`food.nutrients.${n.key}`)} (${n.unit})`}
                name={n.key}
                inputMode="decimal"
                autoComplete="off"
                inputClassName="h-8 text-right tabular-nums"
                value={data.nutrients[n.key]}
                onChange={(e) =>
                  form.setData((d) => ({ ...d, nutrients: { ...d.nutrients, [n.key]: e.target.value } }))
                }
                error={errors[n.key]}
              />
            ))}
          </div>
        </fieldset>

        <fieldset className="space-y-2" aria-describedby={errors.allergens ? `${id}-allergens` : undefined}>
          <legend className="text-sm font-medium">{t("food.ingredients.allergens")}</legend>
          <ul className="grid grid-cols-2 gap-1 sm:grid-cols-4">
            {ALLERGENS.map((code) => (
              <li key={code}>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={data.allergens.includes(code)}
                    onChange={(e) =>
                      form.setData(
                        "allergens",
                        e.target.checked ? [...data.allergens, code] : data.allergens.filter((a) => a !== code),
                      )
                    }
                  />
                  {t(`food.allergens.${code}`)}
                </label>
              </li>
            ))}
          </ul>
          {errors.allergens && (
            <p id={`${id}-allergens`} className="text-sm text-destructive">
              {errors.allergens}
            </p>
          )}
        </fieldset>

        {ingredient === null && canOffer && (
          <fieldset className="space-y-3 rounded-lg border p-3">
            <legend className="px-1 text-sm font-medium">{t("food.ingredients.first_offer")}</legend>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="with_offer"
                checked={data.with_offer}
                onChange={(e) => form.setData("with_offer", e.target.checked)}
              />
              {t("food.ingredients.with_offer")}
            </label>
            {data.with_offer && (
              <OfferFields
                draft={data.offer}
                onChange={setOffer}
                errors={errors}
                prefix="offer."
                providers={providers}
                cities={cities}
                baseUnit={data.base_unit}
                cost={cost === null ? null : `${money(cost)} ${t(`food.per_reference.${data.base_unit}`)}`}
              />
            )}
          </fieldset>
        )}

        <OtherErrors
          errors={errors}
          fields={[
            "name",
            "category_id",
            "base_unit",
            "unit_weight_g",
            "density",
            "kcal",
            "solid_waste",
            "liquid_waste",
            "allergens",
            ...NUTRIENTS.map((n) => n.key),
            ...(data.with_offer ? OFFER_FIELDS.map((f) => `offer.${f}`) : []),
          ]}
        />
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

export const OFFER_FIELDS = ["provider_id", "city_id", "presentation", "quantity", "price", "price_includes_igv"];

/** An offer's fields: provider and city (for a new one), presentation, quantity in the base unit, price and IGV. */
export function OfferFields({
  draft,
  onChange,
  errors,
  prefix = "",
  providers,
  cities,
  baseUnit,
  cost,
  fixed = false,
}: {
  draft: OfferDraft;
  onChange: (changes: Partial<OfferDraft>) => void;
  errors: Record<string, string | undefined>;
  prefix?: string;
  providers: ProviderOption[];
  cities: CityOption[];
  baseUnit: BaseUnit;
  /** The cost per kilogram, litre or unit the draft makes, in words; null until it can be worked out. */
  cost: string | null;
  /** Provider and city cannot change (an offer being edited). */
  fixed?: boolean;
}) {
  const { t } = useFoodWords();
  return (
    <div className="space-y-3">
      {!fixed && (
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            searchable
            label={t("food.offers.provider")}
            name={`${prefix}provider_id`}
            required
            value={draft.provider_id}
            onValueChange={(value) => onChange({ provider_id: value })}
            error={errors[`${prefix}provider_id`]}
            options={providers.map((p) => ({ value: String(p.id), label: p.name }))}
          />
          <SelectField
            searchable
            label={t("food.city")}
            name={`${prefix}city_id`}
            required
            value={draft.city_id}
            onValueChange={(value) => onChange({ city_id: value })}
            error={errors[`${prefix}city_id`]}
            options={cities.map((c) => ({ value: String(c.id), label: c.name }))}
          />
        </div>
      )}
      <div className="grid gap-3 sm:grid-cols-3">
        <Field
          label={t("food.offers.presentation")}
          name={`${prefix}presentation`}
          required
          maxLength={80}
          placeholder={t("food.offers.presentation_example")}
          value={draft.presentation}
          onChange={(e) => onChange({ presentation: e.target.value })}
          error={errors[`${prefix}presentation`]}
        />
        <Field
          label={t("food.offers.quantity_in", { unit: t(`food.units_short.${baseUnit}`) })}
          name={`${prefix}quantity`}
          required
          inputMode="decimal"
          autoComplete="off"
          inputClassName="text-right tabular-nums"
          value={draft.quantity}
          onChange={(e) => onChange({ quantity: e.target.value })}
          error={errors[`${prefix}quantity`]}
          hint={t(`food.offers.quantity_hint.${baseUnit}`)}
        />
        <Field
          label={t("food.offers.price_soles")}
          name={`${prefix}price`}
          required
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          inputClassName="text-right tabular-nums"
          value={draft.price}
          onChange={(e) => onChange({ price: e.target.value })}
          error={errors[`${prefix}price`]}
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name={`${prefix}price_includes_igv`}
            checked={draft.price_includes_igv}
            onChange={(e) => onChange({ price_includes_igv: e.target.checked })}
          />
          {t("food.offers.includes_igv_label")}
        </label>
        <p className={cn("text-sm", cost ? "font-medium" : "text-muted-foreground")} aria-live="polite">
          {cost ? t("food.offers.cost_preview", { cost }) : t("food.offers.cost_pending")}
        </p>
      </div>
    </div>
  );
}
