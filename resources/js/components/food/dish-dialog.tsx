/**
 * The dish modal (new or edit): the dish's name, description, categories and whether it is still offered, then its
 * recipe per level — one tab per level — as lines of an ingredient or a dish used as a sub-recipe (a typeahead of
 * both), a quantity in the ingredient's unit (grams of a dish), and optionally the one offer the line is priced at.
 * As the chef types, the complete lines are costed by the server (`food.dishes.cost`, 400 ms after the last change)
 * and the totals of a serving show below; a line's calculation opens in a popover. Saving sends the dish and every
 * recipe changed in one request (`food.dishes.store` or `food.dishes.update`), all or nothing.
 */
import { useForm } from "@inertiajs/react";
import { Calculator, Copy, Plus, Trash2 } from "lucide-react";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";
import { requestJson } from "../../lib/json-client";
import { Button, IconButton } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { SelectField, type SelectOption } from "../ui/select-field";
import { TabList } from "../ui/tabs";
import { CalculationPopover } from "./calculation-popover";
import { CopyRecipeDialog } from "./copy-recipe-dialog";
import type { CostedRecipe, DishCategoryRow, DishDetail, LevelRow, RecipeChoices } from "./dish-types";
import { useFoodWords } from "./use-food-words";
import { rankByName } from "../../../../src/shared/food/name-match";

/** How many matches of each group a recipe line lists: the closest ones; typing more narrows them. */
const SHOWN_PER_GROUP = 50;
/** A recipe line's matches: whole words first, the closer name first, accents ignored (name-match.ts). */
const rankItems = (options: SelectOption[], typed: string) =>
  rankByName(options, typed, (o) => o.label, SHOWN_PER_GROUP);

interface LineDraft {
  key: number;
  /** "i:<ingredient id>", "d:<dish id>" or "" while none is chosen. */
  item: string;
  quantity: string;
  /** The pinned offer's id, or "" for the cheapest in the city. */
  offer: string;
}

interface RecipeDraft {
  yield: string;
  lines: LineDraft[];
  /** Changed in this modal: sent on save. */
  touched: boolean;
}

let nextKey = 1;
const emptyLine = (): LineDraft => ({ key: nextKey++, item: "", quantity: "", offer: "" });

/** A quantity as typed ("12,5" too) when it is a positive number, else null. */
function typedQuantity(text: string): number | null {
  const cleaned = text.trim().replace(",", ".");
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return value > 0 ? value : null;
}

const isComplete = (line: LineDraft) => line.item !== "" && typedQuantity(line.quantity) !== null;

function lineBody(line: LineDraft) {
  const [kind, id] = line.item.split(":");
  return kind === "d"
    ? { sub_dish_id: Number(id), quantity: line.quantity.trim().replace(",", ".") }
    : {
        ingredient_id: Number(id),
        quantity: line.quantity.trim().replace(",", "."),
        offer_id: line.offer ? Number(line.offer) : null,
      };
}

function draftsOf(detail: DishDetail | null): Record<number, RecipeDraft> {
  const drafts: Record<number, RecipeDraft> = {};
  for (const recipe of detail?.recipes ?? []) {
    drafts[recipe.levelId] = {
      yield: recipe.yieldG && recipe.yieldG !== recipe.totals.finalG ? String(recipe.yieldG) : "",
      touched: false,
      lines: recipe.lines.map((l) => ({
        key: nextKey++,
        item: l.kind === "dish" ? `d:${l.subDishId}` : `i:${l.ingredientId}`,
        quantity: String(l.quantity),
        offer: l.offer?.pinned ? String(l.offer.id) : "",
      })),
    };
  }
  return drafts;
}

export function DishDialog({
  detail,
  categories,
  levels,
  choices,
  city,
  canManage,
  onCopied,
  initialLevelId,
  onClose,
}: {
  /** The dish being edited with its recipes costed, or null for a new one. */
  detail: DishDetail | null;
  categories: DishCategoryRow[];
  levels: LevelRow[];
  choices: RecipeChoices | undefined;
  city: { id: number; name: string } | null;
  canManage: boolean;
  /** A recipe was copied onto another level: the dish read again (null when there is no city to cost it in). */
  onCopied?: (detail: DishDetail | null, toLevelId: number) => void;
  /** The level shown first: the dish's first level with a recipe by default. */
  initialLevelId?: number;
  onClose: () => void;
}) {
  const { t, money, number, levelName } = useFoodWords();
  /** A weight or kcal to a tenth, without trailing zeros (150 g, 209.2 g). */
  const tenths = (value: number) => number(Math.round(value * 10) / 10);
  const route = useRoute();
  const dish = detail?.dish ?? null;
  // The recipes' drafts, one per level, are sent as the recipes that changed and the levels emptied (see submit).
  const form = useForm<{
    name: string;
    description: string;
    category_ids: number[];
    active: boolean;
    drafts: Record<number, RecipeDraft>;
  }>(() => ({
    name: dish?.name ?? "",
    description: dish?.description ?? "",
    category_ids: dish?.categories.map((c) => c.id) ?? [],
    active: dish?.active ?? true,
    drafts: draftsOf(detail),
  }));
  const { name, description, category_ids: categoryIds, active, drafts } = form.data;
  const setDrafts = (change: (all: Record<number, RecipeDraft>) => Record<number, RecipeDraft>) =>
    form.setData((data) => ({ ...data, drafts: change(data.drafts) }));
  const firstLevel = initialLevelId ?? detail?.recipes[0]?.levelId ?? levels[0]?.id ?? 0;
  const [levelId, setLevelId] = useState<number>(firstLevel);
  const errors = form.errors as Record<string, string>;
  const [costed, setCosted] = useState<Record<number, CostedRecipe | null>>(() =>
    Object.fromEntries((detail?.recipes ?? []).map((r) => [r.levelId, r])),
  );
  const [costState, setCostState] = useState<"idle" | "working" | "failed">("idle");
  const [popover, setPopover] = useState<{ anchor: HTMLElement; index: number } | null>(null);
  const [copying, setCopying] = useState(false);

  const recipe: RecipeDraft = drafts[levelId] ?? { yield: "", lines: [], touched: false };
  const lines = recipe.lines.length ? recipe.lines : [];
  const ingredientUnit = useMemo(
    () => new Map((choices?.ingredients ?? []).map((i) => [`i:${i.id}`, i.baseUnit])),
    [choices],
  );
  // Ingredients, then the other dishes, as two groups of one searchable list.
  const itemOptions = useMemo(
    () => [
      ...(choices?.ingredients ?? []).map((i) => ({
        value: `i:${i.id}`,
        label: i.name,
        group: t("food.recipes.group_ingredients"),
      })),
      ...(choices?.dishes ?? [])
        .filter((d) => d.id !== dish?.id)
        .map((d) => ({ value: `d:${d.id}`, label: d.name, group: t("food.recipes.group_dishes") })),
    ],
    [choices, dish?.id, t],
  );

  const update = (changes: Partial<RecipeDraft>) =>
    setDrafts((all) => ({
      ...all,
      [levelId]: { ...(all[levelId] ?? { yield: "", lines: [], touched: false }), ...changes, touched: true },
    }));
  const setLine = (index: number, changes: Partial<LineDraft>) =>
    update({ lines: lines.map((l, i) => (i === index ? { ...l, ...changes } : l)) });

  // Live totals: the complete lines of the level shown, costed by the server once the chef pauses.
  const complete = lines.filter(isComplete);
  const signature = JSON.stringify([levelId, city?.id, recipe.yield, complete.map(lineBody)]);
  const firstRun = useRef(true);
  useEffect(() => {
    if (!city) return;
    if (firstRun.current && detail && !recipe.touched) {
      firstRun.current = false;
      return;
    }
    firstRun.current = false;
    if (complete.length === 0) {
      setCosted((all) => ({ ...all, [levelId]: null }));
      setCostState("idle");
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setCostState("working");
      try {
        const answer = await requestJson<CostedRecipe>(
          "POST",
          route("food.dishes.cost"),
          {
            level_id: levelId,
            city_id: city.id,
            yield_grams: typedQuantity(recipe.yield),
            lines: complete.map(lineBody),
          },
          { signal: controller.signal },
        );
        if (answer.status === 200 && answer.body) {
          setCosted((all) => ({ ...all, [levelId]: answer.body }));
          setCostState("idle");
        } else setCostState("failed");
      } catch {
        if (!controller.signal.aborted) setCostState("failed");
      }
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // The draft's content is what matters: `signature` holds every value the request is made of.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature]);

  const figures = costed[levelId] ?? null;
  // The costed line of each row: complete rows in order are the draft's lines in order.
  const costedLineOf = (index: number) => {
    if (!figures || !isComplete(lines[index])) return null;
    const position = lines.slice(0, index).filter(isComplete).length;
    return figures.lines[position] ?? null;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const recipes = Object.entries(drafts)
      .filter(([, d]) => d.touched && d.lines.some((l) => l.item !== "" || l.quantity !== ""))
      .map(([level, d]) => ({
        level_id: Number(level),
        yield_grams: d.yield.trim() === "" ? null : d.yield.trim().replace(",", "."),
        lines: d.lines
          .filter((l) => l.item !== "" || l.quantity !== "")
          .map((l) => (l.item === "" ? { quantity: l.quantity } : lineBody(l))),
      }));
    const removed = Object.entries(drafts)
      .filter(([, d]) => d.touched && !d.lines.some((l) => l.item !== "" || l.quantity !== ""))
      .map(([level]) => Number(level));
    form.transform((data) => ({
      name: data.name,
      description: data.description,
      category_ids: data.category_ids,
      active: data.active,
      recipes,
      removed_levels: removed,
    }));
    const options = {
      preserveScroll: true,
      preserveState: true,
      onError: (found: Record<string, string>) => {
        // Show the first level with a problem.
        const level = Object.keys(found)
          .map((k) => /^recipes\.(\d+)\./.exec(k)?.[1])
          .find(Boolean);
        if (level) setLevelId(Number(level));
      },
      onSuccess: () => onClose(),
    };
    if (dish) form.patch(route("food.dishes.update", { dish: dish.id }), options);
    else form.post(route("food.dishes.store"), options);
  };

  const lineError = (index: number, field: string) => errors[`recipes.${levelId}.lines.${index}.${field}`];
  const known = [
    "name",
    "description",
    "category_ids",
    "active",
    ...Object.keys(errors).filter((k) => k.startsWith(`recipes.${levelId}.`)),
  ];

  return (
    <Dialog
      open
      wide
      onClose={onClose}
      title={dish ? t("food.dishes.edit_title", { name: dish.name }) : t("food.dishes.new_title")}
      closeLabel={t("food.close")}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <fieldset disabled={!canManage} className="space-y-4">
          <div className="grid gap-3 sm:grid-cols-2">
            <Field
              label={t("food.dishes.name")}
              name="name"
              required
              maxLength={120}
              value={name}
              onChange={(e) => form.setData("name", e.target.value)}
              error={errors.name}
            />
            <Field
              label={t("food.dishes.description_field")}
              name="description"
              maxLength={1000}
              value={description}
              onChange={(e) => form.setData("description", e.target.value)}
              error={errors.description}
            />
          </div>
          <fieldset className="space-y-1">
            <legend className="text-sm font-medium">{t("food.dishes.categories")}</legend>
            <p className="text-xs text-muted-foreground">{t("food.dishes.categories_hint")}</p>
            <ul className="flex flex-wrap gap-x-4 gap-y-1">
              {categories.map((c) => (
                <li key={c.id}>
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={categoryIds.includes(c.id)}
                      onChange={(e) =>
                        form.setData((data) => ({
                          ...data,
                          category_ids: e.target.checked
                            ? [...data.category_ids, c.id]
                            : data.category_ids.filter((id) => id !== c.id),
                        }))
                      }
                    />
                    {c.name}
                  </label>
                </li>
              ))}
            </ul>
            {errors.category_ids && <p className="text-sm text-destructive">{errors.category_ids}</p>}
          </fieldset>
          {dish && (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={active} onChange={(e) => form.setData("active", e.target.checked)} />
              {t("food.dishes.active")}
              <span className="text-xs text-muted-foreground">{t("food.dishes.active_hint")}</span>
            </label>
          )}

          <section className="space-y-3 rounded-lg border p-3" aria-labelledby="recipe-heading">
            <h3 id="recipe-heading" className="text-sm font-medium">
              {t("food.recipes.level_tabs")}
            </h3>
            <TabList
              label={t("food.recipes.level_tabs")}
              tabs={levels.map((l) => ({
                id: String(l.id),
                label:
                  (drafts[l.id]?.lines.length ?? 0) > 0
                    ? levelName(l.name)
                    : t("food.recipes.level_empty", { level: levelName(l.name) }),
              }))}
              current={String(levelId)}
              onChange={(id) => {
                setPopover(null);
                setLevelId(Number(id));
              }}
            />
            <div role="tabpanel" id={`panel-${levelId}`} aria-labelledby={`tab-${levelId}`} className="space-y-2">
              {detail && canManage && levels.length > 1 && detail.recipes.some((r) => r.levelId === levelId) && (
                <div className="flex flex-wrap items-center justify-end gap-2">
                  {Object.values(drafts).some((d) => d.touched) && (
                    <p className="text-xs text-muted-foreground">{t("food.recipes.copy_save_first")}</p>
                  )}
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={Object.values(drafts).some((d) => d.touched)}
                    onClick={() => {
                      setPopover(null);
                      setCopying(true);
                    }}
                  >
                    <Copy className="size-4" aria-hidden="true" />
                    {t("food.recipes.copy")}
                  </Button>
                </div>
              )}
              <ol className="space-y-2" aria-label={t("food.recipes.lines")}>
                {lines.map((line, index) => {
                  const unit = line.item.startsWith("d:") ? "g" : (ingredientUnit.get(line.item) ?? "g");
                  const ingredientId = line.item.startsWith("i:") ? Number(line.item.slice(2)) : null;
                  const offers = (choices?.offers ?? []).filter(
                    (o) =>
                      o.ingredientId === ingredientId &&
                      ((o.cityId === city?.id && o.active) || String(o.id) === line.offer),
                  );
                  const figuresOfLine = costedLineOf(index);
                  return (
                    <li
                      key={line.key}
                      className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 rounded-md border p-2 sm:grid-cols-[minmax(0,2fr)_7rem_minmax(0,1.5fr)_auto]"
                      data-testid={`recipe-line-${index + 1}`}
                    >
                      <SelectField
                        searchable
                        className="col-span-2 sm:col-span-1"
                        label={`${t("food.recipes.item")} · ${t("food.recipes.line", { number: index + 1 })}`}
                        placeholder={t("food.recipes.item_placeholder")}
                        searchPlaceholder={t("food.recipes.item_search")}
                        emptyLabel={t("food.recipes.item_none")}
                        value={line.item}
                        onValueChange={(value) => setLine(index, { item: value, offer: "" })}
                        error={lineError(index, "item")}
                        options={itemOptions}
                        rank={rankItems}
                      />
                      <Field
                        label={t("food.recipes.quantity_in", { unit: t(`food.units_short.${unit}`) })}
                        name={`lines.${index}.quantity`}
                        inputMode="decimal"
                        autoComplete="off"
                        inputClassName="text-right tabular-nums"
                        value={line.quantity}
                        onChange={(e) => setLine(index, { quantity: e.target.value })}
                        error={lineError(index, "quantity")}
                      />
                      <SelectField
                        className="col-span-2 row-start-3 sm:col-span-1 sm:row-start-auto"
                        label={t("food.recipes.offer")}
                        value={line.offer}
                        disabled={ingredientId === null}
                        onValueChange={(value) => setLine(index, { offer: value })}
                        error={lineError(index, "offer_id")}
                        options={[
                          { value: "", label: t("food.recipes.offer_cheapest") },
                          ...offers.map((o) => ({
                            value: String(o.id),
                            label: `${o.providerName} · ${o.presentation} · ${money(o.costPerReferenceCents)}`,
                          })),
                        ]}
                      />
                      <div className="row-start-2 flex items-end gap-0.5 sm:row-start-auto">
                        <IconButton
                          label={t("food.recipes.calculation", { number: index + 1 })}
                          disabled={!figuresOfLine}
                          onClick={(e) => setPopover({ anchor: e.currentTarget, index })}
                        >
                          <Calculator className="size-4" aria-hidden="true" />
                        </IconButton>
                        <IconButton
                          danger
                          label={t("food.recipes.remove_line", { number: index + 1 })}
                          onClick={() => {
                            setPopover(null);
                            update({ lines: lines.filter((_, i) => i !== index) });
                          }}
                        >
                          <Trash2 className="size-4" aria-hidden="true" />
                        </IconButton>
                      </div>
                      {figuresOfLine?.problem && (
                        <p className="col-span-full text-xs text-amber-700 dark:text-amber-400">
                          {t(`food.recipes.${figuresOfLine.problem}`)}
                        </p>
                      )}
                    </li>
                  );
                })}
              </ol>
              {errors[`recipes.${levelId}.lines`] && (
                <p className="text-sm text-destructive">{errors[`recipes.${levelId}.lines`]}</p>
              )}
              <div className="flex flex-wrap items-end justify-between gap-2">
                <Button variant="outline" size="sm" onClick={() => update({ lines: [...lines, emptyLine()] })}>
                  <Plus className="size-4" aria-hidden="true" />
                  {t("food.recipes.add_line")}
                </Button>
                <Field
                  className="w-40"
                  label={t("food.recipes.yield")}
                  name="yield_grams"
                  inputMode="decimal"
                  autoComplete="off"
                  inputClassName="text-right tabular-nums"
                  value={recipe.yield}
                  onChange={(e) => update({ yield: e.target.value })}
                  error={errors[`recipes.${levelId}.yield_grams`]}
                />
              </div>
              <p className="text-xs text-muted-foreground">{t("food.recipes.yield_hint")}</p>
            </div>

            <div
              className="rounded-md bg-muted/60 p-3 text-sm"
              aria-live="polite"
              aria-busy={costState === "working"}
              data-testid="recipe-totals"
            >
              <p className="mb-1 font-medium">{t("food.recipes.totals", { city: city?.name ?? "—" })}</p>
              {!figures || complete.length === 0 ? (
                <p className="text-muted-foreground">
                  {costState === "failed" ? t("food.recipes.totals_failed") : t("food.recipes.totals_pending")}
                </p>
              ) : (
                <dl className="grid grid-cols-2 gap-x-4 gap-y-1 tabular-nums sm:grid-cols-4">
                  {(
                    [
                      ["gross", `${tenths(figures.totals.grossG)} g`],
                      ["final", `${tenths(figures.totals.finalG)} g`],
                      ["kcal", tenths(figures.totals.kcal)],
                      ["cost", money(figures.totals.costCents)],
                    ] as const
                  ).map(([key, value]) => (
                    <div key={key}>
                      <dt className="text-xs text-muted-foreground">{t(`food.recipes.${key}`)}</dt>
                      <dd className="font-medium" data-testid={`total-${key}`}>
                        {value}
                      </dd>
                    </div>
                  ))}
                </dl>
              )}
              {figures && !figures.totals.complete && complete.length > 0 && (
                <p className={cn("mt-1 text-xs text-amber-700 dark:text-amber-400")}>
                  {t("food.dishes.incomplete_cost")}
                </p>
              )}
              {costState === "working" && <p className="sr-only">{t("food.recipes.calculating")}</p>}
            </div>
          </section>
        </fieldset>
        <OtherErrors errors={errors} fields={known} />
        {canManage && (
          <DialogActions
            onCancel={onClose}
            cancelLabel={t("food.cancel")}
            submitLabel={t("food.save")}
            busy={form.processing}
          />
        )}
      </form>
      {copying && detail && levels.some((l) => l.id === levelId) && (
        <CopyRecipeDialog
          detail={detail}
          fromLevel={levels.find((l) => l.id === levelId)!}
          levels={levels}
          cityId={city?.id ?? null}
          onClose={() => setCopying(false)}
          onCopied={(next, toLevelId) => {
            setCopying(false);
            onCopied?.(next, toLevelId);
          }}
        />
      )}
      {popover && costedLineOf(popover.index) && (
        <CalculationPopover
          anchor={popover.anchor}
          line={costedLineOf(popover.index)!}
          number={popover.index + 1}
          onClose={() => setPopover(null)}
        />
      )}
    </Dialog>
  );
}
