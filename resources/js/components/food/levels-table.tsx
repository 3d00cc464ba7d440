/**
 * The levels table: the diner levels in their order (the order recipes and pickers list them in), each with how
 * many diners, recipes and cafes use it. With food.manage, a level is added or renamed in the level dialog, moved up
 * or down with buttons, and deleted after a confirmation (the server refuses one in use, saying by how many diners,
 * recipes and cafes). The table exports as shown.
 *
 *     <LevelsTable rows={levels} can={{ manage: can.manageFood }} />
 */
import { useForm } from "@inertiajs/react";
import { useState } from "react";
import type { LevelRow } from "../../../../src/shared/food/types";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { td } from "../data-table";
import { FormDialog, textField } from "../form-dialog";
import { Field } from "../ui/field";
import { CatalogueSection, useCatalogueRows } from "./catalogue-rows";

export type { LevelRow };

export interface LevelsTableProps {
  rows: LevelRow[];
  can: { manage: boolean };
}

export function LevelsTable({ rows, can }: LevelsTableProps) {
  const { t, number, levelName } = useI18n();
  const route = useRoute();
  const [editing, setEditing] = useState<LevelRow | "new" | null>(null);
  const table = useCatalogueRows(rows, {
    bag: "levelsTable",
    reorderUrl: route("food.levels.reorder"),
    destroyUrl: (row) => route("food.levels.destroy", { level: row.id }),
    confirmTitle: (row) => t("foodCatalogue.levels.confirm_delete", { name: row.name }),
    confirmDetail: t("foodCatalogue.levels.confirm_delete_detail"),
  });
  return (
    <CatalogueSection
      id="levels-table"
      words={{
        title: t("foodCatalogue.levels.title"),
        intro: t("foodCatalogue.levels.intro"),
        add: t("foodCatalogue.levels.add"),
        empty: t("foodCatalogue.levels.empty"),
      }}
      exportUrl={route("food.levels.export")}
      headers={[
        t("foodCatalogue.levels.name"),
        t("foodCatalogue.levels.diners"),
        t("foodCatalogue.levels.recipes"),
        <abbr key="cafes" title={t("foodCatalogue.levels.cafes_hint")} className="no-underline">
          {t("foodCatalogue.levels.cafes")}
        </abbr>,
      ]}
      rows={rows}
      rowTestId="level-row"
      cells={(row) => (
        <>
          <td className={`${td} font-medium`}>{levelName(row.name)}</td>
          <td className={`${td} tabular-nums`}>{number(row.dinerCount)}</td>
          <td className={`${td} tabular-nums`}>{number(row.recipeCount)}</td>
          <td className={`${td} tabular-nums`} data-label={t("foodCatalogue.levels.cafes")}>
            {number(row.cafeCount)}
          </td>
        </>
      )}
      table={table}
      canManage={can.manage}
      onAdd={() => setEditing("new")}
      onEdit={setEditing}
    >
      {editing !== null && <LevelDialog level={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </CatalogueSection>
  );
}

/** The level dialog: its name. */
function LevelDialog({ level, onClose }: { level: LevelRow | null; onClose: () => void }) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ name: level?.name ?? "" });
  return (
    <FormDialog
      title={level ? t("foodCatalogue.levels.edit_title", { name: level.name }) : t("foodCatalogue.levels.new_title")}
      description={level ? t("foodCatalogue.levels.dialog_description") : undefined}
      words="foodCatalogue"
      roomy
      form={form}
      fields={["name"]}
      send={
        level
          ? { method: "patch", url: route("food.levels.update", { level: level.id }), preserveState: true }
          : { method: "post", url: route("food.levels.store"), preserveState: true }
      }
      onClose={onClose}
    >
      <Field label={t("foodCatalogue.levels.name")} required maxLength={60} {...textField(form, "name")} />
    </FormDialog>
  );
}
