/**
 * The one header of every page: the title (the page's h1), a line saying what the page is for, the page's actions
 * on the right (they wrap under the title on a phone), and tabs below when the page has sections. Something small
 * above the title (a back link, a code) goes in `eyebrow`. Pages in a card (sign-in) or alone (errors) centre it.
 */
import type { ReactNode } from "react";
import { cn } from "../../lib/utils";

export function PageHeader({
  title,
  description,
  actions,
  tabs,
  eyebrow,
  level = 1,
  align = "start",
  size = "default",
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons and links for the whole page (Export, New…), the main one last. */
  actions?: ReactNode;
  /** A TabList or tab links, shown under the title. */
  tabs?: ReactNode;
  eyebrow?: ReactNode;
  /** 2 inside a layout that already shows the page's h1 (the settings sections). */
  level?: 1 | 2;
  align?: "start" | "center";
  /** "large" for the landing page, "small" in a card (sign-in). */
  size?: "small" | "default" | "large";
  className?: string;
}) {
  const Heading = level === 1 ? "h1" : "h2";
  const centered = align === "center";
  return (
    <header className={cn("space-y-4", className)} data-testid="page-header">
      <div
        className={cn(
          "flex flex-wrap gap-x-4 gap-y-3",
          centered ? "flex-col items-center text-center" : "items-end justify-between",
        )}
      >
        <div className={cn("min-w-0 space-y-1", centered ? "flex flex-col items-center" : "flex-1 basis-72")}>
          {eyebrow}
          <Heading
            className={cn(
              "font-semibold tracking-tight",
              size === "large"
                ? "text-4xl font-bold md:text-5xl"
                : size === "small" || level === 2
                  ? "text-xl"
                  : "text-2xl",
            )}
          >
            {title}
          </Heading>
          {description && (
            <p className={cn("max-w-3xl text-muted-foreground", size === "large" ? "text-lg" : "text-sm")}>
              {description}
            </p>
          )}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2 sm:justify-end">{actions}</div>}
      </div>
      {tabs}
    </header>
  );
}
