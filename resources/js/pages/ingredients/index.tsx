/**
 * Ingredients: the offers grouped by provider (searched, filtered by provider and city, sorted within each provider,
 * exported as shown) and the ingredients with their figures (searched, filtered by category, sorted, exported in the
 * import's columns), with the New-ingredient dialog (and its first offer), the categories, and the workbook import.
 */
import { SearchBox, type DataColumn, type Page } from "../../components/data-table";
import { useFoodModals } from "../../components/food/food-dialogs";
import {
  actionsColumn,
  OffersAndListPage,
  visitFilter,
  type CutPage,
  type OffersListFilters,
} from "../../components/food/food-list-page";
import type { GroupsPage } from "../../components/food/offer-groups";
import type { FoodDialogProps, IngredientRow, ProviderGroup } from "../../components/food/types";
import { useFoodWords } from "../../components/food/use-food-words";
import { RowActions } from "../../components/row-actions";
import { Chips } from "../../components/ui/chips";
import { SelectField } from "../../components/ui/select-field";

interface Props extends FoodDialogProps {
  filters: OffersListFilters<"ingredients"> & { category: number | null };
  offers: CutPage<GroupsPage<ProviderGroup>>;
  offersFull?: GroupsPage<ProviderGroup> | null;
  ingredients: CutPage<Page<IngredientRow>>;
  ingredientsFull?: Page<IngredientRow> | null;
}

export default function IngredientsIndex({
  filters,
  offers: offersHead,
  offersFull,
  ingredients: ingredientsHead,
  ingredientsFull,
  ...dialog
}: Props) {
  const { t, tDynamic, number } = useFoodWords();
  const modals = useFoodModals();

  const ingredientColumns: DataColumn<IngredientRow>[] = [
    {
      id: "name",
      header: t("food.ingredients.name"),
      primary: true,
      sortable: true,
      cell: (i) => (
        <span className="flex flex-wrap items-center gap-x-2">
          <span>{i.name}</span>
          {i.demoValues && (
            <span
              className="rounded bg-muted px-1.5 py-0.5 text-xs text-muted-foreground"
              title={t("food.ingredients.demo_note")}
            >
              {t("food.ingredients.demo")}
            </span>
          )}
        </span>
      ),
    },
    { id: "category", header: t("food.ingredients.category"), sortable: true, cell: (i) => i.categoryName },
    {
      id: "base_unit",
      header: t("food.ingredients.base_unit"),
      sortable: true,
      cell: (i) =>
        i.baseUnit === "unit"
          ? t("food.ingredients.unit_of", { grams: number(i.unitWeightGrams ?? 0) })
          : i.baseUnit === "ml"
            ? t("food.ingredients.ml_of", { density: number(i.densityGramsPerMl ?? 0) })
            : t("food.units.g"),
    },
    {
      id: "kcal",
      header: t("food.ingredients.kcal_short"),
      sortable: true,
      className: "sm:text-right tabular-nums",
      cell: (i) => number(i.kcalPer100g),
    },
    {
      id: "protein",
      header: t("food.ingredients.protein_short"),
      sortable: true,
      className: "sm:text-right tabular-nums",
      cell: (i) => (i.proteinG === null ? "—" : number(i.proteinG)),
    },
    {
      id: "waste",
      header: t("food.ingredients.waste"),
      sortable: true,
      className: "sm:text-right tabular-nums sm:whitespace-nowrap",
      cell: (i) =>
        t("food.ingredients.waste_value", { solid: number(i.solidWastePercent), liquid: number(i.liquidWastePercent) }),
    },
    {
      id: "allergens",
      header: t("food.ingredients.allergens"),
      cell: (i) => (
        <Chips
          max={2}
          empty="—"
          items={i.allergens.map((code) => ({ key: code, label: tDynamic(`food.allergens.${code}`, code) }))}
        />
      ),
    },
    {
      id: "offers",
      header: t("food.ingredients.offers"),
      sortable: true,
      className: "sm:text-right",
      cell: (i) => i.offers,
    },
    actionsColumn(
      t("food.actions"),
      (i) =>
        dialog.can.manageFood && (
          <RowActions
            editLabel={t("food.edit_named", { name: i.name })}
            deleteLabel={t("food.delete_named", { name: i.name })}
            onEdit={() => modals.setModal({ kind: "ingredient", ingredient: i })}
            onDelete={() => modals.deleteIngredient(i)}
          />
        ),
    ),
  ];

  return (
    <OffersAndListPage
      current="ingredients"
      words={{
        title: t("food.ingredients.title"),
        description: t("food.ingredients.description"),
        offersTab: t("food.ingredients.tab_offers"),
        listTab: t("food.ingredients.tab_ingredients"),
      }}
      buttons={["import", "categories", "offer", "ingredient"]}
      exportRoute="ingredients.export"
      by="provider"
      filters={filters}
      offers={{ head: offersHead, full: offersFull }}
      list={{
        head: ingredientsHead,
        full: ingredientsFull,
        columns: ingredientColumns,
        empty: t(filters.search || filters.category ? "food.ingredients.none_found" : "food.ingredients.none"),
        toolbar: (
          <>
            <SearchBox key="ingredients" value={filters.search} label={t("food.ingredients.search")} />
            <SelectField
              className="min-w-44"
              label={t("food.ingredients.category_filter")}
              value={filters.category ? String(filters.category) : ""}
              onValueChange={(value) => visitFilter("category", value)}
              options={[
                { value: "", label: t("food.ingredients.all_categories") },
                ...dialog.categories.map((c) => ({ value: String(c.id), label: c.name })),
              ]}
            />
          </>
        ),
      }}
      modals={modals}
      dialog={dialog}
    />
  );
}
