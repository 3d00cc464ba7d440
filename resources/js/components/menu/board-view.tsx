/**
 * The menu board as a dining room reads it from across the room: today's menu large (each service, its categories,
 * each dish with its kcal and allergens), the next six days beside it (under it on a portrait screen). High contrast
 * in both themes; it fills a 1920×1080 screen and reflows for a portrait tablet. Used by the public board
 * (pages/menu/board.tsx) and the signed-in display page (pages/menu/display.tsx).
 */
import type { Board, BoardDay, BoardDish } from "../../../../src/domain/menu/board";
import { translate, type Translate } from "../../../../src/i18n";
import { cn } from "../../lib/utils";


/** "martes 24 de noviembre" in the board's language (dates are calendar dates: no time zone shift). */
function longDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale === "en" ? "en-US" : "es-PE", {
    weekday: "long",
    day: "numeric",
    month: "long",
    timeZone: "UTC",
  }).format(new Date(`${date}T00:00:00Z`));
}

function shortDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale === "en" ? "en-US" : "es-PE", {
    weekday: "short",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${date}T00:00:00Z`));
}

function Dish({ dish, t, large }: { dish: BoardDish; t: Translate; large: boolean }) {
  return (
    <li className="flex flex-col gap-1" data-testid="board-dish">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4">
        <span className={cn("font-semibold", large ? "text-[clamp(1.5rem,2.6vw,3rem)]" : "text-lg")}>{dish.name}</span>
        {dish.kcal !== null && (
          <span
            className={cn("tabular-nums whitespace-nowrap", large ? "text-[clamp(1.1rem,1.6vw,2rem)]" : "text-base")}
          >
            {t("menuBoard.board.kcal", { kcal: dish.kcal })}
          </span>
        )}
      </div>
      {dish.allergens.length > 0 && (
        <p className={cn(large ? "text-[clamp(1rem,1.3vw,1.6rem)]" : "text-sm")}>
          <span className="font-semibold">{t("menuBoard.board.allergens")}: </span>
          {dish.allergens.map((a) => a.label).join(", ")}
        </p>
      )}
    </li>
  );
}

function DayMenu({ day, t, large }: { day: BoardDay; t: Translate; large: boolean }) {
  if (day.services.length === 0)
    return (
      <p className={cn(large ? "text-[clamp(1.4rem,2vw,2.4rem)]" : "text-base")}>{t("menuBoard.board.nothing")}</p>
    );
  return (
    <div className={cn("grid gap-6", large && "lg:grid-cols-2 landscape:grid-cols-2")}>
      {day.services.map((service) => (
        <section key={service.id} aria-label={service.name} className="flex flex-col gap-3">
          <h3
            className={cn(
              "border-b-4 border-foreground pb-1 font-bold uppercase tracking-wide",
              large ? "text-[clamp(1.8rem,3vw,3.5rem)]" : "text-xl",
            )}
          >
            {service.name}
          </h3>
          {service.categories.map((category) => (
            <div key={category.id} className="flex flex-col gap-1">
              <h4
                className={cn(
                  "font-semibold uppercase text-muted-foreground",
                  large ? "text-[clamp(1rem,1.4vw,1.7rem)]" : "text-sm",
                )}
              >
                {category.name}
              </h4>
              <ul className="flex flex-col gap-2">
                {category.dishes.map((dish) => (
                  <Dish key={dish.id} dish={dish} t={t} large={large} />
                ))}
              </ul>
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}

/** The board, in its cafe's board language whatever the viewer's. */
export function BoardView({
  board,
  status,
  className,
}: {
  board: Board;
  /** A line about the live connection (the board says when it is not live). */
  status?: React.ReactNode;
  className?: string;
}) {
  const locale = board.language;
  const t: Translate = (key, params) => translate(locale, key, params);
  const [today, ...week] = board.days;
  return (
    <div
      className={cn(
        "grid min-h-full gap-8 bg-background p-[clamp(1rem,2.5vw,3rem)] text-foreground",
        "landscape:grid-cols-[2fr_1fr] portrait:grid-cols-1",
        className,
      )}
      data-testid="menu-board"
    >
      <section aria-labelledby="board-today" className="flex flex-col gap-6">
        <header className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <p className="text-[clamp(1.2rem,1.8vw,2.2rem)] font-semibold">{board.cafe.name}</p>
            <h2 id="board-today" className="text-[clamp(2.2rem,4.5vw,5.5rem)] font-extrabold leading-none">
              {t("menuBoard.board.today")}
            </h2>
            <p className="text-[clamp(1.2rem,2vw,2.5rem)] first-letter:uppercase">{longDate(today.date, locale)}</p>
          </div>
          {status}
        </header>
        <DayMenu day={today} t={t} large />
      </section>
      <section
        aria-labelledby="board-week"
        className="flex flex-col gap-4 border-foreground/20 landscape:border-l-2 landscape:pl-8"
      >
        <h2 id="board-week" className="text-[clamp(1.6rem,2.6vw,3rem)] font-bold">
          {t("menuBoard.board.week")}
        </h2>
        <ol className="flex flex-col gap-5">
          {week.map((day) => (
            <li key={day.date} className="flex flex-col gap-2" data-date={day.date}>
              <h3 className="text-[clamp(1.2rem,1.6vw,2rem)] font-bold first-letter:uppercase">
                {shortDate(day.date, locale)}
              </h3>
              {day.services.length === 0 ? (
                <p className="text-[clamp(1.1rem,1.4vw,1.7rem)] text-muted-foreground">
                  {t("menuBoard.board.nothing")}
                </p>
              ) : (
                day.services.map((service) => (
                  <p key={service.id} className="text-[clamp(1.1rem,1.4vw,1.7rem)]">
                    <span className="font-semibold">{service.name}: </span>
                    {service.categories.flatMap((c) => c.dishes.map((d) => d.name)).join(" · ")}
                  </p>
                ))
              )}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
