/**
 * One day of the meal schedule: its state (empty, draft, published, changed since published) and who saved it last,
 * then each meal with its total against the structure's bounds, and a slot per category: the dishes in it with their
 * cost per serving, kcal and bound, a button to remove each, and "Choose dish" (the way without dragging). A slot is
 * where dragged dishes land (schedule-dnd.tsx). A save refused because someone else changed the day first shows
 * here, with what they changed.
 */
import { useDroppable } from "@dnd-kit/core";
import { Plus, X } from "lucide-react";
import type { ScheduleDay, ScheduleMeal, ScheduleSlot } from "../../../../src/shared/menu/types";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { BoundBadge, CostAndKcal, DishProblemNote } from "./schedule-figures";

/** What a slot tells the drag-and-drop about itself. */
export interface SlotTarget {
  kind: "slot";
  date: string;
  serviceId: number;
  categoryId: number;
  categoryName: string;
  /** "Almuerzo · Segundo del lunes 7 de diciembre", for announcements and labels. */
  label: string;
}

/** A refused save's note: who changed the day, and each slot's dishes before and after. */
export interface StaleNote {
  name: string;
  version: number;
  changes: { slot: string; before: string; after: string }[];
}

export const slotId = (date: string, serviceId: number, categoryId: number) =>
  `slot|${date}|${serviceId}|${categoryId}`;

/** "lunes 7 de diciembre" in the page's language (noon UTC, so no time zone moves the day). */
export function useDayName() {
  const { locale } = useI18n();
  const format = new Intl.DateTimeFormat(locale === "es" ? "es-PE" : "en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    timeZone: "UTC",
  });
  return (date: string) => {
    const text = format.format(new Date(`${date}T12:00:00Z`));
    return text.charAt(0).toLocaleUpperCase() + text.slice(1);
  };
}

const STATE_CLASSES: Record<ScheduleDay["state"], string> = {
  empty: "border-border text-muted-foreground",
  draft: "border-sky-600/40 bg-sky-500/10 text-sky-800 dark:text-sky-300",
  published: "border-emerald-600/40 bg-emerald-500/10 text-emerald-800 dark:text-emerald-300",
  changed: "border-amber-600/40 bg-amber-500/10 text-amber-800 dark:text-amber-300",
};

function Slot({
  day,
  meal,
  slot,
  label,
  canManage,
  busy,
  maxDishes,
  onRemove,
  onChoose,
}: {
  day: ScheduleDay;
  meal: ScheduleMeal;
  slot: ScheduleSlot;
  label: string;
  canManage: boolean;
  busy: boolean;
  maxDishes: number;
  onRemove: (dishId: number) => void;
  onChoose: () => void;
}) {
  const { t, money } = useI18n();
  const target: SlotTarget = {
    kind: "slot",
    date: day.date,
    serviceId: meal.serviceId,
    categoryId: slot.categoryId,
    categoryName: slot.categoryName,
    label,
  };
  const { setNodeRef, isOver, active } = useDroppable({
    id: slotId(day.date, meal.serviceId, slot.categoryId),
    data: target,
    disabled: !canManage,
  });
  const dragged = active?.data.current as { categoryId?: number } | undefined;
  const fits = dragged?.categoryId === slot.categoryId;
  const full = slot.dishes.length >= maxDishes;
  return (
    <li
      ref={setNodeRef}
      className={cn(
        "rounded-md border border-dashed p-2 transition-colors",
        active && fits && "border-primary/60 bg-primary/5",
        isOver && fits && "border-solid border-primary bg-primary/10 ring-2 ring-primary",
        isOver && !fits && "border-destructive/60 bg-destructive/5",
      )}
      data-testid="slot"
      data-slot={`${meal.serviceName} · ${slot.categoryName}`}
      data-date={day.date}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-2 gap-y-1">
        <span className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{slot.categoryName}</span>
        <span className="flex items-center gap-1.5 text-xs">
          <CostAndKcal costCents={slot.costCents} kcal={slot.kcal} partial={!slot.complete && slot.dishes.length > 0} />
          <BoundBadge bound={slot.bound} />
        </span>
      </div>
      <p className="text-[11px] text-muted-foreground">
        {t("menuSchedule.bounds", { min: money(slot.minCostCents), max: money(slot.maxCostCents) })}
      </p>
      {slot.dishes.length === 0 ? (
        <p className="py-1 text-xs text-muted-foreground">{canManage ? t("menuSchedule.empty_slot") : "—"}</p>
      ) : (
        <ul className="mt-1 space-y-1">
          {slot.dishes.map((dish) => (
            <li
              key={dish.id}
              className="flex items-start gap-1 rounded bg-muted/60 px-1.5 py-1 text-sm"
              data-testid="slot-dish"
            >
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="font-medium">
                  {dish.name}
                  {!dish.active && (
                    <span className="ml-1 text-xs font-normal text-muted-foreground">
                      ({t("menuSchedule.inactive_dish")})
                    </span>
                  )}
                </span>
                <span className="flex flex-wrap items-center gap-1.5 text-xs">
                  <CostAndKcal costCents={dish.costCents} kcal={dish.kcal} partial={dish.problem === "unpriced"} />
                  <BoundBadge bound={dish.bound} />
                </span>
                <DishProblemNote problem={dish.problem} />
              </span>
              {canManage && (
                <button
                  type="button"
                  className="inline-flex size-6 shrink-0 items-center justify-center rounded hover:bg-accent disabled:opacity-50"
                  onClick={() => onRemove(dish.id)}
                  disabled={busy}
                  aria-label={t("menuSchedule.remove", { dish: dish.name, slot: label })}
                  title={t("menuSchedule.remove", { dish: dish.name, slot: label })}
                >
                  <X className="size-3.5" aria-hidden="true" />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canManage && (
        <Button
          variant="ghost"
          size="sm"
          className="mt-1"
          onClick={onChoose}
          disabled={busy || full}
          title={full ? t("menuSchedule.slot_full", { max: maxDishes }) : undefined}
          aria-label={t("menuSchedule.choose_for", { slot: label })}
        >
          <Plus className="size-3.5" aria-hidden="true" />
          {t("menuSchedule.choose")}
        </Button>
      )}
    </li>
  );
}

export function DateCard({
  day,
  today,
  canManage,
  busy,
  stale,
  maxDishes,
  onRemove,
  onChoose,
  onDismissStale,
}: {
  day: ScheduleDay;
  today: string;
  canManage: boolean;
  busy: boolean;
  stale: StaleNote | null;
  maxDishes: number;
  onRemove: (meal: ScheduleMeal, slot: ScheduleSlot, dishId: number) => void;
  onChoose: (meal: ScheduleMeal, slot: ScheduleSlot, label: string) => void;
  onDismissStale: () => void;
}) {
  const { t, money, dateTime } = useI18n();
  // The command line writes as "cli" (CLI_ACTOR); people read it as the audit page names it.
  const actorName = (label: string) => (label === "cli" ? t("access.audit.actors.cli") : label || "—");
  const dayName = useDayName();
  const name = dayName(day.date);
  const headingId = `day-${day.date}`;
  return (
    <article
      aria-labelledby={headingId}
      aria-busy={busy || undefined}
      className={cn(
        "flex flex-col gap-3 rounded-lg border bg-card p-3 shadow-sm",
        day.date === today && "ring-1 ring-primary",
      )}
      data-testid="date-card"
      data-date={day.date}
      data-version={day.version}
    >
      <header className="space-y-1">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={headingId} className="font-semibold">
            {name}
          </h3>
          <span
            className={cn("rounded-full border px-2 py-0.5 text-[11px] font-medium", STATE_CLASSES[day.state])}
            data-state={day.state}
          >
            {t(`menuSchedule.states.${day.state}`)}
          </span>
        </div>
        {day.version > 0 && (
          <p className="text-[11px] text-muted-foreground">
            {t("menuSchedule.version", { version: day.version, name: actorName(day.updatedByName) })}
            {day.updatedAt && <> · {dateTime(day.updatedAt)}</>}
          </p>
        )}
        {busy && (
          <p className="text-[11px] text-muted-foreground" role="status">
            {t("menuSchedule.saving")}
          </p>
        )}
      </header>

      {stale && (
        <div
          role="alert"
          className="space-y-1 rounded-md border border-amber-600/50 bg-amber-500/10 p-2 text-xs"
          data-testid="stale-note"
        >
          <p className="font-semibold">{t("menuSchedule.stale_title")}</p>
          <p>{t("menuSchedule.stale", { name: stale.name || "—", version: stale.version })}</p>
          {stale.changes.length > 0 && (
            <>
              <p>{t("menuSchedule.stale_changes")}</p>
              <ul className="list-disc pl-4">
                {stale.changes.map((c) => (
                  <li key={c.slot}>{t("menuSchedule.stale_slot", c)}</li>
                ))}
              </ul>
            </>
          )}
          <Button variant="outline" size="sm" onClick={onDismissStale}>
            {t("menuSchedule.dismiss")}
          </Button>
        </div>
      )}

      {day.meals.map((meal) => {
        const mealId = `meal-${day.date}-${meal.serviceId}`;
        return (
          <div key={meal.serviceId} role="group" aria-labelledby={mealId} className="space-y-2">
            <div className="flex flex-wrap items-baseline justify-between gap-x-2 gap-y-1 border-b pb-1">
              <h4 id={mealId} className="text-sm font-semibold">
                {meal.serviceName}
              </h4>
              <span className="flex items-center gap-1.5 text-xs" data-testid="meal-total">
                <span className="sr-only">{t("menuSchedule.meal_total")}:</span>
                <CostAndKcal
                  costCents={meal.slots.some((x) => x.dishes.length > 0) ? meal.costCents : null}
                  kcal={meal.slots.some((x) => x.dishes.length > 0) ? meal.kcal : null}
                  partial={!meal.complete && meal.costCents > 0}
                />
                <BoundBadge bound={meal.bound} />
              </span>
            </div>
            <p className="text-[11px] text-muted-foreground">
              {t("menuSchedule.bounds", { min: money(meal.minCostCents), max: money(meal.maxCostCents) })}
            </p>
            <ul className="space-y-2">
              {meal.slots.map((slot) => {
                const label = t("menuSchedule.slot_name", {
                  meal: meal.serviceName,
                  category: slot.categoryName,
                  date: name,
                });
                return (
                  <Slot
                    key={slot.categoryId}
                    day={day}
                    meal={meal}
                    slot={slot}
                    label={label}
                    canManage={canManage}
                    busy={busy}
                    maxDishes={maxDishes}
                    onRemove={(dishId) => onRemove(meal, slot, dishId)}
                    onChoose={() => onChoose(meal, slot, label)}
                  />
                );
              })}
            </ul>
          </div>
        );
      })}
      {day.hiddenDishes > 0 && (
        <p className="text-[11px] text-muted-foreground">
          {t("menuSchedule.hidden_dishes", { count: day.hiddenDishes })}
        </p>
      )}
    </article>
  );
}
