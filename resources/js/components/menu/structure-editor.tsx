/**
 * The editor of one service's structure at a cafe: its categories in order (added from the menu table, moved up and
 * down with buttons a keyboard reaches, removed), each with its reference serving in the category's unit, share of
 * the plate and lowest and highest cost per serving in soles; the totals against the price update as one types.
 * Saving replaces the structure (menu.structures.update); the server checks everything again.
 */
import { router, useForm } from "@inertiajs/react";
import { ArrowDown, ArrowUp, Plus, Trash2, X } from "lucide-react";
import { useMemo, useRef, useState, type FormEvent } from "react";
import { centsToSoles, parseSoles } from "../../../../src/shared/money";
import { structureTotals } from "../../../../src/shared/menu/structure-totals";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";
import { useConfirm } from "../ui/alert-dialog";
import { Button, IconButton } from "../ui/button";
import { inputClasses } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import { Select } from "../ui/select";
import { StructureTotalsPanel } from "./structure-totals";
import type { CategoryOption, DraftItem, MenuCafe, ServiceStructure } from "./structure-types";

/**
 * The saved items' keys follow from their place, the same on the server and in the browser (a counter shared by the
 * server's renders would differ from the browser's and break hydration); items added later get "added-N".
 */
function draftOf(structure: ServiceStructure): DraftItem[] {
  return structure.items.map((i, index) => ({
    key: `saved-${index}`,
    categoryId: i.categoryId,
    serving: String(i.servingAmount),
    share: String(i.sharePercent),
    minCost: centsToSoles(i.minCostCents),
    maxCost: centsToSoles(i.maxCostCents),
  }));
}

/** A typed number, or 0 while it is not one (the totals count what can be read). */
const numberOf = (text: string) => {
  const value = Number(text.replace(",", ".").trim());
  return Number.isFinite(value) ? value : 0;
};
const centsOf = (text: string) => (text.trim() === "" ? 0 : (parseSoles(text) ?? 0));

const same = (a: DraftItem[], b: DraftItem[]) =>
  a.length === b.length &&
  a.every(
    (x, i) =>
      x.categoryId === b[i].categoryId &&
      x.serving === b[i].serving &&
      x.share === b[i].share &&
      x.minCost === b[i].minCost &&
      x.maxCost === b[i].maxCost,
  );

export function StructureEditor({
  cafe,
  structure,
  categories,
  igvRate,
  canManage,
  onDirtyChange,
}: {
  cafe: MenuCafe;
  structure: ServiceStructure;
  categories: CategoryOption[];
  igvRate: number;
  canManage: boolean;
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const confirm = useConfirm();
  const initial = useMemo(() => draftOf(structure), [structure]);
  const added = useRef(0);
  const form = useForm<{ items: DraftItem[] }>({ items: initial });
  const items = form.data.items;
  const errors = form.errors as Record<string, string>;
  const [adding, setAdding] = useState("");
  const table = useRef<HTMLTableSectionElement>(null);
  const byId = useMemo(() => new Map(categories.map((c) => [c.id, c])), [categories]);
  const names = useMemo(
    () =>
      new Map([
        ...structure.items.map((i) => [i.categoryId, i.categoryName] as const),
        ...categories.map((c) => [c.id, c.name] as const),
      ]),
    [structure.items, categories],
  );
  const units = useMemo(
    () =>
      new Map([
        ...structure.items.map((i) => [i.categoryId, i.unit] as const),
        ...categories.map((c) => [c.id, c.unit] as const),
      ]),
    [structure.items, categories],
  );

  const dirty = !same(items, initial);
  const change = (next: DraftItem[]) => {
    form.setData("items", next);
    onDirtyChange?.(!same(next, initial));
  };

  const totals = structureTotals(
    items.map((i) => ({
      sharePercent: numberOf(i.share),
      minCostCents: centsOf(i.minCost),
      maxCostCents: centsOf(i.maxCost),
    })),
    structure.totals.priceCents,
    igvRate,
  );

  const available = categories.filter((c) => !items.some((i) => i.categoryId === c.id));

  const add = () => {
    const category = byId.get(Number(adding));
    if (!category) return;
    change([
      ...items,
      {
        key: `added-${++added.current}`,
        categoryId: category.id,
        serving: "",
        share: "0",
        minCost: "0.00",
        maxCost: "",
      },
    ]);
    setAdding("");
  };

  const move = (index: number, by: -1 | 1) => {
    const target = index + by;
    if (target < 0 || target >= items.length) return;
    const next = [...items];
    [next[index], next[target]] = [next[target], next[index]];
    change(next);
    // Keep the focus on the moved row's button, so the keyboard can go on moving it.
    const key = items[index].key;
    requestAnimationFrame(() => {
      const wanted = table.current?.querySelector<HTMLButtonElement>(`[data-move="${key}:${by}"]`);
      const fallback = table.current?.querySelector<HTMLButtonElement>(`[data-move="${key}:${-by}"]`);
      (wanted && !wanted.disabled ? wanted : fallback)?.focus();
    });
  };

  const remove = (index: number) => change(items.filter((_, i) => i !== index));

  const edit = (index: number, field: "serving" | "share" | "minCost" | "maxCost", value: string) =>
    change(items.map((item, i) => (i === index ? { ...item, [field]: value } : item)));

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (form.processing || !canManage) return;
    form.clearErrors();
    form.transform((data) => ({
      items: data.items.map((i) => ({
        category_id: i.categoryId,
        serving_amount: numberOf(i.serving) || i.serving,
        share_percent: numberOf(i.share),
        min_cost: i.minCost.trim() || "0",
        max_cost: i.maxCost.trim(),
      })),
    }));
    form.put(route("menu.structures.update", { cafe: cafe.id, service: structure.service.id }), {
      preserveScroll: true,
      onSuccess: () => onDirtyChange?.(false),
    });
  };

  const discard = () => {
    change(initial);
    form.clearErrors();
  };

  const destroy = async () => {
    if (
      await confirm({
        title: t("menu.structures.delete_title", { service: structure.service.name }),
        description: t("menu.structures.delete_body", { cafe: cafe.name }),
      })
    )
      router.delete(route("menu.structures.destroy", { cafe: cafe.id, service: structure.service.id }), {
        preserveScroll: true,
        onSuccess: () => onDirtyChange?.(false),
      });
  };

  const fieldKeys = items.flatMap((_, i) =>
    ["category_id", "serving_amount", "share_percent", "min_cost", "max_cost"].map((f) => `items.${i}.${f}`),
  );
  const rowError = (index: number) =>
    ["category_id", "serving_amount", "share_percent", "min_cost", "max_cost"]
      .map((f) => errors[`items.${index}.${f}`])
      .filter(Boolean)
      .join(" ");
  const invalid = (index: number, field: string) => (errors[`items.${index}.${field}`] ? true : undefined);

  return (
    <form onSubmit={save} className="space-y-4" noValidate data-testid="structure-editor">
      <OtherErrors errors={errors} fields={fieldKeys} />
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          {t("menu.structures.empty")}
        </p>
      ) : (
        <table className="w-full text-sm max-md:block">
          <caption className="sr-only">{t("menu.structures.title")}</caption>
          <thead className="text-left text-muted-foreground max-md:sr-only">
            <tr>
              <th scope="col" className="w-20 pb-2 font-medium">
                <span className="sr-only">{t("menu.structures.position", { position: "" })}</span>
              </th>
              <th scope="col" className="pb-2 font-medium">
                {t("menu.structures.category")}
              </th>
              <th scope="col" className="pb-2 text-right font-medium">
                {t("menu.structures.serving")}
              </th>
              <th scope="col" className="pb-2 text-right font-medium">
                {t("menu.structures.share")}
              </th>
              <th scope="col" className="pb-2 text-right font-medium">
                {t("menu.structures.min_cost")}
              </th>
              <th scope="col" className="pb-2 text-right font-medium">
                {t("menu.structures.max_cost")}
              </th>
              <th scope="col" className="pb-2">
                <span className="sr-only">{t("menu.structures.remove", { name: "" })}</span>
              </th>
            </tr>
          </thead>
          <tbody ref={table} className="max-md:block max-md:space-y-3">
            {items.map((item, index) => {
              const name = names.get(item.categoryId) ?? "";
              const unit = units.get(item.categoryId) ?? "g";
              const message = rowError(index);
              return (
                <tr
                  key={item.key}
                  data-testid="structure-item"
                  className="border-t align-top md:align-middle max-md:grid max-md:grid-cols-2 max-md:gap-2 max-md:rounded-lg max-md:border max-md:p-3"
                >
                  <td className="py-2 pr-2 max-md:order-first max-md:col-span-2 max-md:flex max-md:items-center max-md:justify-between">
                    <div className="flex items-center gap-1">
                      <span className="w-5 text-right text-xs tabular-nums text-muted-foreground" aria-hidden="true">
                        {index + 1}
                      </span>
                      {canManage && (
                        <>
                          <IconButton
                            label={t("menu.structures.move_up", { name })}
                            data-move={`${item.key}:-1`}
                            disabled={index === 0}
                            onClick={() => move(index, -1)}
                          >
                            <ArrowUp className="size-4" aria-hidden="true" />
                          </IconButton>
                          <IconButton
                            label={t("menu.structures.move_down", { name })}
                            data-move={`${item.key}:1`}
                            disabled={index === items.length - 1}
                            onClick={() => move(index, 1)}
                          >
                            <ArrowDown className="size-4" aria-hidden="true" />
                          </IconButton>
                        </>
                      )}
                    </div>
                    <span className="font-medium md:hidden">{name}</span>
                  </td>
                  <th scope="row" className="py-2 pr-3 text-left font-medium max-md:hidden">
                    {name}
                    {message && (
                      <span className="block text-sm font-normal text-destructive" role="alert">
                        {message}
                      </span>
                    )}
                  </th>
                  <td className="py-2 pr-2 md:text-right">
                    <label className="block text-xs text-muted-foreground">
                      <span className="md:hidden">{t("menu.structures.serving_unit", { unit })}</span>
                      <span className="flex items-center gap-1 md:justify-end">
                        <input
                          inputMode="decimal"
                          className={cn(inputClasses, "w-24 text-right font-mono text-foreground max-md:w-full")}
                          aria-label={`${name}: ${t("menu.structures.serving_unit", { unit })}`}
                          value={item.serving}
                          disabled={!canManage}
                          aria-invalid={invalid(index, "serving_amount")}
                          onChange={(e) => edit(index, "serving", e.target.value)}
                        />
                        <span className="w-5 text-xs text-muted-foreground" aria-hidden="true">
                          {unit}
                        </span>
                      </span>
                    </label>
                  </td>
                  <td className="py-2 pr-2 md:text-right">
                    <label className="block text-xs text-muted-foreground">
                      <span className="md:hidden">{t("menu.structures.share")}</span>
                      <input
                        inputMode="decimal"
                        className={cn(
                          inputClasses,
                          "w-20 text-right font-mono text-foreground max-md:w-full md:ml-auto",
                        )}
                        aria-label={`${name}: ${t("menu.structures.share")}`}
                        value={item.share}
                        disabled={!canManage}
                        aria-invalid={invalid(index, "share_percent")}
                        onChange={(e) => edit(index, "share", e.target.value)}
                      />
                    </label>
                  </td>
                  <td className="py-2 pr-2 md:text-right">
                    <label className="block text-xs text-muted-foreground">
                      <span className="md:hidden">{t("menu.structures.min_cost")}</span>
                      <input
                        inputMode="decimal"
                        placeholder="0.00"
                        className={cn(
                          inputClasses,
                          "w-24 text-right font-mono text-foreground max-md:w-full md:ml-auto",
                        )}
                        aria-label={`${name}: ${t("menu.structures.min_cost")}`}
                        value={item.minCost}
                        disabled={!canManage}
                        aria-invalid={invalid(index, "min_cost")}
                        onChange={(e) => edit(index, "minCost", e.target.value)}
                      />
                    </label>
                  </td>
                  <td className="py-2 pr-2 md:text-right">
                    <label className="block text-xs text-muted-foreground">
                      <span className="md:hidden">{t("menu.structures.max_cost")}</span>
                      <input
                        inputMode="decimal"
                        placeholder="0.00"
                        className={cn(
                          inputClasses,
                          "w-24 text-right font-mono text-foreground max-md:w-full md:ml-auto",
                        )}
                        aria-label={`${name}: ${t("menu.structures.max_cost")}`}
                        value={item.maxCost}
                        disabled={!canManage}
                        aria-invalid={invalid(index, "max_cost")}
                        onChange={(e) => edit(index, "maxCost", e.target.value)}
                      />
                    </label>
                  </td>
                  <td className="py-2 text-right max-md:col-span-2">
                    {message && (
                      <span className="block text-left text-sm text-destructive md:hidden" role="alert">
                        {message}
                      </span>
                    )}
                    {canManage && (
                      <IconButton label={t("menu.structures.remove", { name })} danger onClick={() => remove(index)}>
                        <X className="size-4" aria-hidden="true" />
                      </IconButton>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      {canManage && (
        <div className="flex flex-wrap items-end gap-2">
          {categories.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("menu.structures.no_categories")}</p>
          ) : available.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("menu.structures.all_added")}</p>
          ) : (
            <>
              <Select
                value={adding}
                onValueChange={setAdding}
                options={[
                  // A value to show while nothing is chosen, so the list stays controlled.
                  { value: "", label: t("menu.structures.add_category_placeholder"), disabled: true },
                  ...available.map((c) => ({ value: String(c.id), label: `${c.name} (${c.unit})` })),
                ]}
                aria-label={t("menu.structures.add_category_placeholder")}
                className="w-64 max-sm:w-full"
                data-testid="add-category"
              />
              <Button variant="outline" onClick={add} disabled={!adding}>
                <Plus className="size-4" aria-hidden="true" />
                {t("menu.structures.add_category")}
              </Button>
            </>
          )}
        </div>
      )}

      <StructureTotalsPanel totals={totals} igvRate={igvRate} />

      {canManage && (
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end">
          {dirty && (
            <span className="text-sm text-muted-foreground sm:mr-auto" role="status">
              {t("menu.structures.unsaved")}
            </span>
          )}
          {structure.structureId !== null && !dirty && (
            <Button variant="outline" className="text-destructive sm:mr-auto" onClick={destroy}>
              <Trash2 className="size-4" aria-hidden="true" />
              {t("menu.structures.delete")}
            </Button>
          )}
          {dirty && (
            <Button variant="outline" onClick={discard}>
              {t("menu.structures.discard")}
            </Button>
          )}
          <Button type="submit" disabled={form.processing || !dirty}>
            {t("menu.structures.save")}
          </Button>
        </div>
      )}
    </form>
  );
}
