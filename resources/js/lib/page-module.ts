import type { ComponentType } from "react";

/** What a file under resources/js/pages exports: the page component as default. */
export interface PageModule {
  default: ComponentType<any>;
}
