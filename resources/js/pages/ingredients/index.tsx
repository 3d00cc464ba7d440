/**
 * Ingredients: the offers grouped by provider (searched, filtered by provider and city, sorted within each provider,
 * exported as shown) and the ingredients with their figures (searched, filtered by category, sorted, exported in the
 * import's columns), with the New-ingredient dialog (and its first offer), the categories, and the workbook import.
 */
import { Head, usePage } from "@inertiajs/react";
import { Download, FolderTree, Pencil, Plus, Trash2, Upload } from "lucide-react";
import { SearchBox, visitWith, type DataColumn, type Page } from "../../components/data-table";
import { FoodDialogs, useFoodModals } from "../../components/food/food-dialogs";
import { FoodTabs } from "../../components/food/food-tabs";
import { OfferGroups, type GroupsPage } from "../../components/food/offer-groups";
import type { FoodDialogProps, IngredientRow, ProviderGroup } from "../../components/food/types";
import { useFoodWords } from "../../components/food/use-food-words";
import { DataTable } from "../../components/data-table";
import { foldedPage, ListSkeleton } from "../../components/list-skeleton";
import { Button, buttonClasses, IconButton } from "../../components/ui/button";
import { Chips } from "../../components/ui/chips";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { SelectField } from "../../components/ui/select-field";
import { TabList } from "../../components/ui/tabs";
import { useRoute } from "../../hooks/use-route";

type Tab = "offers" | "ingredients";

interface Props extends FoodDialogProps {
  filters: {
    tab: Tab;
    search: string;
    provider: number | null;
    city: number | null;
    category: number | null;
    sort: string | null;
    direction: "asc" | "desc";
  };
  /** The tab's list (null on the other tab); on a full load only its first rows (`cut`), then the whole page. */
  offers: (GroupsPage<ProviderGroup> & { cut?: true }) | null;
  offersFull?: GroupsPage<ProviderGroup> | null;
  ingredients: (Page<IngredientRow> & { cut?: true }) | null;
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
  const folded = foldedPage(offersHead, offersFull, (page) => page.data.reduce((n, g) => n + g.offers.length, 0));
  const offers = folded.page;
  const foldedIngredients = foldedPage(ingredientsHead, ingredientsFull, (page) => page.data.length);
  const ingredients = foldedIngredients.page;
  const { t, tDynamic, number } = useFoodWords();
  const route = useRoute();
  const modals = useFoodModals();
  const { setModal } = modals;
  const pageErrors = usePage().props.errors as Record<string, string>;
  const { can } = dialog;
  const tab = filters.tab;
  const sort = { sort: filters.sort, direction: filters.direction };
  const chooseTab = (next: Tab) =>
    visitWith({
      tab: next,
      page: null,
      search: null,
      sort: null,
      direction: null,
      provider: null,
      city: null,
      category: null,
    });
  const exportUrl = route("ingredients.export", {
    tab,
    ...(filters.search ? { search: filters.search } : {}),
    ...(filters.provider ? { provider: filters.provider } : {}),
    ...(filters.city ? { city: filters.city } : {}),
    ...(filters.category ? { category: filters.category } : {}),
    ...(filters.sort ? { sort: filters.sort, direction: filters.direction } : {}),
  });
  const filter = (name: string, value: string) => visitWith({ [name]: value || null, page: null });

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
    {
      id: "actions",
      header: t("food.actions"),
      headerHidden: true,
      actions: true,
      cell: (i) =>
        can.manageFood && (
          <span className="inline-flex gap-0.5">
            <IconButton
              label={t("food.edit_named", { name: i.name })}
              onClick={() => setModal({ kind: "ingredient", ingredient: i })}
            >
              <Pencil className="size-4" aria-hidden="true" />
            </IconButton>
            <IconButton
              danger
              label={t("food.delete_named", { name: i.name })}
              onClick={() => modals.deleteIngredient(i)}
            >
              <Trash2 className="size-4" aria-hidden="true" />
            </IconButton>
          </span>
        ),
    },
  ];

  return (
    <div className="space-y-6">
      <Head title={t("food.ingredients.title")} />
      <PageHeader
        title={t("food.ingredients.title")}
        description={t("food.ingredients.description")}
        actions={
          <>
            <a href={exportUrl} download className={buttonClasses("outline")}>
              <Download className="size-4" aria-hidden="true" />
              {t("food.export")}
            </a>
            {can.manageFood && (
              <Button variant="outline" onClick={() => setModal({ kind: "import" })}>
                <Upload className="size-4" aria-hidden="true" />
                {t("food.import.button")}
              </Button>
            )}
            {can.manageFood && (
              <Button variant="outline" onClick={() => setModal({ kind: "categories" })}>
                <FolderTree className="size-4" aria-hidden="true" />
                {t("food.categories.button")}
              </Button>
            )}
            {can.manageLogistics && (
              <Button variant="outline" onClick={() => setModal({ kind: "offer", offer: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("food.offers.new")}
              </Button>
            )}
            {can.manageFood && (
              <Button onClick={() => setModal({ kind: "ingredient", ingredient: null })}>
                <Plus className="size-4" aria-hidden="true" />
                {t("food.ingredients.new")}
              </Button>
            )}
          </>
        }
        tabs={<FoodTabs tabs={dialog.tabs} current="ingredients" />}
      />
      {modals.modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      <TabList
        label={t("food.ingredients.title")}
        tabs={[
          { id: "offers", label: t("food.ingredients.tab_offers") },
          { id: "ingredients", label: t("food.ingredients.tab_ingredients") },
        ]}
        current={tab}
        onChange={chooseTab}
      />
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="space-y-4">
        {tab === "offers" && offers && (
          <>
            <div className="flex flex-wrap items-end gap-2 sm:gap-3">
              <SearchBox key="offers" value={filters.search} label={t("food.offers.search")} />
              <SelectField
                searchable
                className="min-w-48"
                label={t("food.offers.provider_filter")}
                value={filters.provider ? String(filters.provider) : ""}
                onValueChange={(value) => filter("provider", value)}
                options={[
                  { value: "", label: t("food.offers.all_providers") },
                  ...dialog.providerOptions.map((p) => ({ value: String(p.id), label: p.name })),
                ]}
              />
              <SelectField
                className="min-w-40"
                label={t("food.offers.city_filter")}
                value={filters.city ? String(filters.city) : ""}
                onValueChange={(value) => filter("city", value)}
                options={[
                  { value: "", label: t("food.offers.all_cities") },
                  ...dialog.cityOptions.map((c) => ({ value: String(c.id), label: c.name })),
                ]}
              />
            </div>
            <OfferGroups
              by="provider"
              page={offers}
              sort={sort}
              empty={t(
                filters.search || filters.provider || filters.city ? "food.offers.none_found" : "food.offers.none_yet",
              )}
              actions={{
                history: modals.openHistory,
                ...(can.manageLogistics
                  ? { edit: (offer) => setModal({ kind: "offer", offer }), remove: modals.deleteOffer }
                  : {}),
              }}
              addOffer={
                can.manageLogistics
                  ? (group) => setModal({ kind: "offer", offer: null, providerId: group.id })
                  : undefined
              }
            />
            {folded.pending && <ListSkeleton label={t("food.loading")} rows={folded.missing} />}
          </>
        )}
        {tab === "ingredients" && ingredients && (
          <DataTable
            caption={t("food.ingredients.tab_ingredients")}
            storageKey="food.ingredients"
            sort={sort}
            columns={ingredientColumns}
            page={ingredients}
            rowKey={(i) => i.id}
            empty={t(filters.search || filters.category ? "food.ingredients.none_found" : "food.ingredients.none")}
            toolbar={
              <>
                <SearchBox key="ingredients" value={filters.search} label={t("food.ingredients.search")} />
                <SelectField
                  className="min-w-44"
                  label={t("food.ingredients.category_filter")}
                  value={filters.category ? String(filters.category) : ""}
                  onValueChange={(value) => filter("category", value)}
                  options={[
                    { value: "", label: t("food.ingredients.all_categories") },
                    ...dialog.categories.map((c) => ({ value: String(c.id), label: c.name })),
                  ]}
                />
              </>
            }
          />
        )}
        {tab === "ingredients" && foldedIngredients.pending && (
          <ListSkeleton label={t("food.loading")} rows={foldedIngredients.missing} />
        )}
      </div>
      <FoodDialogs modal={modals.modal} close={modals.close} dialog={dialog} />
    </div>
  );
}
