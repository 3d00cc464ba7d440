/**
 * Compras (what to buy): for one cafe of the viewer's scope and a date range (at most 62 days), the expected servings
 * per day and meal service (editable by menu.manage, or loaded from the client's forecast), and what the published
 * menu needs bought: by provider, in the cheapest mix of whole presentations of the provider's (with a note when a
 * larger one is cheaper per unit), with the cost net of IGV; the ingredients without an offer
 * in the cafe's city and the dishes without a recipe apart; and the Excel workbook, made in the background.
 */
import { Head, router } from "@inertiajs/react";
import { AlertTriangle, Info } from "lucide-react";
import { Fragment, useState, type FormEvent } from "react";
import type { ExpectedServings } from "../../../../src/shared/menu/types";
import type { BaseUnit, Requirements } from "../../../../src/shared/menu/types";
import { largerPackNoteWords } from "../../../../src/shared/menu/requirements-note";
import type { RequirementsJobView } from "../../../../src/shared/menu/types";
import { MenuTabs } from "../../components/menu/menu-tabs";
import { RequirementsExport } from "../../components/menu/requirements-export";
import { RequirementsServings } from "../../components/menu/requirements-servings";
import type { MenuCafe, MenuTab } from "../../components/menu/structure-types";
import { Button } from "../../components/ui/button";
import { DateField } from "../../components/ui/date-picker";
import { PageHeader } from "../../components/ui/page-header";
import { ScrollRegion } from "../../components/ui/scroll-region";
import { SelectField } from "../../components/ui/select-field";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";

interface Props {
  tabs: MenuTab[];
  cafes: MenuCafe[];
  cafe: { id: number; name: string; cityName: string | null } | null;
  range: { from: string; to: string };
  rangeErrors: Record<string, string>;
  servings: ExpectedServings | null;
  requirements: Pick<
    Requirements,
    "level" | "publishedDays" | "dishServings" | "providers" | "missing" | "dishesWithoutRecipe" | "totalCents"
  > | null;
  /** Why there is nothing to buy from (a cafe without a city). */
  problem: string | null;
  forecastMaxRows: number;
  can: { manage: boolean };
  job: RequirementsJobView | null;
}

export default function MenuRequirements({
  tabs,
  cafes,
  cafe,
  range,
  rangeErrors,
  servings,
  requirements,
  problem,
  forecastMaxRows,
  can,
  job,
}: Props) {
  const { t, money, number, levelName, locale } = useI18n();
  const route = useRoute();
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const show = (event: FormEvent) => {
    event.preventDefault();
    if (cafe) router.get(route("menu.requirements", { cafe: cafe.id, from, to }));
  };
  const unit = (u: BaseUnit) => t(`menuRequirements.units.${u}`);
  const amount = (value: number, u: BaseUnit) => `${number(Math.round(value * 100) / 100)} ${unit(u)}`;

  return (
    <>
      <Head title={t("menuRequirements.title")} />
      <div className="space-y-6">
        <PageHeader
          title={t("menuRequirements.title")}
          description={t("menuRequirements.description")}
          tabs={<MenuTabs tabs={tabs} current="requirements" cafeId={cafe?.id} />}
          actions={
            cafe && requirements ? (
              <RequirementsExport
                cafeId={cafe.id}
                from={range.from}
                to={range.to}
                initial={job}
                disabled={Object.keys(rangeErrors).length > 0}
              />
            ) : undefined
          }
        />

        {cafes.length === 0 || !cafe ? (
          <p className="rounded-lg border border-dashed p-6 text-sm text-muted-foreground">
            {t("menuRequirements.no_cafes")}
          </p>
        ) : (
          <>
            <form onSubmit={show} className="flex flex-wrap items-end gap-3" data-testid="requirements-filters">
              <div className="w-full max-w-sm">
                <SelectField
                  label={t("menuRequirements.cafe")}
                  value={String(cafe.id)}
                  searchable={cafes.length > 8}
                  onValueChange={(value) => router.get(route("menu.requirements", { cafe: value, from, to }))}
                  options={cafes.map((c) => ({ value: String(c.id), label: c.path }))}
                  data-testid="cafe-picker"
                />
              </div>
              <DateField
                label={t("menuRequirements.from")}
                value={from}
                onChange={setFrom}
                max={to || undefined}
                error={rangeErrors.from}
                data-testid="requirements-from"
              />
              <DateField
                label={t("menuRequirements.to")}
                value={to}
                onChange={setTo}
                min={from || undefined}
                error={rangeErrors.to}
                data-testid="requirements-to"
              />
              <Button type="submit" variant="outline" data-testid="requirements-show">
                {t("menuRequirements.show")}
              </Button>
            </form>

            {servings && (
              <RequirementsServings
                cafeId={cafe.id}
                servings={servings}
                canManage={can.manage}
                forecastMaxRows={forecastMaxRows}
              />
            )}

            <section aria-labelledby="needs-title" className="space-y-4" data-testid="requirements-needs">
              <div>
                <h2 id="needs-title" className="text-lg font-semibold">
                  {t("menuRequirements.needs.title")}
                </h2>
                {requirements && cafe.cityName && (
                  <p className="text-sm text-muted-foreground">
                    {t("menuRequirements.level_city", {
                      level: levelName(requirements.level.name),
                      city: cafe.cityName,
                    })}{" "}
                    · {t("menuRequirements.needs.published_days", { count: requirements.publishedDays })} ·{" "}
                    {t("menuRequirements.needs.dish_servings", { count: requirements.dishServings })}
                  </p>
                )}
              </div>
              {problem && (
                <p role="alert" className="flex items-center gap-2 text-sm text-destructive">
                  <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
                  {problem}
                </p>
              )}
              {requirements && requirements.publishedDays === 0 && (
                <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
                  {t("menuRequirements.needs.nothing_published")}
                </p>
              )}
              {requirements?.providers.map((p) => (
                <ScrollRegion
                  key={p.providerId}
                  aria-label={p.providerName}
                  className="relative overflow-x-auto overflow-y-visible rounded-lg border"
                  data-testid="requirements-provider"
                >
                  <table className="w-full text-sm">
                    <caption className="px-3 py-2 text-left">
                      <span className="font-medium">{p.providerName}</span>
                      <span className="ml-2 text-xs text-muted-foreground">
                        {t("menuRequirements.columns.ruc")} {p.ruc}
                        {p.contact ? ` · ${p.contact}` : ""}
                        {p.phone ? ` · ${p.phone}` : ""}
                      </span>
                    </caption>
                    <thead className="bg-muted/50 text-left">
                      <tr>
                        <th scope="col" className="px-3 py-2 font-medium">
                          {t("menuRequirements.columns.ingredient")}
                        </th>
                        <th scope="col" className="px-3 py-2 text-right font-medium">
                          {t("menuRequirements.columns.needed")}
                        </th>
                        <th scope="col" className="px-3 py-2 font-medium">
                          {t("menuRequirements.columns.presentation")}
                        </th>
                        <th scope="col" className="px-3 py-2 text-right font-medium">
                          {t("menuRequirements.columns.presentations")}
                        </th>
                        <th scope="col" className="px-3 py-2 text-right font-medium">
                          {t("menuRequirements.columns.unit_price")}
                        </th>
                        <th scope="col" className="px-3 py-2 text-right font-medium">
                          {t("menuRequirements.columns.cost")}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {p.lines.map((l) => {
                        const note = largerPackNoteWords(l, locale);
                        return (
                          <Fragment key={l.ingredientId}>
                            <tr className="border-t align-top" data-testid="requirements-line">
                              <th scope="row" className="px-3 py-1.5 text-left font-normal">
                                {l.ingredientName}
                                <span className="block text-xs text-muted-foreground">{l.categoryName}</span>
                              </th>
                              <td className="px-3 py-1.5 text-right tabular-nums">
                                {amount(l.neededQuantity, l.baseUnit)}
                              </td>
                              <td className="px-3 py-1.5">
                                {l.packs.map((pack) => (
                                  <span key={pack.offerId} className="block">
                                    {pack.presentation}
                                    <span className="ml-1 text-xs text-muted-foreground">
                                      ({amount(pack.presentationQuantity, l.baseUnit)})
                                    </span>
                                  </span>
                                ))}
                              </td>
                              <td className="px-3 py-1.5 text-right tabular-nums">
                                {l.packs.map((pack) => (
                                  <span key={pack.offerId} className="block">
                                    {number(pack.presentations)}
                                  </span>
                                ))}
                              </td>
                              <td className="px-3 py-1.5 text-right tabular-nums">
                                {l.packs.map((pack) => (
                                  <span key={pack.offerId} className="block">
                                    {money(Math.round(pack.presentationNetCents))}
                                  </span>
                                ))}
                              </td>
                              <td className="px-3 py-1.5 text-right font-medium tabular-nums">{money(l.costCents)}</td>
                            </tr>
                            {note && (
                              <tr data-testid="requirements-larger-pack">
                                <td colSpan={6} className="px-3 pb-2 text-xs text-muted-foreground">
                                  <Info className="mr-1 inline size-3.5 align-text-bottom" aria-hidden="true" />
                                  {t(note.key, note.params)}
                                </td>
                              </tr>
                            )}
                          </Fragment>
                        );
                      })}
                    </tbody>
                    <tfoot>
                      <tr className="border-t bg-muted/30">
                        <th scope="row" colSpan={5} className="px-3 py-2 text-right font-medium">
                          {t("menuRequirements.needs.provider_total", { provider: p.providerName })}
                        </th>
                        <td className="px-3 py-2 text-right font-semibold tabular-nums">{money(p.totalCents)}</td>
                      </tr>
                    </tfoot>
                  </table>
                </ScrollRegion>
              ))}
              {requirements && requirements.providers.length > 0 && (
                <p className="text-right text-base font-semibold" data-testid="requirements-total">
                  {t("menuRequirements.needs.total")}: {money(requirements.totalCents)}
                </p>
              )}

              {requirements && requirements.missing.length > 0 && (
                <div className="space-y-2 rounded-lg border border-warning/50 p-3" data-testid="requirements-missing">
                  <h3 className="font-medium">
                    {t("menuRequirements.needs.missing_title", { city: cafe.cityName ?? "" })}
                  </h3>
                  <p className="text-sm text-muted-foreground">{t("menuRequirements.needs.missing_help")}</p>
                  <ul className="space-y-1 text-sm">
                    {requirements.missing.map((m) => (
                      <li key={m.ingredientId}>
                        <span className="font-medium">{m.ingredientName}</span>: {amount(m.neededQuantity, m.baseUnit)}
                        <span className="text-muted-foreground"> · {m.dishes.join(", ")}</span>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              {requirements && requirements.dishesWithoutRecipe.length > 0 && (
                <div className="space-y-2 rounded-lg border p-3" data-testid="requirements-no-recipe">
                  <h3 className="font-medium">{t("menuRequirements.needs.no_recipe_title")}</h3>
                  <p className="text-sm text-muted-foreground">{t("menuRequirements.needs.no_recipe_help")}</p>
                  <ul className="space-y-1 text-sm">
                    {requirements.dishesWithoutRecipe.map((d) => (
                      <li key={d.dishId}>
                        {d.dishName} · {t("menuRequirements.needs.dish_servings", { count: d.servings })}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </section>
          </>
        )}
      </div>
    </>
  );
}
