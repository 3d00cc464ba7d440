/**
 * The dish search of the meal schedule: the active dishes of one category whose name holds what is typed (at most
 * 20, from `menu.dishes.search`), each with its cost per serving and kcal at the cafe. In the side panel its results
 * are dragged into slots, with the mouse or the keyboard (schedule-dnd.tsx); in a slot's "choose dish" dialog they
 * are buttons that place the dish.
 */
import { useDraggable } from "@dnd-kit/core";
import { GripVertical, Search } from "lucide-react";
import { useEffect, useId, useState } from "react";
import type { DishOption } from "../../../../src/shared/menu/types";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";
import { requestJson } from "../../lib/json-client";
import { inputClasses } from "../ui/field";
import { SelectField } from "../ui/select-field";
import { CostAndKcal, DishProblemNote } from "./schedule-figures";

export interface CategoryChoice {
  id: number;
  name: string;
}

/** What a dragged dish carries: the dish and the category it was found under. */
export interface DraggedDish {
  kind: "dish";
  dish: DishOption;
  categoryId: number;
  categoryName: string;
}

/** The search's answer for a category and text, asked again as they change (after a short pause while typing). */
function useDishResults(categoryId: number | null, query: string, cafeId: number) {
  const route = useRoute();
  const [state, setState] = useState<{ dishes: DishOption[]; loading: boolean; failed: boolean }>({
    dishes: [],
    loading: false,
    failed: false,
  });
  useEffect(() => {
    if (categoryId === null) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setState((s) => ({ ...s, loading: true, failed: false }));
      try {
        const url = route("menu.dishes.search", { category: categoryId, q: query, cafe: cafeId });
        const { status, body } = await requestJson<{ dishes: DishOption[] }>("GET", url, undefined, {
          signal: controller.signal,
        });
        if (controller.signal.aborted) return;
        setState({ dishes: status === 200 && body ? body.dishes : [], loading: false, failed: status !== 200 });
      } catch {
        if (!controller.signal.aborted) setState({ dishes: [], loading: false, failed: true });
      }
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [categoryId, query, cafeId, route]);
  return state;
}

/** A result in the side panel: a button that is picked up with Space or Enter, or dragged with the mouse. */
function DraggableDish({
  dish,
  category,
  disabled,
}: {
  dish: DishOption;
  category: CategoryChoice;
  disabled: boolean;
}) {
  const data: DraggedDish = { kind: "dish", dish, categoryId: category.id, categoryName: category.name };
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: `dish-${category.id}-${dish.id}`,
    data,
    disabled,
  });
  return (
    <button
      ref={setNodeRef}
      type="button"
      {...attributes}
      {...listeners}
      className={cn(
        "flex w-full touch-none items-start gap-2 rounded-md border bg-card px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        isDragging && "opacity-50",
        disabled && "cursor-default",
      )}
      data-testid="dish-result"
      data-dish={dish.name}
    >
      {!disabled && <GripVertical className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />}
      <DishLines dish={dish} />
    </button>
  );
}

function DishLines({ dish }: { dish: DishOption }) {
  return (
    <span className="flex min-w-0 flex-1 flex-col">
      <span className="truncate font-medium">{dish.name}</span>
      <CostAndKcal
        costCents={dish.costCents}
        kcal={dish.kcal}
        partial={dish.problem === "unpriced"}
        className="text-xs"
      />
      <DishProblemNote problem={dish.problem} />
    </span>
  );
}

export function DishSearch({
  categories,
  categoryId,
  onCategoryChange,
  cafeId,
  mode,
  canDrag = true,
  onPick,
}: {
  categories: CategoryChoice[];
  categoryId: number | null;
  /** Absent: the category is fixed (a slot's dialog). */
  onCategoryChange?: (id: number) => void;
  cafeId: number;
  mode: "drag" | "pick";
  canDrag?: boolean;
  onPick?: (dish: DishOption) => void;
}) {
  const { t } = useI18n();
  const [query, setQuery] = useState("");
  const inputId = useId();
  const statusId = useId();
  const { dishes, loading, failed } = useDishResults(categoryId, query, cafeId);
  const category = categories.find((c) => c.id === categoryId) ?? null;
  if (categories.length === 0)
    return <p className="text-sm text-muted-foreground">{t("menuSchedule.search.no_categories")}</p>;
  return (
    <div className="space-y-3" data-testid={mode === "drag" ? "dish-search" : "dish-picker"}>
      {onCategoryChange && (
        <SelectField
          label={t("menuSchedule.search.category")}
          value={categoryId === null ? "" : String(categoryId)}
          onValueChange={(value) => onCategoryChange(Number(value))}
          options={categories.map((c) => ({ value: String(c.id), label: c.name }))}
          data-testid="dish-search-category"
        />
      )}
      <div className="space-y-1">
        <label htmlFor={inputId} className="text-sm font-medium">
          {t("menuSchedule.search.query")}
        </label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <input
            id={inputId}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={t("menuSchedule.search.placeholder")}
            className={cn(inputClasses, "pl-8")}
            aria-describedby={statusId}
            maxLength={100}
            autoComplete="off"
          />
        </div>
      </div>
      <p id={statusId} className="text-xs text-muted-foreground" aria-live="polite">
        {loading
          ? t("menuSchedule.search.loading")
          : failed
            ? t("menuSchedule.search.failed")
            : dishes.length === 0
              ? t("menuSchedule.search.none")
              : t("menuSchedule.search.results", { count: dishes.length })}
      </p>
      {category && dishes.length > 0 && (
        <ul className="space-y-1.5" aria-label={category.name}>
          {dishes.map((dish) => (
            <li key={dish.id}>
              {mode === "drag" ? (
                <DraggableDish dish={dish} category={category} disabled={!canDrag} />
              ) : (
                <button
                  type="button"
                  onClick={() => onPick?.(dish)}
                  className="flex w-full items-start gap-2 rounded-md border bg-card px-2 py-1.5 text-left text-sm hover:bg-accent"
                  aria-label={t("menuSchedule.search.pick", { dish: dish.name })}
                  data-testid="dish-pick"
                  data-dish={dish.name}
                >
                  <DishLines dish={dish} />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
