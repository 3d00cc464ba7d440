/**
 * The figures of the meal schedule: a cost per serving and kcal, where it stands against its bounds (a badge with a
 * word, never colour alone) and what keeps a dish from being costed.
 */
import { AlertTriangle, ArrowDown, ArrowUp, Check } from "lucide-react";
import type { BoundState, DishProblem } from "../../../../src/shared/menu/types";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";

const BOUND_CLASSES: Record<BoundState, string> = {
  below: "border-amber-600/40 bg-amber-500/10 text-amber-800 dark:text-amber-300",
  within: "border-emerald-600/40 bg-emerald-500/10 text-emerald-800 dark:text-emerald-300",
  above: "border-destructive/50 bg-destructive/10 text-destructive",
};

const BOUND_ICONS = { below: ArrowDown, within: Check, above: ArrowUp };

/** Where a figure stands against its bounds, in words; nothing while it is not known. */
export function BoundBadge({ bound, className }: { bound: BoundState | null; className?: string }) {
  const { t } = useI18n();
  if (bound === null) return null;
  const Icon = BOUND_ICONS[bound];
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full border px-1.5 py-0.5 text-[11px] font-medium leading-none",
        BOUND_CLASSES[bound],
        className,
      )}
      data-bound={bound}
    >
      <Icon className="size-3" aria-hidden="true" />
      {t(`menuSchedule.bound.${bound}`)}
    </span>
  );
}

/** "S/ 2.60 · 940 kcal", or "at least S/ 0.40" when some line is unpriced, or "—" when nothing is known. */
export function CostAndKcal({
  costCents,
  kcal,
  partial = false,
  className,
}: {
  costCents: number | null;
  kcal: number | null;
  partial?: boolean;
  className?: string;
}) {
  const { t, money, number } = useI18n();
  const cost =
    costCents === null ? "—" : partial ? t("menuSchedule.at_least", { cost: money(costCents) }) : money(costCents);
  return (
    <span className={cn("tabular-nums", className)} data-testid="cost">
      {cost}
      {kcal !== null && (
        <span className="text-muted-foreground"> · {t("menuSchedule.kcal", { kcal: number(kcal, 0) })}</span>
      )}
    </span>
  );
}

/** Why a dish cannot be costed in full, as a small warning with its reason in words. */
export function DishProblemNote({ problem }: { problem: DishProblem | null }) {
  const { t } = useI18n();
  if (problem === null) return null;
  return (
    <span
      className="inline-flex items-center gap-1 text-[11px] text-amber-800 dark:text-amber-300"
      data-problem={problem}
    >
      <AlertTriangle className="size-3 shrink-0" aria-hidden="true" />
      {t(`menuSchedule.problems.${problem}`)}
    </span>
  );
}
