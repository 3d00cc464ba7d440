/**
 * Copy a dish's recipe of one level onto another (`food.recipes.copy`), its quantities multiplied by a factor
 * (1.25 for a quarter more). A level that already has a recipe is replaced only after a confirmation that says how
 * many lines it loses; the server refuses a replacement that was not confirmed (409) and a bad factor (422, shown
 * under the field). On success the dish comes back read again, costed, for the modal to show.
 */
import { useState, type FormEvent } from "react";
import { useRoute } from "../../hooks/use-route";
import { fieldErrors, requestJson } from "../../lib/json-client";
import { useConfirm } from "../ui/alert-dialog";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { SelectField } from "../ui/select-field";
import { notify } from "../ui/toaster";
import type { DishDetail, LevelRow } from "./dish-types";
import { useFoodWords } from "./use-food-words";

export function CopyRecipeDialog({
  detail,
  fromLevel,
  levels,
  cityId,
  onCopied,
  onClose,
}: {
  detail: DishDetail;
  fromLevel: LevelRow;
  levels: LevelRow[];
  cityId: number | null;
  onCopied: (detail: DishDetail | null, toLevelId: number) => void;
  onClose: () => void;
}) {
  const { t, levelName } = useFoodWords();
  const route = useRoute();
  const confirm = useConfirm();
  const targets = levels.filter((l) => l.id !== fromLevel.id);
  const withoutRecipe = targets.find((l) => !detail.recipes.some((r) => r.levelId === l.id));
  const [to, setTo] = useState(String((withoutRecipe ?? targets[0])?.id ?? ""));
  const [factor, setFactor] = useState("1");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const target = targets.find((l) => String(l.id) === to) ?? null;
  const existing = target ? detail.recipes.find((r) => r.levelId === target.id) : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!target) return;
    if (
      existing &&
      !(await confirm({
        title: t("food.recipes.copy_confirm", { level: levelName(target.name) }),
        description: t("food.recipes.copy_confirm_consequence", {
          count: existing.lines.length,
          from: levelName(fromLevel.name),
        }),
        confirmLabel: t("food.recipes.copy_confirm_button"),
      }))
    )
      return;
    setBusy(true);
    try {
      const answer = await requestJson<{ message: string; detail: DishDetail | null }>(
        "POST",
        route("food.recipes.copy", {
          dish: detail.dish.id,
          level: fromLevel.id,
          ...(cityId ? { city: cityId } : {}),
        }),
        { to_level_id: target.id, factor: factor.trim(), replace: existing !== undefined },
      );
      if (answer.status === 200 && answer.body) {
        notify.success(answer.body.message);
        onCopied(answer.body.detail, target.id);
        return;
      }
      const found = fieldErrors(answer.body);
      const said = (answer.body as { message?: string } | null)?.message;
      setErrors(Object.keys(found).length ? found : { form: said ?? t("food.recipes.copy_failed") });
    } catch {
      setErrors({ form: t("food.recipes.copy_failed") });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={t("food.recipes.copy_title", { level: levelName(fromLevel.name) })}
      description={t("food.recipes.copy_description", { name: detail.dish.name })}
      closeLabel={t("food.close")}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <SelectField
          label={t("food.recipes.copy_to")}
          name="to_level_id"
          value={to}
          onValueChange={setTo}
          error={errors.to_level_id}
          hint={existing && target ? t("food.recipes.copy_has_recipe", { level: levelName(target.name) }) : undefined}
          options={targets.map((l) => ({
            value: String(l.id),
            label: detail.recipes.some((r) => r.levelId === l.id)
              ? levelName(l.name)
              : t("food.recipes.level_empty", { level: levelName(l.name) }),
          }))}
        />
        <Field
          label={t("food.recipes.copy_factor")}
          name="factor"
          inputMode="decimal"
          autoComplete="off"
          inputClassName="text-right tabular-nums"
          value={factor}
          onChange={(e) => setFactor(e.target.value)}
          hint={t("food.recipes.copy_factor_hint")}
          error={errors.factor}
        />
        <OtherErrors errors={errors} fields={["to_level_id", "factor"]} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("food.cancel")}
          submitLabel={t("food.recipes.copy_submit")}
          busy={busy}
        />
      </form>
    </Dialog>
  );
}
