/**
 * The menu table: the dish categories in their order (the order menus list them in), each with its description,
 * the unit a serving is measured in and how many dishes it holds. With food.manage, a category is added or edited
 * in the dish category dialog, moved up or down with buttons, and deleted after a confirmation (the server refuses
 * one that dishes or menus use, saying how many). The table exports as shown.
 *
 *     <MenuTable rows={dishCategories} can={{ manage: can.manageFood }} />
 */
import { useForm } from "@inertiajs/react";
import { useState } from "react";
import type { DishCategoryRow } from "../../../../src/shared/food/types";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { td } from "../data-table";
import { FormDialog, textField } from "../form-dialog";
import { Field, TextareaField } from "../ui/field";
import { CatalogueSection, useCatalogueRows } from "./catalogue-rows";

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
  return (
    <CatalogueSection
      id="menu-table"
      words={{
        title: t("foodCatalogue.dish_categories.title"),
        intro: t("foodCatalogue.dish_categories.intro"),
        add: t("foodCatalogue.dish_categories.add"),
        empty: t("foodCatalogue.dish_categories.empty"),
      }}
      exportUrl={route("food.dish_categories.export")}
      headers={[
        t("foodCatalogue.dish_categories.name"),
        t("foodCatalogue.dish_categories.unit"),
        t("foodCatalogue.dish_categories.dishes"),
      ]}
      rows={rows}
      rowTestId="dish-category-row"
      cells={(row) => (
        <>
          <td className={td}>
            <span className="block font-medium">{row.name}</span>
            {row.description && (
              <span className="block text-xs text-muted-foreground max-sm:font-normal">{row.description}</span>
            )}
          </td>
          <td className={td}>{t(`foodCatalogue.units.${row.unit}`)}</td>
          <td className={`${td} tabular-nums`}>{number(row.dishCount)}</td>
        </>
      )}
      table={table}
      canManage={can.manage}
      onAdd={() => setEditing("new")}
      onEdit={setEditing}
    >
      {editing !== null && (
        <DishCategoryDialog category={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
      )}
    </CatalogueSection>
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
  const errors = form.errors as Record<string, string | undefined>;
  return (
    <FormDialog
      title={
        category
          ? t("foodCatalogue.dish_categories.edit_title", { name: category.name })
          : t("foodCatalogue.dish_categories.new_title")
      }
      description={t("foodCatalogue.dish_categories.dialog_description")}
      words="foodCatalogue"
      roomy
      form={form}
      fields={["name", "description", "unit"]}
      send={
        category
          ? {
              method: "patch",
              url: route("food.dish_categories.update", { category: category.id }),
              preserveState: true,
            }
          : { method: "post", url: route("food.dish_categories.store"), preserveState: true }
      }
      onClose={onClose}
    >
      <Field label={t("foodCatalogue.dish_categories.name")} required maxLength={80} {...textField(form, "name")} />
      <TextareaField
        label={t("foodCatalogue.dish_categories.description")}
        rows={2}
        maxLength={255}
        {...textField(form, "description")}
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
    </FormDialog>
  );
}
