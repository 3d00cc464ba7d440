/**
 * The management modal: one flow that finds or creates a mine, then a unit of it, then creates a cafe there with the
 * services it will sell and their prices (NewCafeServices), so a new cafe is sellable when the modal closes.
 * Searching reloads only the `placeSearch` prop (the server searches within the user's scope, and each mine and unit
 * found comes with its services); choosing "create" keeps the typed name. Units are offered only once the search for
 * the chosen mine has answered. Everything is created in one request, so a half-made place never exists.
 */
import { router, useForm } from "@inertiajs/react";
import { Check, Plus } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cityIdOf, type CityOption } from "../food/city-select";
import { cn } from "../../lib/utils";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field, inputClasses } from "../ui/field";
import { OtherErrors } from "../ui/form-errors";
import type { ServiceOption } from "../services/types";
import { CafeFields } from "./cafe-fields";
import { NewCafeServices, type ChosenServices } from "./new-cafe-services";
import type { PlaceChoice, PlaceOption, PlaceSearch } from "./types";

/** A mine or unit chosen (id null: to be created), with the services it offers (none for a new one). */
interface Choice {
  id: number | null;
  name: string;
  serviceIds: number[];
}

/**
 * The list of matches and the "create" choice for one level (mine or unit). Choosing moves focus to "Change", and
 * "Change" moves it back to the search box; the level's error shows in both views.
 */
function Picker({
  level,
  label,
  query,
  onQuery,
  options,
  chosen,
  onChoose,
  canCreate,
  error,
}: {
  level: "mine" | "unit";
  label: string;
  query: string;
  onQuery: (value: string) => void;
  options: PlaceChoice[];
  chosen: Choice | null;
  onChoose: (choice: Choice | null) => void;
  canCreate: boolean;
  error?: string;
}) {
  const { t } = useI18n();
  const errorId = useId();
  const changeRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    (chosen ? changeRef : searchRef).current?.focus();
  });
  const choose = (choice: Choice | null) => {
    refocus.current = true;
    onChoose(choice);
  };
  const errorProps = { "aria-invalid": error ? true : undefined, "aria-describedby": error ? errorId : undefined };
  const message = error && (
    <p id={errorId} role="alert" className="text-sm text-destructive">
      {error}
    </p>
  );
  const typed = query.trim();
  const exact = options.some((o) => o.name.toLowerCase() === typed.toLowerCase());
  if (chosen) {
    return (
      <div className="space-y-2">
        <div
          className={cn(
            "flex items-center justify-between gap-2 rounded-md border bg-muted/40 px-3 py-2",
            error && "border-destructive",
          )}
        >
          <span className="text-sm">
            <span className="text-muted-foreground">{label}: </span>
            <strong>{chosen.name}</strong>
            {chosen.id === null && (
              <span className="ml-2 rounded bg-primary/10 px-1.5 py-0.5 text-xs">{t("management.new_badge")}</span>
            )}
          </span>
          <button
            ref={changeRef}
            type="button"
            className="text-sm underline"
            onClick={() => choose(null)}
            aria-label={t("management.change_choice", { level: label })}
            {...errorProps}
          >
            {t("management.change")}
          </button>
        </div>
        {message}
      </div>
    );
  }
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{label}</legend>
      <input
        ref={searchRef}
        type="search"
        aria-label={t(`management.search_${level}`)}
        placeholder={t(`management.search_${level}`)}
        className={inputClasses}
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        {...errorProps}
      />
      <ul className="max-h-48 space-y-1 overflow-auto" aria-label={t("management.matches", { level: label })}>
        {options.map((option) => (
          <li key={option.id}>
            <button
              type="button"
              className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:bg-accent"
              onClick={() => choose(option)}
            >
              <Check className="size-4 text-muted-foreground" aria-hidden="true" />
              {option.name}
            </button>
          </li>
        ))}
        {canCreate && typed.length >= 2 && !exact && (
          <li>
            <button
              type="button"
              className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm font-medium hover:bg-accent focus-visible:bg-accent"
              onClick={() => choose({ id: null, name: typed, serviceIds: [] })}
            >
              <Plus className="size-4" aria-hidden="true" />
              {t(`management.create_${level}`, { name: typed })}
            </button>
          </li>
        )}
      </ul>
      {message}
    </fieldset>
  );
}

export function PlaceDialog({
  search,
  services,
  canSetPrices,
  businesses,
  timeZones,
  defaultTimeZone,
  cities,
  allPlaces,
  onClose,
}: {
  search: PlaceSearch | undefined;
  /** The services catalogue (a new mine's cafe may offer any active one). */
  services: ServiceOption[];
  /** May type the new cafe's prices (prices.manage). */
  canSetPrices: boolean;
  businesses: PlaceOption[];
  timeZones: string[];
  defaultTimeZone: string;
  cities: CityOption[];
  allPlaces: boolean;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const route = useRoute();
  const [mine, setMine] = useState<Choice | null>(null);
  const [unit, setUnit] = useState<Choice | null>(null);
  const [mineQuery, setMineQuery] = useState("");
  const [unitQuery, setUnitQuery] = useState("");
  const [chosenServices, setChosenServices] = useState<ChosenServices>({});
  const form = useForm({
    cafe_name: "",
    business_id: businesses.length === 1 ? String(businesses[0].id) : "",
    time_zone: defaultTimeZone,
    city_id: "",
  });
  const first = useRef(true);
  // The mine whose units `search.units` holds: the one of the last search that answered.
  const [unitsOf, setUnitsOf] = useState<number | null>(null);
  const searchPlaces = (data: { mine_search: string; mine?: number; unit_search?: string }) =>
    router.reload({ only: ["placeSearch"], data, onSuccess: () => setUnitsOf(data.mine ?? null) });

  // Search as the user types (after a short pause), within the chosen mine for units.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      searchPlaces({ mine_search: "" });
      return;
    }
    const timer = window.setTimeout(
      () => searchPlaces({ mine_search: mineQuery, mine: mine?.id ?? undefined, unit_search: unitQuery }),
      200,
    );
    return () => window.clearTimeout(timer);
  }, [mineQuery, unitQuery, mine?.id]);

  const chooseMine = (choice: Choice | null) => {
    setMine(choice);
    setUnit(null);
    setUnitQuery("");
    setChosenServices({});
  };
  // The services the unit offers start ticked: a cafe usually sells what its unit offers.
  const chooseUnit = (choice: Choice | null) => {
    setUnit(choice);
    setChosenServices(
      Object.fromEntries((choice?.serviceIds ?? []).map((id) => [id, { checked: true, price: "" }])) as ChosenServices,
    );
  };
  // What the new cafe may offer: the mine's services, or the active catalogue for a new mine.
  const serviceChoices = services.filter((s) =>
    mine && mine.id !== null ? mine.serviceIds.includes(s.id) && s.active : s.active,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.transform((data) => ({
      mine_id: mine?.id ?? null,
      mine_name: mine && mine.id === null ? mine.name : undefined,
      unit_id: unit?.id ?? null,
      unit_name: unit && unit.id === null ? unit.name : undefined,
      cafe_name: data.cafe_name,
      business_id: data.business_id ? Number(data.business_id) : null,
      time_zone: data.time_zone,
      city_id: cityIdOf(data.city_id),
      services: serviceChoices
        .filter((s) => chosenServices[s.id]?.checked)
        .map((s) => ({
          service_id: s.id,
          ...(canSetPrices ? { price: chosenServices[s.id].price.trim() } : {}),
        })),
    }));
    form.post(route("management.store"), { preserveScroll: true, onSuccess: () => onClose() });
  };

  const errors = form.errors as Record<string, string | undefined>;
  return (
    <Dialog
      open
      onClose={onClose}
      title={t("management.new_place_title")}
      description={t(allPlaces ? "management.new_place_description" : "management.new_place_description_scoped")}
      closeLabel={t("management.close")}
      wide
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <ol className="space-y-4">
          <li>
            <Picker
              level="mine"
              label={t("management.mine")}
              query={mineQuery}
              onQuery={setMineQuery}
              options={search?.mines ?? []}
              chosen={mine}
              onChoose={chooseMine}
              canCreate
              error={errors.mine_name ?? errors.mine_id}
            />
          </li>
          <li>
            {mine ? (
              <Picker
                level="unit"
                label={t("management.unit")}
                query={unitQuery}
                onQuery={setUnitQuery}
                options={mine.id !== null && mine.id === unitsOf ? (search?.units ?? []) : []}
                chosen={unit}
                onChoose={chooseUnit}
                canCreate
                error={errors.unit_name ?? errors.unit_id}
              />
            ) : (
              <p className="text-sm text-muted-foreground">{t("management.choose_mine_first")}</p>
            )}
          </li>
          <li className="space-y-3">
            {unit ? (
              <fieldset className="space-y-3">
                <legend className="text-sm font-medium">{t("management.cafe")}</legend>
                <Field
                  label={t("management.cafe_name")}
                  name="cafe_name"
                  maxLength={80}
                  required={!allPlaces}
                  hint={allPlaces ? t("management.cafe_optional") : undefined}
                  value={form.data.cafe_name}
                  onChange={(e) => form.setData("cafe_name", e.target.value)}
                  error={errors.cafe_name}
                />
                <CafeFields
                  form={form}
                  businesses={businesses}
                  timeZones={timeZones}
                  defaultTimeZone={defaultTimeZone}
                  cities={cities}
                />
              </fieldset>
            ) : (
              <p className="text-sm text-muted-foreground">{t("management.choose_unit_first")}</p>
            )}
          </li>
          {unit && (
            <li>
              <NewCafeServices
                choices={serviceChoices}
                unitServiceIds={unit.id === null ? [] : unit.serviceIds}
                newMine={mine?.id === null}
                unitName={unit.name}
                chosen={chosenServices}
                onChange={setChosenServices}
                canSetPrices={canSetPrices}
                errors={errors}
              />
            </li>
          )}
        </ol>
        <OtherErrors
          errors={errors}
          fields={[
            "mine_id",
            "mine_name",
            "unit_id",
            "unit_name",
            "cafe_name",
            "business_id",
            "time_zone",
            "city_id",
            "services",
            ...serviceChoices.flatMap((s) => [`services.${s.id}`, `prices.${s.id}`]),
          ]}
        />
        <DialogActions
          onCancel={onClose}
          cancelLabel={t("management.cancel")}
          submitLabel={t("management.create")}
          busy={form.processing}
        />
      </form>
    </Dialog>
  );
}
