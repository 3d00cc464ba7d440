/**
 * The menu board as a dining room reads it from across the room: today's menu large (each meal, its categories, each
 * dish with its kcal and allergens), the next six days beside it (under it on a portrait screen). High contrast in
 * both themes. The board fills the box it is given (the whole screen on the public board, a 16:9 preview on the
 * Display page) and sizes its type to that box, not to the window: every meal and dish fits (a column per meal when
 * it can, the type shrinking down to a floor), or the area pages by itself (board-flow.tsx). Each dish's kcal stand in
 * one place: the right-hand column of its first line, whatever the length of the name. Used by the public board
 * (pages/menu/board.tsx) and the signed-in display page (pages/menu/display.tsx).
 */
import type { Board, BoardCategory, BoardDish, BoardService } from "../../../../src/shared/menu/types";
import { translate, type Translate } from "../../../../src/shared/i18n";
import { cn } from "../../lib/utils";
import { FittedFlow, useBoardTick } from "./board-flow";

const intlLocale = (locale: string) => (locale === "en" ? "en-US" : "es-PE");

/** "martes 24 de noviembre" in the board's language (dates are calendar dates: no time zone shift). */
function longDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), {
    weekday: "long",
    day: "numeric",
    month: "long",
    timeZone: "UTC",
  }).format(new Date(`${date}T00:00:00Z`));
}

function shortDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(intlLocale(locale), {
    weekday: "short",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${date}T00:00:00Z`));
}

function Dish({ dish, t, count }: { dish: BoardDish; t: Translate; count: (n: number) => string }) {
  return (
    <li className="grid grid-cols-[minmax(0,1fr)_auto] items-baseline gap-x-[0.75em]" data-testid="board-dish">
      <span className="text-[1.8em] leading-tight font-semibold [overflow-wrap:anywhere]" data-testid="board-dish-name">
        {dish.name}
      </span>
      {/* The kcal column: the same place on every line, empty when the dish has no recipe to count them from. */}
      <span className="text-right text-[1.25em] whitespace-nowrap tabular-nums" data-testid="board-kcal">
        {dish.kcal !== null && t("menuBoard.board.kcal", { kcal: count(dish.kcal) })}
      </span>
      {dish.allergens.length > 0 && (
        <p className="col-span-full text-[1em]">
          <span className="font-semibold">{t("menuBoard.board.allergens")}: </span>
          {dish.allergens.map((a) => a.label).join(", ")}
        </p>
      )}
    </li>
  );
}

function Category({
  category,
  meal,
  t,
  count,
}: {
  category: BoardCategory;
  /** The meal's name, when this category opens a column away from the meal's heading. */
  meal: string | null;
  t: Translate;
  count: (n: number) => string;
}) {
  return (
    <>
      {/* One line always (cut with an ellipsis), so naming the meal never changes the height. */}
      <h4 className="truncate text-[1em] font-semibold tracking-wide text-muted-foreground uppercase">
        {meal ? `${meal} · ${category.name}` : category.name}
      </h4>
      <ul className="mt-[0.2em] flex flex-col gap-[0.4em]">
        {category.dishes.map((dish) => (
          <Dish key={dish.id} dish={dish} t={t} count={count} />
        ))}
      </ul>
    </>
  );
}

function Meal({
  service,
  continued,
  t,
  count,
}: {
  service: BoardService;
  continued: ReadonlySet<string>;
  t: Translate;
  count: (n: number) => string;
}) {
  const [first, ...rest] = service.categories;
  return (
    <section
      aria-label={service.name}
      data-board-group=""
      className="group-data-[mode=columns]/flow:break-before-column group-data-[mode=flow]/flow:not-first:mt-[1.25em]"
    >
      {/* The meal's heading never ends a column alone: it goes with its first category. */}
      <div data-board-block="" className="break-inside-avoid">
        <h3 className="mb-[0.3em] border-b-[0.12em] border-foreground pb-[0.1em] text-[2em] leading-tight font-bold tracking-wide uppercase">
          {service.name}
        </h3>
        {first && <Category category={first} meal={null} t={t} count={count} />}
      </div>
      {rest.map((category) => {
        const key = `${service.id}:${category.id}`;
        return (
          <div key={category.id} data-board-block="" data-board-key={key} className="mt-[0.7em] break-inside-avoid">
            <Category category={category} meal={continued.has(key) ? service.name : null} t={t} count={count} />
          </div>
        );
      })}
    </section>
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
  const numbers = new Intl.NumberFormat(intlLocale(locale));
  const count = (n: number) => numbers.format(n);
  const pageLabel = (page: number, pages: number) => t("menuBoard.board.page", { page, pages });
  const tick = useBoardTick();
  const [today, ...week] = board.days;
  // What the areas measure again on: the dishes and words they show.
  const todaySignature = JSON.stringify([locale, today.services]);
  const weekSignature = JSON.stringify([locale, week.map((d) => d.services.map((s) => s.categories))]);
  return (
    <div
      className={cn("h-full w-full overflow-hidden bg-background text-foreground [container-type:size]", className)}
      data-testid="menu-board"
    >
      <div
        className={cn(
          // The board's own unit: about 20 px on a 1920×1080 screen, in proportion on any other.
          "grid h-full gap-x-[2em] gap-y-[0.75em] p-[1.5em] text-[length:min(1.85cqh,2.2cqw)] leading-snug",
          "grid-cols-[minmax(0,2fr)_minmax(0,1fr)] grid-rows-[auto_minmax(0,1fr)]",
          "[@container(orientation:portrait)]:grid-cols-1",
          "[@container(orientation:portrait)]:grid-rows-[auto_minmax(0,2fr)_minmax(0,1fr)]",
        )}
      >
        <header className="col-span-full flex flex-wrap items-center justify-between gap-x-[1.5em]">
          <p className="text-[1.3em] font-semibold">{board.cafe.name}</p>
          {status}
        </header>
        <section aria-labelledby="board-today" className="flex min-h-0 flex-col">
          {today.services.length === 0 ? (
            <>
              <TodayHeading date={today.date} locale={locale} t={t} />
              <p className="mt-[0.75em] text-[1.8em]">{t("menuBoard.board.nothing")}</p>
            </>
          ) : (
            <FittedFlow
              className="flex-1"
              testId="board-today-area"
              heading={<TodayHeading date={today.date} locale={locale} t={t} />}
              groups={today.services.length}
              minFit={0.7}
              maxFit={1.4}
              minColumnEm={16}
              tick={tick}
              signature={todaySignature}
              pageLabel={pageLabel}
            >
              {(continued) =>
                today.services.map((service) => (
                  <Meal key={service.id} service={service} continued={continued} t={t} count={count} />
                ))
              }
            </FittedFlow>
          )}
        </section>
        <section
          aria-labelledby="board-week"
          className={cn(
            "flex min-h-0 flex-col border-l-2 border-foreground/20 pl-[2em]",
            // On a portrait screen the week goes under today. (Class names written out whole: Tailwind reads them.)
            "[@container(orientation:portrait)]:border-t-2 [@container(orientation:portrait)]:border-l-0",
            "[@container(orientation:portrait)]:pt-[0.75em] [@container(orientation:portrait)]:pl-0",
          )}
        >
          <FittedFlow
            className="flex-1"
            testId="board-week-area"
            heading={
              <h2 id="board-week" className="text-[1.8em] leading-tight font-bold">
                {t("menuBoard.board.week")}
              </h2>
            }
            groups={0}
            minFit={0.7}
            minColumnEm={14}
            tick={tick}
            signature={weekSignature}
            pageLabel={pageLabel}
          >
            {() => (
              <ol>
                {week.map((day) => (
                  <li
                    key={day.date}
                    data-board-block=""
                    data-date={day.date}
                    className="break-inside-avoid not-first:mt-[0.9em]"
                  >
                    <h3 className="text-[1.25em] font-bold first-letter:uppercase">{shortDate(day.date, locale)}</h3>
                    {day.services.length === 0 ? (
                      <p className="text-muted-foreground">{t("menuBoard.board.nothing")}</p>
                    ) : (
                      day.services.map((service) => (
                        <p key={service.id}>
                          <span className="font-semibold">{service.name}: </span>
                          {service.categories.flatMap((c) => c.dishes.map((d) => d.name)).join(" · ")}
                        </p>
                      ))
                    )}
                  </li>
                ))}
              </ol>
            )}
          </FittedFlow>
        </section>
      </div>
    </div>
  );
}

function TodayHeading({ date, locale, t }: { date: string; locale: string; t: Translate }) {
  return (
    <div className="flex flex-wrap items-baseline gap-x-[0.6em]">
      <h2 id="board-today" className="text-[2.8em] leading-none font-extrabold">
        {t("menuBoard.board.today")}
      </h2>
      <p className="text-[1.5em] first-letter:uppercase">{longDate(date, locale)}</p>
    </div>
  );
}
