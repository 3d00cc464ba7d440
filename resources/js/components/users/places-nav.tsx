/**
 * The Users page's places: mines → units → cafes and businesses → headquarters, each a link that filters the people.
 * With hundreds of cafes the tree would fill the page before any person, so it is searched (accents ignored), shows
 * its groups collapsed (past GROUPS_OPEN of them) except the one holding the chosen place, and lists GROUPS_SHOWN groups at a time. On a phone
 * the whole tree folds into one button.
 */
import { ChevronRight, Building2, MapPin } from "lucide-react";
import { useState, type ReactNode } from "react";
import { foldText } from "../../../../src/shared/fold";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import type { PlaceTree } from "./types";

const GROUPS_SHOWN = 8;
/** Up to this many groups, all start open: collapsing is for long trees. */
const GROUPS_OPEN = 3;

type Link = (params: { cafe?: number; headquarters?: number }, label: string, active: boolean) => ReactNode;

interface Group {
  key: string;
  name: string;
  icon: "mine" | "business";
  /** Whether the chosen place is inside: the group starts open. */
  holdsChosen: boolean;
  body: ReactNode;
}

export function PlacesNav({
  places,
  chosenCafe,
  chosenHeadquarters,
  link,
}: {
  places: PlaceTree;
  chosenCafe: number | null;
  chosenHeadquarters: number | null;
  link: Link;
}) {
  const { t } = useI18n();
  const [query, setQuery] = useState("");
  const [openOnPhone, setOpenOnPhone] = useState(false);
  const [shown, setShown] = useState(GROUPS_SHOWN);
  const folded = foldText(query.trim());
  const matches = (...names: string[]) => folded === "" || names.some((name) => foldText(name).includes(folded));

  const groups: Group[] = [];
  for (const mine of places.mines) {
    const units = mine.units
      .map((unit) => ({ ...unit, cafes: unit.cafes.filter((cafe) => matches(mine.name, unit.name, cafe.name)) }))
      .filter((unit) => unit.cafes.length > 0);
    if (units.length === 0) continue;
    groups.push({
      key: `mine-${mine.id}`,
      name: mine.name,
      icon: "mine",
      holdsChosen: units.some((unit) => unit.cafes.some((cafe) => cafe.id === chosenCafe)),
      body: units.map((unit) => (
        <div key={unit.id} className="ml-2">
          <p className="px-2 text-xs text-muted-foreground">{unit.name}</p>
          {unit.cafes.map((cafe) => (
            <div key={cafe.id} className="ml-2">
              {link({ cafe: cafe.id }, cafe.name, chosenCafe === cafe.id)}
            </div>
          ))}
        </div>
      )),
    });
  }
  for (const business of places.businesses) {
    const headquarters = business.headquarters.filter((hq) => matches(business.name, hq.name));
    if (headquarters.length === 0) continue;
    groups.push({
      key: `business-${business.id}`,
      name: business.name,
      icon: "business",
      holdsChosen: headquarters.some((hq) => hq.id === chosenHeadquarters),
      body: headquarters.map((hq) => (
        <div key={hq.id} className="ml-2">
          {link({ headquarters: hq.id }, hq.name, chosenHeadquarters === hq.id)}
        </div>
      )),
    });
  }

  const searching = folded !== "";
  // The group of the chosen place stays in view even past the groups shown.
  const visible = groups.filter((group, index) => index < shown || group.holdsChosen);

  return (
    <div className="lg:w-60 lg:shrink-0">
      <button
        type="button"
        className="flex w-full items-center gap-1 rounded-md px-2 py-1 text-sm font-semibold hover:bg-accent lg:hidden"
        aria-expanded={openOnPhone}
        aria-controls="users-places"
        onClick={() => setOpenOnPhone((open) => !open)}
      >
        <ChevronRight className={cn("size-4 transition-transform", openOnPhone && "rotate-90")} aria-hidden="true" />
        {t("access.users.places")}
      </button>
      <h2 className="hidden px-2 text-sm font-semibold lg:block">{t("access.users.places")}</h2>
      <nav
        id="users-places"
        aria-label={t("access.users.places")}
        className={cn("mt-2 space-y-2 lg:block", openOnPhone ? "block" : "hidden")}
      >
        <input
          type="search"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setShown(GROUPS_SHOWN);
          }}
          placeholder={t("access.users.places_search")}
          aria-label={t("access.users.places_search")}
          className="h-9 w-full rounded-md border border-input bg-background px-3 text-sm"
        />
        {link({}, t("access.users.all_places"), chosenCafe === null && chosenHeadquarters === null)}
        {visible.map((group) => (
          <details
            key={group.key}
            open={searching || group.holdsChosen || groups.length <= GROUPS_OPEN}
            className="group/place"
          >
            <summary className="flex cursor-pointer list-none items-center gap-1 rounded-md px-2 py-1 text-xs font-semibold uppercase text-muted-foreground hover:bg-accent">
              <ChevronRight className="size-3 transition-transform group-open/place:rotate-90" aria-hidden="true" />
              {group.icon === "mine" ? (
                <MapPin className="size-3" aria-hidden="true" />
              ) : (
                <Building2 className="size-3" aria-hidden="true" />
              )}
              <span className="truncate" title={group.name}>
                {group.name}
              </span>
            </summary>
            <div className="mt-1">{group.body}</div>
          </details>
        ))}
        {groups.length === 0 && <p className="px-2 text-sm text-muted-foreground">{t("access.users.places_none")}</p>}
        {groups.length > shown && (
          <button
            type="button"
            className="px-2 text-sm font-medium text-primary underline underline-offset-2"
            onClick={() => setShown((n) => n + GROUPS_SHOWN)}
          >
            {t("access.users.places_more", { count: groups.length - shown })}
          </button>
        )}
      </nav>
    </div>
  );
}
