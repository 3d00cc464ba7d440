/**
 * One main landmark per page. The app and auth layouts hold the page in their <main>; a screen that can show up
 * with or without a layout (the fallbacks for an unknown page and for a page whose code did not load take the
 * layout of the page asked for, and the welcome and error pages have none) renders its root with `PageRoot`,
 * which is the <main> only where no layout gave one.
 */
import { createContext, useContext, type HTMLAttributes } from "react";

export const InsideMain = createContext(false);

export function PageRoot(props: HTMLAttributes<HTMLElement>) {
  return useContext(InsideMain) ? <div {...props} /> : <main id="content" {...props} />;
}
