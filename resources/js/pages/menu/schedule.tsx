/**
 * The meal schedule: for one cafe of the viewer's scope and a range of dates (a week by default, at most 62 days),
 * a date card per day with a slot per meal and category of the cafe's structures. Holders of menu.manage drag
 * dishes from the dish search (filtered by category) into slots with the mouse or the keyboard, or choose them from
 * a slot's button, remove them, and copy days to later dates; every change is saved on the server at once, at the
 * day's version. Someone else's save reloads that day live; a save made on a stale day is refused and the card says
 * what changed. Holders of menu.publish publish the range shown.
 */
import { Head, router } from "@inertiajs/react";
import { ChevronLeft, ChevronRight, Copy, Send } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { DishOption, Schedule, ScheduleDay, ScheduleMeal, ScheduleSlot } from "../../../../src/shared/menu/types";
import { addDays, daysBetween, mondayOf } from "../../../../src/shared/calendar";
import { DateCard, useDayName, type StaleNote } from "../../components/menu/date-card";
import { DishSearch, type CategoryChoice } from "../../components/menu/dish-search";
import { MenuTabs } from "../../components/menu/menu-tabs";
import { ScheduleCopyDialog } from "../../components/menu/schedule-copy-dialog";
import { ScheduleDnd } from "../../components/menu/schedule-dnd";
import { requestJson } from "../../lib/json-client";
import { currentSocketId } from "../../lib/realtime";
import { useLiveSchedule } from "../../components/menu/schedule-live";
import type { MenuCafe, MenuTab } from "../../components/menu/structure-types";
import { useConfirm } from "../../components/ui/alert-dialog";
import { Button } from "../../components/ui/button";
import { DateField } from "../../components/ui/date-picker";
import { Dialog } from "../../components/ui/dialog";
import { PageHeader } from "../../components/ui/page-header";
import { SelectField } from "../../components/ui/select-field";
import { notify } from "../../components/ui/toaster";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";

/** The most dishes a slot holds (the server's MAX_DISHES_PER_SLOT). */
const MAX_DISHES_PER_SLOT = 4;

interface Props {
  tabs: MenuTab[];
  cafes: MenuCafe[];
  cafe: MenuCafe | null;
  from: string;
  to: string;
  today: string;
  maxDays: number;
  schedule: Schedule | null;
  /** One day read again after someone else saved it (a partial reload asks for it). */
  day?: ScheduleDay | null;
  can: { manage: boolean; publish: boolean };
}

/** A day's slots as the server takes them: service × category → dish ids in order. */
type SlotMap = Map<string, { serviceId: number; categoryId: number; dishIds: number[] }>;

function slotsOf(day: ScheduleDay): SlotMap {
  const map: SlotMap = new Map();
  for (const meal of day.meals)
    for (const slot of meal.slots)
      map.set(`${meal.serviceId}:${slot.categoryId}`, {
        serviceId: meal.serviceId,
        categoryId: slot.categoryId,
        dishIds: slot.dishes.map((d) => d.id),
      });
  return map;
}

/** Each slot whose dishes differ between what this page showed and the day as it is now. */
function changesBetween(mine: ScheduleDay, now: ScheduleDay, nothing: string): StaleNote["changes"] {
  const names = (slot: ScheduleSlot | undefined) =>
    slot && slot.dishes.length ? slot.dishes.map((d) => d.name).join(", ") : nothing;
  const changes: StaleNote["changes"] = [];
  for (const meal of now.meals)
    for (const slot of meal.slots) {
      const before = mine.meals
        .find((m) => m.serviceId === meal.serviceId)
        ?.slots.find((s) => s.categoryId === slot.categoryId);
      const was = names(before);
      const is = names(slot);
      if (was !== is) changes.push({ slot: `${meal.serviceName} · ${slot.categoryName}`, before: was, after: is });
    }
  return changes;
}

export default function MenuSchedule({ tabs, cafes, cafe, from, to, today, maxDays, schedule, day, can }: Props) {
  const { t, date, levelName } = useI18n();
  const route = useRoute();
  const confirm = useConfirm();
  const dayName = useDayName();
  const [days, setDays] = useState<ScheduleDay[]>(schedule?.days ?? []);
  const daysRef = useRef(days);
  daysRef.current = days;
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [stale, setStale] = useState<Record<string, StaleNote>>({});
  const [copying, setCopying] = useState(false);
  const [choosing, setChoosing] = useState<{
    date: string;
    meal: ScheduleMeal;
    slot: ScheduleSlot;
    label: string;
  } | null>(null);
  // Saves of one day go one after another, each at the version the previous one left.
  const queues = useRef(new Map<string, Promise<void>>());

  useEffect(() => setDays(schedule?.days ?? []), [schedule]);

  const replaceDay = useCallback((next: ScheduleDay) => {
    setDays((list) => list.map((d) => (d.date === next.date ? next : d)));
  }, []);

  // A day read again after someone else's save.
  useEffect(() => {
    if (day) replaceDay(day);
  }, [day, replaceDay]);

  useLiveSchedule(
    cafe?.id ?? null,
    (d) => daysRef.current.find((x) => x.date === d)?.version,
    (event) => notify(t("menuSchedule.live_changed", { name: event.updatedByName || "—", date: dayName(event.date) })),
  );

  const categories = useMemo<CategoryChoice[]>(() => {
    const seen = new Map<number, CategoryChoice>();
    for (const meal of schedule?.days[0]?.meals ?? [])
      for (const slot of meal.slots)
        if (!seen.has(slot.categoryId)) seen.set(slot.categoryId, { id: slot.categoryId, name: slot.categoryName });
    return [...seen.values()];
  }, [schedule]);
  const [categoryId, setCategoryId] = useState<number | null>(categories[0]?.id ?? null);
  useEffect(() => {
    if (!categories.some((c) => c.id === categoryId)) setCategoryId(categories[0]?.id ?? null);
  }, [categories, categoryId]);

  const mark = (date: string, on: boolean) =>
    setBusy((set) => {
      const next = new Set(set);
      if (on) next.add(date);
      else next.delete(date);
      return next;
    });

  /** Saves a change of one day's slots on the server, after the day's earlier saves. */
  const save = (date: string, change: (slots: SlotMap) => void) => {
    if (!cafe) return;
    const run = async () => {
      const current = daysRef.current.find((d) => d.date === date);
      if (!current) return;
      const slots = slotsOf(current);
      change(slots);
      mark(date, true);
      try {
        const { status, body } = await requestJson<{
          day?: ScheduleDay;
          message?: string;
          errors?: Record<string, string>;
        }>(
          "PUT",
          route("menu.schedule.day", { cafe: cafe.id, date }),
          {
            version: current.version,
            slots: [...slots.values()].map((s) => ({
              service_id: s.serviceId,
              category_id: s.categoryId,
              dish_ids: s.dishIds,
            })),
          },
          { socketId: currentSocketId() },
        );
        if (status === 200 && body?.day) {
          replaceDay(body.day);
          setStale(({ [date]: _gone, ...rest }) => rest);
        } else if (status === 409 && body?.day) {
          const now = body.day;
          setStale((notes) => ({
            ...notes,
            [date]: {
              name: now.updatedByName,
              version: now.version,
              changes: changesBetween(current, now, t("menuSchedule.nothing")),
            },
          }));
          replaceDay(now);
        } else if (status === 422 && body?.errors) {
          notify.error(Object.values(body.errors)[0] ?? t("menuSchedule.errors.save_failed"));
        } else {
          notify.error(body?.message ?? t("menuSchedule.errors.save_failed"));
        }
      } catch {
        notify.error(t("menuSchedule.errors.save_failed"));
      } finally {
        mark(date, false);
      }
    };
    const previous = queues.current.get(date) ?? Promise.resolve();
    const next = previous.then(run);
    queues.current.set(date, next);
  };

  const place = (date: string, serviceId: number, slotCategoryId: number, dish: DishOption) =>
    save(date, (slots) => {
      const slot = slots.get(`${serviceId}:${slotCategoryId}`);
      if (!slot || slot.dishIds.includes(dish.id)) return;
      if (slot.dishIds.length >= MAX_DISHES_PER_SLOT) {
        notify.error(t("menuSchedule.slot_full", { max: MAX_DISHES_PER_SLOT }));
        return;
      }
      slot.dishIds.push(dish.id);
    });

  const remove = (date: string, serviceId: number, slotCategoryId: number, dishId: number) =>
    save(date, (slots) => {
      const slot = slots.get(`${serviceId}:${slotCategoryId}`);
      if (slot) slot.dishIds = slot.dishIds.filter((id) => id !== dishId);
    });

  const visit = (params: { cafe?: number | string; from?: string; to?: string }) =>
    router.get(route("menu.schedule", { cafe: cafe?.id, from, to, ...params }), {}, { preserveScroll: true });

  const length = daysBetween(from, to) + 1;
  const shift = (weeks: number) => visit({ from: addDays(from, 7 * weeks), to: addDays(to, 7 * weeks) });

  const publish = async () => {
    if (!cafe) return;
    const ok = await confirm({
      title: t("menuSchedule.publish.title", { from: date(`${from}T12:00:00Z`), to: date(`${to}T12:00:00Z`) }),
      description: t("menuSchedule.publish.description"),
      confirmLabel: t("menuSchedule.publish.confirm"),
      destructive: false,
    });
    if (ok) router.post(route("menu.publish"), { cafe: cafe.id, from, to }, { preserveScroll: true });
  };

  const noStructures = schedule !== null && schedule.services.length === 0;

  return (
    <>
      <Head title={t("menuSchedule.title")} />
      <div className="space-y-6">
        <PageHeader
          title={t("menuSchedule.title")}
          description={t("menuSchedule.description")}
          tabs={<MenuTabs tabs={tabs} current="schedule" cafeId={cafe?.id} />}
          actions={
            cafe && !noStructures ? (
              <div className="flex flex-wrap gap-2">
                {can.manage && (
                  <Button variant="outline" onClick={() => setCopying(true)}>
                    <Copy className="size-4" aria-hidden="true" />
                    {t("menuSchedule.copy.button")}
                  </Button>
                )}
                {can.publish && (
                  <Button onClick={() => void publish()} data-testid="publish">
                    <Send className="size-4" aria-hidden="true" />
                    {t("menuSchedule.publish.button")}
                  </Button>
                )}
              </div>
            ) : undefined
          }
        />

        {cafes.length === 0 || !cafe ? (
          <p className="rounded-lg border border-dashed p-6 text-sm text-muted-foreground">{t("menu.no_cafes")}</p>
        ) : (
          <>
            <div className="flex flex-wrap items-end gap-3">
              <SelectField
                label={t("menu.cafe")}
                className="w-full max-w-md"
                value={String(cafe.id)}
                searchable={cafes.length > 8}
                onValueChange={(value) => visit({ cafe: value })}
                options={cafes.map((c) => ({ value: String(c.id), label: c.path }))}
                data-testid="cafe-picker"
              />
              <DateField
                label={t("menuSchedule.range.from")}
                className="w-64"
                value={from}
                onChange={(value) => value && visit({ from: value, to: value > to ? addDays(value, length - 1) : to })}
              />
              <DateField
                label={t("menuSchedule.range.to")}
                className="w-64"
                value={to}
                min={from}
                max={addDays(from, maxDays - 1)}
                onChange={(value) => value && visit({ to: value })}
              />
              <div className="flex gap-1">
                <Button
                  variant="outline"
                  size="icon"
                  onClick={() => shift(-1)}
                  aria-label={t("menuSchedule.range.previous")}
                  title={t("menuSchedule.range.previous")}
                >
                  <ChevronLeft className="size-4" aria-hidden="true" />
                </Button>
                <Button
                  variant="outline"
                  onClick={() => visit({ from: mondayOf(today), to: addDays(mondayOf(today), 6) })}
                >
                  {t("menuSchedule.range.this_week")}
                </Button>
                <Button
                  variant="outline"
                  size="icon"
                  onClick={() => shift(1)}
                  aria-label={t("menuSchedule.range.next")}
                  title={t("menuSchedule.range.next")}
                >
                  <ChevronRight className="size-4" aria-hidden="true" />
                </Button>
              </div>
            </div>

            {schedule && (
              <div className="space-y-1 text-sm text-muted-foreground">
                <p>
                  {schedule.cafe.levelName
                    ? t("menuSchedule.level", { level: levelName(schedule.cafe.levelName) })
                    : t("menuSchedule.no_level")}
                </p>
                {schedule.cafe.cityId === null && (
                  <p role="note" className="text-amber-800 dark:text-amber-300">
                    {t("menuSchedule.no_city")}
                  </p>
                )}
                {!can.manage && <p>{t("menuSchedule.read_only")}</p>}
              </div>
            )}

            {noStructures ? (
              <p className="rounded-lg border border-dashed p-6 text-sm text-muted-foreground">
                {t("menuSchedule.no_structures")}
              </p>
            ) : (
              <ScheduleDnd onDrop={(dragged, slot) => place(slot.date, slot.serviceId, slot.categoryId, dragged.dish)}>
                <div className="grid gap-4 lg:grid-cols-[17rem_minmax(0,1fr)]">
                  <aside
                    aria-labelledby="dish-search-title"
                    className="lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto"
                  >
                    <div className="space-y-3 rounded-lg border bg-card p-3">
                      <h2 id="dish-search-title" className="font-semibold">
                        {t("menuSchedule.search.title")}
                      </h2>
                      {can.manage && <p className="text-xs text-muted-foreground">{t("menuSchedule.search.hint")}</p>}
                      <DishSearch
                        categories={categories}
                        categoryId={categoryId}
                        onCategoryChange={setCategoryId}
                        cafeId={cafe.id}
                        mode="drag"
                        canDrag={can.manage}
                      />
                    </div>
                  </aside>
                  <section
                    aria-label={t("menuSchedule.title")}
                    className="grid content-start gap-3 sm:grid-cols-2 2xl:grid-cols-3"
                  >
                    {days.map((d) => (
                      <DateCard
                        key={d.date}
                        day={d}
                        today={today}
                        canManage={can.manage}
                        busy={busy.has(d.date)}
                        stale={stale[d.date] ?? null}
                        maxDishes={MAX_DISHES_PER_SLOT}
                        onRemove={(meal, slot, dishId) => remove(d.date, meal.serviceId, slot.categoryId, dishId)}
                        onChoose={(meal, slot, label) => setChoosing({ date: d.date, meal, slot, label })}
                        onDismissStale={() => setStale(({ [d.date]: _gone, ...rest }) => rest)}
                      />
                    ))}
                  </section>
                </div>
              </ScheduleDnd>
            )}
          </>
        )}
      </div>

      {choosing && cafe && (
        <Dialog
          open
          onClose={() => setChoosing(null)}
          title={t("menuSchedule.choose_for", { slot: choosing.label })}
          closeLabel={t("ui.close")}
        >
          <DishSearch
            categories={[{ id: choosing.slot.categoryId, name: choosing.slot.categoryName }]}
            categoryId={choosing.slot.categoryId}
            cafeId={cafe.id}
            mode="pick"
            onPick={(dish) => {
              place(choosing.date, choosing.meal.serviceId, choosing.slot.categoryId, dish);
              setChoosing(null);
            }}
          />
        </Dialog>
      )}
      {copying && cafe && (
        <ScheduleCopyDialog
          cafeId={cafe.id}
          from={from}
          onClose={() => setCopying(false)}
          onCopied={() => router.reload({ only: ["schedule"] })}
        />
      )}
    </>
  );
}
