/**
 * The menu table: the dish categories in their order (the order menus list them in), each with its description,
 * the unit a serving is measured in and how many dishes it holds. With food.manage, a category is added or edited
 * in the dish category dialog, moved up or down with buttons, and deleted after a confirmation (the server refuses
 * one that dishes or menus use, saying how many). The table exports as shown.
 *
 *     <MenuTable rows={dishCategories} can={{ manage: can.manageFood }} />
 */
import { useForm } from "@inertiajs/react";
import { Download, Pencil, Plus, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import type { DishCategoryRow } from "../../../../src/shared/food/types";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Table, td } from "../data-table";
import { Button, buttonClasses, IconButton } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field, TextareaField } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { MoveButtons, TableMessages, useCatalogueRows } from "./catalogue-rows";

export type { DishCategoryRow };

export interface MenuTableProps {
  rows: DishCategoryRow[];
  can: { manage: boolean };
}

export function MenuTable({ rows, can }: MenuTableProps) {
  const { t, number } = useI18n();
  const route = useRoute();
  // null: closed; "new": a new category; a row: that category.
  const [editing, setEditing] = useState<DishCategoryRow | "new" | null>(null);
  const table = useCatalogueRows(rows, {
    bag: "menuTable",
    reorderUrl: route("food.dish_categories.reorder"),
    destroyUrl: (row) => route("food.dish_categories.destroy", { category: row.id }),
    confirmTitle: (row) => t("foodCatalogue.dish_categories.confirm_delete", { name: row.name }),
    confirmDetail: t("foodCatalogue.dish_categories.confirm_delete_detail"),
  });
  const headers = [
    t("foodCatalogue.dish_categories.name"),
    t("foodCatalogue.dish_categories.unit"),
    t("foodCatalogue.dish_categories.dishes"),
    ...(can.manage ? [t("foodCatalogue.order"), t("foodCatalogue.actions")] : []),
  ];
  return (
    <section className="space-y-4" aria-labelledby="menu-table-title">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-2xl space-y-1">
          <h2 id="menu-table-title" className="text-lg font-semibold">
            {t("foodCatalogue.dish_categories.title")}
          </h2>
          <p className="text-sm text-muted-foreground">{t("foodCatalogue.dish_categories.intro")}</p>
          {!can.manage && <p className="text-sm text-muted-foreground">{t("foodCatalogue.read_only")}</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={route("food.dish_categories.export")} download className={buttonClasses("outline")}>
            <Download className="size-4" aria-hidden="true" />
            {t("foodCatalogue.export")}
          </a>
          {can.manage && (
            <Button onClick={() => setEditing("new")}>
              <Plus className="size-4" aria-hidden="true" />
              {t("foodCatalogue.dish_categories.add")}
            </Button>
          )}
        </div>
      </div>
      <TableMessages problem={table.problem} announcement={table.announcement} />
      <div ref={table.tableRef}>
        <Table
          caption={t("foodCatalogue.dish_categories.title")}
          headers={headers}
          actions={can.manage}
          empty={rows.length === 0 ? t("foodCatalogue.dish_categories.empty") : null}
        >
          {rows.map((row, index) => (
            <tr key={row.id} data-testid="dish-category-row">
              <td className={td}>
                <span className="block font-medium">{row.name}</span>
                {row.description && (
                  <span className="block text-xs text-muted-foreground max-sm:font-normal">{row.description}</span>
                )}
              </td>
              <td className={td}>{t(`foodCatalogue.units.${row.unit}`)}</td>
              <td className={`${td} tabular-nums`}>{number(row.dishCount)}</td>
              {can.manage && (
                <td className={td}>
                  <MoveButtons
                    name={row.name}
                    id={row.id}
                    first={index === 0}
                    last={index === rows.length - 1}
                    busy={table.busy}
                    onMove={(direction) => table.move(row, direction)}
                  />
                </td>
              )}
              {can.manage && (
                <td className={td}>
                  <span className="inline-flex gap-1">
                    <IconButton
                      label={t("foodCatalogue.edit_named", { name: row.name })}
                      onClick={() => setEditing(row)}
                    >
                      <Pencil className="size-4" aria-hidden="true" />
                    </IconButton>
                    <IconButton
                      danger
                      label={t("foodCatalogue.delete_named", { name: row.name })}
                      onClick={() => table.remove(row)}
                    >
                      <Trash2 className="size-4" aria-hidden="true" />
                    </IconButton>
                  </span>
                </td>
              )}
            </tr>
          ))}
        </Table>
      </div>
      {editing !== null && (
        <DishCategoryDialog category={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}

/** The dish category dialog: name, description and the unit a serving is measured in. */
export function DishCategoryDialog({ category, onClose }: { category: DishCategoryRow | null; onClose: () => void }) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({
    name: category?.name ?? "",
    description: category?.description ?? "",
    unit: category?.unit ?? "g",
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, preserveState: true, onSuccess: onClose };
    if (category) form.patch(route("food.dish_categories.update", { category: category.id }), options);
    else form.post(route("food.dish_categories.store"), options);
  };
  const errors = form.errors as Record<string, string | undefined>;
  return (
    <Dialog
      open
      onClose={onClose}
      title={
        category
          ? t("foodCatalogue.dish_categories.edit_title", { name: category.name })
          : t("foodCatalogue.dish_categories.new_title")
      }
      description={t("foodCatalogue.dish_categories.dialog_description")}
      closeLabel={t("foodCatalogue.close")}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label={t("foodCatalogue.dish_categories.name")}
          name="name"
          required
          maxLength={80}
          value={form.data.name}
          onChange={(e) => form.setData("name", e.target.value)}
          error={errors.name}
        />
        <TextareaField
          label={t("foodCatalogue.dish_categories.description")}
          name="description"
          rows={2}
          maxLength={255}
          value={form.data.description}
          onChange={(e) => form.setData("description", e.target.value)}
          error={errors.description}
        />
        <fieldset className="space-y-2" aria-describedby={errors.unit ? "dish-category-unit-error" : undefined}>
          <legend className="text-sm font-medium">{t("foodCatalogue.dish_categories.unit")}</legend>
          <div className="flex flex-wrap gap-4">
            {(["g", "ml"] as const).map((unit) => (
              <label key={unit} className="inline-flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="unit"
                  value={unit}
                  checked={form.data.unit === unit}
                  onChange={() => form.setData("unit", unit)}
                  className="size-4 accent-primary"
                />
                {t(`foodCatalogue.units.${unit}`)}
              </label>
            ))}
          </div>
          {errors.unit && (
            <p id="dish-category-unit-error" className="text-sm text-destructive">
              {errors.unit}
            </p>
          )}
        </fieldset>
        <OtherErrors errors={errors} fields={["name", "description", "unit"]} />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("foodCatalogue.cancel")}
          submitLabel={t("foodCatalogue.save")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
