/**
 * The filters of the Sales page: the range of service dates (the project's date picker), cafe, dealership,
 * subdealership, service, sale type, other unit and status. Each change reloads the page's data with the filter in
 * the URL (back on the first page), so a link, the back button and the export show the same lines. Fields the server
 * could not read come back as messages under them.
 */
import { router } from "@inertiajs/react";
import { FilterX } from "lucide-react";
import { useI18n } from "../../hooks/use-i18n";
import { visitWith } from "../data-table";
import { Button } from "../ui/button";
import { DateField } from "../ui/date-picker";
import { SelectField, type SelectOption } from "../ui/select-field";
import type { SalesFilterOptions, SalesFilterQuery } from "./types";
import type { TranslationKey } from "../../../../src/shared/i18n";

/** The query-string fields the filters set, besides the range. */
const FILTER_FIELDS = [
  "cafe_ids",
  "dealership_id",
  "subdealership_id",
  "service_ids",
  "sale_type",
  "other_unit",
  "status",
] as const;

/** Whether any filter other than the default range is set. */
export function hasFilters(filters: SalesFilterQuery): boolean {
  return FILTER_FIELDS.some((field) => filters[field] !== undefined);
}

export function SalesFilters({
  filters,
  errors,
  options,
  today,
  clearHref,
}: {
  filters: SalesFilterQuery;
  errors: Record<string, string>;
  options: SalesFilterOptions;
  today: string;
  /** The page without any filter (the default range). */
  clearHref: string;
}) {
  const { t } = useI18n();
  // A change of one filter keeps the others and goes back to the first page.
  const set = (changes: Partial<Record<keyof SalesFilterQuery, string | null>>) =>
    visitWith({ ...changes, page: null });
  const all = (label: string): SelectOption => ({ value: "", label });

  const cafeOptions: SelectOption[] = [
    all(t("sales.page.filters.all_cafes")),
    ...options.cafes.map((cafe) => ({
      value: String(cafe.id),
      label: cafe.name,
      group: `${cafe.mine} › ${cafe.unit}`,
    })),
  ];
  // A link may name several cafes or services: they are one choice here.
  const several = (value: string | undefined, key: TranslationKey): SelectOption[] =>
    value && value.includes(",") ? [{ value, label: t(key, { count: value.split(",").length }) }] : [];
  const dealership = filters.dealership_id ?? "";
  const subdealerships = options.subdealerships.filter(
    (sub) => dealership === "" || String(sub.dealershipId) === dealership,
  );

  return (
    <section aria-label={t("sales.page.filters.label")} className="space-y-3 rounded-xl border bg-card p-3 sm:p-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <DateField
          label={t("sales.page.filters.from")}
          value={filters.from}
          max={filters.to || today}
          error={errors.from}
          onChange={(from) => set({ from: from || null })}
        />
        <DateField
          label={t("sales.page.filters.to")}
          value={filters.to}
          min={filters.from}
          max={today}
          error={errors.to}
          onChange={(to) => set({ to: to || null })}
        />
        <SelectField
          label={t("sales.page.filters.cafe")}
          value={filters.cafe_ids ?? ""}
          error={errors.cafe_ids}
          searchable={options.cafes.length > 8}
          options={[...cafeOptions, ...several(filters.cafe_ids, "sales.page.filters.several_cafes")]}
          onValueChange={(value) => set({ cafe_ids: value })}
          data-testid="sales-cafe"
        />
        <SelectField
          label={t("sales.page.filters.service")}
          value={filters.service_ids ?? ""}
          error={errors.service_ids}
          options={[
            all(t("sales.page.filters.all_services")),
            ...options.services.map((service) => ({
              value: String(service.id),
              label: `${service.code} · ${service.name}`,
            })),
            ...several(filters.service_ids, "sales.page.filters.several_services"),
          ]}
          onValueChange={(value) => set({ service_ids: value })}
          data-testid="sales-service"
        />
        <SelectField
          label={t("sales.page.filters.dealership")}
          value={dealership}
          error={errors.dealership_id}
          searchable={options.dealerships.length > 8}
          options={[
            all(t("sales.page.filters.all_dealerships")),
            ...options.dealerships.map((d) => ({ value: String(d.id), label: d.name })),
          ]}
          // A subdealership of another dealership would show nothing: it is dropped with the change.
          onValueChange={(value) => set({ dealership_id: value, subdealership_id: null })}
          data-testid="sales-dealership"
        />
        <SelectField
          label={t("sales.page.filters.subdealership")}
          value={filters.subdealership_id ?? ""}
          error={errors.subdealership_id}
          searchable={subdealerships.length > 8}
          options={[
            all(t("sales.page.filters.all_subdealerships")),
            ...subdealerships.map((sub) => ({ value: String(sub.id), label: sub.name })),
          ]}
          onValueChange={(value) => set({ subdealership_id: value })}
          data-testid="sales-subdealership"
        />
        <div className="grid grid-cols-2 gap-3">
          <SelectField
            label={t("sales.page.filters.sale_type")}
            value={filters.sale_type ?? ""}
            error={errors.sale_type}
            options={[
              all(t("sales.page.filters.all_types")),
              { value: "credit", label: t("sales.types.credit") },
              { value: "cash", label: t("sales.types.cash") },
            ]}
            onValueChange={(value) => set({ sale_type: value })}
            data-testid="sales-type"
          />
          <SelectField
            label={t("sales.page.filters.other_unit")}
            value={filters.other_unit ?? ""}
            error={errors.other_unit}
            options={[
              all(t("sales.page.filters.any")),
              { value: "1", label: t("sales.page.filters.other_unit_only") },
              { value: "0", label: t("sales.page.filters.own_unit_only") },
            ]}
            onValueChange={(value) => set({ other_unit: value })}
            data-testid="sales-other-unit"
          />
        </div>
        <SelectField
          label={t("sales.page.filters.status")}
          value={filters.status ?? ""}
          error={errors.status}
          options={[
            { value: "", label: t("sales.page.filters.status_valid") },
            { value: "voided", label: t("sales.page.filters.status_voided") },
            { value: "all", label: t("sales.page.filters.status_all") },
          ]}
          onValueChange={(value) => set({ status: value })}
          data-testid="sales-status"
        />
      </div>
      {hasFilters(filters) && (
        <div className="flex justify-end">
          <Button variant="ghost" size="sm" onClick={() => router.get(clearHref, {}, { preserveScroll: true })}>
            <FilterX className="size-4" aria-hidden="true" />
            {t("sales.page.filters.clear")}
          </Button>
        </div>
      )}
    </section>
  );
}
