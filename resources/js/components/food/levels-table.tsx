/**
 * The levels table: the diner levels in their order (the order recipes and pickers list them in), each with how
 * many diners, recipes and cafes use it. With food.manage, a level is added or renamed in the level dialog, moved up
 * or down with buttons, and deleted after a confirmation (the server refuses one in use, saying by how many diners,
 * recipes and cafes). The table exports as shown.
 *
 *     <LevelsTable rows={levels} can={{ manage: can.manageFood }} />
 */
import { useForm } from "@inertiajs/react";
import { Download, Pencil, Plus, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import type { LevelRow } from "../../../../src/shared/food/types";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { Table, td } from "../data-table";
import { Button, buttonClasses, IconButton } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { MoveButtons, TableMessages, useCatalogueRows } from "./catalogue-rows";

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
  const headers = [
    t("foodCatalogue.levels.name"),
    t("foodCatalogue.levels.diners"),
    t("foodCatalogue.levels.recipes"),
    <abbr key="cafes" title={t("foodCatalogue.levels.cafes_hint")} className="no-underline">
      {t("foodCatalogue.levels.cafes")}
    </abbr>,
    ...(can.manage ? [t("foodCatalogue.order"), t("foodCatalogue.actions")] : []),
  ];
  return (
    <section className="space-y-4" aria-labelledby="levels-table-title">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-2xl space-y-1">
          <h2 id="levels-table-title" className="text-lg font-semibold">
            {t("foodCatalogue.levels.title")}
          </h2>
          <p className="text-sm text-muted-foreground">{t("foodCatalogue.levels.intro")}</p>
          {!can.manage && <p className="text-sm text-muted-foreground">{t("foodCatalogue.read_only")}</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={route("food.levels.export")} download className={buttonClasses("outline")}>
            <Download className="size-4" aria-hidden="true" />
            {t("foodCatalogue.export")}
          </a>
          {can.manage && (
            <Button onClick={() => setEditing("new")}>
              <Plus className="size-4" aria-hidden="true" />
              {t("foodCatalogue.levels.add")}
            </Button>
          )}
        </div>
      </div>
      <TableMessages problem={table.problem} announcement={table.announcement} />
      <div ref={table.tableRef}>
        <Table
          caption={t("foodCatalogue.levels.title")}
          headers={headers}
          actions={can.manage}
          empty={rows.length === 0 ? t("foodCatalogue.levels.empty") : null}
        >
          {rows.map((row, index) => (
            <tr key={row.id} data-testid="level-row">
              <td className={`${td} font-medium`}>{levelName(row.name)}</td>
              <td className={`${td} tabular-nums`}>{number(row.dinerCount)}</td>
              <td className={`${td} tabular-nums`}>{number(row.recipeCount)}</td>
              <td className={`${td} tabular-nums`} data-label={t("foodCatalogue.levels.cafes")}>
                {number(row.cafeCount)}
              </td>
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
      {editing !== null && <LevelDialog level={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

/** The level dialog: its name. */
function LevelDialog({ level, onClose }: { level: LevelRow | null; onClose: () => void }) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ name: level?.name ?? "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = { preserveScroll: true, preserveState: true, onSuccess: onClose };
    if (level) form.patch(route("food.levels.update", { level: level.id }), options);
    else form.post(route("food.levels.store"), options);
  };
  const errors = form.errors as Record<string, string | undefined>;
  return (
    <Dialog
      open
      onClose={onClose}
      title={level ? t("foodCatalogue.levels.edit_title", { name: level.name }) : t("foodCatalogue.levels.new_title")}
      description={level ? t("foodCatalogue.levels.dialog_description") : undefined}
      closeLabel={t("foodCatalogue.close")}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          label={t("foodCatalogue.levels.name")}
          name="name"
          required
          maxLength={60}
          value={form.data.name}
          onChange={(e) => form.setData("name", e.target.value)}
          error={errors.name}
        />
        <OtherErrors errors={errors} fields={["name"]} />
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
