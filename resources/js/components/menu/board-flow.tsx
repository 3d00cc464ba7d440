/**
 * How the menu board fits its screen. A board area (today's meals, the week) is a box of fixed size whose content
 * flows in newspaper columns (CSS multi-column, filled one column after the other). The board measures it and takes
 * the largest type that shows everything at once: first one column per meal (when there are two or three of them),
 * else the content flowing through one, two or three columns, the type shrinking step by step down to a floor that is
 * still read from across the dining room. What does not fit even then is shown a page at a time: the columns that do
 * not fit stand to the right of the box, and the board moves on to them by itself every PAGE_SECONDS, round and
 * round, saying which page it shows. Nothing is ever cut or hidden for good.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { cn } from "../../lib/utils";
import { PAGE_SECONDS } from "./board-paging";

/** The type is shrunk in these steps, from the area's largest scale (1: the board's own size) down to its floor. */
const FIT_STEP = 0.05;

/** Counts pages' turns: every PAGE_SECONDS on the client, from 0; every area shows its page `tick % pages`. */
export function useBoardTick(): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), PAGE_SECONDS * 1000);
    return () => clearInterval(timer);
  }, []);
  return tick;
}

interface Layout {
  /** "columns": each group (a meal) starts a column of its own; "flow": the content runs on from column to column. */
  mode: "columns" | "flow";
  columns: number;
  /** The type's scale, 1 down to the area's floor. */
  fit: number;
  pages: number;
  /** How far one page is from the next (px): the box's width and one column gap. */
  pageWidth: number;
  /** Blocks at the top of a column whose group's heading is in an earlier column (they name their group). */
  continued: string[];
  /** False until the browser has measured the area (the server's first layout is a guess). */
  measured: boolean;
}

const sameLayout = (a: Layout, b: Layout) =>
  a.mode === b.mode &&
  a.columns === b.columns &&
  a.fit === b.fit &&
  a.pages === b.pages &&
  a.pageWidth === b.pageWidth &&
  a.measured === b.measured &&
  a.continued.join() === b.continued.join();

/**
 * The first layout, the same on the server and in the browser (the measuring happens once the page is live): one
 * column per group when there are two or three, else one column.
 */
function initialLayout(groups: number): Layout {
  const columns = groups >= 2 && groups <= 3 ? groups : 1;
  return {
    mode: groups >= 2 && groups <= 3 ? "columns" : "flow",
    columns,
    fit: 1,
    pages: 1,
    pageWidth: 0,
    continued: [],
    measured: false,
  };
}

/**
 * One board area that fits its box (see the file's comment). Its blocks are `children`: each element that must not
 * be split carries `data-board-block` (and `data-board-key` when it may need to name its group), and each group (a
 * meal) is an element with `data-board-group`.
 */
export function FittedFlow({
  children,
  groups,
  minFit,
  maxFit = 1,
  minColumnEm,
  tick,
  signature,
  pageLabel,
  heading,
  className,
  testId,
}: {
  children: (continued: ReadonlySet<string>) => ReactNode;
  /** How many groups the content has (meals): two or three get a column each when that fits. */
  groups: number;
  /** The smallest scale of the type before the area pages. */
  minFit: number;
  /** The largest scale: a short menu is shown larger than the board's own size, up to this. */
  maxFit?: number;
  /** A column is never narrower than this many ems of the area's type (so at most width ÷ this columns, up to 3). */
  minColumnEm: number;
  tick: number;
  /** Changes whenever the content does, so the area measures again. */
  signature: string;
  /** The words of the page indicator ("Página 1 de 2"). */
  pageLabel: (page: number, pages: number) => string;
  /** The area's heading; the page indicator stands beside it. */
  heading: ReactNode;
  className?: string;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const flow = useRef<HTMLDivElement>(null);
  const [layout, setLayout] = useState<Layout>(() => initialLayout(groups));
  const tickNow = useRef(tick);
  tickNow.current = tick;

  const apply = useCallback((el: HTMLDivElement, l: Pick<Layout, "mode" | "columns" | "fit">) => {
    el.style.setProperty("--board-fit", String(l.fit));
    el.style.columnCount = String(l.columns);
    el.dataset.mode = l.mode;
  }, []);

  const measure = useCallback(() => {
    const outer = box.current;
    const inner = flow.current;
    if (!outer || !inner) return;
    // Fractions of a pixel count: a page is exactly as wide as its columns, or the later pages drift.
    const { width, height } = outer.getBoundingClientRect();
    if (width === 0 || height === 0) return;
    const em = parseFloat(getComputedStyle(outer).fontSize) || 16;
    const maxColumns = Math.max(1, Math.min(3, Math.floor(width / (minColumnEm * em))));
    const blocks = () => [...inner.querySelectorAll<HTMLElement>("[data-board-block]")];
    // Measured on the first page; the page shown is put back below.
    inner.style.transform = "none";
    // A block taller than a column spills below the box instead of into the next column.
    const overflowsDown = () => {
      const frame = inner.getBoundingClientRect();
      return blocks().some((b) => b.getBoundingClientRect().bottom > frame.bottom + 1);
    };
    const overflows = () => {
      const frame = inner.getBoundingClientRect();
      return blocks().some((b) => {
        const r = b.getBoundingClientRect();
        return r.right > frame.right + 1 || r.bottom > frame.bottom + 1;
      });
    };
    const candidates: Pick<Layout, "mode" | "columns">[] = [];
    if (groups >= 2 && groups <= maxColumns) candidates.push({ mode: "columns", columns: groups });
    for (let columns = 1; columns <= maxColumns; columns++) candidates.push({ mode: "flow", columns });
    const steps: number[] = [];
    for (let fit = maxFit; fit >= minFit - 1e-9; fit -= FIT_STEP) steps.push(Math.round(fit * 100) / 100);
    // The largest type any candidate fits with; the earlier candidate (a column per meal, fewer columns) on a tie.
    let best: Pick<Layout, "mode" | "columns" | "fit"> | null = null;
    for (const candidate of candidates) {
      for (const fit of steps) {
        if (best && fit <= best.fit) break;
        apply(inner, { ...candidate, fit });
        if (!overflows()) {
          best = { ...candidate, fit };
          break;
        }
      }
    }
    // The gap between columns, in the type's size (so it changes with the scale).
    const gapNow = () => parseFloat(getComputedStyle(inner).columnGap) || 0;
    // Pages the content takes as laid out now: the columns it fills, a box's width of them per page.
    const pagesNow = (columns: number) => {
      const frame = inner.getBoundingClientRect();
      const gap = gapNow();
      const columnWidth = (width - (columns - 1) * gap) / columns;
      const right = Math.max(...blocks().map((b) => b.getBoundingClientRect().right), frame.right);
      const used = Math.max(1, Math.round((right - frame.left + gap) / (columnWidth + gap)));
      return Math.max(1, Math.ceil(used / columns));
    };
    let chosen: Pick<Layout, "mode" | "columns" | "fit"> = best ?? { mode: "flow", columns: maxColumns, fit: minFit };
    let pages = 1;
    if (!best) {
      // Paging: as few pages as the smallest type needs, with the largest type that still needs no more.
      apply(inner, chosen);
      pages = pagesNow(maxColumns);
      for (const fit of steps) {
        if (fit <= minFit) break;
        apply(inner, { ...chosen, fit });
        if (!overflowsDown() && pagesNow(maxColumns) <= pages) {
          chosen = { ...chosen, fit };
          break;
        }
      }
    }
    apply(inner, chosen);
    const frame = inner.getBoundingClientRect();
    const gap = gapNow();
    // A block at the top of a column, away from its group's heading, names its group (on the same line: no reflow).
    const continued = blocks()
      .filter((b) => b.dataset.boardKey && b.getBoundingClientRect().top - frame.top < 2)
      .map((b) => b.dataset.boardKey!)
      .sort();
    const next: Layout = { ...chosen, pages, pageWidth: width + gap, continued, measured: true };
    inner.style.transform = shift(tickNow.current % pages, next.pageWidth) ?? "";
    setLayout((current) => (sameLayout(current, next) ? current : next));
  }, [apply, groups, maxFit, minColumnEm, minFit]);

  // Measured again when the content changes, the box is resized, or the fonts have loaded.
  useLayoutEffect(() => {
    measure();
  }, [measure, signature]);
  useEffect(() => {
    const outer = box.current;
    if (!outer) return;
    const observer = new ResizeObserver(() => measure());
    observer.observe(outer);
    let live = true;
    void document.fonts?.ready.then(() => live && measure());
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [measure]);

  const page = layout.pages > 1 ? tick % layout.pages : 0;
  const continued = new Set(layout.continued);
  return (
    <div className={cn("flex min-h-0 flex-col gap-[0.75em]", className)} data-testid={testId}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-[1em]">
        {heading}
        {layout.pages > 1 && (
          <p className="text-[1.1em] font-semibold tabular-nums" data-testid="board-page">
            {pageLabel(page + 1, layout.pages)}
          </p>
        )}
      </div>
      <div ref={box} className="relative min-h-0 flex-1 overflow-hidden">
        <div
          ref={flow}
          className="group/flow absolute inset-0 gap-x-[1.5em] text-[length:calc(var(--board-fit)*1em)] [column-fill:auto]"
          data-mode={layout.mode}
          data-measured={layout.measured || undefined}
          data-pages={layout.pages}
          data-page={page + 1}
          style={
            {
              "--board-fit": String(layout.fit),
              columnCount: layout.columns,
              transform: shift(page, layout.pageWidth),
            } as CSSProperties
          }
        >
          {children(continued)}
        </div>
      </div>
    </div>
  );
}

/** The transform that shows page `page` (from 0) of an area whose pages are `pageWidth` apart. */
function shift(page: number, pageWidth: number): string | undefined {
  return page > 0 ? `translateX(${-page * pageWidth}px)` : undefined;
}
