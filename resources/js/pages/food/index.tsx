/**
 * Food: the dishes (searched, filtered by category, sorted, exported as shown), each costed per serving for the
 * city and level chosen here, with its kcal and a flag when a line has no offer in that city; the dish modal (new or
 * edit) with its recipes per level, live totals and each line's calculation; the menu table (dish categories) and
 * the levels; and the ingredient categories' dialog.
 */
import { Head, router, usePage } from "@inertiajs/react";
import { AlertTriangle, Download, FolderTree, ListX, Pencil, Plus, Trash2, Upload } from "lucide-react";
import { useEffect, useState } from "react";
import { DataTable, SearchBox, visitWith, type DataColumn, type Page } from "../../components/data-table";
import { requestJson } from "../../lib/json-client";
import { DishDialog } from "../../components/food/dish-dialog";
import { DishImportDialog } from "../../components/food/dish-import-dialog";
import type {
  CostedDishRow,
  DishCategoryRow,
  DishDetail,
  LevelRow,
  RecipeChoices,
} from "../../components/food/dish-types";
import { FoodDialogs } from "../../components/food/food-dialogs";
import { FoodTabs } from "../../components/food/food-tabs";
import { LevelsTable } from "../../components/food/levels-table";
import { MenuTable } from "../../components/food/menu-table";
import { PriceChanges, type PriceChangeFilters, type PriceChangesData } from "../../components/food/price-changes";
import type { CategoryRow, CityOption, FoodTab } from "../../components/food/types";
import { useFoodWords } from "../../components/food/use-food-words";
import { useConfirm } from "../../components/ui/alert-dialog";
import { Button, buttonClasses, IconButton } from "../../components/ui/button";
import { Chips } from "../../components/ui/chips";
import { OtherErrors } from "../../components/ui/form-errors";
import { PageHeader } from "../../components/ui/page-header";
import { SelectField } from "../../components/ui/select-field";
import { TabList } from "../../components/ui/tabs";
import { useRoute } from "../../hooks/use-route";

type Tab = "dishes" | "menu_table" | "levels" | "price_changes";

interface Props {
  filters: {
    tab: Tab;
    search: string;
    category: number | null;
    city: number | null;
    level: number | null;
    /** A dish to open on arrival (`?dish=<id>`: the link of a dish's name). */
    dish: number | null;
    sort: string | null;
    direction: "asc" | "desc";
  };
  dishes: Page<CostedDishRow> | null;
  levels: LevelRow[];
  dishCategories: DishCategoryRow[];
  categories: CategoryRow[];
  cityOptions: CityOption[];
  recipeChoices?: RecipeChoices;
  can: { manage: boolean };
  tabs: FoodTab[];
  priceChangeFilters: PriceChangeFilters;
  /** Deferred: undefined while it loads; null when the tab is closed or there is no city. */
  priceChanges?: PriceChangesData | null;
}

type Modal =
  | { kind: "dish"; detail: DishDetail | null; levelId?: number; version: number }
  | { kind: "categories" }
  | { kind: "import" }
  | null;

/** The address of the page as it is with `dish` set (a dish's link) or removed (its modal closed). */
function urlWithDish(dish: number | null): string {
  const url = new URL(window.location.href);
  if (dish === null) url.searchParams.delete("dish");
  else url.searchParams.set("dish", String(dish));
  return url.pathname + url.search;
}

export default function FoodIndex(props: Props) {
  const { filters, dishes, levels, dishCategories, cityOptions, can } = props;
  const { t, money, number, levelName } = useFoodWords();
  const route = useRoute();
  const confirm = useConfirm();
  const pageErrors = usePage().props.errors as Record<string, string>;
  const [modal, setModal] = useState<Modal>(null);
  const tab: Tab = filters.tab;
  const sort = { sort: filters.sort, direction: filters.direction };
  const city = cityOptions.find((c) => c.id === filters.city) ?? null;
  const level = levels.find((l) => l.id === filters.level) ?? null;
  const levelNames = new Map(levels.map((l) => [l.id, levelName(l.name)]));
  const filter = (name: string, value: string) => visitWith({ [name]: value || null, page: null });
  const chooseTab = (next: Tab) =>
    visitWith({ tab: next, page: null, search: null, sort: null, direction: null, from: null, to: null });
  const exportUrl = route("food.dishes.export", {
    ...(filters.search ? { search: filters.search } : {}),
    ...(filters.category ? { category: filters.category } : {}),
    ...(filters.city ? { city: filters.city } : {}),
    ...(filters.level ? { level: filters.level } : {}),
    ...(filters.sort ? { sort: filters.sort, direction: filters.direction } : {}),
  });

  // The modal needs the ingredients, dishes and offers to choose from, and for an edit the dish costed. An open
  // dish is in the address (`?dish=`), so a reload or a shared link opens it again.
  const openDish = async (row: { id: number } | null) => {
    const answer = row
      ? await requestJson<DishDetail>(
          "GET",
          route("food.dishes.show", { dish: row.id, ...(filters.city ? { city: filters.city } : {}) }),
        )
      : null;
    if (answer && answer.status !== 200) return;
    const detail = answer?.body ?? null;
    if (row) window.history.replaceState(window.history.state, "", urlWithDish(row.id));
    const show = () => setModal({ kind: "dish", detail, version: Date.now() });
    if (props.recipeChoices) show();
    else router.reload({ only: ["recipeChoices"], onSuccess: show });
  };
  const closeDish = () => {
    setModal(null);
    if (new URL(window.location.href).searchParams.has("dish"))
      window.history.replaceState(window.history.state, "", urlWithDish(null));
  };
  useEffect(() => {
    if (filters.dish) void openDish({ id: filters.dish });
    // Only on arrival: a link of a dish's name opened in a new tab.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const dishHref = (id: number) =>
    route("food.index", {
      ...(filters.city ? { city: filters.city } : {}),
      ...(filters.level ? { level: filters.level } : {}),
      dish: id,
    });
  const deleteDish = async (row: CostedDishRow) => {
    if (
      await confirm({
        title: t("food.dishes.confirm_delete", { name: row.name }),
        description: t("food.dishes.delete_consequence"),
      })
    )
      router.delete(route("food.dishes.destroy", { dish: row.id }), { preserveScroll: true, preserveState: true });
  };

  const columns: DataColumn<CostedDishRow>[] = [
    {
      id: "name",
      header: t("food.dishes.name"),
      primary: true,
      sortable: true,
      cell: (d) => (
        <span className="flex flex-wrap items-center gap-x-2">
          <a
            href={dishHref(d.id)}
            className="font-medium underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring rounded-sm"
            onClick={(event) => {
              // A plain click opens the modal here; a middle click or Ctrl-click opens the dish in a new tab.
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
              event.preventDefault();
              void openDish(d);
            }}
          >
            {d.name}
          </a>
          {!d.active && (
            <span className="rounded bg-muted px-1.5 py-0.5 text-xs text-muted-foreground">
              {t("food.dishes.withdrawn")}
            </span>
          )}
        </span>
      ),
    },
    {
      id: "categories",
      header: t("food.dishes.categories"),
      sortable: true,
      cell: (d) => <Chips max={2} empty="—" items={d.categories.map((c) => ({ key: c.id, label: c.name }))} />,
    },
    {
      id: "levels",
      header: t("food.dishes.levels"),
      sortable: true,
      cell: (d) => (
        <Chips max={2} empty="—" items={d.levelIds.map((id) => ({ key: id, label: levelNames.get(id) ?? "" }))} />
      ),
    },
    {
      id: "cost",
      header: t("food.dishes.cost"),
      className: "sm:text-right tabular-nums sm:whitespace-nowrap",
      cell: (d) =>
        d.cost ? (
          <span title={d.cost.complete ? undefined : t("food.dishes.incomplete_cost")}>
            {money(d.cost.costCents)}
            {!d.cost.complete && <span aria-hidden="true"> *</span>}
          </span>
        ) : (
          <span className="text-xs text-muted-foreground">
            {t("food.dishes.no_recipe", { level: level ? levelName(level.name) : "" })}
          </span>
        ),
    },
    {
      id: "kcal",
      header: t("food.dishes.kcal"),
      className: "sm:text-right tabular-nums",
      cell: (d) => (d.cost ? number(Math.round(d.cost.kcal)) : "—"),
    },
    {
      id: "flags",
      header: t("food.dishes.flags"),
      cell: (d) => (
        <span className="flex flex-col items-start gap-0.5">
          {d.cost && d.cost.unpriced > 0 && (
            <span className="inline-flex items-center gap-1 text-xs text-amber-700 dark:text-amber-400">
              <AlertTriangle className="size-3.5" aria-hidden="true" />
              {t("food.dishes.missing_offers", { count: d.cost.unpriced, city: city?.name ?? "" })}
            </span>
          )}
          {d.levelsWithoutRecipe.length > 0 && (
            <span
              className="inline-flex items-center gap-1 text-xs text-amber-700 dark:text-amber-400"
              title={t("food.dishes.levels_without_recipe_names", {
                levels: d.levelsWithoutRecipe.map((id) => levelNames.get(id) ?? "").join(", "),
              })}
              data-testid="levels-without-recipe"
            >
              <ListX className="size-3.5" aria-hidden="true" />
              {t("food.dishes.levels_without_recipe", {
                count: d.levelsWithoutRecipe.length,
                total: levels.length,
              })}
              <span className="sr-only">
                {" · "}
                {t("food.dishes.levels_without_recipe_names", {
                  levels: d.levelsWithoutRecipe.map((id) => levelNames.get(id) ?? "").join(", "),
                })}
              </span>
            </span>
          )}
        </span>
      ),
    },
    {
      id: "actions",
      header: t("food.actions"),
      headerHidden: true,
      actions: true,
      cell: (d) => (
        <span className="inline-flex gap-0.5">
          <IconButton label={t("food.edit_named", { name: d.name })} onClick={() => openDish(d)}>
            <Pencil className="size-4" aria-hidden="true" />
          </IconButton>
          {can.manage && (
            <IconButton danger label={t("food.delete_named", { name: d.name })} onClick={() => deleteDish(d)}>
              <Trash2 className="size-4" aria-hidden="true" />
            </IconButton>
          )}
        </span>
      ),
    },
  ];

  return (
    <div className="space-y-6">
      <Head title={t("food.dishes.title")} />
      <PageHeader
        title={t("food.dishes.title")}
        description={t("food.dishes.description")}
        actions={
          tab === "dishes" ? (
            <>
              <a href={exportUrl} download className={buttonClasses("outline")}>
                <Download className="size-4" aria-hidden="true" />
                {t("food.export")}
              </a>
              {can.manage && (
                <Button variant="outline" onClick={() => setModal({ kind: "import" })}>
                  <Upload className="size-4" aria-hidden="true" />
                  {t("foodImportDishes.button")}
                </Button>
              )}
              {can.manage && (
                <Button variant="outline" onClick={() => setModal({ kind: "categories" })}>
                  <FolderTree className="size-4" aria-hidden="true" />
                  {t("food.dishes.ingredient_categories")}
                </Button>
              )}
              {can.manage && (
                <Button onClick={() => openDish(null)}>
                  <Plus className="size-4" aria-hidden="true" />
                  {t("food.dishes.new")}
                </Button>
              )}
            </>
          ) : undefined
        }
        tabs={<FoodTabs tabs={props.tabs} current="food" />}
      />
      {modal === null && <OtherErrors errors={pageErrors} fields={[]} />}
      <TabList
        label={t("food.dishes.title")}
        tabs={[
          { id: "dishes", label: t("food.dishes.tab_dishes") },
          { id: "menu_table", label: t("food.dishes.tab_menu_table") },
          { id: "levels", label: t("food.dishes.tab_levels") },
          { id: "price_changes", label: t("food.dishes.tab_price_changes") },
        ]}
        current={tab}
        onChange={chooseTab}
      />
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="space-y-4">
        {tab === "dishes" && dishes && (
          <>
            {cityOptions.length === 0 && <p className="text-sm text-muted-foreground">{t("food.dishes.no_cities")}</p>}
            <DataTable
              caption={t("food.dishes.tab_dishes")}
              storageKey="food.dishes"
              sort={sort}
              columns={columns}
              page={dishes}
              rowKey={(d) => d.id}
              empty={t(filters.search || filters.category ? "food.dishes.none_found" : "food.dishes.none")}
              toolbar={
                <>
                  <SearchBox key="dishes" value={filters.search} label={t("food.dishes.search")} />
                  <SelectField
                    className="min-w-40"
                    label={t("food.dishes.category_filter")}
                    value={filters.category ? String(filters.category) : ""}
                    onValueChange={(value) => filter("category", value)}
                    options={[
                      { value: "", label: t("food.dishes.all_categories") },
                      ...dishCategories.map((c) => ({ value: String(c.id), label: c.name })),
                    ]}
                  />
                  <SelectField
                    searchable
                    className="min-w-36"
                    label={t("food.dishes.city_filter")}
                    value={filters.city ? String(filters.city) : ""}
                    onValueChange={(value) => filter("city", value)}
                    options={cityOptions.map((c) => ({ value: String(c.id), label: c.name }))}
                  />
                  <SelectField
                    className="min-w-32"
                    label={t("food.dishes.level_filter")}
                    value={filters.level ? String(filters.level) : ""}
                    onValueChange={(value) => filter("level", value)}
                    options={levels.map((l) => ({ value: String(l.id), label: levelName(l.name) }))}
                  />
                </>
              }
            />
          </>
        )}
        {tab === "menu_table" && <MenuTable rows={dishCategories} can={can} />}
        {tab === "levels" && <LevelsTable rows={levels} can={can} />}
        {tab === "price_changes" && (
          <PriceChanges
            data={props.priceChanges}
            filters={props.priceChangeFilters}
            cities={cityOptions}
            levels={levels}
          />
        )}
      </div>
      {modal?.kind === "dish" && (
        <DishDialog
          key={modal.version}
          initialLevelId={modal.levelId}
          onCopied={(detail, levelId) => {
            if (detail) setModal({ kind: "dish", detail, levelId, version: Date.now() });
            else closeDish();
            router.reload({ only: ["dishes"] });
          }}
          detail={modal.detail}
          categories={dishCategories}
          levels={levels}
          choices={props.recipeChoices}
          city={city}
          canManage={can.manage}
          onClose={closeDish}
        />
      )}
      {modal?.kind === "import" && <DishImportDialog onClose={() => setModal(null)} />}
      {modal?.kind === "categories" && (
        <FoodDialogs
          modal={{ kind: "categories" }}
          close={() => setModal(null)}
          dialog={{
            categories: props.categories,
            providerOptions: [],
            cityOptions,
            foodSettings: { rucLength: 11, igvRate: 0 },
            can: { manageFood: can.manage, manageLogistics: false },
            tabs: props.tabs,
          }}
        />
      )}
    </div>
  );
}
