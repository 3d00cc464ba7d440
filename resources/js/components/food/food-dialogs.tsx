/**
 * The dialogs every page of the area opens: the ingredient dialog (new, with its first offer, or edit), the
 * categories, the provider dialog, the offer dialog, an offer's price history, the cities and the workbook import;
 * which one is open, and the deletes, each confirmed first.
 */
import { router } from "@inertiajs/react";
import { useState } from "react";
import { useRoute } from "../../hooks/use-route";
import { useConfirm } from "../ui/alert-dialog";
import { ImportDialog } from "./import-dialog";
import { IngredientDialog } from "./ingredient-dialog";
import { NamedListDialog } from "./named-list-dialog";
import { OfferDialog } from "./offer-dialog";
import { OfferHistoryDialog } from "./offer-history-dialog";
import { ProviderDialog } from "./provider-dialog";
import type { CityRow, FoodDialogProps, IngredientRow, OfferRow, ProviderRow } from "./types";
import { useFoodWords } from "./use-food-words";

export type OpenFoodDialog =
  | { kind: "ingredient"; ingredient: IngredientRow | null }
  | { kind: "categories" }
  | { kind: "provider"; provider: ProviderRow | null }
  | { kind: "offer"; offer: OfferRow | null; providerId?: number; cityId?: number }
  | { kind: "history"; offer: OfferRow }
  | { kind: "cities" }
  | { kind: "import" }
  | null;

/** The open dialog, and the deletes, confirmed in a dialog that says what goes. */
export function useFoodModals() {
  const { t } = useFoodWords();
  const route = useRoute();
  const confirm = useConfirm();
  const [modal, setModal] = useState<OpenFoodDialog>(null);
  const ask = async (title: string, description: string, url: string) => {
    if (await confirm({ title, description })) router.delete(url, { preserveScroll: true, preserveState: true });
  };
  return {
    modal,
    setModal,
    close: () => setModal(null),
    /** Opens an offer's history once the server has sent it. */
    openHistory: (offer: OfferRow) =>
      router.reload({
        only: ["history"],
        data: { history: offer.id },
        onSuccess: () => setModal({ kind: "history", offer }),
      }),
    deleteIngredient: (row: IngredientRow) =>
      ask(
        t("food.ingredients.confirm_delete", { name: row.name }),
        t("ui.consequences.permanent"),
        route("ingredients.destroy", { ingredient: row.id }),
      ),
    deleteProvider: (row: ProviderRow) =>
      ask(
        t("food.providers.confirm_delete", { name: row.name }),
        t("ui.consequences.permanent"),
        route("providers.destroy", { provider: row.id }),
      ),
    deleteOffer: (row: OfferRow) =>
      ask(
        t("food.offers.confirm_delete", { name: `${row.ingredientName} · ${row.presentation}` }),
        t("food.offers.delete_consequence"),
        route("offers.destroy", { offer: row.id }),
      ),
  };
}

export function FoodDialogs({
  modal,
  close,
  dialog,
  cities,
}: {
  modal: OpenFoodDialog;
  close: () => void;
  dialog: FoodDialogProps;
  /** The cities with what is in them (the Providers page's cities dialog). */
  cities?: CityRow[];
}) {
  const { t } = useFoodWords();
  const route = useRoute();
  switch (modal?.kind) {
    case "ingredient":
      return (
        <IngredientDialog
          ingredient={modal.ingredient}
          categories={dialog.categories}
          providers={dialog.providerOptions}
          cities={dialog.cityOptions}
          canOffer={dialog.can.manageLogistics}
          igvRate={dialog.foodSettings.igvRate}
          onClose={close}
        />
      );
    case "categories":
      return (
        <NamedListDialog
          title={t("food.categories.title")}
          description={t("food.categories.description")}
          rows={dialog.categories.map((c) => ({
            id: c.id,
            name: c.name,
            detail: c.description,
            usage: t("food.counts.ingredients", { count: c.ingredients }),
          }))}
          labels={{
            name: t("food.categories.name"),
            detail: t("food.categories.description_field"),
            detailField: "description",
            add: t("food.categories.add"),
            empty: t("food.categories.none_yet"),
            listLabel: t("food.categories.title"),
          }}
          urls={{
            store: route("ingredient_categories.store"),
            update: (id) => route("ingredient_categories.update", { category: id }),
            destroy: (id) => route("ingredient_categories.destroy", { category: id }),
            export: route("ingredient_categories.export"),
          }}
          onClose={close}
        />
      );
    case "provider":
      return <ProviderDialog provider={modal.provider} rucLength={dialog.foodSettings.rucLength} onClose={close} />;
    case "offer":
      return (
        <OfferDialog
          offer={modal.offer}
          providers={dialog.providerOptions}
          cities={dialog.cityOptions}
          ingredients={dialog.ingredientOptions}
          defaults={{ providerId: modal.providerId, cityId: modal.cityId }}
          igvRate={dialog.foodSettings.igvRate}
          onClose={close}
        />
      );
    case "history":
      return dialog.history && dialog.history.offerId === modal.offer.id ? (
        <OfferHistoryDialog
          history={dialog.history}
          baseUnit={modal.offer.baseUnit}
          title={t("food.offers.history_title", {
            name: `${modal.offer.ingredientName} · ${modal.offer.presentation}`,
            provider: modal.offer.providerName,
            city: modal.offer.cityName,
          })}
          onClose={close}
        />
      ) : null;
    case "cities":
      return (
        <NamedListDialog
          title={t("food.cities.title")}
          description={t("food.cities.description")}
          rows={(cities ?? []).map((c) => ({
            id: c.id,
            name: c.name,
            detail: c.region,
            usage: [
              t("food.counts.cafes", { count: c.cafes }),
              t("food.counts.headquarters", { count: c.headquarters }),
              t("food.counts.offers", { count: c.offers }),
            ].join(" · "),
          }))}
          labels={{
            name: t("food.cities.name"),
            detail: t("food.cities.region"),
            detailField: "region",
            add: t("food.cities.add"),
            empty: t("food.cities.none"),
            listLabel: t("food.cities.title"),
          }}
          urls={{
            store: route("cities.store"),
            update: (id) => route("cities.update", { city: id }),
            destroy: (id) => route("cities.destroy", { city: id }),
            export: route("cities.export"),
          }}
          onClose={close}
        />
      );
    case "import":
      return <ImportDialog onClose={close} />;
    default:
      return null;
  }
}
