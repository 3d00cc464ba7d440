/**
 * Dragging dishes into the schedule's slots, with the mouse or with the keyboard alone (dnd-kit). A dish in the
 * search panel is picked up with Space or Enter; the arrow keys then jump from one slot of the dish's category to
 * the next (down or right) or the previous (up or left), in reading order; Space or Enter drops it, Escape cancels.
 * Every step is announced to screen readers in the page's language. With the mouse, a dish moves once dragged a few
 * pixels (a click stays a click), and a slot lights up when the dish belongs there.
 */
import {
  DndContext,
  DragOverlay,
  KeyboardCode,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from "@dnd-kit/core";
import { useState, type ReactNode } from "react";
import { useI18n } from "../../hooks/use-i18n";
import type { SlotTarget } from "./date-card";
import type { DraggedDish } from "./dish-search";
import { CostAndKcal } from "./schedule-figures";

const NEXT = [KeyboardCode.Down, KeyboardCode.Right] as string[];
const PREVIOUS = [KeyboardCode.Up, KeyboardCode.Left] as string[];

/**
 * The keyboard's moves: to the centre of the next or previous slot of the dragged dish's category, in reading order
 * (top to bottom, then left to right); the first arrow goes to the first (or last) such slot.
 */
export const slotCoordinates: KeyboardCoordinateGetter = (event, { context }) => {
  const forward = NEXT.includes(event.code);
  if (!forward && !PREVIOUS.includes(event.code)) return undefined;
  event.preventDefault();
  const { active, collisionRect, droppableRects, droppableContainers, over } = context;
  if (!active || !collisionRect) return undefined;
  const categoryId = (active.data.current as DraggedDish | undefined)?.categoryId;
  const slots = droppableContainers
    .getEnabled()
    .filter((c) => (c.data.current as SlotTarget | undefined)?.categoryId === categoryId)
    .map((c) => ({ id: c.id, rect: droppableRects.get(c.id) }))
    .filter((c): c is { id: typeof c.id; rect: NonNullable<typeof c.rect> } => c.rect !== undefined)
    .sort((a, b) => a.rect.top - b.rect.top || a.rect.left - b.rect.left);
  if (slots.length === 0) return undefined;
  const at = over ? slots.findIndex((s) => s.id === over.id) : -1;
  const next =
    at === -1 ? (forward ? 0 : slots.length - 1) : Math.min(Math.max(at + (forward ? 1 : -1), 0), slots.length - 1);
  const { rect } = slots[next];
  return {
    x: rect.left + rect.width / 2 - collisionRect.width / 2,
    y: rect.top + rect.height / 2 - collisionRect.height / 2,
  };
};

/**
 * With a pointer, the slot under it; with the keyboard (no pointer), the slot the dish has been moved onto (none while
 * it still sits in the search panel, so picking it up announces no slot).
 */
const slotCollisions: CollisionDetection = (args) =>
  args.pointerCoordinates ? pointerWithin(args) : rectIntersection(args);

export function ScheduleDnd({
  children,
  onDrop,
}: {
  children: ReactNode;
  /** A dish dropped on a slot of its category. */
  onDrop: (dish: DraggedDish, slot: SlotTarget) => void;
}) {
  const { t } = useI18n();
  const [dragged, setDragged] = useState<DraggedDish | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: slotCoordinates }),
  );
  const dishOf = (data: unknown) => data as DraggedDish | undefined;
  const slotOf = (data: unknown) => data as SlotTarget | undefined;
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      const d = dishOf(active.data.current);
      return d ? t("menuSchedule.dnd.picked", { dish: d.dish.name, category: d.categoryName }) : undefined;
    },
    onDragOver: ({ active, over }) => {
      const d = dishOf(active.data.current);
      if (!d) return undefined;
      const s = slotOf(over?.data.current);
      if (!s) return t("menuSchedule.dnd.nowhere", { dish: d.dish.name });
      return s.categoryId === d.categoryId
        ? t("menuSchedule.dnd.over", { dish: d.dish.name, slot: s.label })
        : t("menuSchedule.dnd.over_wrong", { dish: d.dish.name, slot: s.label, category: d.categoryName });
    },
    onDragEnd: ({ active, over }) => {
      const d = dishOf(active.data.current);
      if (!d) return undefined;
      const s = slotOf(over?.data.current);
      if (!s) return t("menuSchedule.dnd.dropped_nowhere", { dish: d.dish.name });
      return s.categoryId === d.categoryId
        ? t("menuSchedule.dnd.dropped", { dish: d.dish.name, slot: s.label })
        : t("menuSchedule.dnd.wrong_category", { dish: d.dish.name, slot: s.label, category: d.categoryName });
    },
    onDragCancel: ({ active }) => {
      const d = dishOf(active.data.current);
      return d ? t("menuSchedule.dnd.cancelled", { dish: d.dish.name }) : undefined;
    },
  };
  const start = (event: DragStartEvent) => setDragged(dishOf(event.active.data.current) ?? null);
  const end = (event: DragEndEvent) => {
    setDragged(null);
    const d = dishOf(event.active.data.current);
    const s = slotOf(event.over?.data.current);
    if (d && s && s.categoryId === d.categoryId) onDrop(d, s);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={slotCollisions}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t("menuSchedule.dnd.instructions") } }}
      onDragStart={start}
      onDragEnd={end}
      onDragCancel={() => setDragged(null)}
    >
      {children}
      <DragOverlay dropAnimation={null}>
        {dragged && (
          <div className="flex w-64 flex-col rounded-md border bg-card px-2 py-1.5 text-sm shadow-lg">
            <span className="font-medium">{dragged.dish.name}</span>
            <CostAndKcal costCents={dragged.dish.costCents} kcal={dragged.dish.kcal} className="text-xs" />
          </div>
        )}
      </DragOverlay>
    </DndContext>
  );
}
